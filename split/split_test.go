package split_test

import (
	"fmt"
	"math"
	"testing"
	"time"

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

func TestNewRejectsNoParticipants(t *testing.T) {
	require.PanicsWithValue(t, "split: participants = 0, want at least 1", func() { split.New(0, 1, 0) })
}

// TestPacedLeaves: after a timed prefix, a long call's leaves are bounded by
// LeafTarget at the prefix's pace, or, when the pace would make them too
// many, by MaxLeavesPerWorker leaves per participant; without a pace, only
// demand cuts the range.
func TestPacedLeaves(t *testing.T) {
	const n, parts = 1 << 20, 2
	floor := n / (parts * split.MaxLeavesPerWorker)
	calm := func(int) bool { return false }
	at := func(elems int) split.Pace { return split.Pace{N: elems, D: split.LeafTarget} }
	for _, tc := range []struct {
		name    string
		pace    split.Pace
		maxLeaf int
	}{
		{"pace above the floor", at(3 * floor), 3 * floor},
		{"pace below the floor", at(floor / 8), floor},
		{"a single element's pace", at(1), floor},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls := leaves(split.ForRange(parts, n, 1, 0, tc.pace), n, calm)
			require.Equal(t, n, sum(ls))
			for _, l := range ls {
				require.LessOrEqual(t, l, tc.maxLeaf)
			}
			require.GreaterOrEqual(t, len(ls), n/tc.maxLeaf)
		})
	}
	t.Run("no pace", func(t *testing.T) {
		ls := leaves(split.ForRange(parts, n, 1, 0, split.Pace{}), n, calm)
		require.LessOrEqual(t, len(ls), 2*parts, "without a pace the leaves follow demand only")
	})
	t.Run("a grain", func(t *testing.T) {
		require.Equal(t, split.Fixed(100), split.ForRange(parts, n, 7, 100, at(1)))
	})
}

// TestCutsKeepMinPiece: after a timed prefix, cuts, even of pieces stolen
// every time, leave no piece with less than MinPiece of work at the prefix's
// pace (see the package doc, "Cutting"); without a pace, only the minimum
// length bounds them.
func TestCutsKeepMinPiece(t *testing.T) {
	const n = 1 << 16
	busy := func(int) bool { return true }
	for _, perPiece := range []int{1, 100, 1000, 5000} {
		pace := split.Pace{N: perPiece, D: split.MinPiece} // perPiece elements a MinPiece
		ls := leaves(split.ForRange(2, n, 1, 0, pace), n, busy)
		require.Equal(t, n, sum(ls))
		for _, l := range ls {
			require.GreaterOrEqual(t, l, perPiece, "%d elements a MinPiece: leaves %v", perPiece, ls)
		}
		require.Greater(t, len(ls), n/(4*perPiece), "%d elements a MinPiece: still cut while stolen", perPiece)
	}
	ls := leaves(split.ForRange(2, n, 1, 0, split.Pace{}), n, busy)
	require.Contains(t, ls, 1, "no pace: cut to the minimum length")
}

// TestWorthHalving: a running leaf gives half of its rest away only if the
// half holds MinPiece or more at the pace of its last step, or the clock
// could not time that step.
func TestWorthHalving(t *testing.T) {
	sp := split.New(2, 1, 0)
	for _, c := range []struct {
		rest, step int
		el         time.Duration
		want       bool
	}{
		{rest: 2000, step: 1000, el: split.MinPiece, want: true},        // 2 MinPiece left: halves of one
		{rest: 1999, step: 1000, el: split.MinPiece, want: false},       // just short
		{rest: 2, step: 1, el: split.MinPiece, want: true},              // dear elements: two of them
		{rest: 1 << 20, step: 1 << 20, el: split.MinPiece, want: false}, // cheap ones: not even a million
		{rest: 10, step: 1000, el: 0, want: true},                       // the clock could not tell
	} {
		require.Equal(t, c.want, sp.WorthHalving(c.rest, c.step, c.el), "rest %d after a step of %d in %v", c.rest, c.step, c.el)
	}
}

// TestAtLeast: a splitter raised to a minimum length makes no shorter piece,
// whether adaptive or of a fixed grain.
func TestAtLeast(t *testing.T) {
	for _, sp := range []split.Splitter{split.New(4, 1, 0), split.New(4, 1, 50), split.Fixed(100)} {
		ls := leaves(sp.AtLeast(128), 1<<14, func(int) bool { return true })
		require.Equal(t, 1<<14, sum(ls))
		for _, l := range ls {
			require.GreaterOrEqual(t, l, 128)
		}
	}
}

func TestProbe(t *testing.T) {
	m := split.Probe()
	require.GreaterOrEqual(t, m.Workers, 1)
	require.Greater(t, m.L1D, 0)
	require.Greater(t, m.L2, 0)
	require.Equal(t, m.L2/2/8, split.StreamLen(8))
	require.Equal(t, 1, max(1, split.StreamLen(1<<30)))
}

// TestForWholeNearIntLimit: a whole-leaf call over a range near the int
// limit is cut into about WholeLeaves pieces per participant, as any other:
// n rounded up must not overflow into leaves of one element.
func TestForWholeNearIntLimit(t *testing.T) {
	const n = math.MaxInt
	s := split.ForWhole(2, n, 1, 0, split.Pace{})
	cuts := 0
	for m := n; s.TrySplit(m, false); m /= 2 {
		cuts++
	}
	require.LessOrEqual(t, cuts, 8, "halvings of the leftmost piece")
	require.GreaterOrEqual(t, cuts, 4)
}
