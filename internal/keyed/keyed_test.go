package keyed_test

import (
	"strconv"
	"strings"
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

// Strings finds through its index what the map holds, for keys of every
// length class words tells apart (under 4, 4 to 7, 8 to 16, longer), for
// keys looked up as bytes that the caller then writes over, and past the
// index's capacity, where it turns off and the map alone serves.
func TestStringsAgainstMap(t *testing.T) {
	add := func(a, b int) int { return a + b }
	for _, keys := range []int{1, 100, 3000} {
		s, m := keyed.NewStrings[int](), keyed.Map[string, int]{}
		buf := make([]byte, 0, 64)
		for i := range 20 * keys {
			k := i * 7919 % keys
			// Lengths 1 to 40, and keys that share their first and last 8
			// bytes and their length but differ inside.
			key := strings.Repeat("x", k%40) + strconv.Itoa(k)
			if k%3 == 0 {
				key = "abcdefgh" + strconv.Itoa(k) + strings.Repeat("-", 20) + "abcdefgh"
			}
			switch i % 4 {
			case 0:
				s.Add(key, 1, add)
			case 1:
				buf = append(buf[:0], key...)
				s.AddBytes(buf, 1, add)
				copy(buf, strings.Repeat("#", len(buf)))
			case 2:
				*s.At(key, func() int { return 0 }) += 1
			case 3:
				buf = append(buf[:0], key...)
				*s.AtBytes(buf, func() int { return 0 }) += 1
				copy(buf, strings.Repeat("#", len(buf)))
			}
			m.Add(key, 1, add)
		}
		require.Equal(t, m.Values(), s.Map.Values(), "%d keys", keys)
	}
}

// After a merge the left Strings' index still points at the values the
// merged map holds, whichever map was the larger.
func TestStringsIndexSurvivesMerge(t *testing.T) {
	add := func(a, b int) int { return a + b }
	merge := func(acc, other *int) { *acc += *other }
	for _, c := range []struct{ left, right []string }{
		{[]string{"a", "b", "c"}, []string{"a"}},
		{[]string{"a"}, []string{"a", "b", "c", "d"}},
	} {
		a, b := keyed.NewStrings[int](), keyed.NewStrings[int]()
		for _, k := range c.left {
			a.Add(k, 1, add)
		}
		for _, k := range c.right {
			b.Add(k, 10, add)
		}
		a = keyed.MergeStrings(a, b, merge)
		a.Add("a", 100, add) // through the index, which knew "a" before the merge
		a.Add("d", 100, add) // a key the merge brought: through the map
		require.Equal(t, 111, *a.Map["a"])
		if len(c.right) == 4 {
			require.Equal(t, 110, *a.Map["d"])
		} else {
			require.Equal(t, 100, *a.Map["d"])
		}
	}
}
