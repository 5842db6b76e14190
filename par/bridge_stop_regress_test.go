package par_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestBridgeSplitsAfterStop checks a fixed bug: once a call has settled its result
// (here FindIndex, whose first element matches), the bridge still cuts the
// rest of the range down to the grain: reduce checks the stop flag only in
// fold, at the leaves, not before it splits. With WithGrain(1) over a million
// elements every leaf is skipped, yet the call still makes about a million
// forks (measured: 999,979 inline and 20 stolen, some 400 ms on 2 cores),
// where a check of the flag before the split would make a handful.
func TestBridgeSplitsAfterStop(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	const n = 100_000 // enough to tell a handful of forks from n, quick under -race
	s := make([]int, n)
	before := p.Stats().Total()
	require.Equal(t, 0, par.FindIndex(s, func(int) bool { return true }, par.WithGrain(1), par.OnPool(p)))
	after := p.Stats().Total()
	forks := (after.Inline - before.Inline) + (after.Tasks - before.Tasks)
	require.Less(t, forks, uint64(n/100), "the range was still cut into pieces after the call had stopped")
}
