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

// Map, ForEach, Reduce, MapReduce, Count and Filter: the results of the
// sequential loop on every size and setup, each element's function called
// exactly once, the order of a non-commutative op kept.

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

// fuzzOpts turns two fuzzed bytes into a call's options: a grain (0 keeps the
// adaptive splitter, odd values a minimum length instead) and a pool.
func fuzzOpts(pools []*par.Pool, grain, pool uint8) []par.Option {
	var opts []par.Option
	switch {
	case grain == 0:
	case grain%2 == 1:
		opts = append(opts, par.WithMinLen(int(grain)))
	default:
		opts = append(opts, par.WithGrain(int(grain/2)))
	}
	if p := pools[int(pool)%len(pools)]; p != nil {
		opts = append(opts, par.OnPool(p))
	}
	return opts
}

func fuzzPools(f *testing.F) []*par.Pool {
	pools := []*par.Pool{nil}
	for _, n := range []int{1, 3} {
		p := par.NewPool(par.Workers(n))
		f.Cleanup(p.Close)
		pools = append(pools, p)
	}
	return pools
}

// FuzzFilter compares Filter with the sequential loop on fuzzed bytes, with a
// fuzzed predicate (keep the bytes divisible by k) and fuzzed options.
func FuzzFilter(f *testing.F) {
	f.Add([]byte{}, uint8(1), uint8(0), uint8(0))
	f.Add([]byte{0}, uint8(2), uint8(2), uint8(1))
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), uint8(3), uint8(2), uint8(2))
	f.Add(make([]byte, 300), uint8(1), uint8(14), uint8(1))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, uint8(2), uint8(201), uint8(2))
	pools := fuzzPools(f)
	f.Fuzz(func(t *testing.T, data []byte, k, grain, pool uint8) {
		k = max(k, 1)
		keep := func(b byte) bool { return b%k == 0 }
		want := []byte{}
		for _, b := range data {
			if keep(b) {
				want = append(want, b)
			}
		}
		got := par.Filter(data, keep, fuzzOpts(pools, grain, pool)...)
		if !slices.Equal(want, got) {
			t.Fatalf("Filter(%v, %%%d == 0) = %v, want %v", data, k, got, want)
		}
		if n := par.Count(data, keep, fuzzOpts(pools, grain, pool)...); n != len(want) {
			t.Fatalf("Count = %d, want %d", n, len(want))
		}
	})
}

// FuzzReduce compares Reduce with the sequential fold on fuzzed bytes, with
// two associative operations that do not commute: string concatenation, and
// the product of 2x2 matrices made from pairs of bytes.
func FuzzReduce(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0))
	f.Add([]byte{7}, uint8(2), uint8(1))
	f.Add([]byte("abcdefghijklmnopqrstuvwxyz"), uint8(2), uint8(2))
	f.Add([]byte{1, 1, 1, 0, 0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233}, uint8(7), uint8(1))
	f.Add(make([]byte, 1000), uint8(0), uint8(2))
	pools := fuzzPools(f)
	f.Fuzz(func(t *testing.T, data []byte, grain, pool uint8) {
		opts := fuzzOpts(pools, grain, pool)
		strs := make([]string, len(data))
		for i, b := range data {
			strs[i] = string(rune('a' + b%26))
		}
		want := strings.Join(strs, "")
		if got := par.Reduce(strs, "", func(a, b string) string { return a + b }, opts...); got != want {
			t.Fatalf("Reduce(concatenation) = %q, want %q", got, want)
		}

		mats := make([]mat, len(data)/2)
		for i := range mats {
			x, y := uint64(data[2*i]), uint64(data[2*i+1])
			mats[i] = mat{x, y, (x * y) % matP, x ^ y}
		}
		wantMat := matI
		for _, m := range mats {
			wantMat = matMul(wantMat, m)
		}
		if got := par.Reduce(mats, matI, matMul, opts...); got != wantMat {
			t.Fatalf("Reduce(matMul) = %v, want %v", got, wantMat)
		}
		wantFib := matI
		for _, b := range data {
			wantFib = matMul(wantFib, fibMat(int(b)))
		}
		if got := par.MapReduce(data, func(b byte) mat { return fibMat(int(b)) }, matI, matMul, opts...); got != wantFib {
			t.Fatalf("MapReduce(fibMat, matMul) = %v, want %v", got, wantFib)
		}
	})
}
