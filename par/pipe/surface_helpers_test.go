package pipe_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// The tests of the surface beyond the first pipe (positions, Zip, FlatMap,
// Chunks, the index-picking stages) run every function against a plain loop
// on the sizes below, on the default pool and on pools of 1, 2 and 8
// workers. The largest size shrinks under -short and the race detector.

// surfaceFull reports whether the surface tests run at full size.
func surfaceFull() bool { return !testing.Short() && !underRace }

// surfaceSizes are the input lengths: empty, one, two, three, an uneven
// split, several batches, and large.
func surfaceSizes() []int {
	if surfaceFull() {
		return []int{0, 1, 2, 3, 17, 1000, 1_000_000}
	}
	return []int{0, 1, 2, 3, 17, 1000, 100_000}
}

// surfacePools returns the options of the default pool and of new pools of 1,
// 2 and 8 workers, closed when t ends, by name.
func surfacePools(t testing.TB) []namedOpts {
	out := []namedOpts{{"default", nil}}
	for _, n := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(n))
		t.Cleanup(p.Close)
		out = append(out, namedOpts{fmt.Sprint("workers=", n), []par.Option{par.OnPool(p)}})
	}
	return out
}

type namedOpts struct {
	name string
	opts []par.Option
}

// randSlice returns n ints in [-500, 500) drawn from seed.
func randSlice(n int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 13))
	s := make([]int, n)
	for i := range s {
		s[i] = r.IntN(1000) - 500
	}
	return s
}

// recovered calls f and returns what it panicked with, failing t if it did
// not panic.
func recovered(t *testing.T, f func()) (v any) {
	t.Helper()
	panicked := true
	func() {
		defer func() {
			if panicked {
				v = recover()
			}
		}()
		f()
		panicked = false
	}()
	require.True(t, panicked, "want a panic")
	return v
}

// requireIntact checks that the pool of opts still runs pipelines correctly.
func requireIntact(t *testing.T, opts []par.Option) {
	t.Helper()
	p := pipe.Range(0, 100_000).Filter(func(x int) bool { return x%2 == 0 })
	require.Equal(t, 50_000, p.Count(opts...))
	require.Equal(t, 100_000*99_999/2, pipe.Sum(pipe.Range(0, 100_000), opts...))
}

// at is an item with the position it was seen at.
type at struct{ i, x int }
