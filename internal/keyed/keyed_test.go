package keyed_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/keyed"
)

// A key of both maps gets the left map's value merged with the right's, in
// that order, whichever map is the larger and so receives the other.
func TestMergeKeepsOrder(t *testing.T) {
	concat := func(a, b string) string { return a + b }
	build := func(kvs ...string) keyed.Map[string, string] {
		m := keyed.Map[string, string]{}
		for i := 0; i < len(kvs); i += 2 {
			m.Add(kvs[i], kvs[i+1], concat)
		}
		return m
	}
	for _, c := range []struct {
		name        string
		left, right keyed.Map[string, string]
	}{
		{"left larger", build("a", "1", "b", "2", "c", "3"), build("a", "4")},
		{"right larger", build("a", "1"), build("a", "4", "b", "5", "c", "6")},
	} {
		got := keyed.Merge(c.left, c.right, concat).Values()
		require.Equal(t, "14", got["a"], c.name)
		require.Len(t, got, 3, c.name)
	}
	left, right := build("a", "1", "b", "2"), build("a", "3", "x", "4", "y", "5")
	got := keyed.MergeInto(left, right, func(acc, other *string) { *acc += *other })
	require.Equal(t, map[string]string{"a": "13", "b": "2", "x": "4", "y": "5"}, got.Values())
}

// At makes a key's value with init once, and hands back the same pointer
// after.
func TestAtMakesOnce(t *testing.T) {
	m := keyed.Map[string, [4]int]{}
	inits := 0
	init := func() [4]int { inits++; return [4]int{9} }
	p := m.At("k", init)
	p[1]++
	q := m.At("k", init)
	require.Same(t, p, q)
	require.Equal(t, 1, inits)
	require.Equal(t, [4]int{9, 1}, *q)
	m.Add("k", [4]int{}, func(a, b [4]int) [4]int { a[2] = 7; return a })
	require.Equal(t, [4]int{9, 1, 7}, *p, "Add folds into the value At handed out")
}

// AddBytes and AtBytes keep a copy of a new key, so the caller may write
// over the bytes it looked a key up with; a key met before copies nothing.
func TestBytesKeysAreCopied(t *testing.T) {
	m := keyed.Map[string, int]{}
	buf := []byte("ab")
	keyed.AddBytes(m, buf, 1, func(a, b int) int { return a + b })
	copy(buf, "cd")
	keyed.AddBytes(m, buf, 2, func(a, b int) int { return a + b })
	*keyed.AtBytes(m, []byte("ab"), func() int { return 0 }) += 10
	copy(buf, "ef")
	*keyed.AtBytes(m, buf, func() int { return 5 }) += 1
	require.Equal(t, map[string]int{"ab": 11, "cd": 2, "ef": 6}, m.Values())
	require.Zero(t, testing.AllocsPerRun(100, func() {
		keyed.AddBytes(m, []byte("ab"), 1, func(a, b int) int { return a + b })
	}), "a key met before costs no allocation")
}
