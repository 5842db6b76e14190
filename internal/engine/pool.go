package engine

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/weftgo/weft/internal/sched"
)

// The default pool is policy, not scheduling: how many workers a pool gets
// when nobody says, and that the shared pool follows GOMAXPROCS. Package
// sched runs whatever pool it is given.

// DefaultWorkers returns the number of workers a pool gets by default: one
// fewer than runtime.GOMAXPROCS(0), and at least one, because the goroutine
// that makes a call works on it too. With one worker per core as well, a call
// keeps one goroutine more than there are cores busy, and the Go scheduler's
// time slices then hold a piece back (go run ./bench -full -w W1,W2 -workers
// N, with N one more than the cores against the default). Any goroutine.
func DefaultWorkers() int { return workersFor(runtime.GOMAXPROCS(0)) }

func workersFor(procs int) int { return max(1, procs-1) }

var (
	defaultPool atomic.Pointer[defaultEntry]
	defaultMu   sync.Mutex
)

// defaultEntry is the default pool with the GOMAXPROCS it was started for;
// written once before it is stored.
type defaultEntry struct {
	pool  *sched.Pool
	procs int
}

// Default returns the shared pool, starting it on first use with
// DefaultWorkers() workers. When GOMAXPROCS has changed since, it starts a
// pool for the new value and retires the old one, whose calls in progress
// still complete: even one of the same size (GOMAXPROCS 1 and 2 both give
// one worker), since the planner counts the processors the pool started
// with (split.Load's Procs): on a pool started on one processor, a
// recursion hands nothing to the worker. Any goroutine.
func Default() *sched.Pool {
	procs := runtime.GOMAXPROCS(0)
	e := defaultPool.Load() // an entry stored below, and its pool, are fully built before its Store
	if e != nil && e.procs == procs {
		return e.pool
	}
	defaultMu.Lock()
	defer defaultMu.Unlock()
	e = defaultPool.Load() // under defaultMu: the latest store
	procs = runtime.GOMAXPROCS(0)
	if e != nil && e.procs == procs {
		return e.pool
	}
	np := sched.New(workersFor(procs))
	defaultPool.Store(&defaultEntry{np, procs}) // publishes np, built by New, to lock-free readers above
	if e != nil {
		go e.pool.Close()
	}
	return np
}

// Retired reports whether p is not the current default pool: one that
// Default has replaced, and closes, since p was looked up. One atomic load.
// Any goroutine.
func Retired(p *sched.Pool) bool {
	e := defaultPool.Load()
	return e == nil || e.pool != p
}

// runDefault runs f on a seat of p, the default pool as a call looked it up
// (Default reads GOMAXPROCS, which takes the Go scheduler's global lock, so
// a call looks it up once), retrying on the new default pool if p was
// retired in between. It returns the pool that f ran on.
func runDefault(p *sched.Pool, f func(w *sched.Worker)) *sched.Pool {
	for !p.Run(f) {
		p = Default()
	}
	return p
}
