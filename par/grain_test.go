package par_test

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// How a call cuts its range: never below WithMinLen, leaves bounded by the
// pace of the timed prefix, running leaves that give half of what they have
// left to a hungry participant, and no more cuts once the result is settled.

// TestPacedLeaves: after a timed prefix, a long call's leaves are bounded by
// the prefix's pace, or, when the pace would make them too many, by a number
// of leaves per participant; without a pace, only demand cuts the range.
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

// TestMinLenShortPieces: WithMinLen(n) never makes a piece shorter than n
// elements, the sequential prefix of an adaptive call included: ForRange hands
// its callback pieces of at least 100 elements under WithMinLen(100).
// Once caught: ForRange(1000, f, WithMinLen(100)) got [0,1) [1,9) [9,73) from the prefix.
func TestMinLenShortPieces(t *testing.T) {
	for _, n := range []int{150, 1000, 100_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var mu sync.Mutex
			var short [][2]int
			par.ForRange(n, func(lo, hi int) {
				if hi-lo < 100 {
					mu.Lock()
					short = append(short, [2]int{lo, hi})
					mu.Unlock()
				}
			}, par.WithMinLen(100))
			assert.Empty(t, short, "pieces shorter than WithMinLen(100)")
		})
	}
}

// TestBridgeSplitsAfterStop: once a call has settled its result (here
// FindIndex, whose first element matches), the rest of its range is not cut
// any further: a handful of forks, not one per grain.
// Once caught: with WithGrain(1) every leaf was skipped, yet the call still made about a million forks (some 400 ms on 2 cores).
func TestBridgeSplitsAfterStop(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	const n = 100_000 // enough to tell a handful of forks from n, quick under -race
	s := make([]int, n)
	before := p.Stats().Total()
	require.Equal(t, 0, par.FindIndex(s, func(int) bool { return true }, par.WithGrain(1), par.OnPool(p)))
	after := p.Stats().Total()
	forks := (after.Inline - before.Inline) + (after.Tasks - before.Tasks)
	require.Less(t, forks, uint64(n/100), "the range was still cut into pieces after the call had stopped")
}

// A leaf that is running gives part of what it has left to a participant with
// nothing to do. Here the pool's worker is searching or parked, hence hungry,
// when the leaf starts on the caller; the leaf's elements before the half it can give away
// wait until an element of that half has started on another goroutine. A leaf
// that ran its piece to the end alone would wait forever (the watchdog fails
// the test after 30 s: it checks that the split happens, not how fast).
func TestRunningLeafGivesHalfToHungryWorker(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		name := "halves"
		if fixed {
			name = "fixed-tree"
		}
		t.Run(name, func(t *testing.T) {
			p := par.NewPool(par.Workers(1))
			defer p.Close()
			const n = 64
			var started atomic.Int64 // the first element of the far half to start, plus one
			var ran [n]atomic.Int32
			deadline := time.Now().Add(30 * time.Second)
			par.RunLeaf(p, n, fixed, func(i int) {
				ran[i].Add(1)
				if i >= n/2 {
					started.CompareAndSwap(0, int64(i)+1)
					return
				}
				if i < 4 {
					return // the first step, before the leaf looks for hunger
				}
				for started.Load() == 0 {
					if time.Now().After(deadline) {
						panic("watchdog: no element of the far half started within 30 s")
					}
					runtime.Gosched()
				}
			})
			for i := range ran {
				require.EqualValues(t, 1, ran[i].Load(), "element %d", i)
			}
		})
	}
}
