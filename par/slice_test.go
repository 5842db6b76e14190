package par_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// mat is a 2x2 matrix over the integers mod matP, row by row. Its product is
// associative but not commutative, so a reduction that reorders its operands
// gives a different matrix.
type mat [4]uint64

const matP = 65521

var matI = mat{1, 0, 0, 1}

func matMul(a, b mat) mat {
	return mat{
		(a[0]*b[0] + a[1]*b[2]) % matP,
		(a[0]*b[1] + a[1]*b[3]) % matP,
		(a[2]*b[0] + a[3]*b[2]) % matP,
		(a[2]*b[1] + a[3]*b[3]) % matP,
	}
}

func randMats(r *rand.Rand, n int) []mat {
	s := make([]mat, n)
	for i := range s {
		s[i] = mat{r.Uint64N(matP), r.Uint64N(matP), r.Uint64N(matP), r.Uint64N(matP)}
	}
	return s
}

// fibMat maps x to a matrix that does not commute with most others.
func fibMat(x int) mat { return mat{uint64(x) % matP, 1, 1, 0} }

func TestMatMulIsNotCommutative(t *testing.T) {
	a, b := fibMat(2), fibMat(3)
	require.NotEqual(t, matMul(a, b), matMul(b, a), "the order test below would be vacuous")
	require.Equal(t, matMul(matMul(a, b), fibMat(5)), matMul(a, matMul(b, fibMat(5))))
}

func TestMap(t *testing.T) {
	f := func(x int) uint64 { return uint64(x)*0x9E3779B97F4A7C15 ^ uint64(x)>>7 }
	type input struct {
		in   []int
		want []uint64
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := randInts(r, n)
		want := make([]uint64, n)
		for i, x := range in {
			want[i] = f(x)
		}
		return input{in, want}
	}, func(t *testing.T, n int, c input, s setup) {
		got := par.Map(c.in, f, s.opts...)
		require.Len(t, got, n)
		require.True(t, slices.Equal(c.want, got), "Map differs from the loop")
	})
}

func TestMapCallsEachElementOnce(t *testing.T) {
	eachCase(t, func(_ *rand.Rand, n int) []int { return indices(n) }, func(t *testing.T, n int, in []int, s setup) {
		calls := make(counts, n)
		got := par.Map(in, func(i int) int {
			calls[i].Add(1)
			return -i
		}, s.opts...)
		requireOnce(t, calls, "f(s[i]) for i =")
		for i, v := range got {
			if v != -i {
				t.Fatalf("Map(...)[%d] = %d, want %d", i, v, -i)
			}
		}
	})
}

func TestForEach(t *testing.T) {
	eachCase(t, func(_ *rand.Rand, n int) []int { return indices(n) }, func(t *testing.T, n int, in []int, s setup) {
		calls := make(counts, n)
		par.ForEach(in, func(i int) { calls[i].Add(1) }, s.opts...)
		requireOnce(t, calls, "f(s[i]) for i =")
	})
}

func TestReduceKeepsOrder(t *testing.T) {
	type input struct {
		in   []mat
		want mat
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := randMats(r, n)
		want := matI
		for _, m := range in {
			want = matMul(want, m)
		}
		return input{in, want}
	}, func(t *testing.T, n int, c input, s setup) {
		require.Equal(t, c.want, par.Reduce(c.in, matI, matMul, s.opts...))
	})
}

func TestReduceStrings(t *testing.T) {
	eachCase(t, func(r *rand.Rand, n int) []string {
		if n > 20_000 {
			return nil // string concatenation is quadratic in a leaf's length
		}
		in := make([]string, n)
		for i := range in {
			in[i] = strconv.Itoa(r.IntN(1000)) + ","
		}
		return in
	}, func(t *testing.T, n int, in []string, s setup) {
		if len(in) != n {
			t.Skip("string concatenation is quadratic in a leaf's length")
		}
		got := par.Reduce(in, "", func(a, b string) string { return a + b }, s.opts...)
		require.Equal(t, strings.Join(in, ""), got)
	})
}

func TestMapReduce(t *testing.T) {
	type input struct {
		in   []int
		want mat
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := randInts(r, n)
		want := matI
		for _, x := range in {
			want = matMul(want, fibMat(x))
		}
		return input{in, want}
	}, func(t *testing.T, n int, c input, s setup) {
		require.Equal(t, c.want, par.MapReduce(c.in, fibMat, matI, matMul, s.opts...))
	})
}

func TestMapReduceCallsEachElementOnce(t *testing.T) {
	eachCase(t, func(_ *rand.Rand, n int) []int { return indices(n) }, func(t *testing.T, n int, in []int, s setup) {
		calls := make(counts, n)
		sum := par.MapReduce(in, func(i int) int {
			calls[i].Add(1)
			return i
		}, 0, func(a, b int) int { return a + b }, s.opts...)
		require.Equal(t, n*(n-1)/2, sum)
		requireOnce(t, calls, "f(s[i]) for i =")
	})
}

// countKs are predicates' moduli: none, all, a third, a sparse few.
var countKs = []int{0, 1, 3, 64}

func keepMod(k int) func(x int) bool {
	return func(x int) bool { return k > 0 && uint(x)%uint(k) == 0 }
}

func TestCount(t *testing.T) {
	type input struct {
		in   []int
		want []int // per k
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := randInts(r, n)
		want := make([]int, len(countKs))
		for j, k := range countKs {
			for _, x := range in {
				if keepMod(k)(x) {
					want[j]++
				}
			}
		}
		return input{in, want}
	}, func(t *testing.T, n int, c input, s setup) {
		for j, k := range countKs {
			require.Equal(t, c.want[j], par.Count(c.in, keepMod(k), s.opts...), "k = %d", k)
		}
	})
}

// ints is a named slice type: Filter must return it, not []int.
type ints []int

func TestFilterKeepsOrder(t *testing.T) {
	type input struct {
		in   ints
		want []ints // per k
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := ints(randInts(r, n))
		want := make([]ints, len(countKs))
		for j, k := range countKs {
			want[j] = ints{}
			for _, x := range in {
				if keepMod(k)(x) {
					want[j] = append(want[j], x)
				}
			}
		}
		return input{in, want}
	}, func(t *testing.T, n int, c input, s setup) {
		for j, k := range countKs {
			var got ints = par.Filter(c.in, keepMod(k), s.opts...)
			require.Len(t, got, len(c.want[j]), "k = %d", k)
			require.True(t, slices.Equal(c.want[j], got), "k = %d: Filter differs from the loop", k)
		}
	})
}

func TestFilterResultIsFresh(t *testing.T) {
	in := indices(1000)
	got := par.Filter(in, func(int) bool { return true })
	require.Equal(t, in, got)
	got[0] = -1
	require.Equal(t, 0, in[0], "Filter's result must not alias its input")
}
