package split_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/fakeclock"
	"github.com/weftgo/weft/split"
)

// step is one step of a leaf: its length and what it took.
type step struct {
	n int
	d time.Duration
}

// runLeaf runs a leaf of n elements as package par's bridge does when
// nobody is hungry, on c, the elements costing cost, its first step sized by
// before, and returns its steps.
func runLeaf(sp split.Splitter, n int, before split.Pace, c *fakeclock.Clock, cost func(int) time.Duration) []step {
	var steps []step
	t := c.Read()
	s := sp.FirstStep(n, before)
	for cur := 0; ; {
		c.Charge(cur, cur+s, cost)
		cur += s
		now := c.Read()
		steps = append(steps, step{s, now.Sub(t)})
		if cur >= n {
			return steps
		}
		s = sp.NextStep(s, now.Sub(t), n-cur)
		t = now
	}
}

// leafSplitter is the splitter of a leaf: a piece whose budget is spent.
func leafSplitter(minLen int) split.Splitter {
	sp := split.New(1, minLen, 0)
	sp.TrySplit(1<<30, false)
	return sp
}

// TestLeafSteps: a running leaf steps by its call's step (StepOf), each
// step holding at least MinStep at the pace of the step before, and the
// steps cover the leaf. Where cost climbs, a step is the same share of the
// elements, so it takes longer in time, but no longer than its elements do:
// W3's last leaf at 64 participants takes two steps of 25 and 24 elements.
func TestLeafSteps(t *testing.T) {
	uniform := fakeclock.Uniform(1)
	cases := []struct {
		name     string
		n, parts int
		cost     func(i int) time.Duration
	}{
		{"10M uniform on 2", 10_000_000, 2, uniform},
		{"10M uniform on 64", 10_000_000, 64, uniform},
		{"100k uniform on 64: MinStep", 100_000, 64, uniform},
		{"climbing 100x on 2", 1_000_000, 2, func(i int) time.Duration { return time.Duration(1 + i/10_000) }},
		{"W3 on 64", 100_000, 64, fakeclock.W3(100_000)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sp := split.ForRange(tc.parts, tc.n, 1, 0, split.Pace{}, 0)
			q := split.StepOf(tc.n, tc.parts)
			leaf := 2*q - 1 // the longest leaf
			lo := tc.n - leaf
			c := fakeclock.New()
			steps := runLeaf(sp, leaf, split.Pace{}, c, func(i int) time.Duration { return tc.cost(lo + i) })
			covered := 0
			for _, s := range steps {
				covered += s.n
			}
			require.Equal(t, leaf, covered, "the steps cover the leaf")
			assert.Equal(t, min(q, leaf), steps[0].n, "the first step: the call's step")
			for k := 1; k < len(steps); k++ {
				s, prev := steps[k], steps[k-1]
				floor := int(int64(prev.n) * int64(split.MinStep) / int64(prev.d))
				if k < len(steps)-1 {
					assert.Equal(t, max(q, floor), s.n, "step %d: the call's step, or MinStep at the pace of step %d", k, k-1)
				} else {
					assert.LessOrEqual(t, s.n, max(q, floor), "the last step: the rest")
				}
			}
		})
	}
}

// TestFirstStepByThePaceBefore: a leaf that continues the step before it
// takes the call's step, or MinStep's worth at that step's pace if that is
// more, or all of itself if it is shorter; without a pace, the call's step.
func TestFirstStepByThePaceBefore(t *testing.T) {
	sp := split.ForRange(2, 1<<20, 1, 0, split.Pace{}, 0) // a step of 8,192 elements
	ns := split.Pace{N: 1000, D: time.Microsecond}        // 1 ns an element
	tenth := split.Pace{N: 10_000, D: time.Microsecond}
	assert.Equal(t, 8192, sp.FirstStep(1_000_000, ns), "the call's step: MinStep at 1 ns is 4,000 elements")
	assert.Equal(t, int(split.MinStep)*10, sp.FirstStep(1_000_000, tenth), "MinStep's worth at 0.1 ns")
	assert.Equal(t, 30_000, sp.FirstStep(30_000, tenth), "the whole leaf")
	assert.Equal(t, 8192, sp.FirstStep(1_000_000, split.Pace{}), "no pace: the call's step")
	assert.Equal(t, 40_000/split.Steps, leafSplitter(1).FirstStep(40_000, split.Pace{}), "a splitter without a call: a Steps-th of the leaf")
	assert.Equal(t, 1_000_000, leafSplitter(1_000_000-8192+1).FirstStep(1_000_000, split.Pace{}), "no rest shorter than the minimum length")
}

// TestStepsKeepTheMinLen: no step, and no rest a step leaves, is shorter than
// the minimum length, however the clock reads.
func TestStepsKeepTheMinLen(t *testing.T) {
	for _, minLen := range []int{1, 7, 100, 5000} {
		sp := leafSplitter(minLen)
		for _, n := range []int{minLen, 2*minLen - 1, 2 * minLen, 10 * minLen, 1_000_000} {
			for _, el := range []time.Duration{-1, 0, 1, time.Microsecond, time.Second} {
				first := sp.FirstStep(n, split.Pace{})
				require.True(t, first == n || first >= minLen && n-first >= minLen, "first step %d of %d, min %d", first, n, minLen)
				for rest := n; rest > 0; {
					s := sp.NextStep(first, el, rest)
					require.True(t, s == rest || s >= minLen && rest-s >= minLen, "step %d of %d left, min %d", s, rest, minLen)
					rest -= s
				}
			}
		}
	}
}

// TestFixedLeavesRunWhole: a leaf of a fixed grain runs in one step.
func TestFixedLeavesRunWhole(t *testing.T) {
	sp := split.Fixed(1000)
	require.Equal(t, 1000, sp.Step(1000))
	require.Equal(t, 1000, sp.FirstStep(1000, split.Pace{}))
}
