package par

import (
	"fmt"
	"sync/atomic"

	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/sched"
)

// ErrClosed is what a call directed at a pool after its Close panics with:
// the panic value is an error that wraps ErrClosed (test it with errors.Is)
// and names the call.
var ErrClosed = sched.ErrClosed

// Pool is a set of worker goroutines that run the tasks of the calls directed
// at it with OnPool. Most programs need none: calls without OnPool use a shared
// pool, started on first use with DefaultWorkers() workers, that follows
// GOMAXPROCS when it changes.
type Pool struct {
	p      *sched.Pool
	closed atomic.Bool // set by Close before it stops the workers; OnPool's check reads it
}

// PoolOption configures NewPool.
type PoolOption struct {
	workers int
}

// Workers sets the number of worker goroutines; the default is
// DefaultWorkers(). A pool for work that waits (I/O) may have many more
// workers than cores, up to MaxWorkers.
func Workers(n int) PoolOption {
	if n < 1 {
		panic(fmt.Sprintf("par: Workers(%d): a pool needs at least 1 worker", n))
	}
	if n > MaxWorkers {
		panic(fmt.Sprintf("par: Workers(%d): more than MaxWorkers (%d) workers", n, MaxWorkers))
	}
	return PoolOption{workers: n}
}

// MaxWorkers bounds Workers. Every worker is a goroutine with a deque, which
// thieves scan: a pool of a million workers takes minutes to start and then
// spends its time searching, so a count that large is a mistake, not a
// configuration.
const MaxWorkers = 1 << 16

// DefaultWorkers returns the number of worker goroutines of a pool by
// default: runtime.GOMAXPROCS(0) - 1, and at least 1. The goroutine that makes
// a call works on it too, so a call then keeps exactly GOMAXPROCS goroutines
// busy; one worker per core as well measured up to 1.6x slower on 2 cores,
// the Go scheduler's time slices holding a piece back.
func DefaultWorkers() int { return engine.DefaultWorkers() }

// NewPool starts a pool. Its workers park when there is no work and use no
// CPU while parked. Call Close when done with it. Any number of goroutines
// may use a pool at once: their calls run concurrently, each on its caller's
// goroutine and on the workers, which take pieces of whichever calls have
// some to spare; the pool's methods may be called concurrently with each
// other and with those calls.
func NewPool(opts ...PoolOption) *Pool {
	n := 0
	for i, o := range opts {
		if o.workers == 0 {
			panic(fmt.Sprintf("par: NewPool: opts[%d] is a zero PoolOption: build options with Workers", i))
		}
		n = o.workers
	}
	if n == 0 {
		n = engine.DefaultWorkers()
	}
	return &Pool{p: sched.New(n)}
}

// checked returns p's scheduler, or panics with a message naming the method
// if p was not made by NewPool.
func (p *Pool) checked(method string) *sched.Pool {
	if p == nil {
		panic("par: Pool." + method + ": p is nil")
	}
	if p.p == nil {
		panic("par: Pool." + method + ": p was not made by NewPool")
	}
	return p.p
}

// Close stops p's workers and returns once they have exited. Calls in progress
// complete, their callers finishing their work themselves; calls made after
// Close panic. Close must not be called from a task running on p. Calling it
// again does nothing.
func (p *Pool) Close() {
	sp := p.checked("Close")
	p.closed.Store(true) // before sp's workers stop: a call that reads it false then finds sp closed at its seat (Run)
	sp.Close()
}

// Workers returns the number of p's worker goroutines.
func (p *Pool) Workers() int { return p.checked("Workers").Workers() }

// String describes p for logs: its kind and its number of workers.
func (p *Pool) String() string {
	if p == nil || p.p == nil {
		return "weft pool (not made by NewPool)"
	}
	return fmt.Sprintf("weft pool (%d workers)", p.p.Workers())
}

// Stats returns a snapshot of p's counters. Workers publish their counts when
// they run out of work, so a snapshot taken while p is busy lags behind;
// one taken while it is idle is exact.
func (p *Pool) Stats() Stats { return Stats(p.checked("Stats").Stats()) }

// DefaultStats returns the counters of the shared default pool.
func DefaultStats() Stats { return Stats(engine.Default().Stats()) }

// Stats are a pool's counters since it started: one WorkerStats per worker
// goroutine (Workers), one for all the goroutines that made calls together
// (Callers: each works on its own call while it waits, so it runs and steals
// tasks too), the tasks submitted from outside any call (Submitted, the
// injection queue), and the time since the pool started (Uptime).
type Stats sched.Stats

// Total sums the workers and the callers.
func (s Stats) Total() WorkerStats {
	t := s.Callers
	for _, w := range s.Workers {
		t.Tasks += w.Tasks
		t.Inline += w.Inline
		t.StealTries += w.StealTries
		t.Steals += w.Steals
		t.Injected += w.Injected
		t.Parks += w.Parks
		t.Promoted += w.Promoted
		t.Busy += w.Busy
	}
	return t
}

// WorkerStats are one participant's counters: Tasks, the tasks it ran that it
// did not fork itself (stolen or injected); Inline, the forks whose second
// half it ran itself, taken back unstolen or, while its deque held enough
// unstolen forks (see Worker.Join), never pushed; StealTries, its looks into
// another participant's deque, and Steals, those that took a task; Injected,
// the tasks it took from the injection queue; Parks, the times it went to
// sleep for want of work; Promoted, the forks of a recursion (Join2, Do's
// Worker.Join) it made stealable when another participant was hungry or the
// heartbeat beat, the rest having run as plain calls; Busy, its time spent
// running tasks rather than looking for them, from which utilization follows.
type WorkerStats = sched.WorkerStats
