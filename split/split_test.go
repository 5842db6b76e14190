package split_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/split"
)

// leaves cuts [0, n) as the scheduler does, with the pieces in the order
// given by stolenAt (whether the piece starting at lo counts as stolen), and
// returns the leaf lengths in order.
func leaves(sp split.Splitter, n int, stolen func(lo int) bool) []int {
	var out []int
	var cut func(lo, hi int, sp split.Splitter, st bool)
	cut = func(lo, hi int, sp split.Splitter, st bool) {
		if !sp.TrySplit(hi-lo, st) {
			out = append(out, hi-lo)
			return
		}
		mid := lo + (hi-lo)/2
		cut(lo, mid, sp, false)
		cut(mid, hi, sp, stolen(mid))
	}
	cut(0, n, sp, false)
	return out
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func TestUndisturbedBudget(t *testing.T) {
	// Without steals, a budget of w splits gives about 2w pieces: cheap for a
	// balanced loop, enough to feed every worker once.
	for _, w := range []int{1, 2, 4, 8, 16} {
		ls := leaves(split.New(w, 1, 0), 1<<20, func(int) bool { return false })
		require.Equal(t, 1<<20, sum(ls))
		require.LessOrEqual(t, len(ls), 2*w, "workers=%d", w)
		require.GreaterOrEqual(t, len(ls), w, "workers=%d", w)
	}
}

func TestStolenPiecesSplitAgain(t *testing.T) {
	// Every right half stolen: thief-splitting refills the budget each time,
	// so the range is cut far finer than the undisturbed budget allows.
	calm := leaves(split.New(2, 1, 0), 1<<16, func(int) bool { return false })
	busy := leaves(split.New(2, 1, 0), 1<<16, func(int) bool { return true })
	require.Equal(t, 1<<16, sum(busy))
	require.Greater(t, len(busy), 10*len(calm))
}

func TestMinLength(t *testing.T) {
	for _, min := range []int{1, 3, 100, 1000} {
		for _, n := range []int{0, 1, 2, min - 1, min, min + 1, 2 * min, 2*min + 1, 100000} {
			if n < 0 {
				continue
			}
			ls := leaves(split.New(8, min, 0), n, func(int) bool { return true })
			require.Equal(t, n, sum(ls))
			if len(ls) > 1 {
				for _, l := range ls {
					require.GreaterOrEqual(t, l, min, "min=%d n=%d leaves=%v", min, n, ls)
				}
			}
		}
	}
}

func TestFixedGrain(t *testing.T) {
	for _, g := range []int{1, 2, 7, 64, 1000} {
		for _, n := range []int{1, g - 1, g, g + 1, 10*g + 3, 100000} {
			if n < 1 {
				continue
			}
			t.Run(fmt.Sprintf("g%d/n%d", g, n), func(t *testing.T) {
				// Steals must not matter to a fixed grain.
				a := leaves(split.Fixed(g), n, func(int) bool { return false })
				b := leaves(split.Fixed(g), n, func(int) bool { return true })
				require.Equal(t, a, b)
				require.Equal(t, n, sum(a))
				for _, l := range a {
					require.LessOrEqual(t, l, g)
					if n >= g {
						require.GreaterOrEqual(t, l, g/2)
					}
				}
			})
		}
	}
}

func TestMaxLength(t *testing.T) {
	ls := leaves(split.New(2, 1, 1000), 1<<16, func(int) bool { return false })
	for _, l := range ls {
		require.LessOrEqual(t, l, 1000)
	}
}

func TestNewRejectsNoWorkers(t *testing.T) {
	require.PanicsWithValue(t, "split: workers = 0, want at least 1", func() { split.New(0, 1, 0) })
}

func TestProbe(t *testing.T) {
	m := split.Probe()
	require.GreaterOrEqual(t, m.Workers, 1)
	require.Greater(t, m.L1D, 0)
	require.Greater(t, m.L2, 0)
	require.Equal(t, m.L2/2/8, split.StreamLen(8))
	require.Equal(t, 1, max(1, split.StreamLen(1<<30)))
}
