package par_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// A leaf that is running gives part of what it has left to a participant with
// nothing to do. Here the pool's worker is searching or parked, hence hungry,
// when the leaf starts on the caller; the leaf's elements before the half it can give away
// wait until an element of that half has started on another goroutine. A leaf
// that ran its piece to the end alone would wait forever (the watchdog fails
// the test after 30 s: it checks that the split happens, not how fast).
func TestRunningLeafGivesHalfToHungryWorker(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		name := "halves"
		if fixed {
			name = "fixed-tree"
		}
		t.Run(name, func(t *testing.T) {
			p := par.NewPool(par.Workers(1))
			defer p.Close()
			const n = 64
			var started atomic.Int64 // the first element of the far half to start, plus one
			var ran [n]atomic.Int32
			deadline := time.Now().Add(30 * time.Second)
			par.RunLeaf(p, n, fixed, func(i int) {
				ran[i].Add(1)
				if i >= n/2 {
					started.CompareAndSwap(0, int64(i)+1)
					return
				}
				if i < 4 {
					return // the first step, before the leaf looks for hunger
				}
				for started.Load() == 0 {
					if time.Now().After(deadline) {
						panic("watchdog: no element of the far half started within 30 s")
					}
					runtime.Gosched()
				}
			})
			for i := range ran {
				require.EqualValues(t, 1, ran[i].Load(), "element %d", i)
			}
		})
	}
}
