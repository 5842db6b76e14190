package par_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Failures of ScopeErr, on errgroup's terms: the first error recorded is
// returned, wherever in the tree it happens (the root, deep down, in many
// tasks at once); it cancels the scope's context with itself as the cause; the
// tasks not yet started are skipped and Spawn starts nothing more; ScopeErr
// returns after every started task has returned. Cancellation of the parent is
// in cancel_test.go, panics in panic_test.go, the bound in scope_limit_test.go,
// and the comparison with a sequential model on random trees in
// scope_model_fuzz_test.go.

// scopePool is a pool the ScopeErr tests run on, with the number of
// goroutines that may run tasks of a scope on it: its workers and the caller.
type scopePool struct {
	name         string
	participants int64
	opts         []par.Option
}

// scopePools returns the default pool and pools of 1, 2 and 8 workers,
// closed when t ends.
func scopePools(t *testing.T) []scopePool {
	out := []scopePool{{name: "default", participants: int64(par.DefaultWorkers() + 1)}}
	for _, n := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(n))
		t.Cleanup(p.Close)
		out = append(out, scopePool{name: fmt.Sprintf("pool%d", n), participants: int64(n + 1), opts: []par.Option{par.OnPool(p)}})
	}
	return out
}

// taskErr is the error of task id in these tests, compared by value.
type taskErr struct{ id int }

func (e taskErr) Error() string { return fmt.Sprintf("task %d failed", e.id) }

// binTree runs a complete binary tree of tasks of the given depth in g,
// numbered in heap order from id (the root is 1, the children of k are 2k
// and 2k+1), half of them spawned with Spawn and half with Go. Each task calls
// visit, and spawns its children only if visit returns nil.
func binTree(g *par.Group, w *par.Worker, id, depth int, visit func(ctx context.Context, id int) error) {
	for _, kid := range []int{2 * id, 2*id + 1} {
		if depth == 0 {
			return
		}
		task := func(ctx context.Context, w *par.Worker) error {
			if err := visit(ctx, kid); err != nil {
				return err
			}
			binTree(g, w, kid, depth-1, visit)
			return nil
		}
		if kid%3 == 0 {
			g.Go(task)
		} else {
			g.Spawn(w, task)
		}
	}
}

// treeDepth is the depth of the trees below: 2^(depth+1)-1 tasks.
func treeDepth() int {
	if full() {
		return 12
	}
	return 9
}

func TestScopeErrNoError(t *testing.T) {
	for _, p := range scopePools(t) {
		for _, depth := range []int{0, 1, 5, treeDepth()} {
			t.Run(fmt.Sprintf("%s/depth=%d", p.name, depth), func(t *testing.T) {
				n := 1<<(depth+1) - 1
				ran := make(counts, n+1)
				plain := make([]int, n+1) // written by the tasks, read after the call
				err := par.ScopeErr(context.Background(), func(ctx context.Context, g *par.Group, w *par.Worker) error {
					ran[1].Add(1)
					plain[1] = 1
					binTree(g, w, 1, depth, func(ctx context.Context, id int) error {
						require.NoError(t, ctx.Err())
						ran[id].Add(1)
						plain[id] = id
						return nil
					})
					return nil
				}, p.opts...)
				require.NoError(t, err)
				requireOnce(t, ran[1:], "task")
				for id := 1; id <= n; id++ {
					require.Equal(t, id, plain[id], "a task's write must happen before ScopeErr returns")
				}
			})
		}
	}
}

// TestScopeErrErrorAtRoot: the body fails, before it spawns anything, or
// after spawning a tree whose tasks all succeed: its error is returned.
func TestScopeErrErrorAtRoot(t *testing.T) {
	root := errors.New("root failed")
	for _, p := range scopePools(t) {
		t.Run(p.name, func(t *testing.T) {
			var ran atomic.Int64
			err := par.ScopeErr(context.Background(), func(context.Context, *par.Group, *par.Worker) error {
				return root
			}, p.opts...)
			require.Equal(t, root, err)

			var causes sync.Map
			err = par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
				binTree(g, w, 1, treeDepth(), func(ctx context.Context, id int) error {
					ran.Add(1)
					if ctx.Err() != nil {
						causes.Store(id, context.Cause(ctx))
					}
					return nil
				})
				return root
			}, p.opts...)
			require.Equal(t, root, err)
			causes.Range(func(_, c any) bool {
				require.Equal(t, root, c, "the cause of the context is the error that stopped the scope")
				return true
			})
		})
	}
}

// TestScopeErrErrorDeep: one task deep in the tree fails, wherever it is; it
// can only be the first, so its error is returned on every run.
func TestScopeErrErrorDeep(t *testing.T) {
	depth := treeDepth()
	n := 1<<(depth+1) - 1
	for _, p := range scopePools(t) {
		for _, at := range []int{2, 3, n / 2, 1 << depth, n} {
			t.Run(fmt.Sprintf("%s/at=%d", p.name, at), func(t *testing.T) {
				for range 3 {
					err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
						binTree(g, w, 1, depth, func(_ context.Context, id int) error {
							if id == at {
								return taskErr{id}
							}
							return nil
						})
						return nil
					}, p.opts...)
					require.Equal(t, taskErr{at}, err)
				}
			})
		}
	}

	// A chain: each task spawns the next, and the last one fails.
	for _, p := range scopePools(t) {
		t.Run(p.name+"/chain", func(t *testing.T) {
			const length = 2000
			var link func(g *par.Group, w *par.Worker, i int) error
			link = func(g *par.Group, w *par.Worker, i int) error {
				if i == length {
					return taskErr{i}
				}
				g.Spawn(w, func(_ context.Context, w *par.Worker) error { return link(g, w, i+1) })
				return nil
			}
			err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
				return link(g, w, 0)
			}, p.opts...)
			require.Equal(t, taskErr{length}, err)
		})
	}
}

// TestScopeErrManyFail: many tasks fail at once. The error returned is one of
// theirs, of a task that ran, and it is the cause every task found on its
// context once the scope had stopped.
func TestScopeErrManyFail(t *testing.T) {
	depth := treeDepth()
	for _, p := range scopePools(t) {
		for _, every := range []int{1, 2, 7} {
			t.Run(fmt.Sprintf("%s/every=%d", p.name, every), func(t *testing.T) {
				for range 5 {
					var mu sync.Mutex
					failed := map[error]bool{}
					var causes []error
					err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
						binTree(g, w, 1, depth, func(ctx context.Context, id int) error {
							mu.Lock()
							defer mu.Unlock()
							if ctx.Err() != nil {
								causes = append(causes, context.Cause(ctx))
							}
							if id%every == 0 && id > 3 {
								failed[taskErr{id}] = true
								return taskErr{id}
							}
							return nil
						})
						return nil
					}, p.opts...)
					require.True(t, failed[err], "the error %v is not that of a task that failed", err)
					for _, c := range causes {
						require.Equal(t, err, c, "a task saw another cause than the error returned")
					}
				}
			})
		}
	}
}

// TestScopeErrFirstErrorWins: task a is spawned first and fails only after
// task b's error has stopped the scope: a waits on its context, which only
// b's failure cancels, so the call returning at all shows that b's error
// cancelled it. a's error, genuine or a report of the cancellation, came
// second and is not returned: errgroup keeps the first error too.
func TestScopeErrFirstErrorWins(t *testing.T) {
	for _, p := range scopePools(t) {
		if p.participants < 2 {
			continue
		}
		for _, reply := range []string{"genuine", "ctx.Err", "wrapped"} {
			t.Run(p.name+"/"+reply, func(t *testing.T) {
				aStarted := make(chan struct{})
				err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
					g.Go(func(ctx context.Context, _ *par.Worker) error {
						close(aStarted)
						<-ctx.Done()
						switch reply {
						case "genuine":
							return taskErr{1}
						case "ctx.Err":
							return ctx.Err()
						}
						return fmt.Errorf("a: %w", context.Cause(ctx))
					})
					g.Go(func(context.Context, *par.Worker) error {
						<-aStarted // a has started: it cannot be skipped
						return taskErr{2}
					})
					return nil
				}, p.opts...)
				require.Equal(t, taskErr{2}, err)
			})
		}
	}
}

// TestScopeErrSkipsAfterError: once a task has failed, the tasks not yet
// started are skipped and Spawn starts nothing. The body spawns every task
// before any may pass, and every task fails, so each goroutine running the
// scope's tasks starts at most one: the one it had begun when the body
// finished. The rest are skipped, whatever the timing: a goroutine whose task
// failed starts no other, even while another goroutine's failure, the first,
// is still being recorded.
func TestScopeErrSkipsAfterError(t *testing.T) {
	const n = 20_000
	for _, p := range scopePools(t) {
		for _, how := range []string{"Spawn", "Go", "nested"} {
			t.Run(p.name+"/"+how, func(t *testing.T) {
				var started, afterStop, spawnedLate atomic.Int64
				release := make(chan struct{})
				task := func(ctx context.Context, _ *par.Worker) error {
					<-release
					if ctx.Err() != nil {
						afterStop.Add(1)
					}
					started.Add(1)
					return taskErr{0}
				}
				err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
					defer close(release) // no task passes before all are spawned
					for i := range n {
						switch how {
						case "Spawn":
							g.Spawn(w, task)
						case "Go":
							g.Go(task)
						case "nested":
							if i%100 == 0 {
								g.Spawn(w, func(ctx context.Context, w *par.Worker) error {
									for range 100 {
										g.Spawn(w, task)
									}
									return task(ctx, w)
								})
							}
						}
					}
					return nil
				}, p.opts...)
				require.Equal(t, taskErr{0}, err)
				require.LessOrEqual(t, afterStop.Load(), p.participants, "tasks started after the error was recorded")
				require.LessOrEqual(t, started.Load(), p.participants, "tasks started after a failure")

				// Spawn and Go after the failure start nothing.
				err = par.ScopeErr(context.Background(), func(ctx context.Context, g *par.Group, w *par.Worker) error {
					g.Spawn(w, func(context.Context, *par.Worker) error { return taskErr{1} })
					<-ctx.Done() // a worker steals the task, which fails
					g.Spawn(w, func(context.Context, *par.Worker) error { spawnedLate.Add(1); return nil })
					g.Go(func(context.Context, *par.Worker) error { spawnedLate.Add(1); return nil })
					return nil
				}, p.opts...)
				require.Equal(t, taskErr{1}, err)
				require.Zero(t, spawnedLate.Load(), "tasks spawned after the failure ran")
			})
		}
	}
}
