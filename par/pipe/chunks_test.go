package pipe_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

func TestChunksAgainstLoop(t *testing.T) {
	for _, po := range surfacePools(t) {
		for _, n := range surfaceSizes() {
			xs := randInts(n, uint64(n)+11)
			for _, size := range []int{1, 2, 3, 7, 256, 1000, max(n, 1), n + 1} {
				t.Run(fmt.Sprintf("%s/n=%d/size=%d", po.name, n, size), func(t *testing.T) {
					want := slices.Collect(slices.Chunk(xs, size))
					got := pipe.Chunks(xs, size).Collect(po.opts...)
					require.Equal(t, len(want), len(got))
					for i := range want {
						if !slices.Equal(want[i], got[i]) || cap(got[i]) != len(got[i]) || &got[i][0] != &xs[i*size] {
							t.Fatalf("chunk %d: %v (cap %d), want %v in place with its capacity cut", i, got[i], cap(got[i]), want[i])
						}
					}
					// The sums of the chunks add up to the sum.
					sum := 0
					for _, x := range xs {
						sum += x
					}
					sums := pipe.Map(pipe.Chunks(xs, size), func(c []int) int {
						s := 0
						for _, x := range c {
							s += x
						}
						return s
					})
					require.Equal(t, sum, pipe.Sum(sums, po.opts...))

					exact, rest := pipe.ChunksExact(xs, size)
					k := n / size
					require.Equal(t, k, exact.Len())
					require.Equal(t, xs[k*size:], rest)
					require.Equal(t, len(rest), cap(rest))
					gotExact := exact.Collect(po.opts...)
					for i := range gotExact {
						if !slices.Equal(want[i], gotExact[i]) || cap(gotExact[i]) != size {
							t.Fatalf("exact chunk %d: %v, want %v", i, gotExact[i], want[i])
						}
					}

					// A window of the right length and capacity that starts at
					// &xs[i] is xs[i:i+size]: no need to compare the elements
					// (a million windows of a thousand).
					gotWins := pipe.Windows(xs, size).Collect(po.opts...)
					require.Equal(t, max(0, n-size+1), len(gotWins))
					for i, w := range gotWins {
						if len(w) != size || cap(w) != size || &w[0] != &xs[i] {
							t.Fatalf("window %d: len %d, cap %d, at %p; want xs[%d:%d] in place with its capacity cut", i, len(w), cap(w), &w[0], i, i+size)
						}
					}
				})
			}
		}
	}
}

// TestChunksAppendDoesNotSpill: appending to a chunk never writes into the
// next one, since its capacity ends with it.
func TestChunksAppendDoesNotSpill(t *testing.T) {
	xs := []int{1, 2, 3, 4, 5}
	pipe.Chunks(xs, 2).ForEach(func(c []int) { _ = append(c, 99) })
	pipe.Windows(xs, 2).ForEach(func(c []int) { _ = append(c, 99) })
	ex, _ := pipe.ChunksExact(xs, 2)
	ex.ForEach(func(c []int) { _ = append(c, 99) })
	require.Equal(t, []int{1, 2, 3, 4, 5}, xs)
}

func TestChunksBadSize(t *testing.T) {
	for _, size := range []int{0, -1, math.MinInt} {
		require.Equal(t, fmt.Sprintf("pipe: Chunks: size = %d, want size >= 1", size), panicValue(t, func() { pipe.Chunks([]int{1}, size) }))
		require.Equal(t, fmt.Sprintf("pipe: ChunksExact: size = %d, want size >= 1", size), panicValue(t, func() { pipe.ChunksExact([]int{1}, size) }))
		require.Equal(t, fmt.Sprintf("pipe: Windows: size = %d, want size >= 1", size), panicValue(t, func() { pipe.Windows([]int(nil), size) }))
	}
	// The largest sizes do not overflow.
	big := int(^uint(0) >> 1)
	require.Equal(t, [][]int{{1, 2, 3}}, pipe.Chunks([]int{1, 2, 3}, big).Collect())
	e, rest := pipe.ChunksExact([]int{1, 2, 3}, big)
	require.Zero(t, e.Len())
	require.Equal(t, []int{1, 2, 3}, rest)
	require.Zero(t, pipe.Windows([]int{1, 2, 3}, big).Len())
}

func TestChunksPanics(t *testing.T) {
	xs := randInts(100_000, 3)
	for _, po := range surfacePools(t) {
		v := panicValue(t, func() {
			pipe.Map(pipe.Windows(xs, 10), func(w []int) int {
				if &w[0] == &xs[5000] {
					panic("window 5000")
				}
				return w[0]
			}).Collect(po.opts...)
		})
		require.Equal(t, "window 5000", v)
		requireUsable(t, po.opts)
	}
}

func TestChunksNested(t *testing.T) {
	xs := randInts(50_000, 4)
	sum := func(c []int) int {
		s := 0
		for _, x := range c {
			s += x
		}
		return s
	}
	want := sum(xs)
	for _, po := range surfacePools(t) {
		got := make([]int, 6)
		par.For(len(got), func(k int) {
			got[k] = pipe.Sum(pipe.Map(pipe.Chunks(xs, 100+k), sum), po.opts...)
		}, po.opts...)
		require.Equal(t, slices.Repeat([]int{want}, len(got)), got, po.name)
	}
}
