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
