package par_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// The bound of Group.SetLimit: no more tasks run at once than the limit,
// whatever the pool; a task that finds it reached is deferred, not blocked,
// so tasks that spawn tasks never deadlock on it; deferred tasks are skipped
// once the scope stops.

// inFlight counts the tasks running at once and keeps the most seen.
type inFlight struct{ now, most atomic.Int64 }

func (f *inFlight) enter() {
	n := f.now.Add(1)
	for m := f.most.Load(); n > m && !f.most.CompareAndSwap(m, n); m = f.most.Load() {
	}
}

func (f *inFlight) leave() { f.now.Add(-1) }

func TestScopeErrLimitBoundsRunning(t *testing.T) {
	depth := treeDepth()
	n := 1<<(depth+1) - 1
	for _, p := range scopePools(t) {
		for _, limit := range []int{1, 2, 3, 5, -1} {
			t.Run(fmt.Sprintf("%s/limit=%d", p.name, limit), func(t *testing.T) {
				var fl inFlight
				ran := make(counts, n+1)
				err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
					g.SetLimit(limit)
					ran[1].Add(1)
					binTree(g, w, 1, depth, func(_ context.Context, id int) error {
						fl.enter()
						defer fl.leave()
						ran[id].Add(1)
						runtime.Gosched() // let the others overlap
						return nil
					})
					return nil
				}, p.opts...)
				require.NoError(t, err)
				requireOnce(t, ran[1:], "task")
				most := fl.most.Load()
				require.LessOrEqual(t, most, p.participants, "more tasks at once than goroutines")
				if limit > 0 {
					require.LessOrEqual(t, most, int64(limit), "more tasks at once than the limit")
				}
			})
		}
	}
}

// TestScopeErrLimitTasksWait: tasks that block each hold a place of the
// bound, and the tasks beyond it wait for one without holding a worker: with
// a limit of 2 on a pool of 8 workers, 2 tasks block until the rest of the
// scope's tasks, and a call made meanwhile on the same pool, could have run
// on the free workers. The deferred tasks then run once the blocked ones
// return.
func TestScopeErrLimitTasksWait(t *testing.T) {
	pool := par.NewPool(par.Workers(8))
	defer pool.Close()
	release := make(chan struct{})
	var blocked atomic.Int64
	var fl inFlight
	const n = 200
	var ran atomic.Int64
	done := make(chan error, 1)
	go func() {
		done <- par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
			g.SetLimit(2)
			for range n {
				g.Spawn(w, func(context.Context, *par.Worker) error {
					fl.enter()
					defer fl.leave()
					ran.Add(1)
					if blocked.Add(1) <= 2 {
						<-release
					}
					return nil
				})
			}
			return nil
		}, par.OnPool(pool))
	}()
	for blocked.Load() < 2 {
		runtime.Gosched()
	}
	// The other workers are free: a call on the same pool runs beside the
	// blocked tasks and sees them still blocked.
	sum := par.Sum(indices(10_000), par.OnPool(pool))
	require.Equal(t, 10_000*9_999/2, sum)
	require.Equal(t, int64(2), ran.Load(), "a task ran beyond the limit")
	close(release)
	require.NoError(t, <-done)
	require.Equal(t, int64(n), ran.Load())
	require.LessOrEqual(t, fl.most.Load(), int64(2))
}

// TestScopeErrLimitNoDeadlock: with a limit of 1, every task spawns more and
// some spawn from inside the bound with Go: no task waits for a place while
// holding one, so the tree completes (errgroup's Go blocks here forever).
func TestScopeErrLimitNoDeadlock(t *testing.T) {
	for _, p := range scopePools(t) {
		t.Run(p.name, func(t *testing.T) {
			depth := treeDepth()
			var ran atomic.Int64
			err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
				g.SetLimit(1)
				binTree(g, w, 1, depth, func(context.Context, int) error {
					ran.Add(1)
					return nil
				})
				return nil
			}, p.opts...)
			require.NoError(t, err)
			require.Equal(t, int64(1<<(depth+1)-2), ran.Load())
		})
	}
}

// TestScopeErrLimitSkipsDeferred: once a task fails, the tasks deferred for
// the bound are skipped. Every task waits until the body has spawned them all,
// so that the first limit tasks to start hold the bound's places while the
// others are deferred or pending; those first tasks fail, and then no other
// task may start, however the goroutines are scheduled: each goroutine that
// held a place records its failure before it takes the next deferred task,
// and a task that finds a place later finds the scope stopped.
func TestScopeErrLimitSkipsDeferred(t *testing.T) {
	const n = 5000
	for _, p := range scopePools(t) {
		for _, limit := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/limit=%d", p.name, limit), func(t *testing.T) {
				var started atomic.Int64
				spawned := make(chan struct{})
				err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
					g.SetLimit(limit)
					for i := range n {
						task := func(ctx context.Context, _ *par.Worker) error {
							k := started.Add(1)
							<-spawned
							if k <= int64(limit) {
								return taskErr{int(k)}
							}
							return nil
						}
						if i%2 == 0 {
							g.Go(task)
						} else {
							g.Spawn(w, task)
						}
					}
					close(spawned)
					return nil
				}, p.opts...)
				require.Contains(t, []error{taskErr{1}, taskErr{2}}[:limit], err)
				require.LessOrEqual(t, started.Load(), int64(limit), "tasks started after the ones that failed")
			})
		}
	}
}
