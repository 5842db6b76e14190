package par_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// findAllInput holds one input per layout of matches (those of FindIndex's
// tests, and two with matches everywhere or in the whole second half), with
// the positions of the matches in order.
type findAllInput struct {
	names []string
	ins   [][]int
	at    [][]int
}

func genFindAll(r *rand.Rand, n int) findAllInput {
	var c findAllInput
	layouts := matchLayouts(r, n)
	layouts["all"] = indices(n)
	layouts["second-half"] = indices(n)[n/2:]
	for _, name := range slices.Sorted(maps.Keys(layouts)) {
		in := withMatches(r, n, layouts[name])
		at := []int{}
		for i, x := range in {
			if isMatch(x) {
				at = append(at, i)
			}
		}
		c.names = append(c.names, name)
		c.ins = append(c.ins, in)
		c.at = append(c.at, at)
	}
	return c
}

func TestFindLastIndex(t *testing.T) {
	eachCase(t, genFindAll, func(t *testing.T, n int, c findAllInput, s setup) {
		for j, in := range c.ins {
			want := -1
			if at := c.at[j]; len(at) > 0 {
				want = at[len(at)-1]
			}
			require.Equal(t, want, par.FindLastIndex(in, isMatch, s.opts...), c.names[j])
			got, ok := par.FindLast(in, isMatch, s.opts...)
			require.Equal(t, want >= 0, ok, c.names[j])
			if want >= 0 {
				require.Equal(t, in[want], got, "%s: FindLast must return the last match in order", c.names[j])
			} else {
				require.Zero(t, got, c.names[j])
			}
		}
	})
}

func TestFindAnyIndex(t *testing.T) {
	eachCase(t, genFindAll, func(t *testing.T, n int, c findAllInput, s setup) {
		for j, in := range c.ins {
			i := par.FindAnyIndex(in, isMatch, s.opts...)
			x, ok := par.FindAny(in, isMatch, s.opts...)
			if len(c.at[j]) == 0 {
				require.Equal(t, -1, i, c.names[j])
				require.False(t, ok, c.names[j])
				require.Zero(t, x, c.names[j])
				continue
			}
			require.True(t, i >= 0 && i < n && isMatch(in[i]), "%s: FindAnyIndex = %d, not a match", c.names[j], i)
			require.True(t, ok, c.names[j])
			require.True(t, isMatch(x), "%s: FindAny = %d, not a match", c.names[j], x)
		}
	})
}

func TestPositions(t *testing.T) {
	eachCase(t, genFindAll, func(t *testing.T, n int, c findAllInput, s setup) {
		for j, in := range c.ins {
			got := par.Positions(in, isMatch, s.opts...)
			require.NotNil(t, got, c.names[j])
			require.Equal(t, c.at[j], got, c.names[j])
		}
	})
}

// TestFindMoreOnEmpty: no call of pred on an empty slice, and the answers of
// an empty search.
func TestFindMoreOnEmpty(t *testing.T) {
	never := func(int) bool { t.Error("pred called on an empty slice"); return true }
	require.Equal(t, -1, par.FindLastIndex([]int{}, never))
	require.Equal(t, -1, par.FindAnyIndex([]int(nil), never))
	require.Equal(t, []int{}, par.Positions([]int(nil), never))
	v, ok := par.FindLast([]string{}, func(string) bool { return true })
	require.False(t, ok)
	require.Equal(t, "", v)
	v, ok = par.FindAny([]string(nil), func(string) bool { return true })
	require.False(t, ok)
	require.Equal(t, "", v)
}

// TestFindMoreStopsEarly counts the predicate calls made after the match by
// searches that can stop at once: FindLast with a match at the last of ten million elements,
// FindAny with a match at the first, and FindAny with matches everywhere but
// at the front. A search that did not stop would call pred on every element.
func TestFindMoreStopsEarly(t *testing.T) {
	n := 10_000_000
	if !full() {
		n = 1_000_000
	}
	last := make([]int8, n)
	last[n-1] = 1
	first := make([]int8, n)
	first[0] = 1
	late := slices.Repeat([]int8{1}, n)
	late[0] = 0
	for _, p := range testPools(t) {
		for _, v := range []struct {
			name string
			opts []par.Option
		}{{"adaptive", nil}, {"minlen100", []par.Option{par.WithMinLen(100)}}, {"grain4096", []par.Option{par.WithGrain(4096)}}} {
			opts := append(append([]par.Option(nil), v.opts...), poolOpts(p)...)
			t.Run(fmt.Sprintf("%s/%s", poolName(p), v.name), func(t *testing.T) {
				// Only the calls that begin after a match count: before it, the
				// other participants may run any number of pieces if the one
				// that holds the match starts late (see TestFindLastSkipsLeft).
				var c afterMatch
				pred := c.isOne
				check := func(fn string) {
					require.Less(t, c.after.Load(), int64(n/10), "%s called pred %d times after the match", fn, c.after.Load())
					c = afterMatch{}
				}
				require.Equal(t, n-1, par.FindLastIndex(last, pred, opts...))
				check("FindLastIndex")
				x, ok := par.FindLast(last, pred, opts...)
				require.True(t, ok)
				require.Equal(t, int8(1), x)
				check("FindLast")
				require.Equal(t, 0, par.FindAnyIndex(first, pred, opts...))
				check("FindAnyIndex, first")
				require.Positive(t, par.FindAnyIndex(late, pred, opts...))
				check("FindAnyIndex, late")
				_, ok = par.FindAny(late, pred, opts...)
				require.True(t, ok)
				check("FindAny, late")
			})
		}
	}
}

// TestFindLastSkipsLeft: once the last element matches, the pieces to its
// left are skipped: with a task per 1000 elements, only pieces already
// running when the match was found call pred after it. (Before the match the
// other participants may run any number of pieces, if the one that holds the
// last element is slow to start: once caught under -race in CI, 28,894 calls
// in all where a bound on all calls expected 25,000.)
func TestFindLastSkipsLeft(t *testing.T) {
	n := bigN()
	in := make([]int8, n)
	in[n-1] = 1
	for _, p := range testPools(t) {
		var c afterMatch
		i := par.FindLastIndex(in, c.isOne, append(poolOpts(p), par.WithGrain(1000))...)
		require.Equal(t, n-1, i)
		workers := runtime.GOMAXPROCS(0)
		if p != nil {
			workers = p.Workers()
		}
		// Each other participant may finish the piece it runs and one it
		// began as the match was being published.
		bound := int64(2 * workers * 1000)
		require.LessOrEqual(t, c.after.Load(), bound, "%s: pred called %d times after the match", poolName(p), c.after.Load())
	}
}

// TestFindMoreNested runs the searches, and Product, inside another call's
// callbacks.
func TestFindMoreNested(t *testing.T) {
	pools := testPools(t)
	in := withMatches(newRand(7), 5000, []int{100, 2500, 4000})
	prod := 1
	for _, x := range in {
		prod *= x | 1
	}
	odd := par.Map(in, func(x int) int { return x | 1 })
	for _, p := range pools {
		t.Run(poolName(p), func(t *testing.T) {
			ok := par.Map(indices(12), func(k int) bool {
				opts := poolOpts(pools[k%len(pools)])
				a := par.FindAnyIndex(in, isMatch, opts...)
				return par.Product(odd, append(opts, par.WithGrain(128))...) == prod &&
					par.FindLastIndex(in, isMatch, opts...) == 4000 &&
					slices.Equal(par.Positions(in, isMatch, opts...), []int{100, 2500, 4000}) &&
					(a == 100 || a == 2500 || a == 4000)
			}, append(poolOpts(p), par.WithGrain(1))...)
			require.Equal(t, slices.Repeat([]bool{true}, 12), ok)
		})
	}
}

// afterMatch is a predicate, x == 1, that counts its calls made after one of
// them has matched.
type afterMatch struct {
	found atomic.Bool
	after atomic.Int64
}

func (c *afterMatch) isOne(x int8) bool {
	if c.found.Load() {
		c.after.Add(1)
	}
	if x == 1 {
		c.found.Store(true)
		return true
	}
	return false
}
