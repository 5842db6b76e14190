package accum_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/accum"
)

type point struct{ x, y int }

// TestSame: the values that refer to one piece of memory, and those that
// only look alike.
func TestSame(t *testing.T) {
	m, p, ch := map[string]int{}, &point{}, make(chan int)
	arr := make([]int, 8)
	var z1, z2 struct{}
	var nilMap map[string]int
	for _, c := range []struct {
		name string
		same func() (string, bool)
		want bool
		kind string
	}{
		{"one map", func() (string, bool) { return accum.Same(m, m) }, true, "map"},
		{"two maps", func() (string, bool) { return accum.Same(m, map[string]int{}) }, false, "map"},
		{"nil maps", func() (string, bool) { return accum.Same(nilMap, nilMap) }, false, "map"},
		{"one pointer", func() (string, bool) { return accum.Same(p, p) }, true, "pointer"},
		{"two pointers", func() (string, bool) { return accum.Same(p, &point{}) }, false, "pointer"},
		{"nil pointers", func() (string, bool) { return accum.Same[*point](nil, nil) }, false, "pointer"},
		{"pointers to zero-size values", func() (string, bool) { return accum.Same(&z1, &z2) }, false, ""},
		{"one channel", func() (string, bool) { return accum.Same(ch, ch) }, true, "channel"},
		{"two channels", func() (string, bool) { return accum.Same(ch, make(chan int)) }, false, "channel"},
		{"one slice", func() (string, bool) { return accum.Same(arr[:0], arr[:0]) }, true, "backing array of a slice"},
		{"overlapping slices", func() (string, bool) { return accum.Same(arr[2:3], arr[:1]) }, true, "backing array of a slice"},
		{"slices of one array, capacities cut", func() (string, bool) { return accum.Same(arr[0:0:4], arr[4:4:8]) }, false, "backing array of a slice"},
		{"two slices", func() (string, bool) { return accum.Same(make([]int, 0, 4), make([]int, 0, 4)) }, false, "backing array of a slice"},
		{"slices of capacity 0", func() (string, bool) { return accum.Same(make([]int, 0), make([]int, 0)) }, false, ""},
		{"slices of zero-size elements", func() (string, bool) { return accum.Same(make([]struct{}, 4), make([]struct{}, 4)) }, false, ""},
		{"one map in interfaces", func() (string, bool) { return accum.Same[any](m, m) }, true, "map"},
		{"different types in interfaces", func() (string, bool) { return accum.Same[any](m, p) }, false, ""},
		{"nil interfaces", func() (string, bool) { return accum.Same[any](nil, nil) }, false, ""},
		{"equal ints", func() (string, bool) { return accum.Same(3, 3) }, false, ""},
		{"structs sharing a map", func() (string, bool) {
			type acc struct{ m map[string]int }
			return accum.Same(acc{m}, acc{m})
		}, false, ""},
		{"one function", func() (string, bool) { f := func() {}; return accum.Same(f, f) }, false, ""},
	} {
		kind, same := c.same()
		assert.Equal(t, c.want, same, c.name)
		if c.want {
			assert.Equal(t, c.kind, kind, c.name)
		}
	}
}

func TestDistinct(t *testing.T) {
	m := map[string]int{}
	require.PanicsWithValue(t,
		"par: Fold: init returned the same map for two runs of the call, so merge would get it as both left and right: init must return a new accumulator at each call",
		func() { accum.Distinct("par", "Fold", m, m) })
	require.NotPanics(t, func() { accum.Distinct("par", "Fold", m, map[string]int{}) })
	require.NotPanics(t, func() { accum.Distinct("par", "Fold", 1, 1) })
}

// TestSameAllocatesNothingForValues: the check costs a fold of numbers or
// structs no allocation.
func TestSameAllocatesNothingForValues(t *testing.T) {
	require.Zero(t, testing.AllocsPerRun(100, func() { accum.Same(point{1, 2}, point{1, 2}) }))
	require.Zero(t, testing.AllocsPerRun(100, func() { accum.Same(int64(1<<40), int64(1<<40)) }))
}
