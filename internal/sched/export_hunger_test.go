package sched

// Asleep reports whether w is parked or about to park. Any goroutine.
func (w *Worker) Asleep() bool { return w.asleep.Load() }

// Waiting returns how many participants wait in Wait with nothing to run.
func (p *Pool) Waiting() int { return int(p.waiting.Load()) }
