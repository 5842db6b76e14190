package par_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// After a timed prefix, a long call's leaves are bounded by the prefix's pace,
// or, when the pace would make them too many, by a number of leaves per
// participant; without a pace, only demand cuts the range.
func TestPacedLeaves(t *testing.T) {
	p := par.NewPool(par.Workers(1)) // two participants with the caller
	t.Cleanup(p.Close)
	const n = 1 << 20
	floor := n / (2 * par.MaxLeavesPerWorker)
	for _, tc := range []struct {
		name     string
		pace     int
		maxLeaf  int
		minCount int
	}{
		{"pace above the floor", 3 * floor, 3 * floor, n / (3 * floor)},
		{"pace below the floor", floor / 8, floor, n / floor},
		{"a single element's pace", 1, floor, n / floor},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var lens []int
			covered := make([]bool, n)
			par.ForRangePaced(n, tc.pace, func(lo, hi int) {
				mu.Lock()
				defer mu.Unlock()
				lens = append(lens, hi-lo)
				for i := lo; i < hi; i++ {
					require.False(t, covered[i], "element %d in two leaves", i)
					covered[i] = true
				}
			}, par.OnPool(p))
			require.NotContains(t, covered, false)
			for _, l := range lens {
				require.LessOrEqual(t, l, tc.maxLeaf)
			}
			require.GreaterOrEqual(t, len(lens), tc.minCount)
		})
	}
	t.Run("no pace", func(t *testing.T) {
		var mu sync.Mutex
		longest := 0
		par.ForRangePaced(n, 0, func(lo, hi int) {
			mu.Lock()
			longest = max(longest, hi-lo)
			mu.Unlock()
		}, par.OnPool(p))
		require.Greater(t, longest, floor, "without a pace the leaves follow demand only")
	})
}
