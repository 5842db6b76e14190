package par_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestSumAdaptiveSplitChangesBits checks a fixed bug: Sum promises the same bits on
// every run and for any number of workers, but its adaptive splitter has no
// floor at the 128-element blocks of the canonical tree. When thieves keep
// refilling the split budget, a piece can be cut below a block; its halves are
// then added by the combine instead of by blockSum's four accumulators, and
// the bits change with the timing. A pool of 32 workers on 2 cores steals a
// lot: on the development machine about 1 run in 100 differed (1 in 15 under
// -race).
func TestSumAdaptiveSplitChangesBits(t *testing.T) {
	xs := seqWildFloats(seqRand(77), 200_000)
	one := par.NewPool(par.Workers(1))
	defer one.Close()
	want := math.Float64bits(par.Sum(xs, par.OnPool(one)))
	p := par.NewPool(par.Workers(32))
	defer p.Close()
	runs := 2000
	if testing.Short() {
		runs = 200
	}
	differ := 0
	for i := 0; i < runs; i++ {
		if math.Float64bits(par.Sum(xs, par.OnPool(p))) != want {
			differ++
		}
	}
	require.Zero(t, differ, "runs of %d whose bits differ from the one-worker sum", runs)
}
