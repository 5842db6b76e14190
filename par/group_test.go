package par_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// countOracle and groupOracle are the sequential loops that CountBy and
// GroupBy replace.
func countOracle[E any, K comparable](s []E, key func(E) K) map[K]int {
	m := map[K]int{}
	for _, e := range s {
		m[key(e)]++
	}
	return m
}

func groupOracle[E any, K comparable](s []E, key func(E) K) map[K][]E {
	m := map[K][]E{}
	for _, e := range s {
		m[key(e)] = append(m[key(e)], e)
	}
	return m
}

// groupInput is random ints and the key functions tried on them: a few keys
// (long groups, met by every piece), many keys (most pieces meet a key once),
// and one key; with the oracles' answers, computed once for every setup.
type groupInput struct {
	s      []int
	keys   []func(int) int
	counts []map[int]int
	groups []map[int][]int
}

func genGroupInput(r *rand.Rand, n int) groupInput {
	in := groupInput{s: randInts(r, n), keys: []func(int) int{
		func(x int) int { return int(uint(x) % 7) },
		func(x int) int { return int(uint(x) % uint(max(1, n/3))) },
		func(int) int { return 0 },
	}}
	for _, key := range in.keys {
		in.counts = append(in.counts, countOracle(in.s, key))
		in.groups = append(in.groups, groupOracle(in.s, key))
	}
	return in
}

func TestCountByAndGroupByAgainstLoops(t *testing.T) {
	eachCase(t, genGroupInput, func(t *testing.T, n int, in groupInput, s setup) {
		for i, key := range in.keys {
			require.Equal(t, in.counts[i], par.CountBy(in.s, key, s.opts...), "CountBy, key %d", i)
			require.Equal(t, in.groups[i], par.GroupBy(in.s, key, s.opts...), "GroupBy, key %d", i)
		}
	})
}

// TestGroupByKeepsNamedSliceType: a group is of the input's slice type, and
// the result of an empty input is an empty map that can be written.
func TestGroupByKeepsNamedSliceType(t *testing.T) {
	type names []string
	in := names{"ann", "bob", "al", "bea", "cy"}
	g := par.GroupBy(in, func(s string) byte { return s[0] })
	require.Equal(t, map[byte]names{'a': {"ann", "al"}, 'b': {"bob", "bea"}, 'c': {"cy"}}, g)
	empty := par.GroupBy(names(nil), func(s string) byte { return s[0] })
	require.NotNil(t, empty)
	require.Empty(t, empty)
	counts := par.CountBy(names(nil), func(s string) byte { return s[0] })
	require.NotNil(t, counts)
	counts['x']++ // writable
}

// TestGroupByOrderUnderManyPieces forces a piece per element, so that every
// group is a list of many pieces joined by merges of maps of every size.
func TestGroupByOrderUnderManyPieces(t *testing.T) {
	n := 20_000
	if !full() {
		n = 3000
	}
	s := indices(n)
	key := func(x int) int { return x % 13 }
	for _, p := range testPools(t) {
		opts := []par.Option{par.WithGrain(1)}
		if p != nil {
			opts = append(opts, par.OnPool(p))
		}
		require.Equal(t, groupOracle(s, key), par.GroupBy(s, key, opts...), poolName(p))
		require.Equal(t, countOracle(s, key), par.CountBy(s, key, opts...), poolName(p))
	}
}

// TestGroupingNested runs CountBy and GroupBy inside the elements of another
// call.
func TestGroupingNested(t *testing.T) {
	inner := randInts(newRand(3), 5000)
	key := func(x int) int { return int(uint(x) % 11) }
	wantC, wantG := countOracle(inner, key), groupOracle(inner, key)
	for _, p := range testPools(t) {
		var opts []par.Option
		if p != nil {
			opts = append(opts, par.OnPool(p))
		}
		ok := par.Map(indices(16), func(int) bool {
			c := par.CountBy(inner, key, opts...)
			g := par.GroupBy(inner, key, opts...)
			return fmt.Sprint(c) == fmt.Sprint(wantC) && fmt.Sprint(g) == fmt.Sprint(wantG)
		}, opts...)
		for i, v := range ok {
			require.True(t, v, "%s: outer element %d", poolName(p), i)
		}
	}
}

// TestGroupingKeyPanics: a panic in key reaches the caller with its value,
// wherever it happens, and the pool runs the next call normally.
func TestGroupingKeyPanics(t *testing.T) {
	n := bigN()
	s := indices(n)
	for _, p := range testPools(t) {
		var opts []par.Option
		if p != nil {
			opts = append(opts, par.OnPool(p))
		}
		for _, at := range []int{0, n / 2, n - 1} {
			boom := fmt.Errorf("key of %d", at)
			key := func(x int) int {
				if x == at {
					panic(boom)
				}
				return x % 5
			}
			require.Equal(t, boom, panicValue(t, func() { par.CountBy(s, key, opts...) }), "CountBy %s at %d", poolName(p), at)
			require.Equal(t, boom, panicValue(t, func() { par.GroupBy(s, key, opts...) }), "GroupBy %s at %d", poolName(p), at)
		}
		key := func(x int) int { return x % 5 }
		require.Equal(t, countOracle(s, key), par.CountBy(s, key, opts...), "after the panics, %s", poolName(p))
	}
}

func TestGroupingNilKeyPanics(t *testing.T) {
	for _, in := range [][]int{nil, indices(100)} {
		v := panicValue(t, func() { par.CountBy[[]int, int, int](in, nil) })
		require.Equal(t, "par: CountBy: key is nil", v)
		v = panicValue(t, func() { par.GroupBy[[]int, int, int](in, nil) })
		require.Equal(t, "par: GroupBy: key is nil", v)
	}
}

// TestGroupingAndScanBadOptions: a zero Option panics at once, with the
// function's name and the index, on an empty input as on a long one.
func TestGroupingAndScanBadOptions(t *testing.T) {
	bad := []par.Option{par.WithGrain(2), {}}
	key := func(x int) int { return x }
	add := func(a, b int) int { return a + b }
	for _, in := range [][]int{nil, indices(100_000)} {
		// The message's wording is Map's (see TestZeroOptionPanics).
		mapMsg, ok := panicValue(t, func() { par.Map(in, key, bad...) }).(string)
		require.True(t, ok)
		require.Contains(t, mapMsg, "par: Map: opts[1] is a zero Option")
		for name, call := range map[string]func(){
			"CountBy":              func() { par.CountBy(in, key, bad...) },
			"GroupBy":              func() { par.GroupBy(in, key, bad...) },
			"Scan":                 func() { par.Scan(in, 0, add, bad...) },
			"ScanExclusive":        func() { par.ScanExclusive(in, 0, add, bad...) },
			"ScanInPlace":          func() { par.ScanInPlace(in, 0, add, bad...) },
			"ScanExclusiveInPlace": func() { par.ScanExclusiveInPlace(in, 0, add, bad...) },
			"PrefixSum":            func() { par.PrefixSum(in, bad...) },
			"PrefixSumInPlace":     func() { par.PrefixSumInPlace(in, bad...) },
		} {
			require.Equal(t, strings.Replace(mapMsg, "par: Map:", "par: "+name+":", 1), panicValue(t, call), "len %d", len(in))
		}
	}
}
