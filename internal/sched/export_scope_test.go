package sched

// The job primitives under Fork, Spawn and Inject, for the scheduler's own
// tests: push, wait, a job's init, the record cache's alloc and free,
// payload and inject.

func (w *Worker) Push(j *Job)                                 { w.push(j, true) }
func (w *Worker) Wait(j *Job)                                 { w.wait(j) }
func (j *Job) Init(owner *Worker, fn func(w *Worker, j *Job)) { j.init(owner, fn) }
func Alloc[T any](w *Worker) *T                               { return alloc[T](w) }
func Free[T any](w *Worker, t *T)                             { free(w, t) }
func Payload[T any](j *Job) *T                                { return payload[T](j) }
func (p *Pool) Inject(j *Job, call uint64)                    { p.injectJob(j, call) }

// Len returns how many jobs w's deque holds that no thief has taken.
func (w *Worker) Len() int { return w.dq.Len() }

// Sleeping returns how many pool workers are parked, or about to park
// (split.Load.Parked).
func (p *Pool) Sleeping() int { return p.sleeping() }
