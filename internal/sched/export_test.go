package sched

import (
	"reflect"
	"time"
	"unsafe"

	"github.com/weftgo/weft/internal/carry"
	"github.com/weftgo/weft/split"
)

// SetParkHook installs f to run in every park just before the asleep mark
// (marked false) and between the mark and the recheck (marked true); nil
// removes it.
func SetParkHook(f func(w *Worker, marked bool)) {
	if f == nil {
		parkHook.Store(nil)
		return
	}
	parkHook.Store(&f)
}

// IsPool reports whether w is one of the pool's own workers.
func (w *Worker) IsPool() bool { return w.isPool }

// ForkJob pushes j, runs a, and then syncs with j, as Join does with its own
// record: it reports true if j came back unrun, and the caller must then do
// j's work itself; false if a thief ran j, whose panic, if any, it re-raises.
// If a panics, ForkJob takes j back or waits for its thief first. j must be
// initialized with w as its owner.
func (w *Worker) ForkJob(j *Job, a func(w *Worker)) (inline bool) {
	w.Push(j)
	ok := false
	defer func() {
		if !ok {
			w.abandon(j)
		}
	}()
	a(w)
	ok = true
	return w.finish(j)
}

// FillTypeCache gives every free slot of w's record cache to a type that no
// job has, as a program that has used many types of call leaves it.
func (w *Worker) FillTypeCache() {
	for i := range w.cache.keys {
		if w.cache.keys[i] == nil {
			w.cache.keys[i] = foreignType(i)
		}
	}
}

// HoldTypeCacheBut marks every slot of w's record cache but T's as holding a
// record in use, as forks of other types in progress would.
func HoldTypeCacheBut[T any](w *Worker) {
	for i := range w.cache.keys {
		if w.cache.keys[i] == typeKey[T]() {
			continue
		}
		if w.cache.keys[i] == nil {
			w.cache.keys[i] = foreignType(i)
		}
		w.cache.stacks[i] = recordStack{recs: []*Job{nil}, top: 1}
	}
}

// ClaimForeign claims a slot of w's record cache for a type no job has, as
// claim would for a new type of call, and reports whether it got one.
func ClaimForeign(w *Worker, evict bool) bool {
	return w.cache.claim(foreignType(1000), evict) >= 0
}

// foreignType returns a type of its own for each i.
func foreignType(i int) reflect.Type { return reflect.ArrayOf(i+1, reflect.TypeFor[byte]()) }

// Task is a job submitted from outside any call, with a channel that is closed
// when it has run, for a goroutine that waits for it without a worker.
type Task struct {
	Job
	f    func(w *Worker)
	done chan struct{}
	p    *carry.Panic
}

func runTask(w *Worker, j *Job) {
	t := Payload[Task](j)
	normal := false
	defer func() {
		if !normal {
			t.p = carry.Recovered(recover())
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
	p.Inject(&t.Job, 0)
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
func (t *Task) Panicked() *carry.Panic { return t.p }

// funcHalf is the stealable half of Join: a closure.
type funcHalf struct{ f func(w *Worker) }

func (h *funcHalf) Run(w *Worker, _ bool) { h.f(w) }

// Join runs a and b, in parallel if a thief takes b, and returns when both
// have returned: the fork protocol (Fork, Rec.Join, Rec.End) with a closure
// for the record, for the tests of the scheduler. It always pushes b; the
// crowded path (split.RecordDepth) is package par's.
func (w *Worker) Join(a, b func(w *Worker)) {
	j := Fork(w, funcHalf{b}, true)
	defer j.End(w)
	a(w)
	if j.Join(w) {
		b(w)
	}
}

// Take and Put are the record cache's take and put.
func Take[T any](w *Worker) *T { return take[T](w) }
func (j *Job) Put()            { j.put() }

// Gate returns the word a fork loads.
func (w *Worker) Gate() *uint32 { return &w.gate }

// GateFirst reports whether the gate is at a handle's own address, where
// package par's forks load it.
func GateFirst() bool { return unsafe.Offsetof(Worker{}.gate) == 0 }

// ForkLook is what a fork that found its gate open learns (look).
type ForkLook struct {
	Depth     int           // records since the recursion began or last promoted
	Asked     bool          // asked, or spreading
	Age, Cost time.Duration // the recursion's age if asked; a promotion's cost
	Wake      time.Duration // the pool's measured wake-up
}

// Look takes the gate's ask, as a fork's look does, and returns the signals
// the planner is given.
func (w *Worker) Look() ForkLook {
	cost, wake := time.Duration(w.pool.beat.cost.Load()), time.Duration(w.pool.wakeUp.Load())
	asked, age := w.asked(split.Period(cost, wake))
	return ForkLook{Depth: w.fk.depth - w.fk.base, Asked: asked, Age: age, Cost: cost, Wake: wake}
}

// Record records j, a fork's record initialized with w as its owner, as a
// fork the planner records does, with period between promotions; the gate
// is left as it is.
func (w *Worker) Record(j *Job, period time.Duration) {
	w.fk.plan = split.ForkPlan{Record: true, Look: w.fk.open}
	w.fk.period = period
	w.record(j)
}

// Settle, Unrecord, Promote and Open are the recorded fork's settle,
// unrecord, promote and open.
func (w *Worker) Settle(j *Job) bool                { return w.settle(j) }
func (w *Worker) Unrecord(j *Job) int               { return w.unrecord(j) }
func (w *Worker) Promote(period time.Duration) bool { return w.promote(period) }
func (w *Worker) Open(on bool)                      { w.open(on) }

// NewClocked is New with clock, in nanoseconds, timing the search's linger.
func NewClocked(n int, clock func() int64) *Pool { return newPool(n, clock) }

// Linger is how long a worker searches after its last task before it
// parks, on a pool whose wake-up is unmeasured or 5 µs or more (the budget
// is then PrefixBudget): the tests that read it time wake-ups on a clock
// that stands still or moves by YieldStall a read.
var Linger = split.Linger(0)

// Execute runs j on w as a job w took: its forks are a recursion of their
// own (takeForks), and its latch is set.
func (w *Worker) Execute(j *Job) { w.execute(j) }

// NotBefore returns when w's recursion may next be asked (0: none runs).
func (w *Worker) NotBefore() int64 { return w.notBefore.Load() }

// Now returns the pool's clock, as NotBefore reads it.
func (p *Pool) Now() int64 { return p.now() }

// StealFor is the round of stealing of a participant that waits for until
// (Wait's), taking any job: nil after a fruitless round, or once it has
// looked at until's latch and seen it set.
func (w *Worker) StealFor(until *Job) *Job { return w.steal(false, until) }

// SetCPUs makes p see a machine of n CPUs, as runtime.NumCPU told it when it
// started. Before p's calls.
func (p *Pool) SetCPUs(n int) { p.cpus = n }

// Total sums the workers and the callers, as package par's Stats.Total does.
func (s Stats) Total() WorkerStats {
	t := s.Callers
	for _, w := range s.Workers {
		t.add(w)
	}
	return t
}

// NewWaiting is New with waiters that park after rounds fruitless rounds
// of search (wait) instead of split.SearchRounds: a park after one round
// puts every wait through the sleep protocol.
func NewWaiting(n, rounds int) *Pool {
	p := newPool(n, nil)
	p.rounds = rounds // before any call: the workers read it only in wait
	return p
}
