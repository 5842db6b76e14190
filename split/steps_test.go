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

// TestLeafStepsFollowTheClock: a running leaf steps by the clock. Its first
// step is a small part of it; each later one is sized to take at most
// StepTarget at the pace of the step before (cost that jumps within a step
// can still make that one long: no step is preempted) and grows at most
// StepGrowth-fold; a leaf whose cost was foreseen takes three steps; the
// steps cover the leaf. Once caught: the first step, a sixteenth of the leaf,
// ran W3's last leaf for 12 ms without a look for hunger; and steps that only
// doubled took five calls of a uniform leaf where three do.
func TestLeafStepsFollowTheClock(t *testing.T) {
	uniform := fakeclock.Uniform(1)
	cases := []struct {
		name string
		n    int
		cost func(i int) time.Duration
	}{
		{"50 µs uniform", 50_000, uniform},
		{"90 µs uniform", 90_000, uniform},
		{"1 ms uniform", 1_000_000, uniform},
		{"climbing 100x", 100_000, func(i int) time.Duration { return time.Duration(1 + i/1000) }},
		{"W3's last leaf at the full size", 16_000, func(i int) time.Duration { return fakeclock.W3(100_000)(84_000 + i) }},
		{"dear at the end", 100_000, func(i int) time.Duration {
			if i >= 90_000 {
				return 100
			}
			return 1
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fakeclock.New()
			steps := runLeaf(leafSplitter(1), tc.n, split.Pace{}, c, tc.cost)
			covered := 0
			for _, s := range steps {
				covered += s.n
			}
			require.Equal(t, tc.n, covered, "the steps cover the leaf")
			total := c.Elapsed()
			if total <= 2*split.StepTarget/3 {
				assert.Len(t, steps, 3, "a leaf whose rest fits one step: %v", steps)
			}
			assert.LessOrEqual(t, len(steps), int(3*total/split.StepTarget)+6, "steps for %v in all", total)
			assert.LessOrEqual(t, steps[0].n, max(1, tc.n/split.LeafSteps), "the first step, blind")
			for k := 1; k < len(steps); k++ {
				s, prev := steps[k], steps[k-1]
				assert.LessOrEqual(t, s.n, split.StepGrowth*prev.n, "step %d grew too fast", k)
				planned := time.Duration(int64(s.n) * int64(prev.d) / int64(prev.n))
				assert.LessOrEqual(t, planned, split.StepTarget+split.StepTarget/100, "step %d at the pace of step %d", k, k-1)
			}
		})
	}
}

// TestFirstStepByThePaceBefore: a leaf that continues the step before it
// sizes its first step by that step's pace: all of itself if it fits
// StepTarget, else about StepTarget's worth; without a pace it runs blind.
func TestFirstStepByThePaceBefore(t *testing.T) {
	sp := leafSplitter(1)
	before := split.Pace{N: 1000, D: time.Microsecond} // 1 ns an element
	assert.Equal(t, 40_000, sp.FirstStep(40_000, before), "fits a step: the whole leaf")
	assert.Equal(t, int(split.StepTarget), sp.FirstStep(1_000_000, before), "longer: StepTarget at the pace before")
	assert.Equal(t, 40_000/split.LeafSteps, sp.FirstStep(40_000, split.Pace{}), "no pace: blind")
	assert.Equal(t, 1_000_000, leafSplitter(1_000_000-int(split.StepTarget)+1).FirstStep(1_000_000, before), "no rest shorter than the minimum length")
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

// TestTreeStep: a leaf of a fixed tree is walked in about TreeSteps nodes.
func TestTreeStep(t *testing.T) {
	sp := leafSplitter(1)
	require.Equal(t, 1<<20/split.TreeSteps, sp.TreeStep(1<<20))
	require.Equal(t, 1, sp.TreeStep(3))
}

// TestTailStep: a leaf whose participant has no job of its own left for a
// thief takes at most half of what it has left in a step, and no less than
// TailTarget's worth at the pace given, or the step planned if that is
// shorter; without a pace the planned step stands. Run as a leaf that always
// has an empty deque, the steps halve what is left down to TailTarget.
func TestTailStep(t *testing.T) {
	sp := leafSplitter(1)
	ns := split.Pace{N: 1000, D: time.Microsecond} // 1 ns an element
	tail := int(split.TailTarget)                  // elements at 1 ns
	assert.Equal(t, 50_000, sp.TailStep(80_000, ns, 100_000), "half of what is left")
	assert.Equal(t, 30_000, sp.TailStep(30_000, ns, 100_000), "a step under half stands")
	assert.Equal(t, tail, sp.TailStep(10_000, ns, 10_000), "no less than TailTarget's worth")
	assert.Equal(t, 3_000, sp.TailStep(3_000, ns, 10_000), "nor more than the step planned")
	assert.Equal(t, 80_000, sp.TailStep(80_000, split.Pace{}, 100_000), "no pace: the step planned")
	slow := split.Pace{N: 1, D: time.Microsecond}
	assert.Equal(t, 150, leafSplitter(100).TailStep(300, slow, 300), "half")
	assert.Equal(t, 150, leafSplitter(100).TailStep(150, slow, 150), "but no rest under the minimum length")

	c := fakeclock.New()
	const n = 100_000 // 100 µs at 1 ns
	var steps []int
	t0 := c.Read()
	s := sp.TailStep(sp.FirstStep(n, ns), ns, n)
	for cur := 0; ; {
		c.Charge(cur, cur+s, fakeclock.Uniform(1))
		cur += s
		steps = append(steps, s)
		now := c.Read()
		if cur >= n {
			break
		}
		s = sp.TailStep(sp.NextStep(s, now.Sub(t0), n-cur), split.Pace{N: s, D: now.Sub(t0)}, n-cur)
		t0 = now
	}
	assert.Equal(t, []int{50_000, 25_000, 12_500, 6_250, 6_250}, steps, "halving what is left down to TailTarget")
}
