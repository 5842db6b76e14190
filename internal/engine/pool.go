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
	defaultPool atomic.Pointer[sched.Pool]
	defaultMu   sync.Mutex
)

// Default returns the shared pool, starting it on first use with
// DefaultWorkers() workers. When GOMAXPROCS has changed since, it starts a
// pool for the new value and retires the old one, whose calls in progress
// still complete: even one of the same size (GOMAXPROCS 1 and 2 both give
// one worker), since the planner counts the processors the pool started
// with (sched.Pool.Procs): on a pool started on one processor, a recursion
// hands nothing to the worker. Any goroutine.
func Default() *sched.Pool {
	procs := runtime.GOMAXPROCS(0)
	p := defaultPool.Load() // a pool stored below is fully built before its Store
	if p != nil && p.Procs() == procs {
		return p
	}
	defaultMu.Lock()
	defer defaultMu.Unlock()
	p = defaultPool.Load() // under defaultMu: the latest store
	procs = runtime.GOMAXPROCS(0)
	if p != nil && p.Procs() == procs {
		return p
	}
	np := sched.New(workersFor(procs))
	defaultPool.Store(np) // publishes np, built by New, to lock-free readers above
	if p != nil {
		go p.Close()
	}
	return np
}

// Retired reports whether p is not the current default pool: one that
// Default has replaced, and closes, since p was looked up. One atomic load.
// Any goroutine.
func Retired(p *sched.Pool) bool { return defaultPool.Load() != p }

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
