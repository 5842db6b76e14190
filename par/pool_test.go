package par_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

func TestPoolWorkers(t *testing.T) {
	for _, n := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(n))
		t.Cleanup(p.Close)
		require.Equal(t, n, p.Workers())
		require.Len(t, p.Stats().Workers, n)
		require.Contains(t, p.String(), "pool")
	}
	p := par.NewPool()
	t.Cleanup(p.Close)
	require.Equal(t, max(1, runtime.GOMAXPROCS(0)-1), p.Workers(), "the default size is GOMAXPROCS-1: the caller takes part")
	require.Equal(t, p.Workers(), par.DefaultWorkers())
}

// quietStats polls p's counters until two snapshots in a row agree on
// everything but the time fields: the workers have published their counts and
// stopped counting. The loop is bounded by rounds, not by time.
func quietStats(p *par.Pool) par.Stats {
	counts := func(s par.Stats) []par.WorkerStats {
		out := []par.WorkerStats{s.Callers}
		for _, w := range s.Workers {
			w.Busy = 0
			out = append(out, w)
		}
		out[0].Busy = 0
		return out
	}
	prev := p.Stats()
	for range 1000 {
		runtime.Gosched()
		cur := p.Stats()
		same := len(counts(cur)) == len(counts(prev))
		for i, w := range counts(cur) {
			same = same && w == counts(prev)[i]
		}
		if same && cur.Total().Tasks > 0 {
			return cur
		}
		prev = cur
	}
	return prev
}

// requireConsistent checks what must hold of a quiet pool's counters.
func requireConsistent(t *testing.T, s par.Stats) {
	t.Helper()
	tot := s.Total()
	require.LessOrEqual(t, tot.Steals, tot.StealTries, "a steal is a successful try")
	require.Equal(t, tot.Steals+tot.Injected, tot.Tasks, "every task a participant ran that it did not fork itself was stolen or injected")
	require.LessOrEqual(t, tot.Injected, s.Submitted, "only submitted tasks are injected")
	for i, w := range s.Workers {
		require.LessOrEqual(t, w.Steals, w.StealTries, "worker %d", i)
		require.Equal(t, w.Steals+w.Injected, w.Tasks, "worker %d", i)
	}
	require.Positive(t, s.Uptime)
}

func TestStatsAfterWork(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	t.Cleanup(p.Close)
	before := p.Stats().Total()
	require.Zero(t, before.Tasks)
	require.Zero(t, before.Steals)

	require.True(t, forceSteal(p), "no attempt saw its second piece stolen")
	s := quietStats(p)
	requireConsistent(t, s)
	require.GreaterOrEqual(t, s.Total().Steals, uint64(1))
	require.GreaterOrEqual(t, s.Total().Tasks, uint64(1))

	// More work only adds to the counts.
	par.For(100_000, func(int) {}, par.OnPool(p), par.WithGrain(100))
	var f int
	par.Do(func(w *par.Worker) { f = fib(w, 18) }, par.OnPool(p))
	require.Equal(t, 2584, f)
	s2 := quietStats(p)
	requireConsistent(t, s2)
	require.GreaterOrEqual(t, s2.Total().Tasks, s.Total().Tasks)
	require.GreaterOrEqual(t, s2.Total().StealTries, s.Total().StealTries)
	require.Positive(t, s2.Total().Inline, "forks taken back by their forker")
	require.Positive(t, s2.Total().Busy)
	require.GreaterOrEqual(t, s2.Uptime, s.Uptime)
}

// forceSteal makes calls on p of two pieces whose first waits until the second
// has started elsewhere, until one succeeds, and reports whether one did: the
// second piece must then have been stolen. A try can fail when the pool's
// workers are not idle at the fork (they may not have started yet), since a
// fork made while none is idle may stay private until the forker's next push
// or pop (see private_fork_bug_test.go); the next try finds them idle.
func forceSteal(p *par.Pool) bool {
	for range 20 {
		started := make(chan struct{})
		var stolen atomic.Bool
		par.For(2, func(i int) {
			if i == 1 {
				close(started)
				return
			}
			select {
			case <-started:
				stolen.Store(true)
			case <-time.After(100 * time.Millisecond):
			}
		}, par.OnPool(p), par.WithGrain(1))
		if stolen.Load() {
			return true
		}
	}
	return false
}

func TestDefaultStats(t *testing.T) {
	par.For(10_000, func(int) {}, par.WithGrain(10))
	s := par.DefaultStats()
	require.Len(t, s.Workers, par.DefaultWorkers())
	require.Positive(t, s.Total().Inline)
}

func TestCloseTwice(t *testing.T) {
	p := par.NewPool(par.Workers(3))
	require.Equal(t, 6765, fibOn(p))
	p.Close()
	p.Close()
	// Concurrent Closes, and Close of a pool never used.
	q := par.NewPool(par.Workers(2))
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); q.Close() }()
	}
	wg.Wait()
}

func fibOn(p *par.Pool) int {
	var r int
	par.Do(func(w *par.Worker) { r = fib(w, 20) }, par.OnPool(p))
	return r
}

// TestClosedPoolPanics: calls that reach a closed pool panic with an error
// that says so. (Calls small enough to finish before they reach the pool are
// in pool_bug_test.go.)
func TestClosedPoolPanics(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	p.Close()
	big := indices(1_000_000)
	on := par.OnPool(p)
	for name, call := range map[string]func(){
		"Do":         func() { par.Do(func(*par.Worker) {}, on) },
		"Join":       func() { par.Join(func() {}, func() {}, on) },
		"Sum":        func() { par.Sum(big, on) },
		"For/grain":  func() { par.For(10, func(int) {}, on, par.WithGrain(1)) },
		"Map/grain":  func() { par.Map(big[:10], func(x int) int { return x }, on, par.WithGrain(2)) },
		"Map/big":    func() { par.Map(big, func(x int) int { return x }, on) },
		"Reduce/big": func() { par.Reduce(big, 0, func(a, b int) int { return a + b }, on) },
	} {
		t.Run(name, func(t *testing.T) {
			v := panicValue(t, call)
			err, ok := v.(error)
			require.True(t, ok, "the panic value %v is not an error", v)
			require.Contains(t, err.Error(), "Close")
		})
	}
}

// TestNoGoroutineLeftAfterClose: Close returns once the pool's goroutines have
// exited, including workers that restarted after a task called Goexit.
func TestNoGoroutineLeftAfterClose(t *testing.T) {
	before := waitGoroutines(runtime.NumGoroutine())
	for _, n := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(n))
		par.For(100_000, func(int) {}, par.OnPool(p), par.WithGrain(100))
		require.Equal(t, 6765, fibOn(p))
		how, _ := runOn(func() {
			par.For(1000, func(i int) {
				if i%100 == 99 {
					runtime.Goexit()
				}
			}, par.OnPool(p), par.WithGrain(1))
		})
		require.Equal(t, goexited, how)
		p.Close()
		require.LessOrEqual(t, waitGoroutines(before), before, "goroutines left after Close of a pool of %d", n)
	}
}
