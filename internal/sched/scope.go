package sched

import "sync/atomic"

// Detached tasks: the tasks of a scope, which nothing joins one by one, and
// those of a pass over a sequence. A scope's tasks are started by Spawn
// (pushed on the spawning worker's deque) or Inject (through the pool's
// injection queue, from any goroutine), and its owner waits for all of them
// at once (Scope.Wait); a pass's tasks are injected with no scope, and the
// pass keeps its own count of them.
//
//	var s sched.Scope // in the caller's frame or state
//	s.Open(w)
//	sched.Spawn(w, &s, task{...}) // *task has Run(w); it calls s.Done(w) when it ends
//	s.Done(w)                     // the owner's own part
//	s.Wait(w)
//
// A task ends its part itself (Scope.Done), rather than when its Run
// returns, so that a task may hand its part on to another (package par's
// Group defers a task past its limit to one that is running).

// Scope is the fork-join of a dynamic number of tasks: a latch that opens
// when its count of outstanding parts drops to zero. The count starts at
// one, for the owner's own part (Open); every task adds one before it is
// pushed or injected (Spawn, Inject) and takes it off when it ends (Done).
// The owner takes its one off when its part ends and then waits (Wait).
type Scope struct {
	Job
	n    atomic.Int64 // outstanding parts; the one that brings it to zero opens the latch
	call uint64       // the owner's call, which Inject tags the tasks with; set by Open
}

// Open prepares s for owner w, with a count of one, the owner's part.
// Owner only.
func (s *Scope) Open(w *Worker) {
	s.Job.init(w, nil)
	s.call = w.call
	s.n.Store(1) // published with the first task's push or injection
}

// Done takes one part off, opening the latch if it was the last. by is the
// worker finishing the part, or nil from outside any worker. Any goroutine.
func (s *Scope) Done(by *Worker) {
	if s.n.Add(-1) == 0 { // every part's writes happen before this point of the count
		finish(by, &s.Job)
	}
}

// Wait runs other work on w until every part of s has ended (see
// Worker.wait): the tasks of s that w's deque still holds, then, for a seat,
// the other tasks of its call, and for a pool worker any task. Every part's
// writes happen before Wait returns. Owner only, once its own part is done.
func (s *Scope) Wait(w *Worker) { w.wait(&s.Job) }

// add counts one more part. Called by a part already counted (the owner's,
// or a running task's) before the new task is pushed or injected, so the
// count cannot reach zero in between. Any goroutine.
func (s *Scope) add() { s.n.Add(1) }

// Detached is a detached task of type T: the worker that takes it, or its
// spawner, calls Run with the worker it runs on.
type Detached[T any] interface {
	*T
	Run(w *Worker)
}

// taskHead is what every detached task's record holds ahead of its value:
// runDetached, one function for every type of task, reaches the record's own
// methods through self.
type taskHead struct {
	Job
	self interface {
		run(w *Worker)
		end(w *Worker)
	} // the record itself, set with it: a pointer in an interface, no allocation
	keep bool // a scope's: given back to the runner's cache once it has run
}

// task is the record of a detached task whose value is v.
type task[T any, P Detached[T]] struct {
	taskHead
	v T
}

func (t *task[T, P]) run(w *Worker) { P(&t.v).Run(w) }

// end clears t's value, so that nothing it held outlives the task, and
// gives t back to w's cache: nobody else reaches it once it has run.
func (t *task[T, P]) end(w *Worker) {
	var zero T
	t.v = zero
	free(w, t)
}

// newTask returns a record for v, from w's cache of detached records of
// its type if w is not nil (see alloc), with its header set.
func newTask[T any, P Detached[T]](w *Worker, v T) *task[T, P] {
	var t *task[T, P]
	if w != nil {
		t = alloc[task[T, P]](w)
	} else {
		t = new(task[T, P])
	}
	t.v = v
	if t.self == nil { // fresh: a reused record keeps it
		t.self = t
	}
	t.Job.init(nil, runDetached)
	return t
}

// Spawn starts v as a task of s, pushed on the deque of w: w runs it later,
// unless a thief takes it first. Owner of w only, from a part of s already
// counted (its owner's, or a running task's).
func Spawn[T any, P Detached[T]](w *Worker, s *Scope, v T) {
	t := newTask[T, P](w, v)
	t.keep = true
	s.add() // before the push: the count cannot reach zero while t is pending
	w.push(&t.Job, true)
}

// Inject starts v as a task through the injection queue of p; a worker
// runs it soon. With a scope s, the task is one of s's parts and of s's
// call, whose waiting owner may run it too (Scope.Wait); with s nil, it
// belongs to no call, and only p's own workers run it. Any goroutine, from
// a part of s already counted.
func Inject[T any, P Detached[T]](p *Pool, s *Scope, v T) {
	t := newTask[T, P](nil, v)
	var call uint64
	if s != nil {
		t.keep = true
		s.add()
		call = s.call
	}
	p.injectJob(&t.Job, call)
}

// runDetached runs a detached task on w. A scope's task gives its record back
// to w's cache once its Run has returned. One that panicked or called
// runtime.Goexit (package par's tasks recover their panics) leaves its
// record to the collector.
func runDetached(w *Worker, j *Job) {
	t := payload[taskHead](j)
	t.self.run(w)
	if t.keep {
		t.self.end(w)
	}
}
