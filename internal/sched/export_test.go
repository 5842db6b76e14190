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

// Len returns how many jobs w's deque holds.
func (w *Worker) Len() int { return w.dq.Len() }
