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
	return pf, chunks
}

// TestPrefixKeepsToItsBudget: the prefix a call runs alone before it
// involves the pool ends about when its budget is spent, however the cost of
// the elements changes along the range, and reads the clock a few times; it
// ends sooner only once it has timed an eighth of its budget and the rest
// promises to take LongCall or more at the pace seen, since the pool's help is
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
			assert.GreaterOrEqual(t, rest, split.LongCall, "it stopped early, yet at its pace the rest looked short")
		})
	}
	t.Run("short call", func(t *testing.T) {
		c := fakeclock.New()
		pf, _ := runPrefix(1000, 1, c, ns)
		assert.Equal(t, 1000, pf.End(), "a call within its budget runs alone")
		assert.LessOrEqual(t, c.Reads, 5, "clock reads of a 1 µs call")
	})
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
