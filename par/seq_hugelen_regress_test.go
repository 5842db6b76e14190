package par_test

import (
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestSeqHugeMinLen checks a fixed bug found by FuzzOptions: a pass over a
// sequence given WithMinLen(math.MaxInt) allocated its first batch at the
// minimum length and panicked with "makeslice: len out of range"; with
// WithMinLen(1<<40) it would have asked for terabytes. A batch longer than
// the memory cap grows as it fills, as one of a long grain does.
func TestSeqHugeMinLen(t *testing.T) {
	xs := indices(1000)
	want := make([]int, len(xs))
	for i, x := range xs {
		want[i] = 2 * x
	}
	for _, opts := range [][]par.Option{
		{par.WithMinLen(math.MaxInt)},
		{par.WithMinLen(1 << 40)},
		{par.WithMinLen(math.MaxInt), par.WithGrain(math.MaxInt)},
		{par.WithGrain(math.MaxInt), par.WithMinLen(math.MaxInt)},
	} {
		var got []int
		for y := range par.MapSeq(slices.Values(xs), func(x int) int { return 2 * x }, opts...) {
			got = append(got, y)
		}
		require.Equal(t, want, got, "MapSeq")
		got = got[:0]
		for y := range par.FilterSeq(slices.Values(xs), func(x int) bool { return x%2 == 0 }, opts...) {
			got = append(got, y)
		}
		require.Len(t, got, len(xs)/2, "FilterSeq")
		require.Equal(t, len(xs)*(len(xs)-1)/2, par.ReduceSeq(slices.Values(xs), 0, func(a, b int) int { return a + b }, opts...), "ReduceSeq")
		require.Equal(t, len(xs)*(len(xs)-1)/2, par.SumSeq(slices.Values(xs), opts...), "SumSeq")
		var n atomic.Int64
		par.ForEachSeq(slices.Values(xs), func(int) { n.Add(1) }, opts...)
		require.Equal(t, int64(len(xs)), n.Load(), "ForEachSeq")
	}
}
