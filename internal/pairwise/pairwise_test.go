package pairwise_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weftgo/weft/internal/pairwise"
	"github.com/weftgo/weft/split"
)

// oracle is the deterministic sum or product written out plainly: each
// block of 128 folded into four accumulators, element k of each group of
// four into accumulator k and a last incomplete group into the first, and
// the blocks combined by halving at the largest power of two below their
// count.
func oracle(op pairwise.Op, s []float64) float64 {
	f := func(a, b float64) float64 {
		if op == pairwise.Mul {
			return a * b
		}
		return a + b
	}
	e := 0.0
	if op == pairwise.Mul {
		e = 1
	}
	if len(s) == 0 {
		return e
	}
	var tree func(lo, hi int) float64
	tree = func(lo, hi int) float64 {
		if hi-lo == 1 {
			b := s[lo*128 : min(len(s), lo*128+128)]
			acc := [4]float64{e, e, e, e}
			full := len(b) / 4 * 4
			for i, x := range b[:full] {
				acc[i%4] = f(acc[i%4], x)
			}
			for _, x := range b[full:] {
				acc[0] = f(acc[0], x)
			}
			return f(f(acc[0], acc[1]), f(acc[2], acc[3]))
		}
		half := 1
		for half*2 < hi-lo {
			half *= 2
		}
		return f(tree(lo, lo+half), tree(lo+half, hi))
	}
	return tree(0, (len(s)+127)/128)
}

func TestAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 4, 5, 127, 128, 129, 255, 256, 257, 1000, 5000} {
		s := make([]float64, n)
		for i := range s {
			s[i] = 1 + (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(4)-6))
		}
		for _, op := range []pairwise.Op{pairwise.Add, pairwise.Mul} {
			want := oracle(op, s)
			require.Equal(t, math.Float64bits(want), math.Float64bits(pairwise.All(op, s)), "n=%d op=%d", n, op)
			if n == 0 {
				continue
			}
			// Tree over fed blocks, each fed in parts of a multiple of four.
			got := pairwise.Tree(op, 0, split.Blocks(n), n, func(lo, hi int) float64 {
				e := pairwise.Identity[float64](op)
				a := [4]float64{e, e, e, e}
				for lo < hi {
					next := min(hi, lo+12)
					a[0], a[1], a[2], a[3] = pairwise.Fold4(op, s[lo:next], a[0], a[1], a[2], a[3])
					lo = next
				}
				return pairwise.Join4(op, a)
			})
			require.Equal(t, math.Float64bits(want), math.Float64bits(got), "fed in parts: n=%d op=%d", n, op)
		}
	}
}

func TestIntegers(t *testing.T) {
	s := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	require.Equal(t, 55, pairwise.All(pairwise.Add, s))
	require.Equal(t, 3628800, pairwise.All(pairwise.Mul, s))
	require.Equal(t, 0, pairwise.All(pairwise.Add, []int{}))
	require.Equal(t, 1, pairwise.All(pairwise.Mul, []int{}))
	require.Equal(t, uint8(44), pairwise.All(pairwise.Add, []uint8{200, 100})) // wraps
}
