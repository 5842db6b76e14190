package sched

import (
	"sync/atomic"
)

// CountLatch is a latch that opens when a count of outstanding work drops to
// zero: the fork-join of a dynamic number of tasks (a scope). The count starts
// at one, for the owner's own part; every spawned task adds one before it is
// pushed and takes it off when it ends. The owner takes its one off when its
// part ends and then waits with Worker.Wait(&l.Job).
type CountLatch struct {
	Job
	n atomic.Int64 // outstanding parts; the one that brings it to zero opens the latch
}

// Init prepares l for owner, with a count of one. Owner only.
func (l *CountLatch) Init(owner *Worker) {
	l.Job.Init(owner, nil)
	l.n.Store(1) // published with the first spawned job's push
}

// Add counts one more part. Called by a part already counted (the owner's,
// or a running task's) before it pushes the new task, so the count cannot
// reach zero in between. Any goroutine.
func (l *CountLatch) Add() { l.n.Add(1) }

// Done takes one part off, opening the latch if it was the last. by is the
// worker finishing the part, or nil from outside any worker. Any goroutine.
func (l *CountLatch) Done(by *Worker) {
	if l.n.Add(-1) == 0 { // every part's writes happen before this point of the count
		finish(by, &l.Job)
	}
}

// Task is a job submitted from outside any call, with a channel that is closed
// when it has run, for a goroutine that waits for it without a worker.
type Task struct {
	Job
	f    func(w *Worker)
	done chan struct{}
	p    *Panic
}

func runTask(w *Worker, j *Job) {
	t := Payload[Task](j)
	normal := false
	defer func() {
		if !normal {
			t.p = Recovered(recover())
		}
		close(t.done) // hands t.p and every write of f to the waiter
	}()
	t.f(w)
	normal = true
}

// Spawn queues f to run on one of p's workers and returns the task, which the
// caller may wait for. f runs soon, before work submitted later from outside
// the pool, but with no guarantee of order against the tasks of calls. It
// panics with ErrClosed if p is closed. Any goroutine.
func (p *Pool) Spawn(f func(w *Worker)) *Task {
	if !p.enter() {
		panic(ErrClosed)
	}
	defer p.leave() // after the push: a worker of a closing pool sees the job before the count drops
	t := &Task{f: f, done: make(chan struct{})}
	t.Job.Init(nil, runTask)
	p.Inject(&t.Job)
	return t
}

// Finished returns a channel that is closed when t has run. Any goroutine.
func (t *Task) Finished() <-chan struct{} { return t.done }

// Wait blocks until t has run and re-raises its panic, if it had one, on the
// calling goroutine. Any goroutine.
func (t *Task) Wait() {
	<-t.done
	if t.p != nil {
		t.p.Repanic()
	}
}

// Panicked returns what t panicked with, or nil; only after t has finished.
func (t *Task) Panicked() *Panic { return t.p }
