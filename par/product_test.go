package par_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/split"
)

// productCase checks Product against a sequential loop on inputs from gen,
// whose values must make every grouping of the multiplications exact, or
// wrap as integers do.
func productCase[E par.Number](t *testing.T, gen func(r *rand.Rand, n int) []E) {
	type input struct {
		in   []E
		want E
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := gen(r, n)
		want := E(1)
		for _, x := range in {
			want *= x
		}
		return input{in, want}
	}, func(t *testing.T, n int, c input, s setup) {
		require.Equal(t, c.want, par.Product(c.in, s.opts...))
	})
}

// TestProductIntWraps multiplies odd integers, whose product wraps many times
// but never becomes 0, so that a lost or repeated factor shows.
func TestProductIntWraps(t *testing.T) {
	productCase(t, func(r *rand.Rand, n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = int(r.Uint64() | 1)
		}
		return s
	})
}

func TestProductUint8Wraps(t *testing.T) {
	productCase(t, func(r *rand.Rand, n int) []uint8 {
		s := make([]uint8, n)
		for i := range s {
			s[i] = uint8(r.Uint32() | 1)
		}
		return s
	})
}

// TestProductFloat64Exact multiplies by ±2 and ±1/2, keeping the exponent of
// every prefix product within ±500, so that the product of any run of
// neighbours is exact and every grouping gives the same result.
func TestProductFloat64Exact(t *testing.T) {
	productCase(t, func(r *rand.Rand, n int) []float64 {
		s := make([]float64, n)
		exp := 0
		for i := range s {
			up := r.IntN(2) == 0
			if exp >= 500 || (exp > -500 && !up) {
				s[i], exp = 0.5, exp-1
			} else {
				s[i], exp = 2, exp+1
			}
			if r.IntN(7) == 0 {
				s[i] = -s[i]
			}
		}
		return s
	})
}

// nearOne returns values within 1/1000 of 1 in magnitude, so that products of
// a million of them stay finite while almost every multiplication rounds.
func nearOne(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1 + (r.Float64()-0.5)/1000
	}
	return s
}

// treeProduct is the product over the tree that Product documents: blocks of
// split.Block elements, each multiplied with four accumulators, combined by
// split.Pairwise.
func treeProduct(s []float64) float64 {
	if len(s) == 0 {
		return 1
	}
	return split.Pairwise(0, split.Blocks(len(s)), func(b int) float64 {
		lo, hi := split.BlockRange(b, len(s))
		a := [4]float64{1, 1, 1, 1}
		blk := s[lo:hi]
		i := 0
		for ; i+4 <= len(blk); i += 4 {
			for k := range a {
				a[k] *= blk[i+k]
			}
		}
		for ; i < len(blk); i++ {
			a[0] *= blk[i]
		}
		return (a[0] * a[1]) * (a[2] * a[3])
	}, func(x, y float64) float64 { return x * y })
}

// TestProductFloatDeterministic: a float product that rounds gives the same
// bits on every pool and with every option, those of the documented tree, and
// is within a few ulps per level of the tree of the sequential loop's.
func TestProductFloatDeterministic(t *testing.T) {
	type input struct {
		in   []float64
		want uint64
		loop float64
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := nearOne(r, n)
		loop := 1.0
		for _, x := range in {
			loop *= x
		}
		return input{in, math.Float64bits(treeProduct(in)), loop}
	}, func(t *testing.T, n int, c input, s setup) {
		got := par.Product(c.in, s.opts...)
		require.Equal(t, c.want, math.Float64bits(got), "Product = %v, the tree gives %v", got, math.Float64frombits(c.want))
		require.InEpsilon(t, c.loop, got, float64(n+1)*1e-15)
	})
}

// TestProductSpecial: the identity, and the values that absorb or spread.
func TestProductSpecial(t *testing.T) {
	require.Equal(t, 1, par.Product([]int(nil)))
	require.Equal(t, 1.0, par.Product([]float64{}))
	require.Equal(t, 7, par.Product([]int{7}))
	big := nearOne(newRand(3), 10_000)
	big[5000] = 0
	require.Equal(t, 0.0, par.Product(big))
	big[5000] = math.Inf(-1)
	require.True(t, math.IsInf(par.Product(big), -1))
	big[7000] = 0
	require.True(t, math.IsNaN(par.Product(big)), "0 × Inf is NaN")
}
