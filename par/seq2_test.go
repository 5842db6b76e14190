package par_test

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// seqWatched2 is seqWatched for pairs: the pairs of slices.All(xs), counted
// in *pulled, pulled through seqWatched so that it checks that the sequence
// runs on the consumer's goroutine.
func seqWatched2(t *testing.T, xs []int, pulled *int) iter.Seq2[int, int] {
	keys := seqWatched(t, indices(len(xs)), pulled)
	return func(yield func(int, int) bool) {
		for i := range keys {
			if !yield(i, xs[i]) {
				return
			}
		}
	}
}

func TestMapSeq2(t *testing.T) {
	f := func(i, x int) int { return 3*x ^ i }
	seqEachCase(t, func(t *testing.T, xs []int, opts []par.Option) {
		pulled, behind := 0, 0
		got := []int{}
		for y := range par.MapSeq2(seqWatched2(t, xs, &pulled), f, opts...) {
			got = append(got, y)
			if pulled < len(got) {
				behind++
			}
		}
		want := make([]int, 0, len(xs))
		for i, x := range xs {
			want = append(want, f(i, x))
		}
		require.Equal(t, want, got)
		require.Equal(t, len(xs), pulled)
		require.Zero(t, behind, "a result came before its pair was pulled")
	})
}

func TestForEachSeq2(t *testing.T) {
	seqEachCase(t, func(t *testing.T, xs []int, opts []par.Option) {
		hits := make([]atomic.Int32, len(xs))
		got := make([]int, len(xs))
		pulled := 0
		par.ForEachSeq2(seqWatched2(t, xs, &pulled), func(i, x int) {
			hits[i].Add(1)
			got[i] = x // each key comes once: no other call writes got[i]
		}, opts...)
		bad := 0
		for i := range hits {
			if hits[i].Load() != 1 {
				bad++
			}
		}
		require.Zero(t, bad, "pairs not called exactly once")
		require.Equal(t, xs, got, "f(k, v) must get the pair's value with its key")
		require.Equal(t, len(xs), pulled)
	})
}

// TestForEachSeq2Map ranges over a map's pairs, the common source.
func TestForEachSeq2Map(t *testing.T) {
	m := map[string]int{}
	for i := range 5000 {
		m[fmt.Sprint("k", i)] = i
	}
	for _, p := range testPools(t) {
		var sum atomic.Int64
		par.ForEachSeq2(maps.All(m), func(k string, v int) {
			if k != fmt.Sprint("k", v) {
				t.Errorf("pair %q, %d", k, v)
			}
			sum.Add(int64(v))
		}, append(poolOpts(p), par.WithGrain(64))...)
		require.Equal(t, int64(5000*4999/2), sum.Load(), poolName(p))
	}
}

// TestMapSeq2Break: a loop that stops early stops the pulling, and sees the
// first results in order.
func TestMapSeq2Break(t *testing.T) {
	xs := indices(100_000)
	for _, opts := range [][]par.Option{nil, {par.WithGrain(100)}} {
		pulled := 0
		var got []int
		for y := range par.MapSeq2(seqWatched2(t, xs, &pulled), func(i, x int) int { return i + x }, opts...) {
			got = append(got, y)
			if len(got) == 1000 {
				break
			}
		}
		want := make([]int, 1000)
		for i := range want {
			want[i] = 2 * i
		}
		require.Equal(t, want, got)
		require.Less(t, pulled, len(xs), "the sequence was pulled to its end after the break")
	}
}

// TestSeq2ModeFlips runs the Seq2 forms while every pass moves between
// working alone and on the pool after every batch.
func TestSeq2ModeFlips(t *testing.T) {
	par.SetSeqFlip(true)
	defer par.SetSeqFlip(false)
	xs := seqInts(seqRand(31), 20_000)
	for _, w := range []int{1, 2, 8} {
		opts := []par.Option{par.OnPool(seqPool(t, w))}
		got := slices.Collect(par.MapSeq2(slices.All(xs), func(i, x int) int { return x - i }, opts...))
		for i, x := range xs {
			if got[i] != x-i {
				t.Fatalf("p%d: element %d = %d, want %d", w, i, got[i], x-i)
			}
		}
		hits := make(counts, len(xs))
		par.ForEachSeq2(slices.All(xs), func(i, _ int) { hits[i].Add(1) }, opts...)
		requireOnce(t, hits, "f(k, v) for k =")
	}
}

// TestSeq2Nested ranges over MapSeq2 inside the callbacks of another call.
func TestSeq2Nested(t *testing.T) {
	p := seqPool(t, 2)
	xs := seqInts(seqRand(32), 10_000)
	want := 0
	for i, x := range xs {
		want += x + i
	}
	sums := par.Map([]int{0, 1, 2, 3}, func(int) int {
		s := 0
		for y := range par.MapSeq2(slices.All(xs), func(i, x int) int { return x + i }, par.OnPool(p), par.WithGrain(100)) {
			s += y
		}
		var t atomic.Int64
		par.ForEachSeq2(slices.All(xs), func(i, x int) { t.Add(int64(x + i)) }, par.OnPool(p))
		return s - int(t.Load())
	}, par.OnPool(p))
	require.Equal(t, []int{0, 0, 0, 0}, sums)
}

// TestSeq2ClosedPool: a pool closed before the pass begins gives the error of
// a closed pool, naming the Seq2 function.
func TestSeq2ClosedPool(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	opts := []par.Option{par.OnPool(p), par.WithGrain(100)}
	seq := par.MapSeq2(slices.All(indices(1000)), func(i, x int) int { return x }, opts...)
	p.Close()
	v := panicValue(t, func() {
		for range seq {
		}
	})
	err, ok := v.(error)
	require.True(t, ok, "the panic value is an error")
	require.ErrorIs(t, err, par.ErrClosed)
	require.EqualError(t, err, "par: MapSeq2: OnPool, closed during the pass: weft: pool used after Close")
}
