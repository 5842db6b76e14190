package par_test

import (
	"runtime/debug"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestMapReduceOpNeverSeesZero checks a fixed bug found by the torture tests: once a
// callback of MapReduce (or Reduce, ReduceRange, ReduceSeq, pipe.Reduce)
// panics, the pieces that are then skipped return the zero value of the
// result type, not identity, and the bridge still combines them with op. So op
// is handed a value that is neither identity nor anything f or op made, and an
// op that cannot handle it (here it panics, as one that indexes a nil slice
// would) replaces the original panic with its own: the caller does not get
// the value f panicked with, which package par promises.
//
// TestTorture saw it as "op combined pieces that are not neighbours in
// order" (the zero value carries no range), e.g. in case 0x886ed245d947f364
// of master seed 1795321014801159146, and now checks op's operands only in
// calls that return normally. The zero comes from reduce in bridge.go: a
// piece skipped by b.done, or a fold that skips, returns the zero R, and
// reduce then called b.combine(left, right) on it; now no piece is combined
// once a leaf has panicked. It depends on timing, so this test repeats the
// call; on 2 cores it failed within a few rounds.
func TestMapReduceOpNeverSeesZero(t *testing.T) {
	p := par.NewPool(par.Workers(4))
	defer p.Close()
	type acc struct {
		made bool // set on every value identity, f or op makes
		n    int
	}
	in := indices(1 << 14)
	var zeroSeen atomic.Int64
	var where atomic.Pointer[string] // the stack of the first such call of op
	for round := range 2000 {
		orig := &boomError{where: "f"}
		got := panicValue(t, func() {
			par.MapReduce(in, func(i int) acc {
				if i == 1<<13+round%(1<<13) { // a piece in the second half, often stolen
					panic(orig)
				}
				return acc{true, 1}
			}, acc{made: true}, func(l, r acc) acc {
				if !l.made || !r.made {
					zeroSeen.Add(1)
					st := string(debug.Stack())
					where.CompareAndSwap(nil, &st)
					panic("op: given a value that identity, f and op never made")
				}
				return acc{true, l.n + r.n}
			}, par.OnPool(p), par.WithGrain(64))
		})
		if got != any(orig) {
			t.Logf("op called with a zero value from:\n%s", *where.Load())
		}
		require.Equal(t, any(orig), got, "round %d: the caller must get f's panic (op saw a zero value %d times so far)", round, zeroSeen.Load())
	}
	require.Zero(t, zeroSeen.Load(), "op was called with a zero value that identity, f and op never made")
}
