package par_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

// TestMinMaxNaNBits checks a fixed bug: against Min's and Max's documentation, which
// says the result "is exactly that of slices.Min": with a NaN in the input the
// bits of the NaN differ. On amd64 the built-in min and max build a NaN result
// by or-ing the operands' bits, so the payload depends on which values are
// combined with the NaN, and Min starts every piece from s[0] where slices.Min
// carries the running minimum. On a 3-element input with the default options:
//
//	s = {1.1, NaN, 3.3}: slices.Min 0x7ffbffffffffffff, par.Min 0x7ff999999999999b
//	s = {3.3, NaN, 1.1}: slices.Max 0x7ffbffffffffffff, par.Max 0x7ffa666666666667
//
// Every result is a NaN, so only code that looks at NaN payloads can tell; the
// fix may be to the documentation ("NaN, though not necessarily the same NaN").
// Where the hardware makes a canonical NaN the test passes.
func TestMinMaxNaNBits(t *testing.T) {
	nan := math.NaN()
	for _, s := range [][]float64{{1.1, nan, 3.3}, {3.3, nan, 1.1}} {
		assert.Equal(t, fmt.Sprintf("%#x", math.Float64bits(slices.Min(s))), fmt.Sprintf("%#x", math.Float64bits(par.Min(s))), "Min(%v)", s)
		assert.Equal(t, fmt.Sprintf("%#x", math.Float64bits(slices.Max(s))), fmt.Sprintf("%#x", math.Float64bits(par.Max(s))), "Max(%v)", s)
	}
}
