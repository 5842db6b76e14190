package par_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// The index forms must hand every callback the element's own index: the
// oracle is a range loop over the slice.

func TestMapIndex(t *testing.T) {
	f := func(i, x int) int { return 3*x ^ i }
	eachCase(t, func(r *rand.Rand, n int) []int { return randInts(r, n) },
		func(t *testing.T, n int, in []int, s setup) {
			want := make([]int, n)
			for i, x := range in {
				want[i] = f(i, x)
			}
			require.Equal(t, want, par.MapIndex(in, f, s.opts...))
		})
}

func TestForEachIndex(t *testing.T) {
	eachCase(t, func(r *rand.Rand, n int) []int { return randInts(r, n) },
		func(t *testing.T, n int, in []int, s setup) {
			calls := make(counts, n)
			got := make([]int, n)
			par.ForEachIndex(in, func(i, x int) {
				calls[i].Add(1)
				got[i] = x // each index is written by one call only
			}, s.opts...)
			requireOnce(t, calls, "f(i, s[i]) for i =")
			require.Equal(t, in, got, "f(i, e) must get e == s[i]")
		})
}

func TestFilterIndex(t *testing.T) {
	keep := func(i, x int) bool { return (x+i)%3 == 0 } // depends on both
	eachCase(t, func(r *rand.Rand, n int) []int { return smallInts(r, n, 1000) },
		func(t *testing.T, n int, in []int, s setup) {
			want := []int{}
			for i, x := range in {
				if keep(i, x) {
					want = append(want, x)
				}
			}
			got := par.FilterIndex(in, keep, s.opts...)
			require.NotNil(t, got)
			require.Equal(t, want, got)
			require.Empty(t, par.FilterIndex(in, func(int, int) bool { return false }, s.opts...))
			require.Equal(t, in, []int(par.FilterIndex(in, func(int, int) bool { return true }, s.opts...)))
		})
}

// TestFilterIndexNamedType: the result has the named slice type of s.
func TestFilterIndexNamedType(t *testing.T) {
	type ids []int
	got := par.FilterIndex(ids{5, 6, 7, 8}, func(i, _ int) bool { return i%2 == 1 })
	require.Equal(t, ids{6, 8}, got)
}

// TestIndexNested runs the index forms inside the callbacks of another call,
// on the same pool and on another.
func TestIndexNested(t *testing.T) {
	pools := testPools(t)
	in := indices(2000)
	for _, p := range pools {
		t.Run(poolName(p), func(t *testing.T) {
			outer := make([]int, 16)
			par.ForEachIndex(outer, func(k, _ int) {
				opts := poolOpts(pools[k%len(pools)])
				m := par.MapIndex(in, func(i, x int) int { return i + x + k }, opts...)
				f := par.FilterIndex(in, func(i, x int) bool { return (i+k)%5 == 0 }, opts...)
				var sum int
				for i := range m {
					sum += m[i] - 2*i - k
				}
				outer[k] = sum + len(f) // 0 + 400
			}, append(poolOpts(p), par.WithGrain(1))...)
			for k, v := range outer {
				require.Equal(t, len(in)/5, v, "outer element %d", k)
			}
		})
	}
}
