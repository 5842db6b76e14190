package par

import (
	"sync/atomic"

	"github.com/weftgo/weft/internal/sched"
)

// Spawner is the handle of a scope: it starts tasks that all finish before
// the Scope call that made it returns. It may be used from any goroutine while
// the scope is open.
type Spawner struct {
	latch sched.CountLatch
	pool  *sched.Pool
	call  uint64 // the scope's top-level call, whose waiting caller runs the tasks Go queues
	// failure holds the first panic of a task or of the scope's body; once
	// set, tasks not yet started are skipped.
	failure atomic.Pointer[sched.Panic]
	// ended is set once every task has finished and Scope is returning, so
	// that a task started later panics instead of running unwaited for.
	ended atomic.Bool
}

// Scope calls f with a scope and a worker handle, and returns when f and every
// task spawned in the scope, directly or by other tasks, have returned; it is
// the fork-join of a number of tasks known only as they appear (a tree walk, a
// graph search). Writes made by every task happen before Scope returns. While
// it waits, the calling goroutine runs tasks itself.
//
// If f or a task panics, tasks not yet started are skipped, the others are
// waited for, and Scope panics with the first panic's original value.
func Scope(f func(s *Spawner, w *Worker), opts ...Option) {
	if f == nil {
		panic("par: Scope: f is nil")
	}
	c := configure(opts)
	c.run(func(w *sched.Worker) {
		s := &Spawner{pool: w.Pool(), call: w.Call()}
		s.latch.Init(w)
		func() {
			normal := false
			defer func() {
				if !normal {
					s.fail(recover())
				}
				s.latch.Done(w) // the body's own part
			}()
			f(s, handle(w))
			normal = true
		}()
		w.Wait(&s.latch.Job)
		// Read by Spawn and Go of a handle kept past the scope.
		s.ended.Store(true)
		if p := s.failure.Load(); p != nil { // every part's record happens before the latch opens
			p.Repanic()
		}
	})
}

// spawnJob is a task of a scope.
type spawnJob struct {
	sched.Job
	s *Spawner
	f func(w *Worker)
}

func runSpawn(w *sched.Worker, j *sched.Job) {
	t := sched.Payload[spawnJob](j)
	s, f := t.s, t.f
	normal := false
	defer func() {
		if !normal {
			s.fail(recover())
		}
		t.s, t.f = nil, nil
		sched.Free(w, t) // the runner of a detached task is its last user; w reuses it only after this job ends
		s.latch.Done(w)
	}()
	if s.failure.Load() == nil {
		f(handle(w))
	}
	normal = true
}

// fail records the first failure of the scope: what recover returned in the
// deferred call of a part that did not return normally (nil for a
// runtime.Goexit). The panic keeps the stack where it began, which a crash
// prints when Scope raises it again (see sched.Panic.Repanic).
func (s *Spawner) fail(r any) {
	if s.failure.Load() != nil {
		return // only the first one is kept, and the stack costs microseconds
	}
	s.failure.CompareAndSwap(nil, sched.Recovered(r))
}

// Spawn starts f as a task of the scope, pushed on the deque of w, the handle
// of the calling function (the scope's body or a task): w runs it later unless
// an idle worker steals it first. It is the cheap way to spawn from inside the
// scope, costing a push. w must be the handle given to the calling function.
// Spawn panics if s, w or f is nil, or if s's scope has ended.
func (s *Spawner) Spawn(w *Worker, f func(w *Worker)) {
	s.check("Spawn")
	if w == nil {
		panic("par: Spawner.Spawn: w is nil")
	}
	if f == nil {
		panic("par: Spawner.Spawn: f is nil")
	}
	sw := w.sched()
	t := sched.Alloc[spawnJob](sw)
	t.s, t.f = s, f
	t.Init(nil, runSpawn)
	s.latch.Add() // before the push: the count cannot reach zero while t is pending
	sw.Push(&t.Job)
}

// Go starts f as a task of the scope from any goroutine, through the pool's
// shared queue: slower than Spawn, and the tasks start in the order they were
// queued. Use it where no worker handle is at hand. Go panics if s or f is
// nil, or if s's scope has ended.
func (s *Spawner) Go(f func(w *Worker)) {
	s.check("Go")
	if f == nil {
		panic("par: Spawner.Go: f is nil")
	}
	t := &spawnJob{s: s, f: f}
	t.Init(nil, runSpawn)
	t.SetCall(s.call)
	s.latch.Add()
	s.pool.Inject(&t.Job)
}

// check panics if s is nil or its scope has ended: a handle kept past its
// Scope would start a task that nothing waits for.
func (s *Spawner) check(method string) {
	if s == nil {
		panic("par: Spawner." + method + ": s is nil")
	}
	if s.ended.Load() { // set after the last task of the scope finished
		panic("par: Spawner." + method + ": the scope has ended")
	}
}
