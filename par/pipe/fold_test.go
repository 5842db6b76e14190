package pipe_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// zero is the init of the folds of ints in the tests.
func zero() int { return 0 }

// TestFoldSharedAccumulator: an init that hands out one accumulator to
// every run, here a map guarded by a mutex, gives merge that map as both left
// and right, which counts items several times over, while a call that makes
// one run merges nothing and is right, so small inputs pass. A Fold whose
// merge would get one accumulator twice panics, naming init. Whether a call
// makes two runs depends on steals: on a pool of 4 workers most calls of this
// size do; the test tries calls until one has.
func TestFoldSharedAccumulator(t *testing.T) {
	p := par.NewPool(par.Workers(4))
	defer p.Close()
	const n = 100_000
	var (
		mu     sync.Mutex
		shared = map[int]int{}
		inits  atomic.Int64
	)
	items := pipe.Map(pipe.Range(0, n), func(i int) int { return i % 7 })
	call := func() map[int]int {
		return pipe.Fold(items, func() map[int]int { inits.Add(1); return shared }, func(m map[int]int, k int) map[int]int {
			mu.Lock()
			defer mu.Unlock()
			m[k]++
			return m
		}, func(a, b map[int]int) map[int]int {
			mu.Lock()
			defer mu.Unlock()
			for k, v := range b {
				a[k] += v
			}
			return a
		}, par.OnPool(p))
	}
	merged := false
	for try := 0; try < 200 && !merged; try++ {
		clear(shared)
		inits.Store(0)
		var got map[int]int
		v, panicked := torture.Catch(func() { got = call() })
		if inits.Load() < 2 {
			require.False(t, panicked, "one run: %v", v)
			total := 0
			for _, c := range got {
				total += c
			}
			require.Equal(t, n, total, "one run")
			continue
		}
		merged = true
		require.True(t, panicked, "%d runs sharing one map returned %v", inits.Load(), got)
		require.Equal(t, "pipe: Fold: init returned the same map for two runs of the call, "+
			"so merge would get it as both left and right: init must return a new accumulator at each call", v)
	}
	require.True(t, merged, "no call made two runs in 200")
}
