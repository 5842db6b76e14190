package par_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// FindIndex, Find, Any and All: the first match in order, whichever piece
// finds it first, and the rest of the range stops early.

// matchLayouts returns the named sets of positions at which an input of
// length n holds a match: at the front, the middle, the end, nowhere, several
// (where the first in order must win), and a dense random scatter.
func matchLayouts(r *rand.Rand, n int) map[string][]int {
	l := map[string][]int{"none": nil}
	if n == 0 {
		return l
	}
	l["front"] = []int{0}
	l["middle"] = []int{n / 2}
	l["end"] = []int{n - 1}
	l["several"] = []int{n / 3, n / 2, 2 * n / 3, n - 1}
	l["front+end"] = []int{0, n - 1}
	var scatter []int
	for i := 0; i < n; i++ {
		if r.IntN(50) == 0 {
			scatter = append(scatter, i)
		}
	}
	l["scatter"] = scatter
	return l
}

// withMatches returns positive values, except at the given positions, where
// the value is -1-i: a match that tells which position it came from.
func withMatches(r *rand.Rand, n int, at []int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1 + r.IntN(1<<30)
	}
	for _, i := range at {
		s[i] = -1 - i
	}
	return s
}

func isMatch(x int) bool { return x < 0 }

// findInput holds one input per layout of matches, with the index of the
// first match (-1 for none).
type findInput struct {
	names []string
	ins   [][]int
	first []int
}

func genFind(r *rand.Rand, n int) findInput {
	var c findInput
	layouts := matchLayouts(r, n)
	for _, name := range slices.Sorted(maps.Keys(layouts)) {
		in := withMatches(r, n, layouts[name])
		c.names = append(c.names, name)
		c.ins = append(c.ins, in)
		c.first = append(c.first, slices.IndexFunc(in, isMatch))
	}
	return c
}

func TestFindIndex(t *testing.T) {
	eachCase(t, genFind, func(t *testing.T, n int, c findInput, s setup) {
		for j, in := range c.ins {
			require.Equal(t, c.first[j], par.FindIndex(in, isMatch, s.opts...), c.names[j])
		}
	})
}

func TestFind(t *testing.T) {
	eachCase(t, genFind, func(t *testing.T, n int, c findInput, s setup) {
		for j, in := range c.ins {
			got, ok := par.Find(in, isMatch, s.opts...)
			if i := c.first[j]; i >= 0 {
				require.True(t, ok, c.names[j])
				require.Equal(t, in[i], got, "%s: Find must return the first match in order", c.names[j])
			} else {
				require.False(t, ok, c.names[j])
				require.Zero(t, got, c.names[j])
			}
		}
	})
}

func TestAnyAll(t *testing.T) {
	eachCase(t, genFind, func(t *testing.T, n int, c findInput, s setup) {
		for j, in := range c.ins {
			want := c.first[j] >= 0
			require.Equal(t, want, par.Any(in, isMatch, s.opts...), "Any, %s", c.names[j])
			require.Equal(t, !want, par.All(in, func(x int) bool { return x > 0 }, s.opts...), "All, %s", c.names[j])
		}
	})
}

func TestAllTrueAnyFalseOnEmpty(t *testing.T) {
	never := func(int) bool { t.Error("pred called on an empty slice"); return false }
	require.True(t, par.All([]int{}, never))
	require.False(t, par.Any([]int(nil), never))
	require.Equal(t, -1, par.FindIndex([]int{}, never))
	v, ok := par.Find([]string{}, func(string) bool { return true })
	require.False(t, ok)
	require.Equal(t, "", v)
}

// TestFindStopsEarly counts the predicate calls that searches make after
// they have found their answer, the first element of ten million: a search
// that did not stop would call the predicate on nearly every element after it.
// Calls made before the match is found are not counted: a thief may run pieces
// of the right half while the caller waits for the processor, and how many it
// runs is the scheduler's to say (on a loaded machine, more than a million).
func TestFindStopsEarly(t *testing.T) {
	const n = 10_000_000
	in := make([]int8, n)
	in[0] = 1
	for _, p := range testPools(t) {
		for _, v := range []struct {
			name string
			opts []par.Option
		}{{"adaptive", nil}, {"minlen100", []par.Option{par.WithMinLen(100)}}, {"grain4096", []par.Option{par.WithGrain(4096)}}} {
			opts := v.opts
			if p != nil {
				opts = append(append([]par.Option(nil), v.opts...), par.OnPool(p))
			}
			t.Run(fmt.Sprintf("%s/%s", poolName(p), v.name), func(t *testing.T) {
				var matched atomic.Bool
				var late atomic.Int64 // calls begun after pred met the match
				pred := func(x int8) bool {
					if matched.Load() {
						late.Add(1)
					}
					if x == 1 {
						matched.Store(true)
						return true
					}
					return false
				}
				check := func(fn string) {
					require.True(t, matched.Load(), "%s never called pred on the match", fn)
					require.Less(t, late.Load(), int64(n/10), "%s called pred %d times after the match", fn, late.Load())
					matched.Store(false)
					late.Store(0)
				}
				require.Equal(t, 0, par.FindIndex(in, pred, opts...))
				check("FindIndex")
				x, ok := par.Find(in, pred, opts...)
				require.True(t, ok)
				require.Equal(t, int8(1), x)
				check("Find")
				require.True(t, par.Any(in, pred, opts...))
				check("Any")
				require.False(t, par.All(in, func(x int8) bool { return !pred(x) }, opts...))
				check("All")
			})
		}
	}
}
