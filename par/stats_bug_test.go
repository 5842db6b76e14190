package par_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestCallerBusyCountsItsOwnWork shows that the busy time of a caller's seat
// leaves out the work the caller does on its own call before it first waits
// for a stolen task: a call that runs entirely on the caller reports no busy
// time at all, so utilization (busy over wall) reads as if no one worked.
// Busy is measured with the same clock as the elapsed time of f, so the
// comparison is of the accounting, not of speed.
func TestCallerBusyCountsItsOwnWork(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	before := p.Stats()
	var worked time.Duration
	par.Do(func(w *par.Worker) {
		start := time.Now()
		for time.Since(start) < 20*time.Millisecond {
		}
		worked = time.Since(start)
	}, par.OnPool(p))
	after := p.Stats()
	busy := after.Total().Busy - before.Total().Busy
	require.GreaterOrEqual(t, busy, worked/2,
		"the caller worked %v on its own call but the pool reports %v busy", worked, busy)
}
