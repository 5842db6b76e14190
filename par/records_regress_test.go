package par_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// fibPanicAt forks like fibJoin2 and panics in the leaf numbered at, counting
// leaves in the order they run.
func fibPanicAt(w *par.Worker, n int, at int64, leaves *atomic.Int64) int {
	if n < 2 {
		if leaves.Add(1) == at {
			panic(fmt.Sprint("leaf ", at))
		}
		return n
	}
	x, y := par.Join2(w,
		func(w *par.Worker, n int) int { return fibPanicAt(w, n, at, leaves) }, n-1,
		func(w *par.Worker, n int) int { return fibPanicAt(w, n, at, leaves) }, n-2)
	return x + y
}

// TestForkRecordsSurvivePanics checks that forks cut short by panics, in
// either half and on thieves, give their records back: after more panics than
// a worker caches records, a fork still costs no allocation.
func TestForkRecordsSurvivePanics(t *testing.T) {
	rounds := 600
	if testing.Short() || raceEnabled {
		rounds = 300
	}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			p := par.NewPool(par.Workers(workers))
			defer p.Close()
			for i := range rounds {
				var leaves atomic.Int64
				r := func() (r any) {
					defer func() { r = recover() }()
					par.Do(func(w *par.Worker) { fibPanicAt(w, 14, int64(1+i%377), &leaves) }, par.OnPool(p))
					return nil
				}()
				require.NotNil(t, r, "round %d: the panic must reach the caller", i)
			}
			var r int
			allocs := testing.AllocsPerRun(20, func() {
				par.Do(func(w *par.Worker) { r = fibJoin2Alloc(w, 20) }, par.OnPool(p))
			})
			assert.Equal(t, 6765, r)
			assert.Less(t, allocs, 100.0, "fib(20) made %.0f allocations for 10,945 forks after %d panics", allocs, rounds)
		})
	}
}
