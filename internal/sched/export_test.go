package sched

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
