package sched

import (
	"context"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/internal/deque"
	"github.com/weftgo/weft/split"
)

// Worker is one participant of a pool: a deque, and the goroutine that owns
// it. A pool has two kinds: its own workers, each running the scheduling loop
// on a goroutine of the pool, and seats, which a goroutine outside the pool
// borrows for the length of one top-level call so that it works on its own call
// (see Pool.Run). Both kinds steal from each other alike.
//
// Methods are for the goroutine that currently owns the worker unless a method
// says otherwise. The handle travels down the recursion explicitly because Go
// has no goroutine-local storage.
type Worker struct {
	// gate is first, at the handle's own address, so that a fork loads it
	// without an offset (see fork.go). Atomic.
	gate uint32

	// Set before the worker is published in the pool's table; read-only after.
	pool   *Pool
	index  int  // position in the pool's table
	isPool bool // one of the pool's own workers, not a seat
	dq     deque.Worker[Job]
	stl    deque.Stealer[Job]
	wake   chan wakeReason // one token per successful unpark

	// asleep is true while the worker is parked or about to park; whoever
	// moves it from true to false owns the single wake-up token.
	asleep atomic.Bool

	// wokeAt is the pool's clock when an unpark for work sent the token that
	// wakes the worker: written by that waker before the send, read by the
	// worker once it has received it.
	wokeAt int64

	// holder is the goroutine that owns the worker (getg; 0: none, between
	// a seat's calls). Written by that goroutine when it takes the worker
	// (Hold, Pool.acquire, loop) or gives it back; read by any goroutine
	// whose call was given the handle (Mine).
	holder atomic.Uintptr

	// Owner only.
	rng   uint64
	local counters // published to pub at transitions
	cache typeCache
	call  uint64 // the top-level call of the task running here (0: none)
	calls uint64 // a seat's calls so far, for their ids (callID)
	// stalls counts the yields in a row that other goroutines held up (see
	// contend.go).
	stalls int
	fk     forks
	// notBefore is when the recursion running here may next be asked for
	// work (p.now() ns; 0: none runs). Written by the owner, read by askers.
	notBefore atomic.Int64
	// labels are the profiler labels a pool worker's goroutine has (Label).
	labels context.Context
	next   *Worker // the pool's free seat list, under the pool's lock

	pub       stats
	busySince atomic.Int64 // ns since the pool's epoch when the current busy spell began; 0 when idle
	// promoted counts the records promoted here, published with local's
	// counters; last, so that the fields before it keep their cache lines.
	// Owner only.
	promoted uint64
}

func newWorker(p *Pool, index int, isPool bool) *Worker {
	dq := deque.New[Job]()
	return &Worker{
		pool:   p,
		index:  index,
		isPool: isPool,
		dq:     dq,
		stl:    dq.Stealer(),
		wake:   make(chan wakeReason, 1),
		rng:    uint64(index)*0x9E3779B97F4A7C15 | 1,
		gate:   GateRecord, // a recursion records its first forks
		fk:     forks{open: true},
	}
}

// Mine reports whether the calling goroutine owns w: a handle carried to
// another goroutine (a task that captured its caller's handle, a goroutine
// the user started), or kept past its call, does not, and a method that
// pushes or pops on w must not run there (Chase-Lev's owner end is one
// goroutine's). It costs a call of a few instructions; where no assembly
// reads the goroutine's identity (see getg) it reports true. Any goroutine.
func (w *Worker) Mine() bool {
	g := getg()
	return g == 0 || w.holder.Load() == g // stored by the owner on its own goroutine before it ran anything with w
}

// hold makes the calling goroutine w's owner, for Mine. By the goroutine
// that takes w, before it runs anything with it.
func (w *Worker) hold() { w.holder.Store(getg()) }

// Pool returns the pool w belongs to. Any goroutine.
func (w *Worker) Pool() *Pool { return w.pool }

// random returns the next value of the worker's xorshift64* generator.
func (w *Worker) random() uint64 {
	x := w.rng
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	w.rng = x
	return x * 0x2545F4914F6CDD1D
}

// push makes j available to thieves and wakes a sleeping worker if none is
// searching. Owner only.
//
// Every task is public at once. A private stack for tasks pushed while no
// worker was idle (after Lace's split deque) was measured and dropped: it
// saved nothing measurable on fib(30) with a fork at every level, and a task
// held private behind a long-running first half stays out of reach of a
// worker that turns idle meanwhile.
//
// A pool worker's push also wakes the seat of the job's call if that seat is
// parked in wait: the seat waits for one job to finish, and would not see the
// new one, which the call may need it to run (a task that waits for another,
// or a leaf that forked because the seat was hungry). The seat counts itself
// in Pool.waiting before it marks itself asleep and looks again after the
// mark (see wait), so a push that loads waiting after storing the job either
// sees the count and the mark, or is seen by that last look.
func (w *Worker) push(j *Job, long bool) {
	j.setCall(w.call)
	w.dq.Push(j)
	p := w.pool
	p.notify(long)
	if w.isPool && p.waiting.Load() != 0 { // after the push's store of bottom (see above)
		w.wakeCaller()
	}
}

// pop takes back the newest task, or returns nil if thieves took it. Owner
// only.
func (w *Worker) pop() *Job { return w.dq.Pop() }

// loop is the body of a pool worker's goroutine.
func (w *Worker) loop() {
	// A goroutine inherits its creator's profiler labels: a worker started
	// by a labelled caller must not carry them into every call it helps.
	pprof.SetGoroutineLabels(context.Background())
	w.hold() // also after a Goexit, on the goroutine that replaces the last
	p := w.pool
	normal := false
	defer func() {
		if !normal {
			// A task called runtime.Goexit and execute has already reported it
			// to the task's owner; carry on as a fresh goroutine.
			w.endBusy()
			go w.loop()
			return
		}
		w.publish()
		p.wg.Done()
	}()
	searching := false
	for {
		j := w.pop()
		if j == nil {
			j, searching = w.findWork(searching)
			if j == nil {
				break // the pool is closed and there is nothing left to do
			}
		}
		w.execute(j)
	}
	normal = true
}

// findWork looks for a job once the worker's own deque is empty: the injection
// queue, then random victims, for a bounded number of rounds; then it parks
// until woken. It returns nil only when the pool is closed and no work is left
// in sight. searching says whether the worker is counted as a searcher; the
// result says the same on return. Pool workers only.
func (w *Worker) findWork(searching bool) (*Job, bool) {
	p := w.pool
	w.endBusy()
	w.publish()
	for {
		if !searching {
			searching = p.startSearching()
		}
		if searching {
			from := p.clock() // the last task or the wake-up
			for r := 1; ; r++ {
				if j := w.stealAny(); j != nil {
					p.stopSearching(true)
					w.beginBusy()
					return j, false
				}
				if r >= split.SearchRounds && !split.Searches(r, time.Duration(p.clock()-from), time.Duration(p.wakeUp.Load()), p.closed.Load()) { // the clock only once the rounds are done
					break
				}
				if !split.Yields(r) {
					spin(r)
				} else if p.askAll(w); w.yield() {
					break // goroutines wait for the processor: lingering only delays them (see contend.go)
				}
			}
			p.stopSearching(false)
			searching = false
		} else if j := w.stealAny(); j != nil {
			// Too many searchers to join them, but one look is free.
			w.beginBusy()
			return j, false
		} else {
			runtime.Gosched()
		}
		switch w.park(p.hasWork) {
		case wakeWork:
			searching = true // counted by the waker
			p.wokeUp(p.clock() - w.wokeAt)
		case wakeClose, wakeNone:
			if p.exiting() {
				return nil, false
			}
		}
	}
}

// stealAny takes a job from the injection queue or from a random victim, or
// returns nil after one round over every victim found nothing. Owner only.
func (w *Worker) stealAny() *Job { return w.steal(false, nil) }

// stealOwn is stealAny for a caller that waits: it takes only jobs of its
// own call, from the injection queue and from the top of other deques, so
// that a small call never runs a piece of another call, which may be long,
// before it can return. Owner only.
func (w *Worker) stealOwn() *Job { return w.steal(true, nil) }

// steal takes a job as stealAny (own false) or stealOwn (own true) do. A
// participant that waits for until (non-nil) looks at its latch within the
// round too, as split.LooksAtLatch says, and returns nil once it is set.
// Owner only.
func (w *Worker) steal(own bool, until *Job) *Job {
	p := w.pool
	var j *Job
	if own {
		j = p.inject.popCall(w.call)
	} else {
		j = p.inject.pop()
	}
	if j != nil {
		w.local.injectedRun++
		return j
	}
	victims := *p.table.Load() // the table only grows; a stale copy misses new seats for one round
	n := len(victims)
	start := int(w.random() % uint64(n))
	for i := 0; i < n; i++ {
		k := start + i
		if k >= n {
			k -= n
		}
		if until != nil && split.LooksAtLatch(i, int(p.procs), p.cpus) && until.done.Load() { // the runner's store; wait loads it again before it returns
			return nil
		}
		v := victims[k]
		if v == w {
			continue
		}
		for {
			w.local.stealTries++
			var st deque.Status
			if own {
				j, st = v.stl.StealIf(ofCall, w.call)
			} else {
				j, st = v.stl.Steal()
			}
			if st == deque.Success {
				w.local.steals++
				return j
			}
			if st == deque.Empty {
				break
			}
			// Retry: someone else won the race for that element; more may remain.
		}
	}
	return nil
}

// ofCall is StealIf's test in stealOwn: whether j belongs to call.
func ofCall(j *Job, call uint64) bool { return j.call.Load() == call }

// wait runs other work until j is done: the worker's own deque, then the
// injection queue and other workers' deques; with nothing to do it parks until
// j's runner or new work wakes it. A pool worker runs any task; a caller's
// seat runs only tasks of its own call (see stealOwn). Owner of j only.
func (w *Worker) wait(j *Job) {
	if j.done.Load() { // the runner's store of done hands over its writes
		j.done.Store(false) // ready for reuse: nobody else touches j now
		return
	}
	p := w.pool
	w.endBusy()
	searching := false
	hungry := false // counted in p.waiting: a running leaf of the pool may give us part of it
	defer func() {
		// Also on a panic or Goexit of a task run here: leave no searcher or
		// waiter counted.
		if searching {
			p.stopSearching(false)
		}
		if hungry {
			p.waiting.Add(-1) // ends the hunger that Hungry reads
		}
		w.beginBusy()
	}()
	var found *Job // taken by the last look before parking
	for {
		for r := 0; r < p.rounds; { // r: fruitless rounds since the last task ran here
			x := found
			found = nil
			if x == nil {
				x = w.pop()
			}
			if x == nil {
				x = w.steal(!w.isPool, j) // a caller helps its own call only
			}
			if x != nil {
				if searching {
					p.stopSearching(true)
					searching = false
				}
				if hungry {
					p.waiting.Add(-1) // no longer hungry while x runs
					hungry = false
				}
				w.beginBusy()
				w.execute(x)
				w.endBusy()
				r = 0 // x may have left jobs on our deque (a scope's tasks): look again before parking
			} else {
				r++
				if !hungry {
					p.waiting.Add(1) // after a fruitless round: a leaf that loads it may fork for us
					hungry = true
				}
			}
			if j.done.Load() {
				j.done.Store(false) // ready for reuse: nobody else touches j now
				return
			}
			if x == nil {
				p.askAll(w) // a recursion whose time has come may promote a fork for us
				w.yield()   // timed: marks the pool contended if others keep the processors (see contend.go)
			} else {
				runtime.Gosched()
			}
		}
		if searching {
			p.stopSearching(false)
			searching = false
		}
		w.publish()
		reason := w.park(func() bool {
			switch {
			case j.done.Load():
				return true
			case w.isPool:
				return p.hasWork()
			}
			// A seat steals: a job of its call pushed before this look
			// and after a pool worker's load of our mark is here (see push).
			found = w.stealOwn()
			return found != nil
		})
		if reason == wakeWork && w.isPool {
			searching = true // counted by the waker
		}
	}
}

// beginBusy and endBusy bracket the time a worker runs tasks.
func (w *Worker) beginBusy() {
	if w.busySince.Load() == 0 { // owner's own write
		w.busySince.Store(w.pool.now()) // read by Stats on any goroutine
	}
}

func (w *Worker) endBusy() {
	if since := w.busySince.Load(); since != 0 {
		w.pub.busyNanos.Add(uint64(w.pool.now() - since)) // read by Stats
		w.busySince.Store(0)
	}
}

// now returns nanoseconds since the pool started; never 0.
func (p *Pool) now() int64 { return int64(time.Since(p.epoch)) + 1 }

// clock returns what the search's linger is timed by: now, or a test's fake
// clock. Any goroutine.
func (p *Pool) clock() int64 {
	if p.fake != nil {
		return p.fake()
	}
	return p.now()
}

// Label sets the profiler labels of a pool worker's goroutine to those of ctx
// (none if ctx is nil), for a task of a call that asked for them, and returns
// the ones it had, which the task sets back when it ends:
//
//	defer w.Label(w.Label(ctx))
//
// A seat keeps whatever labels its caller gave its goroutine: there Label does
// nothing and returns nil. Owner only.
func (w *Worker) Label(ctx context.Context) (prev context.Context) {
	if !w.isPool {
		return nil
	}
	prev, w.labels = w.labels, ctx
	if ctx == nil {
		ctx = context.Background()
	}
	pprof.SetGoroutineLabels(ctx)
	return prev
}

var spinSink atomic.Uint32

// spin is the wait after fruitless round number r of a search, when the
// round is not one that yields.
func spin(r int) {
	x := uint32(r)
	for i := range uint32(64) {
		x = x*31 + i
	}
	if x == 0 {
		spinSink.Store(x) // keeps the loop
	}
}
