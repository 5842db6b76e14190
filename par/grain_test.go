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
	"github.com/weftgo/weft/split"
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

// fakeClock is a clock that the code under test reads and that the test's
// elements advance by what each is said to cost, so that timing decisions
// can be checked without timing anything.
type fakeClock struct {
	now   time.Time
	reads int
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(0, 0)} }

func (c *fakeClock) read() time.Time { c.reads++; return c.now }

// charge advances the clock by the cost of the elements of [lo, hi).
func (c *fakeClock) charge(lo, hi int, cost func(i int) time.Duration) {
	for i := lo; i < hi; i++ {
		c.now = c.now.Add(cost(i))
	}
}

// w3Cost is W3's shape over n elements: 3 ns per step, 1 + 4000*i*i/(n*n)
// steps for element i, climbing to about 12 µs at the end.
func w3Cost(n int) func(i int) time.Duration {
	return func(i int) time.Duration {
		u, m := int64(i), int64(n)
		return time.Duration(3 * (1 + u*u*4000/(m*m)))
	}
}

// TestPrefixKeepsToItsBudget: the prefix a call runs alone before it
// involves the pool ends about when its budget is spent, however the cost of
// the elements changes along the range, and reads the clock a few times; it
// ends sooner only once it has timed an eighth of its budget and the rest
// promises to take SeqLong or more at the pace seen, since the pool's help is
// then certain to pay. Once caught: chunks that grew eightfold blindly ran
// W3's quick prefix for about 230 µs against a budget of 20 µs while the pool
// waited.
func TestPrefixKeepsToItsBudget(t *testing.T) {
	cases := []struct {
		name     string
		n        int
		cost     func(i int) time.Duration
		maxReads int
		// over is how far past its budget the prefix may run: a chunk is
		// sized at the pace of the one before, so cost that climbs within
		// it (sixfold in W3 quick's last chunk) carries it past.
		over float64
		// long: the call is long enough to be seen as such early.
		long bool
	}{
		{"uniform cheap", 10_000_000, func(int) time.Duration { return 1 }, 12, 1.25, true},
		{"uniform dear", 100_000, func(int) time.Duration { return time.Microsecond }, 12, 1.25, true},
		{"60 µs uniform", 60_000, func(int) time.Duration { return 1 }, 12, 1.25, false},
		{"W3 quick", 20_000, w3Cost(20_000), 12, 2.5, true},
		{"W3 full", 100_000, w3Cost(100_000), 12, 1.5, true},
		{"falling", 100_000, func(i int) time.Duration { return w3Cost(100_000)(100_000 - 1 - i) }, 12, 1.25, true},
		{"a spike", 1_000_000, func(i int) time.Duration {
			if i == 5000 {
				return 15 * time.Microsecond
			}
			return 1
		}, 12, 1.5, true}, // no pace foresees a spike: the budget plus the spike
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newFakeClock()
			next := 0
			hi := par.Prefix(tc.n, c.read, func(lo, hi int) {
				require.Equal(t, next, lo, "chunks in order and adjacent")
				next = hi
				c.charge(lo, hi, tc.cost)
			})
			require.Equal(t, next, hi)
			require.Less(t, hi, tc.n, "the prefix should leave work for the pool")
			el := c.now.Sub(time.Unix(0, 0))
			assert.LessOrEqual(t, el, time.Duration(tc.over*float64(par.SeqBudget)), "it ran past its budget")
			assert.LessOrEqual(t, c.reads, tc.maxReads, "clock reads")
			if !tc.long {
				assert.GreaterOrEqual(t, el, par.SeqBudget*7/8, "it stopped before its budget was spent")
				return
			}
			assert.True(t, el < par.SeqBudget/2 || hi == 1, "a long call kept to the prefix past its first chunk for %v", el)
			assert.GreaterOrEqual(t, el, par.SeqBudget/8, "it stopped before it had timed an eighth of its budget")
			rest := time.Duration(float64(el) * float64(tc.n-hi) / float64(hi))
			assert.GreaterOrEqual(t, rest, par.SeqLong, "it stopped early, yet at its pace the rest looked short")
		})
	}
	t.Run("short call", func(t *testing.T) {
		c := newFakeClock()
		hi := par.Prefix(1000, c.read, func(lo, hi int) { c.charge(lo, hi, func(int) time.Duration { return 1 }) })
		assert.Equal(t, 1000, hi, "a call within its budget runs alone")
		assert.LessOrEqual(t, c.reads, 5, "clock reads of a 1 µs call")
	})
}

// TestLeafStepsFollowTheClock: a running leaf steps by the clock. Its first
// step is a small part of it; each later one is sized to take at most
// StepTarget at the pace of the step before (cost that jumps within a step
// can still make that one long: no step is preempted) and grows at most
// StepGrowth-fold; a leaf whose cost was foreseen takes three steps; the
// steps cover the leaf in order. Once caught: the first step, a sixteenth of
// the leaf, ran W3's last leaf for 12 ms without a look for hunger; and steps
// that only doubled took five calls of a uniform leaf where three do.
func TestLeafStepsFollowTheClock(t *testing.T) {
	p, release, g1Done := busyPool(t) // nobody hungry: the leaf only steps
	defer func() { close(release); <-g1Done }()
	uniform := func(int) time.Duration { return 1 }
	cases := []struct {
		name string
		n    int
		cost func(i int) time.Duration
	}{
		{"50 µs uniform", 50_000, uniform},
		{"90 µs uniform", 90_000, uniform},
		{"1 ms uniform", 1_000_000, uniform},
		{"climbing 100x", 100_000, func(i int) time.Duration { return time.Duration(1 + i/1000) }},
		{"W3's last leaf at the full size", 16_000, func(i int) time.Duration { return w3Cost(100_000)(84_000 + i) }},
		{"dear at the end", 100_000, func(i int) time.Duration {
			if i >= 90_000 {
				return 100
			}
			return 1
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newFakeClock()
			type step struct {
				n int
				d time.Duration
			}
			var steps []step
			next := 0
			par.RunLeafClocked(p, tc.n, c.read, func(lo, hi int) {
				require.Equal(t, next, lo, "steps in order and adjacent")
				next = hi
				t0 := c.now
				c.charge(lo, hi, tc.cost)
				steps = append(steps, step{hi - lo, c.now.Sub(t0)})
			})
			require.Equal(t, tc.n, next, "the steps cover the leaf")
			total := c.now.Sub(time.Unix(0, 0))
			if total <= 2*par.StepTarget/3 {
				assert.Len(t, steps, 3, "a leaf whose rest fits one step: %v", steps)
			}
			assert.LessOrEqual(t, len(steps), int(3*total/par.StepTarget)+6, "steps for %v in all", total)
			assert.LessOrEqual(t, steps[0].n, max(1, tc.n/split.LeafSteps), "the first step, blind")
			for k := 1; k < len(steps); k++ {
				s, prev := steps[k], steps[k-1]
				assert.LessOrEqual(t, s.n, par.StepGrowth*prev.n, "step %d grew too fast", k)
				planned := time.Duration(int64(s.n) * int64(prev.d) / int64(prev.n))
				assert.LessOrEqual(t, planned, par.StepTarget+par.StepTarget/100, "step %d at the pace of step %d", k, k-1)
			}
		})
	}
}

// TestLeafStepsByThePaceBefore: a leaf that begins where the last step on
// its worker of the same call ended (the right half of a fork whose left half
// ran there) sizes its first step by that step's pace: a uniform leaf that
// fits StepTarget takes one step, a longer one starts with about StepTarget's
// worth. A leaf elsewhere in the range, or of another call, runs its first
// step blind, and it times its first step from the end of the step before,
// so that a leaf of one step reads the clock once. Once caught: every leaf of
// W1 at the quick size took three steps, three calls of the body where one
// does; and two clock reads for each leaf showed in BenchmarkRangeSumIdle.
func TestLeafStepsByThePaceBefore(t *testing.T) {
	p, release, g1Done := busyPool(t) // nobody hungry: the leaves only step
	defer func() { close(release); <-g1Done }()
	uniform := func(int) time.Duration { return 1 }
	const half = 40_000 // 40 µs at 1 ns an element
	type step struct{ lo, hi int }
	reads := 0 // clock reads of the last run
	run := func(leaves [][2]int) []step {
		c := newFakeClock()
		var steps []step
		par.RunLeavesClocked(p, leaves, c.read, func(lo, hi int) {
			steps = append(steps, step{lo, hi})
			c.charge(lo, hi, uniform)
		})
		reads = c.reads
		return steps
	}
	stepsOf := func(steps []step, lo, hi int) []step {
		var in []step
		for _, s := range steps {
			if s.lo >= lo && s.hi <= hi {
				in = append(in, s)
			}
		}
		return in
	}

	t.Run("adjacent, fits a step", func(t *testing.T) {
		steps := run([][2]int{{0, half}, {half, 2 * half}})
		assert.Len(t, stepsOf(steps, 0, half), 3, "the first leaf runs blind: %v", steps)
		assert.Equal(t, []step{{half, 2 * half}}, stepsOf(steps, half, 2*half), "the second leaf in one step")
	})
	t.Run("adjacent, one clock read a step", func(t *testing.T) {
		run([][2]int{{0, half}})
		alone := reads
		run([][2]int{{0, half}, {half, 2 * half}})
		assert.Equal(t, 1, reads-alone, "the second leaf is timed from the end of the step before")
	})
	t.Run("adjacent, longer than a step", func(t *testing.T) {
		const long = 1_000_000 // 1 ms
		steps := run([][2]int{{0, half}, {half, half + long}})
		second := stepsOf(steps, half, half+long)
		require.NotEmpty(t, second)
		want := int(par.StepTarget) // elements at 1 ns each
		assert.InDelta(t, want, second[0].hi-second[0].lo, float64(want)/100, "the first step: about StepTarget at the pace before")
	})
	t.Run("not adjacent", func(t *testing.T) {
		steps := run([][2]int{{0, half}, {half + 1, 2 * half}})
		second := stepsOf(steps, half+1, 2*half)
		require.NotEmpty(t, second)
		assert.LessOrEqual(t, second[0].hi-second[0].lo, max(1, (half-1)/split.LeafSteps), "a leaf elsewhere: the first step blind")
	})
	t.Run("another call", func(t *testing.T) {
		run([][2]int{{0, half}})
		steps := run([][2]int{{half, 2 * half}})
		assert.LessOrEqual(t, steps[0].hi-steps[0].lo, max(1, half/split.LeafSteps), "a leaf of another call: the first step blind")
	})
}
