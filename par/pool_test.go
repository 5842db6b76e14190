package par_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Pools: their size, Close (any number of times, from any goroutine, leaving
// no goroutine behind), and what a call directed at a closed pool does.

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

// A call directed at a closed pool panics with an error that wraps ErrClosed,
// whatever its input: one that reaches the pool, one small enough to finish
// on the caller, an empty one (Pool.Close: "calls made after Close panic").

// requireClosedPanics runs every call as a subtest and requires it to panic
// with an error that mentions Close.
func requireClosedPanics(t *testing.T, what string, calls map[string]func()) {
	t.Helper()
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			v := panicValue(t, call)
			err, ok := v.(error)
			require.True(t, ok, "%s %s on a closed pool: the panic value %v is not an error", name, what, v)
			require.Contains(t, err.Error(), "Close")
		})
	}
}

// TestClosedPoolPanics: calls that reach a closed pool panic with an error
// that says so.
func TestClosedPoolPanics(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	p.Close()
	big := indices(1_000_000)
	on := par.OnPool(p)
	requireClosedPanics(t, "", map[string]func(){
		"Do":         func() { par.Do(func(*par.Worker) {}, on) },
		"Join":       func() { par.Join(func() {}, func() {}, on) },
		"Sum":        func() { par.Sum(big, on) },
		"For/grain":  func() { par.For(10, func(int) {}, on, par.WithGrain(1)) },
		"Map/grain":  func() { par.Map(big[:10], func(x int) int { return x }, on, par.WithGrain(2)) },
		"Map/big":    func() { par.Map(big, func(x int) int { return x }, on) },
		"Reduce/big": func() { par.Reduce(big, 0, func(a, b int) int { return a + b }, on) },
	})
}

// TestClosedPoolSmallCallPanics: a call small enough to finish in its
// sequential prefix, without reaching the pool, panics all the same.
// Once caught: Map of 3 elements on a closed pool returned [2 3 4], and panicked only as f got slower.
func TestClosedPoolSmallCallPanics(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	p.Close()
	on := par.OnPool(p)
	s := []int{1, 2, 3}
	requireClosedPanics(t, "of 3 elements", map[string]func(){
		"Map":   func() { par.Map(s, func(x int) int { return x + 1 }, on) },
		"For":   func() { par.For(len(s), func(int) {}, on) },
		"Sum":   func() { par.Sum(s, on) },
		"Count": func() { par.Count(s, func(int) bool { return true }, on) },
		"Any":   func() { par.Any(s, func(int) bool { return false }, on) },
	})
}

// TestClosedPoolEmptyCallPanics: a call of an empty input panics all the
// same, though it has nothing to run.
// Once caught (by the soak of `go run ./bench -soak`): Sum of an empty slice on a closed pool returned 0.
func TestClosedPoolEmptyCallPanics(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	p.Close()
	on := par.OnPool(p)
	var s []int
	requireClosedPanics(t, "of an empty input", map[string]func(){
		"Sum":      func() { par.Sum(s, on) },
		"Map":      func() { par.Map(s, func(x int) int { return x }, on) },
		"For":      func() { par.For(0, func(int) {}, on) },
		"ForRange": func() { par.ForRange(0, func(int, int) {}, on) },
		"ForEach":  func() { par.ForEach(s, func(int) {}, on) },
		"Filter":   func() { par.Filter(s, func(int) bool { return true }, on) },
		"Reduce":   func() { par.Reduce(s, 0, func(a, b int) int { return a + b }, on) },
		"Count":    func() { par.Count(s, func(int) bool { return true }, on) },
		"Find":     func() { par.Find(s, func(int) bool { return true }, on) },
		"Any":      func() { par.Any(s, func(int) bool { return true }, on) },
		"Sort":     func() { par.Sort(s, on) },
		"MapErr": func() {
			par.MapErr(context.Background(), s, func(context.Context, int) (int, error) { return 0, nil }, on)
		},
		"ForEachErr": func() {
			par.ForEachErr(context.Background(), s, func(context.Context, int) error { return nil }, on)
		},
	})
}

// TestErrClosedMatches: the panic value of a call on a closed pool is
// ErrClosed for errors.Is.
func TestErrClosedMatches(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	p.Close()
	defer func() {
		err, ok := recover().(error)
		require.True(t, ok)
		require.True(t, errors.Is(err, par.ErrClosed))
	}()
	par.For(10, func(int) {}, par.OnPool(p))
	t.Fatal("no panic")
}

// TestClosedPoolMessages: a call directed at a closed pool panics, on an
// empty input as on a long one, with an error that wraps ErrClosed and names
// the call and the option; the default pool and other pools are not affected.
func TestClosedPoolMessages(t *testing.T) {
	closed := par.NewPool(par.Workers(2))
	closed.Close()
	other := par.NewPool(par.Workers(2))
	defer other.Close()
	for _, c := range optCallsOf() {
		for _, n := range []int{0, 1, 1000} {
			t.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(t *testing.T) {
				v := panicValue(t, func() { c.call(n, []par.Option{par.WithMinLen(2), par.OnPool(closed)}) })
				err, ok := v.(error)
				require.True(t, ok, "the panic value is an error, got %T", v)
				require.ErrorIs(t, err, par.ErrClosed)
				require.EqualError(t, err, fmt.Sprintf("par: %s: OnPool in opts[1]: weft: pool used after Close", c.name))
				// Even when a later OnPool directs the call elsewhere.
				v = panicValue(t, func() { c.call(n, []par.Option{par.OnPool(closed), par.OnPool(other)}) })
				require.EqualError(t, v.(error), fmt.Sprintf("par: %s: OnPool in opts[0]: weft: pool used after Close", c.name))
				c.call(n, []par.Option{par.OnPool(other)})
			})
		}
	}
	requireUsable(t, nil)
	requireUsable(t, other)
}

// TestSeqClosedPool: a pass over a sequence on a closed pool panics too.
func TestSeqClosedPool(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	p.Close()
	xs := seqInts(seqRand(16), 10_000)
	v := panicValue(t, func() {
		for range par.MapSeq(slices.Values(xs), func(x int) int { return x }, par.OnPool(p), par.WithGrain(100)) {
		}
	})
	err, ok := v.(error)
	require.True(t, ok, "the panic value is an error")
	require.ErrorIs(t, err, par.ErrClosed)
	require.EqualError(t, err, "par: MapSeq: OnPool in opts[0]: weft: pool used after Close")
}
