package par_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// For and ForRange: every index exactly once, in pieces that cover the range,
// with f's writes visible to the caller when the call returns.

func TestFor(t *testing.T) {
	eachCase(t, noInput, func(t *testing.T, n int, _ struct{}, s setup) {
		calls := make(counts, n)
		par.For(n, func(i int) { calls[i].Add(1) }, s.opts...)
		requireOnce(t, calls, "f(i) for i =")
	})
}

// TestForWritesHappenBeforeReturn relies on the race detector: plain writes
// made by f are read after For returns without any synchronization of the
// test's own.
func TestForWritesHappenBeforeReturn(t *testing.T) {
	eachCase(t, noInput, func(t *testing.T, n int, _ struct{}, s setup) {
		out := make([]int, n)
		par.For(n, func(i int) { out[i] = i * i }, s.opts...)
		for i, v := range out {
			if v != i*i {
				t.Fatalf("out[%d] = %d, want %d", i, v, i*i)
			}
		}
	})
}

func TestForRangeCoversExactlyOnce(t *testing.T) {
	eachCase(t, noInput, func(t *testing.T, n int, _ struct{}, s setup) {
		calls := make(counts, n)
		var mu sync.Mutex
		var bad [][2]int // pieces out of bounds or of a length the grain forbids
		par.ForRange(n, func(lo, hi int) {
			ok := 0 <= lo && lo <= hi && hi <= n
			if ok && s.grain > 0 && n > s.grain {
				// WithGrain: every piece longer than the grain is cut, and no other.
				ok = hi-lo <= s.grain && 2*(hi-lo) >= s.grain
			}
			if !ok {
				mu.Lock()
				bad = append(bad, [2]int{lo, hi})
				mu.Unlock()
				return
			}
			for i := lo; i < hi; i++ {
				calls[i].Add(1)
			}
		}, s.opts...)
		require.Empty(t, bad, "pieces out of [0, %d) or against the grain", n)
		requireOnce(t, calls, "pieces covering")
	})
}

func TestForRangeWholeRangeWithinGrain(t *testing.T) {
	// A range no longer than the grain is one piece: nothing cuts it.
	var mu sync.Mutex
	var pieces [][2]int
	par.ForRange(7, func(lo, hi int) {
		mu.Lock()
		pieces = append(pieces, [2]int{lo, hi})
		mu.Unlock()
	}, par.WithGrain(7))
	require.Equal(t, [][2]int{{0, 7}}, pieces)
}

func TestForZeroCallsNothing(t *testing.T) {
	par.For(0, func(int) { t.Error("f called for n = 0") })
	par.ForRange(0, func(int, int) { t.Error("f called for n = 0") })
}
