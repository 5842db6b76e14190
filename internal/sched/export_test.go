package sched

import "unsafe"

// SetParkHook installs f to run in every park between the asleep mark and
// the recheck; nil removes it.
func SetParkHook(f func(w *Worker)) {
	if f == nil {
		parkHook.Store(nil)
		return
	}
	parkHook.Store(&f)
}

// Sleeping returns how many pool workers are parked.
func (p *Pool) Sleeping() int { return int(p.idle.Load() >> 32) }

// Searching returns how many pool workers are searching.
func (p *Pool) Searching() int { return int(uint32(p.idle.Load())) }

// IsPool reports whether w is one of the pool's own workers.
func (w *Worker) IsPool() bool { return w.isPool }

// Fork pushes j, runs a, and then syncs with j, as Join does with its own
// record: it reports true if j came back unrun, and the caller must then do
// j's work itself; false if a thief ran j, whose panic, if any, it re-raises.
// If a panics, Fork takes j back or waits for its thief first. j must be
// initialized with w as its owner.
func (w *Worker) Fork(j *Job, a func(w *Worker)) (inline bool) {
	w.Push(j)
	ok := false
	defer func() {
		if !ok {
			w.Abandon(j)
		}
	}()
	a(w)
	ok = true
	return w.Finish(j)
}

// FillTypeCache gives every free slot of w's record cache to a type that no
// job has, as a program that has used many types of call leaves it.
func (w *Worker) FillTypeCache() {
	for i := range w.cache.keys {
		if w.cache.keys[i] == nil {
			w.cache.keys[i] = unsafe.Pointer(&otherTypes[i])
		}
	}
}

var otherTypes [16]byte

// ClaimForeign claims the slot of w's record cache where recType's records
// go for a type no job has, as claim would for a new type of call, and
// reports whether it got it.
func ClaimForeign[T any](w *Worker, evict bool) bool {
	want := slot(typeKey[T]())
	for i := range foreign {
		if k := unsafe.Pointer(&foreign[i]); slot(k) == want {
			return w.cache.claim(k, evict) >= 0
		}
	}
	panic("no foreign key for the slot")
}

var foreign [1 << 12]byte
