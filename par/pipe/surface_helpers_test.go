package pipe_test

import (
	"fmt"
	"testing"

	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
)

// The tests of the surface beyond the first pipe (positions, Zip, FlatMap,
// Chunks, the index-picking stages) run every function against a plain loop
// on the sizes below, on the default pool and on pools of 1, 2 and 8
// workers. The largest size shrinks unless the tests are thorough, and
// under -short and the race detector.

// surfaceFull reports whether the surface tests run at full size: when
// asked for (WEFT_THOROUGH=1, as CI sets it: see torture.Thorough), and not
// under -short or the race detector.
func surfaceFull() bool { return torture.Thorough() && !testing.Short() && !underRace }

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

// at is an item with the position it was seen at.
type at struct{ i, x int }

// must returns the x of a call that returns (x, ok), panicking if ok is
// false: for the finds whose match a test knows is there.
func must[T any](x T, ok bool) T {
	if !ok {
		panic("must: not found")
	}
	return x
}
