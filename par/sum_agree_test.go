package par_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// TestSumsAgree checks that the three deterministic float sums follow one
// tree: Sum over a slice, SumSeq over the same values as a sequence, and
// pipe.Sum over the slice give the same bits for every length.
func TestSumsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	lengths := []int{0, 1, 2, 127, 128, 129, 255, 256, 257, 383, 1000, 4097, 16384 + 130, 100_003}
	if !testing.Short() {
		lengths = append(lengths, 1_000_003, 3*16384*128+77)
	}
	for _, n := range lengths {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20))
		}
		want := math.Float64bits(par.Sum(xs))
		require.Equal(t, want, math.Float64bits(par.SumSeq(slices.Values(xs))), "SumSeq, n=%d", n)
		require.Equal(t, want, math.Float64bits(pipe.Sum(pipe.From(xs))), "pipe.Sum, n=%d", n)
	}
}
