package pipe_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
	"github.com/weftgo/weft/split"
)

// fusedSizes are lengths around a block (128), a batch (256), the length
// below which Sum runs on the caller (split.StreamLen(8)), and a few leaves
// of the tree.
func fusedSizes() []int {
	s := []int{0, 1, 3, 4, 5, 127, 128, 129, 255, 256, 257, 383, 511, 512, 513, 1000}
	sl := split.StreamLen(8)
	s = append(s, sl-1, sl, sl+1, 3*sl+129)
	if surfaceFull() {
		s = append(s, 1<<20-1, 1<<20+131, 3_000_017)
	}
	return s
}

// Sum of a Zip adds f's results as they come back (the fused path); Sum of
// a Map after it, or of a named number type, goes through the batch buffer.
// Both must give the same bits, and par.Sum's over the products, on every
// pool.
func TestSumZipFusedBits(t *testing.T) {
	type celsius float64
	for _, po := range surfacePools(t) {
		for _, n := range fusedSizes() {
			t.Run(fmt.Sprintf("%s/n=%d", po.name, n), func(t *testing.T) {
				xs, ys := randFloats(n, uint64(n)+1), randFloats(n, uint64(n)+2)
				prods := make([]float64, n)
				for i := range xs {
					prods[i] = xs[i] * ys[i]
				}
				want := math.Float64bits(par.Sum(prods))
				fused := pipe.Sum(pipe.Zip(xs, ys, mul), po.opts...)
				unfused := pipe.Sum(pipe.Map(pipe.Zip(xs, ys, mul), func(x float64) float64 { return x }), po.opts...)
				named := pipe.Sum(pipe.Zip(xs, ys, func(x, y float64) celsius { return celsius(x * y) }), po.opts...)
				require.Equal(t, want, math.Float64bits(unfused), "unfused")
				require.Equal(t, want, math.Float64bits(fused), "fused")
				require.Equal(t, want, math.Float64bits(float64(named)), "named type")

				xs32, prods32 := make([]float32, n), make([]float32, n)
				for i := range xs32 {
					xs32[i] = float32(xs[i])
					prods32[i] = xs32[i] * float32(ys[i])
				}
				sum32 := pipe.Sum(pipe.Zip(xs32, ys, func(x float32, y float64) float32 { return x * float32(y) }), po.opts...)
				require.Equal(t, math.Float32bits(par.Sum(prods32)), math.Float32bits(sum32), "float32")

				is := randInts(n, uint64(n)+3)
				var wantInt int
				for i := range is {
					wantInt += is[i] * is[i]
				}
				require.Equal(t, wantInt, pipe.Sum(pipe.Zip(is, is, func(a, b int) int { return a * b }), po.opts...), "int")
				var wantU32 uint32
				for i := range is {
					wantU32 += uint32(is[i]) * 7
				}
				require.Equal(t, wantU32, pipe.Sum(pipe.Zip(is, is, func(a, _ int) uint32 { return uint32(a) * 7 }), po.opts...), "uint32")
			})
		}
	}
}

// The fused path calls f once per pair, in order within a block, and its
// panic reaches the caller with its value.
func TestSumZipFusedCallsAndPanics(t *testing.T) {
	for _, po := range surfacePools(t) {
		t.Run(po.name, func(t *testing.T) {
			n := 3*split.StreamLen(8) + 5
			xs := make([]float64, n)
			calls := make([]int32, n)
			s := pipe.Sum(pipe.Zip(xs, xs, func(x, _ float64) float64 { return x + 1 }), po.opts...)
			require.Equal(t, float64(n), s)
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			pipe.Sum(pipe.Zip(idx, xs, func(i int, _ float64) float64 { calls[i]++; return 0 }), po.opts...)
			for i, c := range calls {
				require.Equal(t, int32(1), c, "f called %d times on pair %d", c, i)
			}
			bad := rand.IntN(n)
			require.PanicsWithValue(t, "boom", func() {
				pipe.Sum(pipe.Zip(idx, xs, func(i int, x float64) float64 {
					if i == bad {
						panic("boom")
					}
					return x
				}), po.opts...)
			})
		})
	}
}

// Dot gives the bits of par.Sum over the products, and of Sum(Zip(mul)), for
// every number type, on every pool: exact for integers (wrapping), the same
// bits for floats.
func TestDotBits(t *testing.T) {
	for _, po := range surfacePools(t) {
		for _, n := range fusedSizes() {
			t.Run(fmt.Sprintf("%s/n=%d", po.name, n), func(t *testing.T) {
				xs, ys := randFloats(n, uint64(n)+1), randFloats(n, uint64(n)+2)
				prods := make([]float64, n)
				xs32, ys32, prods32 := make([]float32, n), make([]float32, n), make([]float32, n)
				is, js := randInts(n, uint64(n)+3), randInts(n, uint64(n)+4)
				us := make([]uint32, n)
				var wantInt int
				var wantU32 uint32
				for i := range xs {
					prods[i] = xs[i] * ys[i]
					xs32[i], ys32[i] = float32(xs[i]), float32(ys[i])
					prods32[i] = xs32[i] * ys32[i]
					wantInt += is[i] * js[i]
					us[i] = uint32(is[i]) * 2_654_435_761
					wantU32 += us[i] * us[i]
				}
				want := math.Float64bits(par.Sum(prods))
				require.Equal(t, want, math.Float64bits(pipe.Dot(xs, ys, po.opts...)), "float64")
				require.Equal(t, want, math.Float64bits(pipe.Sum(pipe.Zip(xs, ys, mul), po.opts...)), "Sum(Zip)")
				require.Equal(t, math.Float32bits(par.Sum(prods32)), math.Float32bits(pipe.Dot(xs32, ys32, po.opts...)), "float32")
				require.Equal(t, wantInt, pipe.Dot(is, js, po.opts...), "int")
				require.Equal(t, wantU32, pipe.Dot(us, us, po.opts...), "uint32")
			})
		}
	}
}

func TestDotBadInput(t *testing.T) {
	type vec []float64
	require.Equal(t, 32.0, pipe.Dot(vec{1, 2, 3}, vec{4, 5, 6}))
	require.Equal(t, 0.0, pipe.Dot[float64](nil, nil))
	require.Equal(t, "pipe: Dot: len(a) = 3, len(b) = 4", panicValue(t, func() { pipe.Dot(make([]int, 3), make([]int, 4)) }))
	require.Equal(t, "pipe: Dot: len(a) = 4, len(b) = 0", panicValue(t, func() { pipe.Dot(make([]int, 4), nil) }))
}

func ExampleDot() {
	xs := []float64{1, 2, 3}
	ys := []float64{4, 5, 6}
	fmt.Println(pipe.Dot(xs, ys))
	// Output: 32
}
