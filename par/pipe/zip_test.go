package pipe_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
	"github.com/weftgo/weft/split"
)

func randFloats(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 17))
	s := make([]float64, n)
	for i := range s {
		s[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(8)))
	}
	return s
}

func mul(a, b float64) float64 { return a * b }

func TestZipAgainstLoop(t *testing.T) {
	for _, po := range surfacePools(t) {
		for _, n := range surfaceSizes() {
			t.Run(fmt.Sprintf("%s/n=%d", po.name, n), func(t *testing.T) {
				a, b, c := randInts(n, 1), randFloats(n, 2), randInts(n, 3)
				words := make([]string, n)
				for i := range words {
					words[i] = fmt.Sprint(i % 10)
				}
				var two []string
				var three []float64
				var prods []float64
				for i := range a {
					two = append(two, fmt.Sprint(a[i], words[i]))
					three = append(three, float64(a[i])*b[i]+float64(c[i]))
					prods = append(prods, b[i]*b[i])
				}
				zs := pipe.Zip(a, words, func(x int, w string) string { return fmt.Sprint(x, w) })
				require.Equal(t, n, zs.Len())
				require.Equal(t, two, nilIfEmpty(zs.Collect(po.opts...)))
				z3 := pipe.Zip3(a, b, c, func(x int, y float64, z int) float64 { return float64(x)*y + float64(z) })
				require.Equal(t, three, nilIfEmpty(z3.Collect(po.opts...)))
				// The dot product is par.Sum of the products, bit for bit.
				dot := pipe.Sum(pipe.Zip(b, b, mul), po.opts...)
				require.Equal(t, math.Float64bits(par.Sum(prods)), math.Float64bits(dot))
				// Positions are the indexes.
				idx := pipe.MapIndex(pipe.Zip(a, c, func(x, y int) int { return x - y }), func(i, d int) int { return i*10_000 + d })
				got := idx.Collect(po.opts...)
				for i := range a {
					require.Equal(t, i*10_000+a[i]-c[i], got[i])
				}
			})
		}
	}
}

func TestZipNamedSlices(t *testing.T) {
	type vec []float64
	x, y := vec{1, 2, 3}, vec{4, 5, 6}
	require.Equal(t, 32.0, pipe.Sum(pipe.Zip(x, y, mul)))
}

func TestZipBadInput(t *testing.T) {
	a, b := make([]int, 3), make([]int, 4)
	add := func(x, y int) int { return x + y }
	require.Equal(t, "pipe: Zip: len(a) = 3, len(b) = 4", panicValue(t, func() { pipe.Zip(a, b, add) }))
	require.Equal(t, "pipe: Zip: len(a) = 4, len(b) = 0", panicValue(t, func() { pipe.Zip(b, []int(nil), add) }))
	add3 := func(x, y, z int) int { return x + y + z }
	require.Equal(t, "pipe: Zip3: len(a) = 3, len(b) = 3, len(c) = 4", panicValue(t, func() { pipe.Zip3(a, a, b, add3) }))
	require.Equal(t, "pipe: Zip3: len(a) = 3, len(b) = 4, len(c) = 3", panicValue(t, func() { pipe.Zip3(a, b, a, add3) }))
	require.Equal(t, "pipe: Zip: f is nil", panicValue(t, func() { pipe.Zip[int, int, int](a, a, nil) }))
	require.Equal(t, "pipe: Zip3: f is nil", panicValue(t, func() { pipe.Zip3[int, int, int, int](a, a, a, nil) }))
	require.Empty(t, pipe.Zip([]int(nil), []string{}, func(int, string) int { return 0 }).Collect())
}

func TestZipPanics(t *testing.T) {
	const n = 100_000
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	for _, po := range surfacePools(t) {
		v := panicValue(t, func() {
			pipe.Sum(pipe.Zip(xs, xs, func(a, b int) int {
				if a == n-7 {
					panic(fmt.Errorf("zip %d", a))
				}
				return a * b
			}), po.opts...)
		})
		require.EqualError(t, v.(error), fmt.Sprint("zip ", n-7))
		v = panicValue(t, func() {
			pipe.Zip3(xs, xs, xs, func(a, b, c int) int {
				if a == 3 {
					panic("zip3")
				}
				return a
			}).Collect(po.opts...)
		})
		require.Equal(t, "zip3", v)
		requireUsable(t, po.opts)
	}
}

// TestDotProductAllocations: a dot product makes no allocation that grows
// with n: Sum cuts its blocks into about 16 leaves per worker whatever n, and
// a leaf allocates a few small things (its feeder, the batch buffer, the
// closures of the block tree), a fork a record at most.
func TestDotProductAllocations(t *testing.T) {
	// Both sizes are above the length that Sum runs on the caller alone.
	n := 2 * split.StreamLen(8)
	k := 8
	if !surfaceFull() {
		k = 2
	}
	allocs := func(n int) float64 {
		xs, ys := randFloats(n, 1), randFloats(n, 2)
		dot := func() { pipe.Sum(pipe.Zip(xs, ys, mul)) }
		dot()
		return testing.AllocsPerRun(5, dot)
	}
	small, large := allocs(n), allocs(k*n)
	t.Logf("%.0f allocations for n = %d, %.0f for n = %d", small, n, large, k*n)
	leaves := 16 * runtime.GOMAXPROCS(0)
	require.Less(t, large, float64(8*leaves+64))
	require.Less(t, large, 2*small+64, "grows with n")
}

func TestProductAgainstLoop(t *testing.T) {
	for _, po := range surfacePools(t) {
		for _, n := range surfaceSizes() {
			t.Run(fmt.Sprintf("%s/n=%d", po.name, n), func(t *testing.T) {
				xs := randInts(n, uint64(n)+7)
				// Integer products wrap, and wrapping multiplication is
				// associative and commutative: the loop's result exactly.
				want := uint64(1)
				odd := uint64(1)
				for _, x := range xs {
					want *= uint64(x) | 1
					if x%2 != 0 {
						odd *= uint64(x)
					}
				}
				u := pipe.Map(pipe.From(xs), func(x int) uint64 { return uint64(x) | 1 })
				require.Equal(t, want, pipe.Product(u, po.opts...))
				o := pipe.Map(pipe.From(xs).Filter(func(x int) bool { return x%2 != 0 }), func(x int) uint64 { return uint64(x) })
				require.Equal(t, odd, pipe.Product(o, po.opts...))

				// Floats near 1, whose product neither overflows nor
				// underflows: close to the loop's, and the same bits on every
				// pool and run.
				fs := make([]float64, n)
				r := rand.New(rand.NewPCG(uint64(n), 3))
				loop := 1.0
				for i := range fs {
					fs[i] = 1 + (r.Float64()-0.5)*1e-4
					loop *= fs[i]
				}
				got := pipe.Product(pipe.From(fs), po.opts...)
				require.InEpsilon(t, loop, got, 1e-9)
				require.Equal(t, math.Float64bits(pipe.Product(pipe.From(fs))), math.Float64bits(got))
			})
		}
	}
}

func TestProductDeterministic(t *testing.T) {
	fs := make([]float64, 1_000_003)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range fs {
		fs[i] = 1 + (r.Float64()-0.5)*1e-3
	}
	keep := func(x float64) bool { return x > 0.9999 }
	want := pipe.Product(pipe.From(fs).Filter(keep))
	for _, po := range surfacePools(t) {
		for run := range 3 {
			got := pipe.Product(pipe.From(fs).Filter(keep), po.opts...)
			require.Equal(t, math.Float64bits(want), math.Float64bits(got), "%s run %d", po.name, run)
		}
	}
	// Unfiltered, it agrees with par.Product bit for bit.
	require.Equal(t, math.Float64bits(par.Product(fs)), math.Float64bits(pipe.Product(pipe.From(fs))))
	require.Equal(t, 1.0, pipe.Product(pipe.From([]float64{})))
	require.Equal(t, 1, pipe.Product(pipe.Range(0, 0)))
	require.Equal(t, 0, pipe.Product(pipe.Range(0, 1000)))
	require.Equal(t, 3628800, pipe.Product(pipe.Range(1, 11)))
}

func TestZipNested(t *testing.T) {
	xs, ys := randFloats(50_000, 8), randFloats(50_000, 9)
	want := pipe.Sum(pipe.Zip(xs, ys, mul))
	for _, po := range surfacePools(t) {
		got := make([]float64, 6)
		par.For(len(got), func(k int) {
			got[k] = pipe.Sum(pipe.Zip(xs, ys, mul), po.opts...)
		}, po.opts...)
		require.Equal(t, slices.Repeat([]float64{want}, len(got)), got)
	}
}
