package pipe_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// expand makes from x between 0 and 4 items, and 600 (more than a batch)
// for one x in 997: the output runs over batch boundaries in every way.
func expand(x int, out []int) []int {
	k := (x%5 + 5) % 5
	if x%997 == 0 {
		k = 600
	}
	for j := range k {
		out = append(out, x*1000+j)
	}
	return out
}

func TestFlatMapAgainstLoop(t *testing.T) {
	for _, po := range surfacePools(t) {
		for _, n := range surfaceSizes() {
			t.Run(fmt.Sprintf("%s/n=%d", po.name, n), func(t *testing.T) {
				xs := randInts(n, uint64(n)+3)
				var flat, twice []int
				for _, x := range xs {
					flat = expand(x, flat)
				}
				for _, y := range flat {
					twice = expand(y/7, twice)
				}
				sum := 0
				for _, y := range flat {
					sum += y
				}
				p := pipe.FlatMap(pipe.From(xs), expand)
				require.Equal(t, flat, nilIfEmpty(p.Collect(po.opts...)))
				require.Equal(t, len(flat), p.Count(po.opts...))
				require.Equal(t, sum, pipe.Sum(p, po.opts...))
				// FlatMap of a FlatMap, behind a Map.
				pp := pipe.FlatMap(pipe.Map(p, func(y int) int { return y / 7 }), expand)
				require.Equal(t, twice, nilIfEmpty(pp.Collect(po.opts...)))
				// A Filter and a Map after it.
				var pos []int
				for _, y := range flat {
					if y > 0 {
						pos = append(pos, -y)
					}
				}
				neg := pipe.Map(p.Filter(func(y int) bool { return y > 0 }), func(y int) int { return -y })
				require.Equal(t, pos, nilIfEmpty(neg.Collect(po.opts...)))
				// Find and FindLast see the order kept.
				m11 := func(y int) bool { return y%11 == 0 }
				first, last := -1, -1
				for i, y := range flat {
					if m11(y) {
						if first < 0 {
							first = i
						}
						last = i
					}
				}
				got, ok := p.Find(m11, po.opts...)
				require.Equal(t, first >= 0, ok)
				gotLast, okLast := p.FindLast(m11, po.opts...)
				require.Equal(t, last >= 0, okLast)
				if ok {
					require.Equal(t, flat[first], got)
					require.Equal(t, flat[last], gotLast)
				}
			})
		}
	}
}

// TestFlatMapReusesBuffer: an f that appends within the capacity it is
// handed allocates nothing per item: the allocations of a pass do not grow
// with the input.
func TestFlatMapReusesBuffer(t *testing.T) {
	pair := func(x int, out []int) []int { return append(out, x, -x) }
	allocs := func(n int) float64 {
		xs := randInts(n, 4)
		p := pipe.FlatMap(pipe.From(xs), pair)
		run := func() { pipe.Sum(p) }
		run()
		return testing.AllocsPerRun(5, run)
	}
	small, large := allocs(300_000), allocs(1_200_000)
	t.Logf("%.0f allocations for 300k items, %.0f for 1.2M", small, large)
	require.Less(t, large, 2*small+64)
	require.Less(t, large, 2000.0)
}

func TestFlatMapBadInput(t *testing.T) {
	require.Equal(t, "pipe: FlatMap: f is nil", panicValue(t, func() { pipe.FlatMap[int, int](pipe.Range(0, 1), nil) }))
	for _, po := range surfacePools(t) {
		// An f that drops what out held is caught where it happens. With one
		// piece of 200 items, out holds the 150 items before x = 150.
		drop := func(x int, out []int) []int {
			if x == 150 {
				return out[:0]
			}
			return append(out, x)
		}
		opts := append([]par.Option{par.WithGrain(200)}, po.opts...)
		const msg = "pipe: FlatMap: f returned 0 items where out held 150: f must append to out"
		require.Equal(t, msg, panicValue(t, func() { pipe.FlatMap(pipe.Range(0, 200), drop).Collect(opts...) }), po.name)
		require.Equal(t, msg, panicValue(t, func() { pipe.MapIndex(pipe.FlatMap(pipe.Range(0, 200), drop), pair).Collect(opts...) }), po.name)
		requireUsable(t, po.opts)
	}
}

func TestFlatMapPanics(t *testing.T) {
	const n = 100_000
	for _, po := range surfacePools(t) {
		for _, at := range []int{0, n / 2, n - 1} {
			f := func(x int, out []int) []int {
				if x == at {
					panic(fmt.Sprint("flat ", x))
				}
				return append(out, x, x)
			}
			require.Equal(t, fmt.Sprint("flat ", at), panicValue(t, func() { pipe.FlatMap(pipe.Range(0, n), f).Collect(po.opts...) }))
			require.Equal(t, fmt.Sprint("flat ", at), panicValue(t, func() { pipe.MapIndex(pipe.FlatMap(pipe.Range(0, n), f), pair).Collect(po.opts...) }))
		}
		requireUsable(t, po.opts)
	}
}

func TestFlatMapNested(t *testing.T) {
	xs := randInts(30_000, 6)
	want := pipe.FlatMap(pipe.From(xs), expand).Collect()
	for _, po := range surfacePools(t) {
		got := make([][]int, 6)
		par.For(len(got), func(k int) {
			got[k] = pipe.FlatMap(pipe.From(xs), expand).Collect(po.opts...)
		}, po.opts...)
		for k := range got {
			require.Equal(t, want, got[k], po.name)
		}
	}
}
