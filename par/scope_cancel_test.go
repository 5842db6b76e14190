package par_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Cancellation of ScopeErr: a parent context that has ended gives its cause
// without running the body; one that ends during the call stops it as an
// error does (tasks not started are skipped, the scope's context ends) and
// gives its cause, unless a task failed first; the scope's context ends when
// the call returns.

// TestScopeErrParentCancel cancels the parent from another goroutine once
// some tasks are blocked on the scope's context. Those tasks can only end
// through the cancellation, so the call returning at all shows that it reached
// them. Whatever the tasks then return, the parent's cause is the result: an
// error after the parent's end is taken as a report of it, and tasks were
// skipped.
func TestScopeErrParentCancel(t *testing.T) {
	depth := treeDepth()
	for _, p := range scopePools(t) {
		for _, reply := range []string{"ctx.Err", "genuine", "ignore"} {
			t.Run(p.name+"/"+reply, func(t *testing.T) {
				cause := errors.New("parent cancelled")
				ctx, cancel := context.WithCancelCause(context.Background())
				defer cancel(nil)
				blocked := make(chan struct{})
				var once sync.Once
				var cancelled atomic.Bool
				var late atomic.Int64 // tasks begun after cancel returned
				go func() {
					<-blocked
					cancel(cause)
					cancelled.Store(true)
				}()
				err := par.ScopeErr(ctx, func(_ context.Context, g *par.Group, w *par.Worker) error {
					binTree(g, w, 1, depth, func(ctx context.Context, id int) error {
						if cancelled.Load() {
							late.Add(1)
						}
						if id%97 == 13 {
							once.Do(func() { close(blocked) })
							<-ctx.Done()
							switch reply {
							case "genuine":
								return taskErr{id}
							case "ctx.Err":
								return ctx.Err()
							}
						}
						return nil
					})
					return nil
				}, p.opts...)
				require.Equal(t, cause, err)
				// Each task start looks at the scope's context, which ends
				// with the parent: only a task whose look came just before can
				// begin after, one per goroutine.
				require.LessOrEqual(t, late.Load(), p.participants, "tasks begun after the parent ended")
			})
		}
	}
}

func TestScopeErrAlreadyCancelled(t *testing.T) {
	cause := errors.New("gone")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	called := false
	err := par.ScopeErr(ctx, func(context.Context, *par.Group, *par.Worker) error {
		called = true
		return nil
	})
	require.Equal(t, cause, err)
	require.False(t, called, "the body ran under an ended context")

	expired, cancelT := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancelT()
	require.Equal(t, context.DeadlineExceeded, par.ScopeErr(expired, func(context.Context, *par.Group, *par.Worker) error { return nil }))
}

// TestScopeErrParentEndsDuringLastTask: the parent's end is the result
// whenever it comes before ScopeErr returns and nothing failed: during the
// last task of a chain (each task spawns the next, which makes the order
// sure), when no task is left to skip, as much as in the middle of it,
// where Spawn starts nothing more. An end after the call returned changes
// nothing.
func TestScopeErrParentEndsDuringLastTask(t *testing.T) {
	const length = 100
	for _, p := range scopePools(t) {
		for _, at := range []int{length / 2, length, -1} {
			t.Run(fmt.Sprintf("%s/at=%d", p.name, at), func(t *testing.T) {
				cause := errors.New("late")
				ctx, cancel := context.WithCancelCause(context.Background())
				defer cancel(nil)
				var ran atomic.Int64
				var link func(g *par.Group, w *par.Worker, i int) error
				link = func(g *par.Group, w *par.Worker, i int) error {
					ran.Add(1)
					if i == at {
						cancel(cause)
					}
					if i < length {
						g.Spawn(w, func(_ context.Context, w *par.Worker) error { return link(g, w, i+1) })
					}
					return nil
				}
				err := par.ScopeErr(ctx, func(_ context.Context, g *par.Group, w *par.Worker) error {
					return link(g, w, 0)
				}, p.opts...)
				switch at {
				case -1:
					require.NoError(t, err)
					cancel(cause)
					require.Equal(t, int64(length+1), ran.Load())
				case length:
					require.Equal(t, cause, err)
					require.Equal(t, int64(length+1), ran.Load())
				default:
					require.Equal(t, cause, err)
					require.Equal(t, int64(at+1), ran.Load(), "Spawn after the parent ended started a task")
				}
			})
		}
	}
}

// TestScopeErrParentEndsInBody: a body that ends the parent and returns nil,
// with no task to skip, or with one more task queued after the end, gives the
// parent's cause either way: the answer does not hang on whether a task was
// left to skip.
func TestScopeErrParentEndsInBody(t *testing.T) {
	for _, spawnAfter := range []bool{false, true} {
		t.Run(fmt.Sprintf("spawnAfter=%v", spawnAfter), func(t *testing.T) {
			cause := errors.New("parent ended")
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			err := par.ScopeErr(ctx, func(_ context.Context, g *par.Group, w *par.Worker) error {
				cancel(cause)
				if spawnAfter {
					g.Go(func(context.Context, *par.Worker) error { return nil })
				}
				return nil
			})
			require.Equal(t, cause, err)
		})
	}
}

// TestScopeErrErrorBeforeParentEnd: a task fails, and then the parent ends
// (from a task blocked until the failure): the error came first and is the
// result, as with errgroup.
func TestScopeErrErrorBeforeParentEnd(t *testing.T) {
	for _, p := range scopePools(t) {
		if p.participants < 2 {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			started := make(chan struct{})
			var parentEnded atomic.Bool
			err := par.ScopeErr(ctx, func(_ context.Context, g *par.Group, _ *par.Worker) error {
				g.Go(func(ctx context.Context, _ *par.Worker) error {
					close(started)
					<-ctx.Done() // the scope's context: ended by the failure
					cancel(errors.New("parent ended after the failure"))
					parentEnded.Store(true)
					return ctx.Err()
				})
				g.Go(func(context.Context, *par.Worker) error {
					<-started // the first task cannot be skipped
					return taskErr{7}
				})
				return nil
			}, p.opts...)
			require.Equal(t, taskErr{7}, err)
			require.True(t, parentEnded.Load())
		})
	}
}

// TestScopeErrDeadline: a deadline that passes while tasks wait on the
// scope's context stops the scope with context.DeadlineExceeded.
func TestScopeErrDeadline(t *testing.T) {
	for _, p := range scopePools(t) {
		t.Run(p.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
			defer cancel()
			err := par.ScopeErr(ctx, func(_ context.Context, g *par.Group, w *par.Worker) error {
				binTree(g, w, 1, 6, func(ctx context.Context, id int) error {
					if id%5 == 0 {
						<-ctx.Done()
						return fmt.Errorf("task %d: %w", id, ctx.Err())
					}
					return nil
				})
				return nil
			}, p.opts...)
			require.Equal(t, context.DeadlineExceeded, err)
		})
	}
}

// TestScopeErrCtxEndsOnReturn: the scope's context ends when ScopeErr
// returns, whatever the outcome, and its cause after a failure is the error.
func TestScopeErrCtxEndsOnReturn(t *testing.T) {
	for _, fail := range []bool{false, true} {
		var kept context.Context
		err := par.ScopeErr(context.Background(), func(ctx context.Context, g *par.Group, w *par.Worker) error {
			kept = ctx
			binTree(g, w, 1, 5, func(ctx context.Context, id int) error {
				if ctx != kept {
					return errors.New("a task got another context than the body")
				}
				if fail && id == 20 {
					return taskErr{id}
				}
				return nil
			})
			return nil
		})
		require.Error(t, kept.Err(), "the scope's context still live after the call returned")
		if fail {
			require.Equal(t, taskErr{20}, err)
			require.Equal(t, err, context.Cause(kept))
		} else {
			require.NoError(t, err)
		}
	}
}

// TestScopeErrNoGoroutineLeak: a parent context of a type the context package
// does not know is watched by a goroutine for every context derived from it
// until that is cancelled: every ScopeErr must cancel its own on return.
func TestScopeErrNoGoroutineLeak(t *testing.T) {
	pool := par.NewPool(par.Workers(2))
	defer pool.Close()
	warmDefault()
	live := newChanCtx()
	defer live.cancel()
	before := runtime.NumGoroutine()
	for r := range 20 {
		opts := []par.Option{par.OnPool(pool)}
		if r%2 == 0 {
			opts = nil
		}
		require.NoError(t, par.ScopeErr(live, func(_ context.Context, g *par.Group, w *par.Worker) error {
			binTree(g, w, 1, 4, func(context.Context, int) error { return nil })
			return nil
		}, opts...))
		require.Equal(t, taskErr{r + 2}, par.ScopeErr(live, func(_ context.Context, g *par.Group, w *par.Worker) error {
			binTree(g, w, 1, 4, func(_ context.Context, id int) error {
				if id == r+2 {
					return taskErr{id}
				}
				return nil
			})
			return nil
		}, opts...))
	}
	require.LessOrEqual(t, waitGoroutines(before), before, "goroutines left behind by the calls")
}
