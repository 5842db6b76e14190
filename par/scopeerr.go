package par

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/weftgo/weft/internal/sched"
)

// Group is the handle of a ScopeErr call: it starts tasks that can fail, all
// of which have returned before the call does. It may be used from any
// goroutine while the call runs.
type Group struct {
	scopeTasks // failure (a panic or runtime.Goexit) wins over any error

	// Written before the body runs, then only read.
	parent  context.Context
	ctx     context.Context // the context every task receives
	ctxDone <-chan struct{} // ctx.Done(), or nil when parent cannot end
	cancel  context.CancelCauseFunc
	labels  context.Context // the profiler labels of parent, or nil

	// stop is set by the first error, the first panic, or, when a task
	// finds ctx ended, the end of parent: from then on tasks are skipped
	// instead of started, and Spawn and Go start nothing.
	stop atomic.Bool
	// began is set by the first Spawn or Go, after which SetLimit panics.
	// Read by every Spawn and Go, it sits with stop, away from the cache
	// line of bound, which a limited scope's tasks write at every start and
	// end.
	began atomic.Bool
	// skipped is set when a task is skipped or not started for stop.
	skipped atomic.Bool
	// first is the first failure recorded; set once.
	first atomic.Pointer[groupFailure]

	// limit bounds the tasks running at once (SetLimit); 0: no bound.
	limit atomic.Int64
	bound bound
}

// groupFailure is the first failure of a scope: a task's error, or the end
// of the parent if that came first.
type groupFailure struct {
	err      error
	byParent bool // the parent had ended: its cause is the result
}

// bound is the state of SetLimit: tasks running, and tasks deferred because
// the bound was reached, which a task that returns runs next in its place.
type bound struct {
	mu      sync.Mutex
	running int
	queue   []func(context.Context, *Worker) error // FIFO from head
	head    int
}

// errTaskPanicked is the cause of a scope's context when a task or the body
// panicked, so that tasks still running can tell why it ended.
var errTaskPanicked = errors.New("par: a task of ScopeErr panicked")

// ScopeErr calls f with the scope's context, a Group and a worker handle, and
// returns when f and every task spawned in the scope, directly or by other
// tasks, have returned: errgroup for a tree of tasks found as they go (a
// directory walk, a crawl, a dependency graph), on the pool. Tasks receive the
// scope's context, ctx', derived from ctx. Writes made by f and every task
// happen before ScopeErr returns. While it waits, the calling goroutine runs
// tasks itself. f and the tasks run concurrently with each other: a task may
// start, on one of the pool's workers or the calling goroutine, as soon as it
// is spawned, while the function that spawned it goes on.
//
// The scope stops at the first of three events: f or a task returns an error,
// f or a task panics, or ctx ends. From then on tasks not yet started are
// skipped (a task that a goroutine had checked just before the stop still
// starts: at most one per goroutine working on the scope, the pool's workers
// and the caller), Spawn and Go start nothing, and ctx' is cancelled, with
// context.Cause(ctx') telling why. ScopeErr returns once the tasks that had
// started have returned; it does not interrupt them: a task that waits must
// watch ctx'.Done().
//
// The error returned is the first one recorded, the one that stopped the
// scope and that context.Cause(ctx') gives to every task, not the errors of
// tasks that failed after it: those may be consequences of the cancellation
// (a read on a closed connection, a request whose context ended) that need not
// wrap context.Canceled, and a log or a test wants the cause. errgroup makes the
// same choice. So when one task fails, its error is returned on every run;
// when several fail independently at about the same time, which of them is
// first depends on timing, since the stop skips the others (for a slice,
// MapErr with LowestIndexError returns the sequential loop's error instead).
// If ctx ended before any failure, the error is context.Cause(ctx), and
// errors that tasks return afterwards are taken as reports of it; with no
// failure, that holds for an end of ctx at any time before ScopeErr returns,
// whether or not a task was left to skip. The error is nil only when f and
// every task spawned returned nil and ctx had not ended when ScopeErr
// returned: nil says that every task ran under a live ctx', so tasks that
// answer the end of their context by returning nil cannot leave a walk that
// looks complete. ctx ending after ScopeErr returned changes nothing. A ctx
// that has already ended gives context.Cause(ctx) without calling f. ctx' is cancelled when ScopeErr
// returns, whatever the outcome.
//
// If f or a task panics, the scope stops as on an error, ctx' is cancelled so
// that tasks blocked on it return, and once every started task has returned
// ScopeErr panics with the first panic's original value, whatever errors came
// before it; the pool stays usable. runtime.Goexit in f or a task ends the
// calling goroutine the same way, after the started tasks have returned.
//
// # Tasks that wait
//
// A task that blocks (on a file, a connection, a lock) keeps the worker that
// runs it from doing anything else until it returns. The Go runtime gives that
// worker's processor to other goroutines meanwhile, so no core sits idle, but
// the pool has one worker fewer: every other call on the same pool, from any
// goroutine of the program, gets less help (each caller still works on its own
// call, so nothing deadlocks), and while every worker waits those calls run on
// their callers alone. So give a scope whose tasks mostly wait a pool of its
// own, NewPool(Workers(n)) and OnPool: its n workers and the caller are the
// tasks in flight at most, as errgroup's SetLimit(n+1) would allow, and the
// default pool keeps its workers for CPU work. Group.SetLimit bounds the tasks
// running at once below what the pool allows, for a resource that takes fewer
// (open files, connections) or to leave some of a shared pool's workers free.
// Tasks that compute, or whose waits are short (reads of files in the page
// cache), are best on the default pool.
//
// ScopeErr panics if ctx or f is nil.
//
// A call allocates three records (350 bytes) when ctx cannot end, and the
// context package adds its own when it can; Spawn allocates nothing once its
// worker has run a task of a scope (the closure passed to it is the caller's),
// and Go allocates its task. Over a binary tree of 1,022 empty tasks spawned
// by tasks, a task cost 146 ns against Scope's 132, and 231 ns with
// SetLimit(2), whose tasks take a lock to start; an empty call 524 ns against
// Scope's 281 (`go test -run '^$' -bench 'ScopeErr$' -benchmem -count 6
// ./par`, medians, on 2 cores).
func ScopeErr(ctx context.Context, f func(ctx context.Context, g *Group, w *Worker) error, opts ...Option) error {
	if ctx == nil {
		panic("par: ScopeErr: ctx is nil")
	}
	if f == nil {
		panic("par: ScopeErr: f is nil")
	}
	c := configure(opts)
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	var err error
	c.run(func(w *sched.Worker) {
		g := &Group{scopeTasks: scopeTasks{pool: w.Pool()}, parent: ctx, labels: c.Labels}
		if g.labels == nil {
			g.labels = labelled(ctx) // the tasks carry the caller's profiler labels
		}
		g.ctx, g.cancel = context.WithCancelCause(ctx)
		defer g.cancel(nil) // a task that kept ctx' sees it end here at the latest
		if ctx.Done() != nil {
			g.ctxDone = g.ctx.Done() // closed by the parent's end too
		}
		g.latch.Open(w)
		g.body(w, f)
		g.await(w)
		if p := g.failure.Load(); p != nil { // every part's record happens before the latch opens
			p.Repanic()
		}
		err = g.result()
	})
	return err
}

// body runs the scope's own part, f, on the caller's seat w. A panic in f is
// recorded and stops the scope; runtime.Goexit, which cannot be stopped, is
// recorded too and then waits here for the started tasks before it goes on.
func (g *Group) body(w *sched.Worker, f func(context.Context, *Group, *Worker) error) {
	normal := false
	defer func() {
		if normal {
			return
		}
		r := recover()
		g.panicked(r)
		g.bodyFailed(w, r)
	}()
	if err := f(g.ctx, g, handle(w)); err != nil {
		g.fail(err)
	}
	normal = true
	g.latch.Done(w) // the body's own part
}

// result is the scope's error once every part has returned.
func (g *Group) result() error {
	if fl := g.first.Load(); fl != nil {
		if fl.byParent {
			return context.Cause(g.parent)
		}
		return fl.err
	}
	// Nothing failed. The parent's end before the scope returns is the
	// result whether or not it skipped a task: so nil says that every task
	// ran under a live ctx', and one more task left to skip does not change
	// the answer.
	if err := context.Cause(g.parent); err != nil {
		return err
	}
	if !g.skipped.Load() {
		return nil
	}
	panic("par: ScopeErr: tasks skipped with no error and no end of ctx")
}

// stopped reports whether tasks are to be skipped now, setting stop if ctx'
// has ended without it (the parent's end). Any goroutine.
func (g *Group) stopped() bool {
	if g.stop.Load() { // set by the first failure or panic
		return true
	}
	select {
	case <-g.ctxDone: // nil, never ready, when the parent cannot end
		g.stop.Store(true)
		return true
	default:
		return false
	}
}

// fail records err, returned by the body or a task, if it is the scope's
// first failure. Any goroutine.
func (g *Group) fail(err error) {
	// Tasks not yet started are skipped from now on, whichever failure is
	// recorded: a goroutine whose task failed starts no other task, even if
	// the first failure's goroutine has not yet recorded it.
	g.stop.Store(true)
	if g.first.Load() != nil { // only the first one counts
		return
	}
	fl := &groupFailure{err: err, byParent: g.parent.Err() != nil}
	if !g.first.CompareAndSwap(nil, fl) {
		return
	}
	if !fl.byParent {
		g.cancel(err) // after stop: a task that sees ctx' end finds stop set
	}
}

// panicked records a panic of the body or a task, what recover returned in
// the deferred call of a part that did not return normally (nil for a
// runtime.Goexit), and stops the scope. The panic keeps the stack where it
// began, which a crash prints when ScopeErr raises it again (see
// carry.Panic.Repanic). Any goroutine, in that deferred call.
func (g *Group) panicked(r any) {
	g.recordPanic(r)
	g.stop.Store(true)
	g.cancel(errTaskPanicked) // wakes tasks blocked on ctx'; a cause set before stays
}

// groupTask is a task of a scope.
type groupTask struct {
	g *Group
	f func(context.Context, *Worker) error
}

func (t *groupTask) Run(w *sched.Worker) {
	g, f := t.g, t.f
	if g.labels != nil {
		defer w.Label(w.Label(g.labels))
	}
	if g.limit.Load() == 0 { // written before the first task was spawned
		g.run(w, f)
		return
	}
	g.runBounded(w, f)
}

// run runs one task, or skips it if the scope has stopped, and takes its part
// off the latch. A panic in the task is recovered and recorded; a
// runtime.Goexit is recorded and goes on unwinding.
func (g *Group) run(w *sched.Worker, f func(context.Context, *Worker) error) {
	normal := false
	defer func() {
		if !normal {
			g.panicked(recover())
		}
		g.latch.Done(w)
	}()
	if g.stopped() {
		g.skipped.Store(true)
	} else if err := f(g.ctx, handle(w)); err != nil {
		g.fail(err)
	}
	normal = true
}

// runBounded runs f if fewer than the limit of tasks are running, and then
// the tasks deferred meanwhile, one after the other in its place; otherwise
// it defers f, for a task that returns to run. A worker that finds the bound
// reached goes on to other work instead of waiting.
func (g *Group) runBounded(w *sched.Worker, f func(context.Context, *Worker) error) {
	if !g.acquire(f) {
		return
	}
	normal := false
	defer func() {
		if !normal {
			// runtime.Goexit in a task, which has stopped the scope: the
			// deferred tasks are skipped here, or they would wait forever.
			for f := g.release(); f != nil; f = g.release() {
				g.skipped.Store(true)
				g.latch.Done(w)
			}
		}
	}()
	for f != nil {
		g.run(w, f)
		f = g.release()
	}
	normal = true
}

// acquire takes a place among the running tasks for f and reports true, or
// defers f and reports false if the limit is reached. Any goroutine.
func (g *Group) acquire(f func(context.Context, *Worker) error) bool {
	b := &g.bound
	b.mu.Lock()
	defer b.mu.Unlock()
	if int64(b.running) < g.limit.Load() {
		b.running++
		return true
	}
	b.queue = append(b.queue, f) // a task running now will take it
	return false
}

// release gives up the place of a task that returned: it returns the oldest
// deferred task, which takes over the place, or nil once none is left. While
// tasks are deferred, the limit's places are all taken, so every deferred
// task is run by a task that returns. Any goroutine.
func (g *Group) release() func(context.Context, *Worker) error {
	b := &g.bound
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.head < len(b.queue) {
		f := b.queue[b.head]
		b.queue[b.head] = nil
		b.head++
		if b.head == len(b.queue) {
			b.queue, b.head = b.queue[:0], 0
		}
		return f
	}
	b.running--
	return nil
}

// Spawn starts f as a task of the scope, pushed on the deque of w, the handle
// of the calling function (the scope's body or a task): w runs it later
// unless an idle worker steals it first, and f then runs concurrently with
// the calling function and the scope's other tasks, on the pool's workers or
// the goroutine that called ScopeErr. It is the cheap way to spawn from
// inside the scope, costing a push. f receives the scope's context and the
// handle of the worker that runs it. Once the scope has stopped, Spawn starts
// nothing. w must be the handle given to the calling function. Spawn panics
// if g, w or f is nil, or if g's scope has ended.
func (g *Group) Spawn(w *Worker, f func(ctx context.Context, w *Worker) error) {
	g.tasks().check("Group.Spawn", "g", true, w, f == nil)
	if !g.admit() {
		return
	}
	sched.Spawn(w.sched(), &g.latch, groupTask{g: g, f: f})
}

// Go starts f as a task of the scope from any goroutine, through the pool's
// shared queue: slower than Spawn, and the tasks start in the order they were
// queued; f runs concurrently with the caller of Go and the scope's other
// tasks, on the pool's workers or the goroutine that called ScopeErr. Use it
// where no worker handle is at hand. Unlike errgroup's Go it
// never blocks, limit or not. Once the scope has stopped, Go starts nothing.
// Go panics if g or f is nil, or if g's scope has ended.
func (g *Group) Go(f func(ctx context.Context, w *Worker) error) {
	g.tasks().check("Group.Go", "g", false, nil, f == nil)
	if !g.admit() {
		return
	}
	sched.Inject(g.pool, &g.latch, groupTask{g: g, f: f})
}

// admit marks that tasks have begun, so that SetLimit panics from now on,
// and reports whether a task may start: not once the scope has stopped.
func (g *Group) admit() bool {
	if !g.began.Load() {
		g.began.Store(true)
	}
	if g.stopped() {
		g.skipped.Store(true)
		return false
	}
	return true
}

// SetLimit bounds the scope's tasks running at once to n; a negative n
// removes the bound. The scope's body is not counted. A task that finds the
// bound reached does not block its worker: it is deferred, and the next task
// to return runs it in its place, so Spawn and Go never block and tasks that
// spawn tasks cannot deadlock on the bound (as they can with errgroup's
// SetLimit, whose Go blocks). Without a bound the pool's workers and the
// caller bound the tasks running; see ScopeErr on tasks that wait for the
// choice between a bound and a pool. SetLimit must be called before the
// first Spawn or Go, and panics otherwise, or if g is nil or n is 0.
func (g *Group) SetLimit(n int) {
	if g == nil {
		panic("par: Group.SetLimit: g is nil")
	}
	if n == 0 {
		panic("par: Group.SetLimit(0): a limit of 0 would start no task")
	}
	if g.began.Load() {
		panic("par: Group.SetLimit: tasks were already spawned; set the limit before the first Spawn or Go")
	}
	g.limit.Store(int64(max(n, 0))) // published to the tasks by the push or injection that starts them
}

// tasks returns g's tasks, or nil for a nil g, for check.
func (g *Group) tasks() *scopeTasks {
	if g == nil {
		return nil
	}
	return &g.scopeTasks
}
