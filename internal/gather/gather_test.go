package gather_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/gather"
)

// TestJoinKeepsOrder: lists joined in any tree give their elements in order,
// whether their slices lie apart or next to each other in one array.
func TestJoinKeepsOrder(t *testing.T) {
	arr := []int{0, 1, 2, 3, 4, 5, 6, 7}
	apart := []int{8, 9}
	a := gather.One(arr[0:3])
	b := gather.One(arr[3:5])
	c := gather.One(apart)
	d := gather.One(arr[5:8]) // next to b in memory, but not in the list
	l := gather.Join(gather.Join(a, b), gather.Join(c, d))
	require.Equal(t, []int{0, 1, 2, 3, 4, 8, 9, 5, 6, 7}, l.Flatten())
	require.Equal(t, []int{}, gather.Chunks[int]{}.Flatten())
	require.Equal(t, []int{1}, gather.Join(gather.One([]int(nil)), gather.One([]int{1})).Flatten())
}

// TestJoinAdjoiningIsOneSlice: slices that follow each other in one array
// join into one, which Flatten returns without a copy.
func TestJoinAdjoiningIsOneSlice(t *testing.T) {
	arr := make([]int, 6, 10)
	for i := range arr {
		arr[i] = i
	}
	l := gather.Join(gather.One(arr[0:2]), gather.Join(gather.One(arr[2:4]), gather.One(arr[4:6])))
	got := l.Flatten()
	require.Equal(t, []int{0, 1, 2, 3, 4, 5}, got)
	require.Same(t, &arr[0], &got[0], "adjoining slices must be joined in place")
}

// TestTailsHandsOn: a piece that starts where another ended appends next to
// its elements; one that starts anywhere else gets a new slice; a slice with
// too little room left is replaced by one twice the size of what the chain
// filled, not copied.
func TestTailsHandsOn(t *testing.T) {
	var tl gather.Tails[int]
	a, lease := tl.Take(0)
	require.Empty(t, a)
	for i := range 5 {
		a = append(a, i)
	}
	tl.Leave(10, a, lease)

	fresh, _ := tl.Take(5) // nothing ended at 5
	require.Empty(t, fresh)

	b, lease := tl.Take(10)
	require.Empty(t, b)
	b = append(b, 5, 6)
	tl.Leave(12, b, lease)
	l := gather.Join(gather.One(a), gather.One(b))
	got := l.Flatten()
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 6}, got)
	require.Same(t, &a[0], &got[0], "the second piece must append next to the first")

	again, _ := tl.Take(10) // taken already
	require.Empty(t, again)

	// The chain filled 7 of its 8: the next array holds twice that.
	c, lease := tl.Take(12)
	require.Equal(t, 14, cap(c))
	c = append(c, make([]int, 14)...)
	tl.Leave(20, c, lease)
	d, _ := tl.Take(20)
	require.Equal(t, 28, cap(d))

	// A piece that returned an array of its own, full: the next array is
	// twice what that piece made.
	_, lease = tl.Take(30)
	tl.Leave(40, make([]int, 64), lease)
	e, _ := tl.Take(40)
	require.Empty(t, e)
	require.Equal(t, 128, cap(e))
}

// TestTailsFreshArrays: pieces that each return a new array of their own
// (a FlatMap callback that clips out before appending, as append allows) do
// not make the arrays handed out grow: each is sized by what the piece before
// made, not doubled from the last one handed out, which no piece used.
func TestTailsFreshArrays(t *testing.T) {
	var tl gather.Tails[int]
	most := 0
	for lo := range 1000 {
		out, lease := tl.Take(lo)
		most = max(most, cap(out))
		out = append(slices.Clip(out), lo) // a new array
		tl.Leave(lo+1, out, lease)
	}
	require.LessOrEqual(t, most, 16, "the arrays handed out grew to %d elements for pieces of one", most)
}

// TestJoinMapsKeepsOrder: a key in both maps gets the first map's elements
// before the second's, whichever map is larger.
func TestJoinMapsKeepsOrder(t *testing.T) {
	mk := func(kv ...int) map[int]*gather.Chunks[int] {
		m := map[int]*gather.Chunks[int]{}
		for i := 0; i < len(kv); i += 2 {
			g := m[kv[i]]
			if g == nil {
				g = &gather.Chunks[int]{}
				m[kv[i]] = g
			}
			g.Push(kv[i+1])
		}
		return m
	}
	flat := func(m map[int]*gather.Chunks[int]) map[int][]int {
		out := map[int][]int{}
		for k, g := range m {
			out[k] = g.Flatten()
		}
		return out
	}
	// a larger than b, then b larger than a.
	require.Equal(t, map[int][]int{1: {10, 11, 12}, 2: {20}, 3: {30}},
		flat(gather.JoinMaps(mk(1, 10, 1, 11, 2, 20), mk(1, 12, 3, 30))))
	require.Equal(t, map[int][]int{1: {10, 11, 12}, 2: {20}, 3: {30}},
		flat(gather.JoinMaps(mk(1, 10), mk(1, 11, 1, 12, 2, 20, 3, 30))))
}
