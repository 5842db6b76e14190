package sched

import (
	"sync/atomic"
	"unsafe"

	"github.com/weftgo/weft/internal/carry"
)

// Job is the header of every task a deque holds: a fork's record (Rec), a
// task of a scope or a pass (Spawn, Inject), a scope's latch (Scope). A task
// type embeds Job as its first field, so that a *Job and a pointer to the
// task are the same address (see payload).
//
// The fields are grouped by who may touch them when.
type Job struct {
	// Written by the owner before the job is pushed; read by whoever runs it.
	run   func(w *Worker, j *Job)
	owner *Worker // the worker that waits for the job, or nil if none waits

	// done is set once, by whoever ran the job, after panic is written; the
	// owner reads panic only after it sees done.
	done  atomic.Bool
	panic *carry.Panic

	// next links the owner's free list; touched by the owner only.
	next *Job

	// stack and place say where a fork record lives in its owner's recordStack
	// (nil for a record that is not cached); set once, read by the owner only.
	stack *recordStack
	place int
	// forking is set from the fork's start (Fork, Record) until it ends
	// (Rec.Join, Rec.End); owner only.
	forking bool
	// pushed is set while a record of a recursion is promoted (see fork.go);
	// owner only.
	pushed bool
	// kind is the record's kind of fork (forkPushed, ...); owner only.
	kind uint8

	// call is the top-level call the job belongs to (0: none), set by the
	// worker that pushes it (push), or by inject. A waiting
	// caller takes only jobs of its own call (wait). Atomic because a
	// waiting caller reads it before it owns the job, racing the reuse of a
	// record it read from a stale deque slot; what it decides then is undone
	// by its failed CAS.
	call atomic.Uint64
}

// setCall tags j as a job of call. Before j is pushed or injected.
func (j *Job) setCall(call uint64) {
	if j.call.Load() != call { // a reused record usually has it already: spare the store
		j.call.Store(call)
	}
}

// init prepares j to run fn with owner waiting for it. Owner only, before the
// job is pushed. A nil fn keeps the job's function.
func (j *Job) init(owner *Worker, fn func(w *Worker, j *Job)) {
	if fn != nil {
		j.run = fn
	}
	j.owner = owner
	j.panic = nil
	// done is false: fresh records are zero, and whoever saw a record done
	// resets it before reuse (see wait), which keeps a fence off the fork path.
}

// payload returns the task of type T whose first field is j. The caller
// guarantees that j was embedded in a T.
func payload[T any](j *Job) *T { return (*T)(unsafe.Pointer(j)) }

// execute runs a stolen or injected job on w and sets its latch. A panic in the
// job is recovered and stored for the owner. If the job calls runtime.Goexit,
// the latch is still set, with Goexit recorded, while the goroutine unwinds.
// Worker w's goroutine only.
func (w *Worker) execute(j *Job) {
	w.local.tasks++
	outer := w.call
	w.call = j.call.Load() // what j forks belongs to j's call
	fk, nb := w.takeForks(j.owner != w)
	normal := false
	defer func() {
		if normal {
			return
		}
		w.dropForks(fk, nb)
		w.call = outer
		j.panic = carry.Recovered(recover())
		w.complete(j)
	}()
	j.run(w, j)
	normal = true
	w.dropForks(fk, nb)
	w.call = outer
	w.complete(j)
}

// complete marks j done and wakes its owner if the owner sleeps waiting.
func (w *Worker) complete(j *Job) { finish(w, j) }

// finish marks j done, on behalf of worker by (nil if none), and wakes j's
// owner if it sleeps waiting. j must not be touched after: its owner may
// reuse it at once.
func finish(by *Worker, j *Job) {
	owner := j.owner
	j.done.Store(true) // hands every write of the job, and j.panic, to the owner
	if owner != nil && owner != by {
		owner.unpark(wakeLatch) // loads owner.asleep after the store above: no lost wake-up
	}
}

// freeList is a worker's cache of finished jobs of one type. Owner only.
type freeList struct {
	head *Job
	n    int
}

// maxFree bounds a free list: a worker that runs more detached tasks than it
// makes would otherwise hoard their records.
const maxFree = 256

func (f *freeList) pop() *Job {
	j := f.head
	if j != nil {
		f.head = j.next
		j.next = nil
		f.n--
	}
	return j
}

func (f *freeList) push(j *Job) {
	if f.n >= maxFree {
		return
	}
	j.next = f.head
	f.head = j
	f.n++
}
