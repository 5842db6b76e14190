package split_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/fakeclock"
	"github.com/weftgo/weft/split"
)

// runPrefix runs the prefix of a call of n elements as a caller drives it,
// on c, the elements costing cost, and returns where it ended and its chunks.
func runPrefix(n, minLen int, c *fakeclock.Clock, cost func(int) time.Duration) (split.Prefix, [][2]int) {
	pf := split.NewPrefix(n, minLen, c.Read())
	return pf, drive(&pf, n, c, cost)
}

// drive runs pf, a prefix of a call of n elements made on c and set up as
// its test needs, as a caller drives it, and returns its chunks.
func drive(pf *split.Prefix, n int, c *fakeclock.Clock, cost func(int) time.Duration) [][2]int {
	chunks := [][2]int{{0, pf.End()}}
	c.Charge(0, pf.End(), cost)
	for pf.End() < n {
		lo := pf.End()
		if !pf.Next(c.Read()) {
			break
		}
		chunks = append(chunks, [2]int{lo, pf.End()})
		c.Charge(lo, pf.End(), cost)
	}
	return chunks
}

// TestPrefixCover: a stretch that the chunks done covered (see
// Prefix.Cover) moves the prefix's end and counts in its pace, and the chunk
// after it is sized by the last chunk as it was timed, not by the stretch.
func TestPrefixCover(t *testing.T) {
	c := fakeclock.New()
	pf := split.NewPrefix(1_000_000, 1, c.Read())
	require.Equal(t, 1, pf.End())
	c.Charge(0, 1, fakeclock.Uniform(time.Microsecond))
	pf.Cover(1000)
	require.Equal(t, 1000, pf.End())
	pf.Cover(10) // behind the end: nothing
	require.Equal(t, 1000, pf.End())
	require.True(t, pf.Next(c.Read()))
	assert.Equal(t, 1000+split.PrefixGrowth, pf.End(), "the next chunk: PrefixGrowth times the one element timed")
	assert.Equal(t, split.Pace{N: 1000 + split.PrefixGrowth, D: time.Microsecond}, pf.Pace())
	pf.Cover(2_000_000)
	assert.Equal(t, 1_000_000, pf.End(), "no further than the range")
}

// TestPrefixKeepsToItsBudget: the prefix a call runs alone before it
// involves the pool ends about when its budget is spent, however the cost of
// the elements changes along the range, and reads the clock a few times; it
// ends sooner only once it has timed an eighth of its budget and the rest
// promises to take longCall or more at the pace seen, since the pool's help is
// then certain to pay. Once caught: chunks that grew eightfold blindly ran
// W3's quick prefix for about 230 µs against a budget of 20 µs while the pool
// waited.
func TestPrefixKeepsToItsBudget(t *testing.T) {
	ns := fakeclock.Uniform(1)
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
		{"uniform cheap", 10_000_000, ns, 12, 1.25, true},
		{"uniform dear", 100_000, fakeclock.Uniform(time.Microsecond), 12, 1.25, true},
		{"60 µs uniform", 60_000, ns, 12, 1.25, false},
		{"W3 quick", 20_000, fakeclock.W3(20_000), 12, 2.5, true},
		{"W3 full", 100_000, fakeclock.W3(100_000), 12, 1.5, true},
		{"falling", 100_000, func(i int) time.Duration { return fakeclock.W3(100_000)(100_000 - 1 - i) }, 12, 1.25, true},
		{"a spike", 1_000_000, func(i int) time.Duration {
			if i == 5000 {
				return 15 * time.Microsecond
			}
			return 1
		}, 12, 1.5, true}, // no pace foresees a spike: the budget plus the spike
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fakeclock.New()
			pf, chunks := runPrefix(tc.n, 1, c, tc.cost)
			for k := 1; k < len(chunks); k++ {
				require.Equal(t, chunks[k-1][1], chunks[k][0], "chunks in order and adjacent")
			}
			hi := pf.End()
			require.Less(t, hi, tc.n, "the prefix should leave work for the pool")
			el := c.Elapsed()
			assert.LessOrEqual(t, el, time.Duration(tc.over*float64(split.PrefixBudget)), "it ran past its budget")
			assert.LessOrEqual(t, c.Reads, tc.maxReads, "clock reads")
			assert.Equal(t, split.Pace{N: hi, D: el}, pf.Pace(), "the pace of the prefix")
			if !tc.long {
				assert.GreaterOrEqual(t, el, split.PrefixBudget*7/8, "it stopped before its budget was spent")
				return
			}
			assert.True(t, el < split.PrefixBudget/2 || hi == 1, "a long call kept to the prefix past its first chunk for %v", el)
			assert.GreaterOrEqual(t, el, split.PrefixBudget/8, "it stopped before it had timed an eighth of its budget")
			rest := time.Duration(float64(el) * float64(tc.n-hi) / float64(hi))
			assert.GreaterOrEqual(t, rest, split.LongCallOf(split.PrefixBudget), "it stopped early, yet at its pace the rest looked short")
		})
	}
	t.Run("short call", func(t *testing.T) {
		c := fakeclock.New()
		pf, _ := runPrefix(1000, 1, c, ns)
		assert.Equal(t, 1000, pf.End(), "a call within its budget runs alone")
		assert.LessOrEqual(t, c.Reads, 5, "clock reads of a 1 µs call")
	})
}

// TestPrefixRunsAShortRest: a prefix whose budget is spent with less than
// two MinPiece (of an unmeasured wake-up) left at its pace runs that rest as its last chunk: the pool
// would seat the call and run the rest, which it cannot cut, on the caller
// all the same (W2's body over 700 elements left 25, 1.2 µs, in the
// simulator).
func TestPrefixRunsAShortRest(t *testing.T) {
	short := 0
	for n := 18_000; n < 30_000; n += 50 {
		c := fakeclock.New()
		pf, _ := runPrefix(n, 1, c, fakeclock.Uniform(1))
		if pf.End() == n {
			continue
		}
		require.GreaterOrEqual(t, n-pf.End(), 2*int(split.MinPiece(0)), "n=%d: a rest of %d ns handed over", n, n-pf.End())
		short++
	}
	require.NotZero(t, short, "no call handed a rest over")
}

// TestBudget: a prefix's budget is four wake-ups of its pool, between
// MinStep and PrefixBudget, and PrefixBudget while none is measured.
func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		wake, want time.Duration
	}{
		{0, split.PrefixBudget},
		{-time.Microsecond, split.PrefixBudget},
		{100 * time.Nanosecond, split.MinStep},
		{2 * time.Microsecond, 8 * time.Microsecond},
		{4 * time.Microsecond, 16 * time.Microsecond},
		{5 * time.Microsecond, split.PrefixBudget},
		{70 * time.Microsecond, split.PrefixBudget},
	} {
		assert.Equal(t, tc.want, split.Budget(tc.wake), "wake-up %v", tc.wake)
	}
}

// TestLongRest: the rest that ends a prefix is twice its pool's wake-up,
// between half and four times its budget, and four budgets while none is
// measured.
func TestLongRest(t *testing.T) {
	for _, tc := range []struct {
		wake, want time.Duration
	}{
		{0, 4 * split.PrefixBudget},
		{-time.Microsecond, 4 * split.PrefixBudget},
		{time.Microsecond, 2 * time.Microsecond},
		{4 * time.Microsecond, 8 * time.Microsecond},
		{15 * time.Microsecond, 30 * time.Microsecond},
		{70 * time.Microsecond, 4 * split.PrefixBudget},
		{time.Millisecond, 4 * split.PrefixBudget},
	} {
		assert.Equal(t, tc.want, split.LongRest(tc.wake), "wake-up %v", tc.wake)
	}
}

// TestPrefixMeet: a prefix that meets a pool whose workers wake in a few
// microseconds hands over a rest of 60 µs once it has timed an eighth of its
// budget, where one that meets a pool with this VM's wake-up (some 70 µs),
// or one not measured yet, spends its budget alone first; and meeting a
// spare worker warms it.
func TestPrefixMeet(t *testing.T) {
	const n = 60_000 // 60 µs of 1 ns elements
	run := func(l split.Load) (split.Prefix, time.Duration) {
		c := fakeclock.New()
		pf := split.NewPrefix(n, 1, c.Read())
		pf.Meet(l)
		drive(&pf, n, c, fakeclock.Uniform(1))
		return pf, c.Elapsed()
	}
	for _, l := range []split.Load{{Procs: 2}, {Procs: 2, Wake: 70 * time.Microsecond}} {
		pf, el := run(l)
		assert.Less(t, pf.End(), n, "wake-up %v: the rest goes to the pool", l.Wake)
		assert.GreaterOrEqual(t, el, split.PrefixBudget*7/8, "wake-up %v: it stopped before its budget was spent", l.Wake)
	}
	pf, el := run(split.Load{Procs: 2, Wake: 4 * time.Microsecond})
	require.Less(t, pf.End(), n, "the rest goes to the pool")
	assert.Less(t, el, split.Budget(4*time.Microsecond)/2, "a pool that wakes in 4 µs waited for the budget")
	assert.GreaterOrEqual(t, el, split.Budget(4*time.Microsecond)/8, "it stopped before it had timed an eighth of its budget")
	assert.GreaterOrEqual(t, time.Duration(n-pf.End()), split.LongRest(4*time.Microsecond), "it handed over a short rest")

	// A spare searcher: Meet is Warm.
	_, warm := run(split.Load{Procs: 2, Searching: 1})
	assert.LessOrEqual(t, warm, split.WarmLookOf(split.PrefixBudget), "a prefix that met a spare worker ran past warmLook")
}

// TestPrefixMeetFollowsTheWake: the budget a prefix meets follows its
// pool's wake-up, and the times of its rules with it. A warm call of 8 µs
// on a pool that wakes in 2 µs (a budget of 8 µs, a warm look of 2) hands a
// rest over once a chunk has timed a quarter of a microsecond; under a
// budget of PrefixBudget it would have run alone to its end, its rest never
// twice a warm look of 5 µs.
func TestPrefixMeetFollowsTheWake(t *testing.T) {
	const n = 8_000 // 8 µs of 1 ns elements
	for _, tc := range []struct {
		wake   time.Duration
		handed bool
	}{{0, false}, {70 * time.Microsecond, false}, {2 * time.Microsecond, true}} {
		c := fakeclock.New()
		pf := split.NewPrefix(n, 1, c.Read())
		pf.Meet(split.Load{Procs: 2, Searching: 1, Wake: tc.wake})
		require.Equal(t, split.Budget(tc.wake), pf.Budget())
		drive(&pf, n, c, fakeclock.Uniform(1))
		if !tc.handed {
			assert.Equal(t, n, pf.End(), "wake-up %v: a warm call of 8 µs runs alone", tc.wake)
			continue
		}
		require.Less(t, pf.End(), n, "wake-up %v: the rest goes to the pool", tc.wake)
		assert.GreaterOrEqual(t, time.Duration(n-pf.End()), 2*split.WarmLookOf(pf.Budget()), "a rest of twice the warm look")
		assert.LessOrEqual(t, c.Elapsed(), split.WarmLookOf(pf.Budget()), "handed over within the warm look")
	}
}

// TestPrefixLong: once Next has ended a prefix, Long says whether the rest
// it hands over takes LongRest of its pool's wake-up or more: a call that
// spent its budget alone hands over a shorter rest, whose pieces wake no
// more than one parked worker (split.Wakes), and one that timed an eighth
// of its budget with a long rest ahead hands that over.
func TestPrefixLong(t *testing.T) {
	const wake = 70 * time.Microsecond
	seen := map[bool]bool{}
	for _, n := range []int{25_000, 30_000, 50_000, 90_000, 100_000, 1_000_000} { // ns of 1 ns elements
		c := fakeclock.New()
		pf := split.NewPrefix(n, 1, c.Read())
		pf.Meet(split.Load{Procs: 2, Wake: wake})
		drive(&pf, n, c, fakeclock.Uniform(1))
		require.Less(t, pf.End(), n, "n=%d: the rest goes to the pool", n)
		rest := time.Duration(n - pf.End())
		require.Equal(t, rest >= split.LongRest(wake), pf.Long(), "n=%d: a rest of %v", n, rest)
		seen[pf.Long()] = true
	}
	require.True(t, seen[true] && seen[false], "the cases should give both answers: %v", seen)
}

// TestPrefixMinLen: no chunk of the prefix, and no rest it leaves, is
// shorter than the call's minimum length.
func TestPrefixMinLen(t *testing.T) {
	for _, n := range []int{1, 99, 100, 101, 199, 200, 1000, 100_000, 10_000_000} {
		c := fakeclock.New()
		pf, chunks := runPrefix(n, 100, c, fakeclock.Uniform(1))
		for _, ch := range chunks {
			if ch[1]-ch[0] < 100 {
				require.Equal(t, [][2]int{{0, n}}, chunks, "n=%d: a short chunk is the whole call", n)
			}
		}
		if rest := n - pf.End(); rest > 0 {
			require.GreaterOrEqual(t, rest, 100, "n=%d: the rest", n)
		}
	}
}

// TestPrefixShortRest: once Next has ended a prefix, ShortRest says whether
// the rest takes PrefixBudget or less at the pace so far, and RestAtLeast
// whether it takes a given time or more.
func TestPrefixShortRest(t *testing.T) {
	const cost = time.Microsecond
	seen := map[bool]bool{}
	const least = 100 * time.Microsecond
	seenLeast := map[bool]bool{}
	for _, n := range []int{25, 30, 35, 40, 45, 50, 60, 100, 119, 120, 121, 1000} {
		c := fakeclock.New()
		pf, _ := runPrefix(n, 1, c, fakeclock.Uniform(cost))
		if pf.End() == n {
			continue // ended alone: no rest
		}
		rest := time.Duration(n-pf.End()) * cost
		require.Equal(t, rest <= split.PrefixBudget, pf.ShortRest(), "n=%d: a rest of %v", n, rest)
		seen[pf.ShortRest()] = true
		require.Equal(t, rest >= least, pf.RestAtLeast(least), "n=%d: a rest of %v", n, rest)
		seenLeast[pf.RestAtLeast(least)] = true
	}
	require.True(t, seen[true] && seen[false], "the cases should give both answers: %v", seen)
	require.True(t, seenLeast[true] && seenLeast[false], "the cases should give both answers: %v", seenLeast)
}

// TestPrefixStay: a prefix that Next has ended can go on alone (a call whose
// pool has no processor to spare), a chunk of PrefixBudget's worth at the
// pace so far first, then each twice as long as the one before up to
// longCall's worth, so that it looks again at first often and then less,
// until the call is done; no chunk, and no rest, shorter than the minimum
// length.
func TestPrefixStay(t *testing.T) {
	for _, tc := range []struct {
		name               string
		n, minLen          int
		cost               time.Duration
		minLooks, maxLooks int // chunks that Stay plans
	}{
		{"1 µs elements", 1000, 1, time.Microsecond, 13, 15},  // 20, 40, then 80 µs
		{"27 ns elements", 20_000, 1, 27, 8, 10},              // 540 µs in all
		{"minimum length", 1000, 200, time.Microsecond, 3, 4}, // chunks of 200 µs at least
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fakeclock.New()
			pf, _ := runPrefix(tc.n, tc.minLen, c, fakeclock.Uniform(tc.cost))
			require.Less(t, pf.End(), tc.n, "the prefix should end before the call does")
			looks := 0
			look := split.PrefixBudget // the work a Stay plans now
			for pf.End() < tc.n {
				lo := pf.End()
				if pf.Next(c.Read()) { // a rest too short to hand over
					require.Less(t, tc.n-lo, 2*tc.minLen, "Next planned a chunk after the prefix's budget was spent")
					c.Charge(lo, pf.End(), fakeclock.Uniform(tc.cost))
					continue
				}
				pf.Stay(c.Read())
				require.Greater(t, pf.End(), lo, "Stay planned nothing")
				require.GreaterOrEqual(t, pf.End()-lo, tc.minLen, "a chunk under the minimum length")
				if rest := tc.n - pf.End(); rest > 0 {
					require.GreaterOrEqual(t, rest, tc.minLen, "a rest under the minimum length")
				}
				work := time.Duration(pf.End()-lo) * tc.cost
				bound := max(look*5/4, time.Duration(2*tc.minLen-1)*tc.cost) // a rest under minLen joins the chunk
				require.LessOrEqual(t, work, bound, "look %d: a chunk of %v, past %v", looks, work, look)
				c.Charge(lo, pf.End(), fakeclock.Uniform(tc.cost))
				looks++
				look = min(2*look, split.LongCallOf(split.PrefixBudget))
			}
			assert.GreaterOrEqual(t, looks, tc.minLooks, "too few looks")
			assert.LessOrEqual(t, looks, tc.maxLooks, "too many looks")
		})
	}
}

// TestWarmPrefix: a call that begins while a worker of its pool searches
// hands its rest over as soon as a chunk long enough to time has shown that
// the rest takes twice warmLook or more, and not otherwise: a short call
// still runs alone, even when each read of the clock costs more than many
// elements (70 ns here), which makes the first chunks look dear.
func TestWarmPrefix(t *testing.T) {
	const read = 70 * time.Nanosecond
	run := func(n int, cost time.Duration, warm bool) (hi int, el time.Duration) {
		c := fakeclock.New()
		now := func() time.Time { c.Now = c.Now.Add(read); return c.Read() }
		pf := split.NewPrefix(n, 1, now())
		if warm {
			pf.Warm()
		}
		c.Charge(0, pf.End(), fakeclock.Uniform(cost))
		for pf.End() < n {
			lo := pf.End()
			if !pf.Next(now()) {
				break
			}
			c.Charge(lo, pf.End(), fakeclock.Uniform(cost))
		}
		return pf.End(), c.Elapsed()
	}
	cases := []struct {
		name string
		n    int
		cost time.Duration
		// pool: the warm prefix leaves a rest to the pool.
		pool bool
	}{
		{"W2's body, 19 µs", 700, 27, true},
		{"W2's body, 100 µs", 3700, 27, true},
		{"W2's body, 8 µs", 300, 27, false},
		{"1 ns elements, 4 µs", 4000, 1, false},
		{"1 ns elements, 8 µs", 8000, 1, false},
		{"1 ns elements, 40 µs", 40_000, 1, true},
		{"a microsecond each, 30 µs", 30, time.Microsecond, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hi, el := run(tc.n, tc.cost, true)
			if !tc.pool {
				assert.Equal(t, tc.n, hi, "a short warm call runs alone")
				return
			}
			require.Less(t, hi, tc.n, "the warm prefix should leave work for the pool")
			assert.LessOrEqual(t, el, split.WarmLookOf(split.PrefixBudget), "it ran past warmLook")
			rest := time.Duration(tc.n-hi) * tc.cost
			assert.GreaterOrEqual(t, rest, split.WarmLookOf(split.PrefixBudget), "it handed over a short rest")
			coldHi, coldEl := run(tc.n, tc.cost, false)
			assert.True(t, coldHi == tc.n || coldEl >= el, "the cold prefix ended first (%v, warm %v)", coldEl, el)
		})
	}
}

// TestPrefixExpect: a prefix told the pace of its site's earlier calls runs
// firstLook's worth at that pace as its first chunk (the whole call when
// little more is left, or when it takes shortCall or less), so that a short
// call is one chunk; a call that the
// pace says is long runs only the eighth of the budget that Next needs to
// hand it over, and a warm one the eighth of warmLook. A wrong pace costs at
// most shortCall at the true pace before the prefix sees it, and what
// follows is planned as without one. Once caught: a first chunk of one
// element grew eightfold and read the clock four or five times in calls of
// 3 to 10 µs (W11 of go run ./bench), 0.8 of the loop's speed.
func TestPrefixExpect(t *testing.T) {
	expected := func(d time.Duration) split.Pace { return split.Pace{N: 1000, D: 1000 * d} }
	minLen, warm := 1, false
	run := func(n int, expect split.Pace, cost time.Duration) (split.Prefix, [][2]int, time.Duration) {
		c := fakeclock.New()
		pf := split.NewPrefix(n, minLen, c.Read())
		pf.Expect(expect)
		if warm {
			pf.Warm()
		}
		chunks := drive(&pf, n, c, fakeclock.Uniform(cost))
		return pf, chunks, c.Elapsed()
	}
	t.Run("short calls are one chunk", func(t *testing.T) {
		for _, n := range []int{1, 2, 50, 100, 125, 156, 200, 269} { // 125 at 40 ns: firstLook; 269: shortCall
			_, chunks, _ := run(n, expected(40), 40)
			assert.Equal(t, [][2]int{{0, n}}, chunks, "n=%d", n)
		}
	})
	t.Run("longer calls start with firstLook", func(t *testing.T) {
		for _, n := range []int{270, 300, 450} { // 450: 18 µs
			pf, chunks, _ := run(n, expected(40), 40)
			assert.Equal(t, [2]int{0, 125}, chunks[0], "n=%d", n)
			assert.Equal(t, n, pf.End(), "n=%d: a cold call under the budget runs alone", n)
		}
	})
	t.Run("long calls start with an eighth of the budget", func(t *testing.T) {
		pf, chunks, _ := run(10_000, expected(40), 40) // 400 µs
		assert.Equal(t, [][2]int{{0, 79}}, chunks, "an eighth of the budget and a quarter more")
		assert.Equal(t, 79, pf.End(), "then the pool")
		_, chunks, _ = run(10_000, expected(42), 40) // a pace that errs 5% dear
		assert.Len(t, chunks, 1, "it still times the eighth")
	})
	t.Run("warm calls", func(t *testing.T) {
		warm = true
		defer func() { warm = false }()
		pf, chunks, _ := run(1000, expected(40), 40) // 40 µs
		assert.Equal(t, [][2]int{{0, 20}}, chunks, "an eighth of warmLook and a quarter more, then the pool")
		assert.Equal(t, 20, pf.End())
		_, chunks, _ = run(1000, expected(42), 40)
		assert.Len(t, chunks, 1, "a pace that errs 5% dear still times the eighth")
		_, chunks, _ = run(269, expected(40), 40) // shortCall
		assert.Equal(t, [][2]int{{0, 269}}, chunks, "a short warm call: one chunk")
		pf, chunks, _ = run(300, expected(40), 40) // 12 µs
		assert.Equal(t, [2]int{0, 20}, chunks[0], "a warm call past shortCall: an eighth of warmLook and a quarter more")
		assert.Less(t, pf.End(), 300, "then the pool")
		_, chunks, _ = run(100, expected(40), 40)
		assert.Equal(t, [][2]int{{0, 100}}, chunks)
	})
	t.Run("warm calls whose first elements are cheap", func(t *testing.T) {
		// Once caught: W2's body costs x%100+1 steps, so the first chunk,
		// sized at the average pace, took a fraction of an eighth of
		// warmLook; the next grew eightfold and handed the rest over some
		// 3 µs late (W11 at 25 to 120 µs a call: 1.6x -> 1.3x the loop).
		c := fakeclock.New()
		cost := func(i int) time.Duration {
			if i < 100 {
				return 10
			}
			return 40
		}
		pf := split.NewPrefix(2000, 1, c.Read())
		pf.Expect(expected(40))
		pf.Warm()
		c.Charge(0, pf.End(), cost)
		for pf.End() < 2000 {
			lo := pf.End()
			if !pf.Next(c.Read()) {
				break
			}
			c.Charge(lo, pf.End(), cost)
		}
		assert.Less(t, pf.End(), 2000, "the rest goes to the pool")
		assert.LessOrEqual(t, c.Elapsed(), split.WarmLookOf(split.PrefixBudget)/4, "handed over late")
	})
	t.Run("the pace of 1000 elements", func(t *testing.T) {
		_, chunks, _ := run(100_000, split.Pace{N: 1000, D: 400}, 0) // 0.4 ns an element
		assert.Equal(t, [2]int{0, 12_500}, chunks[0])
	})
	t.Run("no pace", func(t *testing.T) {
		pf, chunks, _ := run(300, split.Pace{}, 40)
		_, blind := runPrefix(300, 1, fakeclock.New(), fakeclock.Uniform(40))
		assert.Equal(t, blind, chunks)
		assert.Equal(t, 300, pf.End())
	})
	t.Run("minimum length", func(t *testing.T) {
		minLen = 100
		defer func() { minLen = 1 }()
		_, chunks, _ := run(1000, expected(time.Microsecond), time.Microsecond)
		assert.Equal(t, [2]int{0, 100}, chunks[0], "a chunk is never shorter than the minimum length")
	})
	t.Run("elements a thousand times dearer", func(t *testing.T) {
		pf, chunks, el := run(80_000, expected(1), 1000) // 80 µs expected: not long
		require.Equal(t, [][2]int{{0, 5000}}, chunks, "the first chunk, then the pool")
		assert.Less(t, pf.End(), 80_000)
		assert.LessOrEqual(t, el, 1000*split.FirstLookOf(split.PrefixBudget)*5/4, "the first chunk of a longer call")
		n := int(split.ShortCallOf(split.PrefixBudget)) // at 1 ns an element: a short call
		_, chunks, el = run(n, expected(1), 1000)
		require.Equal(t, [][2]int{{0, n}}, chunks, "a short call is one chunk")
		assert.LessOrEqual(t, el, 1000*split.ShortCallOf(split.PrefixBudget), "the worst case the doc states")
	})
	t.Run("elements a thousand times cheaper", func(t *testing.T) {
		pf, chunks, el := run(1_000_000, expected(1000), 1)
		assert.Equal(t, [2]int{0, 4}, chunks[0])
		assert.Less(t, pf.End(), 1_000_000, "a long call still goes to the pool")
		assert.LessOrEqual(t, el, split.PrefixBudget, "within the budget, as without a pace")
	})
}
