package pipe_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

var sizes = []int{0, 1, 2, 3, 17, 255, 256, 257, 1000, 100_000}

func pools(t *testing.T) map[string][]par.Option {
	out := map[string][]par.Option{"default": nil}
	for _, n := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(n))
		t.Cleanup(p.Close)
		out[fmt.Sprint("workers=", n)] = []par.Option{par.OnPool(p)}
		out[fmt.Sprint("workers=", n, "/grain=7")] = []par.Option{par.OnPool(p), par.WithGrain(7)}
	}
	return out
}

func randInts(n int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 1))
	s := make([]int, n)
	for i := range s {
		s[i] = r.IntN(1000) - 500
	}
	return s
}

func TestAgainstLoops(t *testing.T) {
	sq := func(x int) int { return x * x }
	even := func(x int) bool { return x%2 == 0 }
	for name, opts := range pools(t) {
		for _, n := range sizes {
			t.Run(fmt.Sprintf("%s/n=%d", name, n), func(t *testing.T) {
				xs := randInts(n, uint64(n))
				var mapped, kept []int
				sum, cnt := 0, 0
				for _, x := range xs {
					mapped = append(mapped, sq(x))
					if even(sq(x)) {
						kept = append(kept, sq(x))
						sum += sq(x)
						cnt++
					}
				}
				m := pipe.Map(pipe.From(xs), sq)
				f := m.Filter(even)
				require.Equal(t, n, m.Len())
				require.True(t, slices.Equal(mapped, m.Collect(opts...)))
				require.True(t, slices.Equal(kept, f.Collect(opts...)))
				require.Equal(t, sum, pipe.Sum(f, opts...))
				require.Equal(t, cnt, f.Count(opts...))
				require.Equal(t, n, m.Count(opts...))
				require.Equal(t, sum, f.Reduce(0, func(a, b int) int { return a + b }, opts...))
				// A non-commutative fold: the order must be kept.
				if n <= 1000 {
					str := pipe.Fold(m, func() string { return "" }, func(acc string, x int) string { return acc + strconv.Itoa(x) + "," },
						func(a, b string) string { return a + b }, opts...)
					want := ""
					for _, x := range mapped {
						want += strconv.Itoa(x) + ","
					}
					require.Equal(t, want, str)
				}
				var seen atomic.Int64
				f.ForEach(func(int) { seen.Add(1) }, opts...)
				require.EqualValues(t, cnt, seen.Load())
				mn, ok := pipe.Min(f, opts...)
				require.Equal(t, cnt > 0, ok)
				if ok {
					require.Equal(t, slices.Min(kept), mn)
					mx, _ := pipe.Max(f, opts...)
					require.Equal(t, slices.Max(kept), mx)
				}
				require.True(t, slices.Equal(xs, pipe.From(xs).Collect(opts...)))
			})
		}
	}
}

func TestRange(t *testing.T) {
	require.Empty(t, pipe.Range(5, 5).Collect())
	require.Empty(t, pipe.Range(5, 2).Collect())
	got := pipe.Range(-3, 1000).Collect()
	require.Len(t, got, 1003)
	for i, x := range got {
		require.Equal(t, i-3, x)
	}
	// W1 of docs/DESIGN.md at a smaller size: sum of x*x, wrapping uint64.
	const n = 1_000_000
	var want uint64
	for x := uint64(0); x < n; x++ {
		want += x * x
	}
	got64 := pipe.Sum(pipe.Map(pipe.Range(0, n), func(x int) uint64 { return uint64(x) * uint64(x) }))
	require.Equal(t, want, got64)
}

// TestRangeNearIntLimits: ranges that end at math.MaxInt or start at
// math.MinInt, cut near their ends, give the items a loop gives; no position
// computation wraps around.
func TestRangeNearIntLimits(t *testing.T) {
	const maxInt, minInt = math.MaxInt, math.MinInt
	top := pipe.Range(0, maxInt)
	bottom := pipe.Range(minInt, -1)
	yes := func(int) bool { return true }
	for _, po := range surfacePools(t) {
		for _, grain := range [][]par.Option{nil, {par.WithGrain(1)}, {par.WithGrain(5)}} {
			opts := append(slices.Clone(po.opts), grain...)
			name := fmt.Sprint(po.name, grain)
			require.Equal(t, []int{maxInt - 2, maxInt - 1}, top.Skip(maxInt-2).Collect(opts...), name)
			require.Equal(t, []int{maxInt - 1, maxInt - 2, maxInt - 3}, top.Rev().Take(3).Collect(opts...), name)
			require.Equal(t, []int{0, maxInt / 3, 2 * (maxInt / 3), 3 * (maxInt / 3)}, top.StepBy(maxInt/3).Collect(opts...), name)
			if grain == nil { // a fixed grain cuts the whole range into pieces, each visited
				require.Equal(t, maxInt-1, must(top.FindLast(yes, opts...)), name)
				require.Equal(t, maxInt-1, top.LastIndexFunc(yes, opts...), name)
				require.Equal(t, -2, must(bottom.FindLast(yes, opts...)), name)
				require.Equal(t, maxInt-1, bottom.LastIndexFunc(yes, opts...), name)
			}
			require.Equal(t, maxInt-1, must(top.Skip(maxInt-300).FindLast(yes, opts...)), name)
			require.Equal(t, maxInt-5, must(top.Skip(maxInt-300).Find(func(x int) bool { return x >= maxInt-5 }, opts...)), name)
			require.True(t, top.Skip(maxInt-300).Any(func(x int) bool { return x == maxInt-1 }, opts...), name)
			require.Equal(t, []int{-4, -3, -2}, bottom.Skip(maxInt-3).Collect(opts...), name)
			require.Equal(t, []int{minInt, minInt + 1}, bottom.Take(2).Collect(opts...), name)
			tail := pipe.Range(maxInt-1000, maxInt)
			want := 0
			for x := maxInt - 1000; x < maxInt; x++ {
				want += x
			}
			require.Equal(t, want, pipe.Sum(tail, opts...), name)
			require.Equal(t, 1000, len(tail.Collect(opts...)), name)
			require.Equal(t, slices.Repeat([]int{maxInt - 10}, 10), pipe.MapIndex(top.Skip(maxInt-10), func(i, x int) int { return x - i }).Collect(opts...), name)
		}
	}
}

// TestCountRunsStages: Count runs the stages of a one-to-one pipe, as
// Inspect's doc and Rayon's count promise: every call of f and of Inspect's
// function happens, and a panic in them reaches the caller. A pipe without
// stages answers from its length.
func TestCountRunsStages(t *testing.T) {
	xs := randInts(10_000, 4)
	for name, opts := range pools(t) {
		var mapped, seen atomic.Int64
		p := pipe.Map(pipe.From(xs), func(x int) int { mapped.Add(1); return x }).Inspect(func(int) { seen.Add(1) })
		require.Equal(t, len(xs), p.Count(opts...), name)
		require.EqualValues(t, len(xs), mapped.Load(), name)
		require.EqualValues(t, len(xs), seen.Load(), name)
		mapped.Store(0)
		require.Equal(t, 100, p.Take(100).Count(opts...), name)
		require.EqualValues(t, 100, mapped.Load(), name)
		zipped := pipe.Zip(xs, xs, func(a, b int) int { mapped.Add(1); return a + b })
		mapped.Store(0)
		require.Equal(t, len(xs), zipped.Count(opts...), name)
		require.EqualValues(t, len(xs), mapped.Load(), name)
		require.Equal(t, "boom", panicValue(t, func() {
			pipe.Map(pipe.From(xs), func(x int) int {
				if x == xs[777] {
					panic("boom")
				}
				return x
			}).Count(opts...)
		}), name)
		require.Equal(t, len(xs), pipe.From(xs).Count(opts...), name)
		require.Equal(t, 5, pipe.Range(0, math.MaxInt).Rev().Skip(7).StepBy(3).Take(5).Count(opts...), name)
	}
}

func TestFindFirstAndEarlyExit(t *testing.T) {
	const n = 1_000_000
	for _, at := range []int{0, 1, 499_999, n - 1, -1} {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			// late counts the elements produced after the match was: found
			// at the front, most of the range is never produced. Those
			// produced before it are the scheduler's to say (a thief may run
			// while the caller waits for the processor).
			var met atomic.Bool
			var late atomic.Int64
			p := pipe.Range(0, n).Inspect(func(x int) {
				if met.Load() {
					late.Add(1)
				}
				if x == at {
					met.Store(true)
				}
			})
			check := func(fn string) {
				if at == 0 {
					require.Less(t, late.Load(), int64(n/10), "%s produced %d elements after the match", fn, late.Load())
				}
				met.Store(false)
				late.Store(0)
			}
			pred := func(x int) bool { return x == at || (at >= 0 && x == at+10) }
			x, ok := p.Find(pred)
			require.Equal(t, at >= 0, ok)
			if ok {
				require.Equal(t, at, x)
			}
			check("Find")
			require.Equal(t, at >= 0, p.Any(func(x int) bool { return x == at }))
			check("Any")
			require.Equal(t, at < 0, p.All(func(x int) bool { return x != at }))
			check("All")
		})
	}
}

func TestFloatSumDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 1_000_003)
	for i := range xs {
		xs[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(12)))
	}
	keep := func(x float64) bool { return x > -1e6 }
	want := pipe.Sum(pipe.From(xs).Filter(keep))
	for name, opts := range pools(t) {
		for i := 0; i < 3; i++ {
			got := pipe.Sum(pipe.From(xs).Filter(keep), opts...)
			require.Equal(t, math.Float64bits(want), math.Float64bits(got), "%s run %d", name, i)
		}
	}
	// Unfiltered, it agrees with par.Sum bit for bit.
	require.Equal(t, math.Float64bits(par.Sum(xs)), math.Float64bits(pipe.Sum(pipe.From(xs))))
}

func TestPanicsAndNil(t *testing.T) {
	require.PanicsWithValue(t, "boom", func() {
		pipe.Map(pipe.Range(0, 10000), func(x int) int {
			if x == 7777 {
				panic("boom")
			}
			return x
		}).Collect()
	})
	require.PanicsWithValue(t, "pipe: Map: f is nil", func() { pipe.Map[int, int](pipe.Range(0, 1), nil) })
	require.PanicsWithValue(t, "pipe: Filter: keep is nil", func() { pipe.Range(0, 1).Filter(nil) })
	require.PanicsWithValue(t, "pipe: Find: pred is nil", func() { pipe.Range(0, 1).Find(nil) })
}

func TestNoIntermediateSlices(t *testing.T) {
	xs := randInts(1_000_000, 9)
	p := pipe.Map(pipe.From(xs), func(x int) int { return x * 3 }).Filter(func(x int) bool { return x > 0 })
	pipe.Sum(p) // warm the pool and the caches
	allocs := testing.AllocsPerRun(5, func() { pipe.Sum(p) })
	// A batch buffer per piece and a few records per fork: nowhere near one
	// per element, nor a slice of a million.
	require.Less(t, allocs, 2000.0)
}
