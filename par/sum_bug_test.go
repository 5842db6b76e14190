package par_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

// TestSumFineGrainChangesBits shows a bug: Sum says a float sum is computed
// "over a tree that depends only on len(s)", so that the same input gives a
// bit-identical result, but a grain that cuts the range below the 128-element
// blocks of that tree changes the result. The leaves of such a cut are added
// pairwise by the combine, while the canonical tree adds a whole block with
// four strided accumulators, so the additions are grouped differently.
//
// For s[i] = sin(i), i < 2^18, Sum(s) has bits 0x3ffde8a54f357c22, with
// WithGrain(7) 0x3ffde8a54f357cdf and with WithGrain(100) 0x3ffde8a54f357c64
// (for 10^6 elements: 0x3fcdcf2466cb1718, and 0x3fcdcf2466cb0958 with
// WithGrain(1)). The input is longer than the length up to which Sum runs
// sequentially whatever the options (split.StreamLen: 65536 float64 here).
// The adaptive splitter can in principle make the same cuts when thieves keep
// refilling its budget (any minimum length below 128), which would make the
// bits depend on timing; that was not seen in a few thousand runs.
func TestSumFineGrainChangesBits(t *testing.T) {
	s := make([]float64, 1<<18)
	for i := range s {
		s[i] = math.Sin(float64(i))
	}
	want := math.Float64bits(par.Sum(s))
	for _, g := range []int{7, 100} {
		t.Run(fmt.Sprintf("grain%d", g), func(t *testing.T) {
			got := math.Float64bits(par.Sum(s, par.WithGrain(g)))
			assert.Equal(t, fmt.Sprintf("%#x", want), fmt.Sprintf("%#x", got))
		})
	}
}
