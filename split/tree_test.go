package split_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/split"
)

// TestBlocksCoverTheRange: the blocks of a range of length n cover [0, n)
// in order, each Block long but the last, up to n = math.MaxInt, where a
// sum past n would wrap around.
func TestBlocksCoverTheRange(t *testing.T) {
	for _, n := range []int{0, 1, split.Block - 1, split.Block, split.Block + 1, 1000, math.MaxInt - split.Block, math.MaxInt - 1, math.MaxInt} {
		b := split.Blocks(n)
		require.GreaterOrEqual(t, b, 0, "n=%d", n)
		if n == 0 {
			require.Zero(t, b)
			continue
		}
		lo, hi := split.BlockRange(0, n)
		require.Equal(t, 0, lo, "n=%d", n)
		require.Equal(t, min(n, split.Block), hi, "n=%d", n)
		lo, hi = split.BlockRange(b-1, n)
		require.Equal(t, n, hi, "n=%d: the last block ends at n", n)
		require.Less(t, lo, hi, "n=%d", n)
		require.LessOrEqual(t, hi-lo, split.Block, "n=%d", n)
		if b > 1 {
			_, end := split.BlockRange(b-2, n)
			require.Equal(t, lo, end, "n=%d: the last two blocks meet", n)
		}
	}
}
