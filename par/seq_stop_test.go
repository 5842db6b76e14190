package par_test

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// How a pass over a sequence ends early: a break in the loop body, a panic in
// f, in the body or in the sequence, or runtime.Goexit; nothing of the pass
// runs or pulls on afterwards, and no goroutine is left.

// seqMaxBatch is the most elements of int a batch may hold (256 KiB of
// elements and results).
const seqMaxBatch = 256 << 10 / 16

// seqStopPool returns a new pool of the given workers, which the caller
// closes, and the options of a pass on it with the given grain (0: adaptive).
func seqStopPool(workers, grain int) (*par.Pool, []par.Option) {
	p := par.NewPool(par.Workers(workers))
	opts := []par.Option{par.OnPool(p)}
	if grain > 0 {
		opts = append(opts, par.WithGrain(grain))
	}
	return p, opts
}

func TestMapSeqEarlyBreak(t *testing.T) {
	n := seqBig()
	xs := seqInts(seqRand(11), n)
	for _, workers := range []int{1, 2, 8} {
		for _, grain := range []int{0, 64} {
			for _, stopAt := range []int{0, 1, 5, 1000, n / 2, n - 1} {
				t.Run(fmt.Sprintf("p%d/grain%d/stop%d", workers, grain, stopAt), func(t *testing.T) {
					base := runtime.NumGoroutine()
					p, opts := seqStopPool(workers, grain)
					defer p.Close()
					var active, late atomic.Int64
					var ended atomic.Bool
					f := func(x int) int {
						active.Add(1)
						if ended.Load() {
							late.Add(1)
						}
						x = 5*x + 3
						active.Add(-1)
						return x
					}
					pulled, i, wrong := 0, 0, 0
					for y := range par.MapSeq(seqWatched(t, xs, &pulled), f, opts...) {
						if y != 5*xs[i]+3 {
							wrong++
						}
						if i == stopAt {
							break
						}
						i++
					}
					ended.Store(true)
					require.Zero(t, wrong)
					require.Equal(t, stopAt, i)
					require.Zero(t, active.Load(), "f still running after the loop")
					require.LessOrEqual(t, pulled, stopAt+1+(2*workers+1)*max(seqMaxBatch, grain), "pulled on after the break")
					require.Equal(t, par.Sum(xs), par.Sum(xs, par.OnPool(p)), "the pool is still usable")
					p.Close() // runs every job still queued
					require.Zero(t, late.Load(), "f called after the loop")
					require.LessOrEqual(t, waitGoroutines(base), base, "goroutines left behind")
				})
			}
		}
	}
}

func TestFilterSeqEarlyBreak(t *testing.T) {
	n := seqBig()
	xs := seqInts(seqRand(12), n)
	p := seqPool(t, 2)
	keep := func(x int) bool { return x%2 == 1 }
	var want []int
	for _, x := range xs {
		if keep(x) {
			want = append(want, x)
		}
	}
	for _, stopAt := range []int{0, 3, 10_000, len(want) - 1} {
		for _, grain := range []int{0, 100} {
			opts := []par.Option{par.OnPool(p)}
			if grain > 0 {
				opts = append(opts, par.WithGrain(grain))
			}
			var got []int
			for y := range par.FilterSeq(slices.Values(xs), keep, opts...) {
				got = append(got, y)
				if len(got) == stopAt+1 {
					break
				}
			}
			require.Equal(t, want[:stopAt+1], got)
		}
	}
}

// seqBoom is a panic value that says where it came from.
type seqBoom struct{ at int }

func TestSeqPanicInF(t *testing.T) {
	n := seqBig()
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	for _, workers := range []int{1, 2, 8} {
		for _, grain := range []int{0, 50} {
			for _, at := range []int{0, 10, 5000, n - 1} {
				t.Run(fmt.Sprintf("p%d/grain%d/at%d", workers, grain, at), func(t *testing.T) {
					base := runtime.NumGoroutine()
					p, opts := seqStopPool(workers, grain)
					defer p.Close()
					var active atomic.Int64
					boom := func(x int) {
						active.Add(1)
						defer active.Add(-1)
						if x == at {
							panic(seqBoom{at})
						}
					}
					want := seqBoom{at}
					require.PanicsWithValue(t, want, func() {
						for range par.MapSeq(slices.Values(xs), func(x int) int { boom(x); return x }, opts...) {
						}
					}, "MapSeq")
					require.Zero(t, active.Load())
					require.PanicsWithValue(t, want, func() {
						for range par.FilterSeq(slices.Values(xs), func(x int) bool { boom(x); return true }, opts...) {
						}
					}, "FilterSeq")
					require.PanicsWithValue(t, want, func() {
						par.ForEachSeq(slices.Values(xs), boom, opts...)
					}, "ForEachSeq")
					require.Zero(t, active.Load())
					require.PanicsWithValue(t, want, func() {
						par.ReduceSeq(slices.Values(xs), 0, func(a, b int) int { boom(b); return a + b }, opts...)
					}, "ReduceSeq")
					require.Zero(t, active.Load())
					require.Equal(t, par.Sum(xs), par.SumSeq(slices.Values(xs), opts...), "the pool is still usable")
					p.Close()
					require.LessOrEqual(t, waitGoroutines(base), base, "goroutines left behind")
				})
			}
		}
	}
}

func TestSeqPanicInLoopBodyAndSequence(t *testing.T) {
	n := seqBig()
	xs := seqInts(seqRand(13), n)
	p := seqPool(t, 2)
	var active atomic.Int64
	f := func(x int) int { active.Add(1); defer active.Add(-1); return x }
	for _, at := range []int{0, 100, n / 2} {
		for _, grain := range []int{0, 100} {
			opts := []par.Option{par.OnPool(p)}
			if grain > 0 {
				opts = append(opts, par.WithGrain(grain))
			}
			require.PanicsWithValue(t, seqBoom{at}, func() {
				i := 0
				for range par.MapSeq(slices.Values(xs), f, opts...) {
					if i == at {
						panic(seqBoom{at})
					}
					i++
				}
			})
			require.Zero(t, active.Load())
			require.PanicsWithValue(t, seqBoom{at}, func() {
				bad := func(yield func(int) bool) {
					for i, x := range xs {
						if i == at {
							panic(seqBoom{at})
						}
						if !yield(x) {
							return
						}
					}
				}
				par.ForEachSeq(bad, func(x int) { f(x) }, opts...)
			})
			require.Zero(t, active.Load())
		}
	}
}

func TestMapSeqGoexitInF(t *testing.T) {
	p := seqPool(t, 2)
	xs := seqInts(seqRand(14), 100_000)
	for _, at := range []int{0, 90_000} {
		done := make(chan bool)
		go func() {
			after := false
			defer func() { done <- after }()
			for range par.MapSeq(slices.Values(xs), func(x int) int {
				if x == xs[at] {
					runtime.Goexit()
				}
				return x
			}, par.OnPool(p), par.WithGrain(1000)) {
			}
			after = true
		}()
		require.False(t, <-done, "the range went on after f called Goexit")
	}
	require.Equal(t, par.Sum(xs), par.SumSeq(slices.Values(xs), par.OnPool(p)))
}
