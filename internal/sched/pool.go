package sched

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/split"
)

// ErrClosed is the panic value of a call made on a pool after Close.
var ErrClosed = errors.New("weft: pool used after Close")

// Pool is a set of workers that run the tasks of the calls made on it.
type Pool struct {
	// Set by New; read-only after.
	n       int
	workers []*Worker // the pool's own, table[:n]
	epoch   time.Time
	fake    func() int64 // a test's clock for the linger (see clock), or nil
	rounds  int          // fruitless rounds a waiter makes before it parks (see wait): split.SearchRounds, or fewer in a test
	procs   int64        // runtime.GOMAXPROCS(0) when the pool started
	cpus    int          // runtime.NumCPU() when the pool started

	// table lists every worker then every seat; it only grows, copy on write
	// under mu, so that thieves read it without a lock.
	table atomic.Pointer[[]*Worker]
	idle  atomic.Int64 // see sleep.go
	// waiting counts the participants in wait that found nothing to run in
	// their last round (see hunger.go).
	waiting atomic.Int32
	// wakeCursor spreads wake-ups over the workers.
	wakeCursor atomic.Uint32
	inject     injector
	closed     atomic.Bool
	calls      atomic.Int64 // top-level calls in progress
	early      atomic.Int64 // callers counted by Arrive
	contended  atomic.Int64 // the clock until which the pool is contended, or 0 (see contend.go)
	wakeUp     atomic.Int64 // mean nanoseconds from an unpark for work to the search (see sleep.go)
	contendRun atomic.Int32 // contention marks made in a row
	callIDs    atomic.Uint64
	beat       heartbeat // see fork.go
	wg         sync.WaitGroup

	// spare is a seat not in use, kept out of freeSeats so that a call
	// takes it and gives it back without the lock.
	spare     atomic.Pointer[Worker]
	mu        sync.Mutex
	freeSeats *Worker // seats not in use, besides spare, linked by next
	closeOnce sync.Once
}

// New starts a pool of n workers, n >= 1 (how many a pool gets by default
// is the engine's to say: engine.DefaultWorkers).
func New(n int) *Pool { return newPool(n, nil) }

// newPool is New with a fake clock for the linger (nil: the real one).
func newPool(n int, fake func() int64) *Pool {
	if n < 1 {
		panic("sched: New: a pool needs a worker at least")
	}
	p := &Pool{n: n, epoch: time.Now(), fake: fake, rounds: split.SearchRounds, procs: int64(runtime.GOMAXPROCS(0)), cpus: runtime.NumCPU()}
	p.workers = make([]*Worker, n)
	for i := range p.workers {
		p.workers[i] = newWorker(p, i, true)
	}
	t := append([]*Worker(nil), p.workers...)
	p.table.Store(&t) // before any worker starts
	p.wg.Add(n)
	for _, w := range p.workers {
		go w.loop()
	}
	return p
}

// Workers returns the number of the pool's own workers. Any goroutine.
func (p *Pool) Workers() int { return p.n }

// Run calls f on the calling goroutine with a seat of p, a worker handle that
// the goroutine owns until f returns. The goroutine so takes part in its own
// call: it runs what f does and, while it waits for parts of it that other
// workers stole, it runs other tasks of the pool. A call from inside a task of
// p, at any depth, takes a seat of its own and cannot deadlock. A panic in f
// propagates after every task f forked has finished. It reports false, and
// does not call f, if p is closed. Any goroutine.
func (p *Pool) Run(f func(w *Worker)) bool {
	w := p.acquire()
	if w == nil {
		return false
	}
	defer p.release(w)
	f(w)
	return true
}

// acquire returns a free seat, or nil if the pool is closed. Calls made one
// at a time, the common case, pass one seat back and forth through spare,
// without the lock.
func (p *Pool) acquire() *Worker {
	if !p.enter() {
		return nil
	}
	w := p.spare.Swap(nil) // the seat release stored, and what it wrote before
	if w == nil {
		w = p.seat()
	}
	w.hold()
	w.call = p.callID(w)
	w.beginBusy() // the caller works on its own call from now on
	return w
}

// seat returns a seat from the free list, or a new one.
func (p *Pool) seat() *Worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w := p.freeSeats; w != nil {
		p.freeSeats = w.next
		w.next = nil
		return w
	}
	old := *p.table.Load()
	w := newWorker(p, len(old), false)
	t := make([]*Worker, len(old)+1)
	copy(t, old)
	t[len(old)] = w
	p.table.Store(&t) // publishes the new seat to thieves
	return w
}

// release returns a seat after its call; its deque is empty by then, since
// every fork waits for its other half.
func (p *Pool) release(w *Worker) {
	w.holder.Store(0) // a handle kept past its call is nobody's
	w.endBusy()
	w.publish()
	if !p.spare.CompareAndSwap(nil, w) { // hands w, and what its call wrote, to the next acquire
		p.mu.Lock()
		w.next = p.freeSeats
		p.freeSeats = w
		p.mu.Unlock()
	}
	p.leave()
}

// enter counts a call or a submission in progress and reports false, counting
// nothing, if p is closed. The workers of a closed pool stay until the count
// is zero, so that nothing entered before Close is left without them.
func (p *Pool) enter() bool {
	p.calls.Add(1)       // before the closed check: a worker deciding to exit sees this call
	if p.closed.Load() { // after the increment (sequential consistency)
		p.leave()
		return false
	}
	return true
}

// leave ends what enter counted; the last one out of a closed pool lets its
// workers go.
func (p *Pool) leave() {
	if p.calls.Add(-1) == 0 && p.closed.Load() { // the decrement comes before the load: see exiting
		for _, w := range p.workers {
			w.unpark(wakeClose)
		}
	}
}

// exiting reports whether a worker may exit: the pool is closed, no call or
// submission is in progress, and no job is in sight. A worker rechecks it
// after marking itself asleep, and leave and Close unpark every worker after
// changing what it reads, so none misses its moment.
func (p *Pool) exiting() bool {
	return p.closed.Load() && p.calls.Load() == 0 && !p.hasWork()
}

// injectJob submits a job of call (a worker's call; 0 for none) that no
// worker waits for; a worker runs it soon. The job's owner must be nil. Any
// goroutine.
func (p *Pool) injectJob(j *Job, call uint64) {
	if j.owner != nil {
		panic("sched: inject of a job with an owner")
	}
	j.setCall(call)
	p.inject.push(j)
	p.notify(true)
}

// Close stops the pool: a Run made after it reports false; the workers go
// on helping the calls in progress and running the tasks queued, then exit;
// Close returns once they have. So Close waits for the calls in progress, and
// must not be called from a task of p. Inject does not check: a task
// injected after the workers exit never runs, so an injector outside a call
// in progress checks first (a pass of par's on a closed pool of the user's
// panics with ErrClosed; one on a replaced default pool runs alone). Any
// goroutine; later calls do nothing.
func (p *Pool) Close() {
	p.closeOnce.Do(func() {
		p.closed.Store(true) // before the unparks: a worker about to park rechecks it
		for _, w := range p.workers {
			w.unpark(wakeClose)
		}
		p.wg.Wait()
	})
}
