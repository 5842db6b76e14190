package par

import (
	"sync/atomic"

	"github.com/weftgo/weft/internal/carry"
	"github.com/weftgo/weft/internal/sched"
)

// Spawner is the handle of a scope: it starts tasks that all finish before
// the Scope call that made it returns. It may be used from any goroutine while
// the scope is open.
type Spawner struct {
	scopeTasks // once failure is set, tasks not yet started are skipped
}

// scopeTasks is what the handles of Scope and ScopeErr (Spawner, Group)
// share: the count of the scope's parts still to finish, the pool into
// which Go queues a task, the first panic, and whether the scope has ended.
type scopeTasks struct {
	latch sched.Scope
	pool  *sched.Pool
	// failure holds the first panic (or runtime.Goexit) of a task or of the
	// scope's body.
	failure atomic.Pointer[carry.Panic]
	// ended is set once every task has finished and the scope is returning,
	// so that a task started later panics instead of running unwaited for.
	ended atomic.Bool
}

// check panics if the handle (c, named recv in messages) is nil, if its
// scope has ended (a handle kept past its scope would start a task that
// nothing waits for), if w is nil or not the calling goroutine's for a
// Spawn, or if the task is nil
// (noTask). method names the call, such as "Spawner.Spawn". Any goroutine.
func (c *scopeTasks) check(method, recv string, spawn bool, w *Worker, noTask bool) {
	switch {
	case c == nil:
		panic("par: " + method + ": " + recv + " is nil")
	case c.ended.Load(): // set after the last task of the scope finished
		panic("par: " + method + ": the scope has ended")
	case spawn && w == nil:
		panic("par: " + method + ": w is nil")
	case spawn && !w.sched().Mine(): // a push from a goroutine that does not own the deque would corrupt it
		panic(foreignMessage(method, "w"))
	case noTask:
		panic("par: " + method + ": f is nil")
	}
}

// recordPanic records the first panic of the scope: what recover returned in
// the deferred call of a part that did not return normally (nil for a
// runtime.Goexit). The panic keeps the stack where it began, which a crash
// prints when the scope raises it again (see carry.Panic.Repanic). Any
// goroutine, in that deferred call.
func (c *scopeTasks) recordPanic(r any) {
	if c.failure.Load() != nil {
		return // only the first one is kept, and the stack costs microseconds
	}
	c.failure.CompareAndSwap(nil, carry.Recovered(r))
}

// bodyFailed ends the scope's own part on the caller's seat w after its body
// did not return normally, r being what recover returned there, recorded
// already. A panic goes on to the scope's wait; runtime.Goexit, which cannot
// be stopped, waits here for the started tasks before it unwinds on.
func (c *scopeTasks) bodyFailed(w *sched.Worker, r any) {
	c.latch.Done(w)
	if r == nil {
		c.await(w)
	}
}

// await runs tasks on the caller's seat w until every part of the scope has
// returned. A task run here that calls runtime.Goexit unwinds the caller's
// goroutine through it: the rest are still waited for before it goes on.
func (c *scopeTasks) await(w *sched.Worker) {
	done := false
	defer func() {
		if !done {
			c.await(w)
		}
	}()
	c.latch.Wait(w)
	c.ended.Store(true) // read by Spawn and Go of a handle kept past the scope
	done = true
}

// tasks returns s's tasks, or nil for a nil s, for check.
func (s *Spawner) tasks() *scopeTasks {
	if s == nil {
		return nil
	}
	return &s.scopeTasks
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
		s := &Spawner{scopeTasks{pool: w.Pool()}}
		s.latch.Open(w)
		func() {
			normal := false
			defer func() {
				if normal {
					return
				}
				r := recover()
				s.recordPanic(r)
				s.bodyFailed(w, r)
			}()
			f(s, handle(w))
			normal = true
			s.latch.Done(w) // the body's own part
		}()
		s.await(w)
		if p := s.failure.Load(); p != nil { // every part's record happens before the latch opens
			p.Repanic()
		}
	})
}

// spawnTask is a task of a scope: it runs off the latch when it ends.
type spawnTask struct {
	s *Spawner
	f func(w *Worker)
}

func (t *spawnTask) Run(w *sched.Worker) {
	s, f := t.s, t.f
	normal := false
	defer func() {
		if !normal {
			s.recordPanic(recover())
		}
		s.latch.Done(w)
	}()
	if s.failure.Load() == nil {
		f(handle(w))
	}
	normal = true
}

// Spawn starts f as a task of the scope, pushed on the deque of w, the handle
// of the calling function (the scope's body or a task): w runs it later unless
// an idle worker steals it first. It is the cheap way to spawn from inside the
// scope, costing a push. w must be the handle given to the calling function.
// Spawn panics if s, w or f is nil, or if s's scope has ended.
func (s *Spawner) Spawn(w *Worker, f func(w *Worker)) {
	s.tasks().check("Spawner.Spawn", "s", true, w, f == nil)
	sched.Spawn(w.sched(), &s.latch, spawnTask{s: s, f: f})
}

// Go starts f as a task of the scope from any goroutine, through the pool's
// shared queue: slower than Spawn, and the tasks start in the order they were
// queued. Use it where no worker handle is at hand. Go panics if s or f is
// nil, or if s's scope has ended.
func (s *Spawner) Go(f func(w *Worker)) {
	s.tasks().check("Spawner.Go", "s", false, nil, f == nil)
	sched.Inject(s.pool, &s.latch, spawnTask{s: s, f: f})
}
