package par_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
)

// spread makes from x between 0 and 3 elements, and 300 for one x in 1000:
// runs of empty outputs and long ones.
func spread(x int, out []string) []string {
	k := x % 4
	if x%1000 == 999 {
		k = 300
	}
	for j := range k {
		out = append(out, fmt.Sprint(x, ".", j))
	}
	return out
}

func TestFlatMap(t *testing.T) {
	type input struct {
		in   []int
		want []string
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := smallInts(r, n, 5000)
		var want []string
		for _, x := range in {
			want = spread(x, want)
		}
		return input{in, want}
	}, func(t *testing.T, n int, c input, s setup) {
		got := par.FlatMap(c.in, spread, s.opts...)
		require.NotNil(t, got)
		require.Len(t, got, len(c.want))
		require.True(t, slices.Equal(c.want, got), "FlatMap differs from the loop")
	})
}

func TestFlatMapCallsEachElementOnce(t *testing.T) {
	eachCase(t, func(_ *rand.Rand, n int) []int { return indices(n) }, func(t *testing.T, n int, in []int, s setup) {
		calls := make(counts, n)
		got := par.FlatMap(in, func(i int, out []int) []int {
			calls[i].Add(1)
			return append(out, i, -i)
		}, s.opts...)
		requireOnce(t, calls, "f(s[i]) for i =")
		for i := range n {
			if got[2*i] != i || got[2*i+1] != -i {
				t.Fatalf("FlatMap(...)[%d:%d] = %v, want [%d %d]", 2*i, 2*i+2, got[2*i:2*i+2], i, -i)
			}
		}
	})
}

// TestFlatMapFreshArrays: an f that returns an array of its own rather than
// out extended in place (legal: "as append does") gets the loop's result, and
// the call allocates, besides what f allocates, a small multiple of the
// result: the arrays handed to the pieces follow what the pieces made, and do
// not double from piece to piece (which once made 1,000 elements in pieces
// of 7 ask for 36 GiB).
func TestFlatMapFreshArrays(t *testing.T) {
	const n = 10_000
	in := indices(n)
	for _, p := range testPools(t) {
		for _, grain := range [][]par.Option{{par.WithGrain(7)}, {par.WithGrain(1)}, nil} {
			opts := slices.Clone(grain)
			if p != nil {
				opts = append(opts, par.OnPool(p))
			}
			var own atomic.Int64 // the bytes f allocated
			fresh := func(e int, out []int) []int {
				out = append(slices.Clip(out), e, -e)
				own.Add(int64(8 * cap(out)))
				return out
			}
			var got []int
			total := torture.Allocated(func() { got = par.FlatMap(in, fresh, opts...) })
			want := make([]int, 0, 2*n)
			for _, e := range in {
				want = append(want, e, -e)
			}
			require.Equal(t, want, got, "%s %v", poolName(p), grain)
			result := uint64(8 * len(want))
			// About 1.5 times the result, and 7 at a grain of 1, where each
			// piece makes 16 bytes and is handed an array of 64.
			lib := total - min(total, uint64(own.Load()))
			require.LessOrEqual(t, lib, 20*result, "%s %v: allocated %d bytes besides f's for a result of %d", poolName(p), grain, lib, result)
		}
	}
}

func TestFlatMapBadInput(t *testing.T) {
	require.Equal(t, "par: FlatMap: f is nil", panicValue(t, func() { par.FlatMap[[]int, int, int]([]int{1}, nil) }))
	require.Equal(t, "par: FlatMap: f is nil", panicValue(t, func() { par.FlatMap[[]int, int, int](nil, nil) }))
	for _, p := range testPools(t) {
		var opts []par.Option
		if p != nil {
			opts = append(opts, par.OnPool(p))
		}
		// One piece of 1000 elements: out holds the 150 before i = 150.
		v := panicValue(t, func() {
			par.FlatMap(indices(1000), func(i int, out []int) []int {
				if i == 150 {
					return out[:len(out)-1]
				}
				return append(out, i)
			}, append([]par.Option{par.WithGrain(1000)}, opts...)...)
		})
		require.Equal(t, "par: FlatMap: f returned 149 elements where out held 150: f must append to out", v, poolName(p))
		// A panic in f reaches the caller with its value, and the pool works
		// afterwards.
		v = panicValue(t, func() {
			par.FlatMap(indices(100_000), func(i int, out []int) []int {
				if i == 77_777 {
					panic(fmt.Errorf("flat %d", i))
				}
				return append(out, i)
			}, opts...)
		})
		require.EqualError(t, v.(error), "flat 77777", poolName(p))
		require.Len(t, par.FlatMap(indices(100_000), func(i int, out []int) []int { return append(out, i) }, opts...), 100_000)
	}
}

func TestFlatMapNested(t *testing.T) {
	in := indices(10_000)
	var want []string
	for _, x := range in {
		want = spread(x, want)
	}
	got := par.Map(indices(8), func(int) []string { return par.FlatMap(in, spread) })
	for k := range got {
		require.True(t, slices.Equal(want, got[k]), "nested call %d", k)
	}
}
