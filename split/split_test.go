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

// TestStepLeaves: a call's pieces are cut while they hold two steps or
// more (StepOf: a Steps-th of a participant's share) and never below one,
// whatever the demand; where a step holds less than MinStep at the
// prefix's pace, leaves hold up to MinStep and demand cuts them, but not
// below MinPiece of the pool's wake-up.
func TestStepLeaves(t *testing.T) {
	const n = 1 << 22
	calm := func(int) bool { return false }
	busy := func(int) bool { return true }
	for _, parts := range []int{2, 8, 64} {
		step := split.StepOf(n, parts)
		require.Equal(t, (n+parts*split.Steps-1)/(parts*split.Steps), step)
		for name, stolen := range map[string]func(int) bool{"calm": calm, "busy": busy} {
			for _, pace := range []split.Pace{{}, {N: step / 4, D: split.MinStep}} { // no pace, and a step worth 4 MinStep
				ls := leaves(split.ForRange(parts, n, 1, 0, pace, 0), n, stolen)
				require.Equal(t, n, sum(ls))
				for _, l := range ls {
					require.GreaterOrEqual(t, l, step, "P=%d %s pace %v", parts, name, pace)
					require.Less(t, l, 2*step, "P=%d %s pace %v", parts, name, pace)
				}
			}
		}
	}
	// A short call: a step holds less than MinStep at the pace.
	pace := split.Pace{N: 8000, D: split.MinStep} // 2,000 elements a µs
	for _, tc := range []struct {
		wake  time.Duration
		least int
	}{
		{4 * time.Microsecond, 2000},   // a wake-up of bare metal: pieces of 1 µs
		{100 * time.Microsecond, 2500}, // of a small VM: 1.25 µs
		{0, 2500},                      // unmeasured: the same
	} {
		ls := leaves(split.ForRange(2, 100_000, 1, 0, pace, tc.wake), 100_000, calm)
		require.LessOrEqual(t, len(ls), 2*100_000/8000+2, "calm: leaves of up to MinStep")
		for _, l := range ls {
			require.LessOrEqual(t, l, 8000)
		}
		ls = leaves(split.ForRange(2, 100_000, 1, 0, pace, tc.wake), 100_000, busy)
		require.Greater(t, len(ls), 100_000/8000, "stolen: cut further")
		for _, l := range ls {
			require.GreaterOrEqual(t, l, tc.least, "wake %v: not below MinPiece", tc.wake)
		}
	}
	require.Equal(t, split.Fixed(100), split.ForRange(2, n, 7, 100, pace, 0), "a grain")
}

// TestStepOfNearIntLimit: the step of a range near the int limit does not
// overflow.
func TestStepOfNearIntLimit(t *testing.T) {
	require.Equal(t, math.MaxInt/(2*split.Steps)+1, split.StepOf(math.MaxInt, 2))
	require.Equal(t, 1, split.StepOf(1, 64))
	require.Equal(t, 1, split.StepOf(0, 2))
}

// TestWorthHalving: a running leaf gives half of its rest away only if the
// half holds MinPiece of the pool's wake-up or more at the pace of its last
// step, or the clock could not time that step.
func TestWorthHalving(t *testing.T) {
	const bare = 4 * time.Microsecond // a wake-up: pieces of 1 µs
	piece := split.MinPiece(bare)
	sp := split.ForRange(2, 1<<20, 1, 0, split.Pace{}, bare)
	for _, c := range []struct {
		rest, step int
		el         time.Duration
		want       bool
	}{
		{rest: 2000, step: 1000, el: piece, want: true},        // 2 MinPiece left: halves of one
		{rest: 1999, step: 1000, el: piece, want: false},       // just short
		{rest: 2, step: 1, el: piece, want: true},              // dear elements: two of them
		{rest: 1 << 20, step: 1 << 20, el: piece, want: false}, // cheap ones: not even a million
		{rest: 10, step: 1000, el: 0, want: true},              // the clock could not tell
	} {
		require.Equal(t, c.want, sp.WorthHalving(c.rest, c.step, c.el), "rest %d after a step of %d in %v", c.rest, c.step, c.el)
	}
	for _, sp := range []split.Splitter{split.New(2, 1, 0), split.ForRange(2, 1<<20, 1, 0, split.Pace{}, 0)} {
		require.False(t, sp.WorthHalving(2499, 1000, split.MinPiece(bare)), "unmeasured: 1.25 µs")
		require.True(t, sp.WorthHalving(2500, 1000, split.MinPiece(bare)), "unmeasured: 1.25 µs")
	}
}

// TestMinPiece: the least piece is a sixteenth of the prefix's budget: a
// quarter of the pool's wake-up within a sixteenth of MinStep and of
// PrefixBudget, and a sixteenth of PrefixBudget while unmeasured.
func TestMinPiece(t *testing.T) {
	for _, c := range []struct{ wake, want time.Duration }{
		{0, split.PrefixBudget / 16},
		{-1, split.PrefixBudget / 16},
		{time.Microsecond, split.MinStep / 16},
		{4 * time.Microsecond, time.Microsecond}, // the simulator's bare metal
		{5 * time.Microsecond, split.PrefixBudget / 16},
		{70 * time.Microsecond, split.PrefixBudget / 16}, // this repository's VM
	} {
		require.Equal(t, c.want, split.MinPiece(c.wake), "wake-up %v", c.wake)
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
// limit is cut into about RecordDepth pieces per participant, as any other:
// n rounded up must not overflow into leaves of one element.
func TestForWholeNearIntLimit(t *testing.T) {
	const n = math.MaxInt
	s := split.ForWhole(2, n, 1, 0, split.Pace{}, 0)
	cuts := 0
	for m := n; s.TrySplit(m, false); m /= 2 {
		cuts++
	}
	require.LessOrEqual(t, cuts, 8, "halvings of the leftmost piece")
	require.GreaterOrEqual(t, cuts, 3, "two shares of RecordDepth (4) leaves: eight, three halvings")
}

// TestForWholeThiefTakesWhole: a whole-leaf call's pieces are cut only down
// to a RecordDepth-th of a participant's share, and a thief runs the piece
// it takes whole: a budget refilled on each steal made up to two leaves per
// participant a steal.
func TestForWholeThiefTakesWhole(t *testing.T) {
	for _, parts := range []int{2, 8, 64} {
		const n = 1 << 24
		s := split.ForWhole(parts, n, 1, 0, split.Pace{}, 0)
		m := n
		for ; s.TrySplit(m, false); m /= 2 {
		}
		require.LessOrEqual(t, m, n/(parts*split.RecordDepth), "a leaf of %d participants", parts)
		require.Greater(t, m, n/(2*parts*split.RecordDepth))
		require.False(t, s.TrySplit(m, true), "a stolen leaf of %d participants cut again", parts)
	}
}
