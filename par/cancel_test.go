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

// Cancellation of MapErr and ForEachErr: a parent context that has ended, or
// that ends during the call, stops the call promptly and gives its cause; the
// context handed to f (ctx') ends when the call returns, and nothing is left
// watching a context after the call.

// TestErrParentCancel cancels the parent context from another goroutine once
// some calls are blocked on ctx'.Done(). Those calls can only end through the
// cancellation, so the call returning at all shows that it reached them.
func TestErrParentCancel(t *testing.T) {
	for _, p := range errPools(t) {
		for _, n := range errSizes[1:] {
			for _, reply := range []string{"ctx.Err", "genuine", "ignore"} {
				t.Run(fmt.Sprintf("%s/n=%d/%s", p.name, n, reply), func(t *testing.T) {
					cause := errors.New("parent cancelled")
					ctx, cancel := context.WithCancelCause(context.Background())
					defer cancel(nil)
					blocked := make(chan struct{})
					var once sync.Once
					var cancelled atomic.Bool
					var late atomic.Int64 // calls started after cancel returned
					// ctx' is closed by then, and each goroutine in the call looks
					// at it every 64 elements.
					lateMax := int64(64 * (p.workers + 1))
					go func() {
						<-blocked
						cancel(cause)
						cancelled.Store(true)
					}()
					s := make([]int, n)
					for i := range s {
						s[i] = i
					}
					err := par.ForEachErr(ctx, s, func(ctx context.Context, i int) error {
						if cancelled.Load() {
							late.Add(1)
						}
						if i == n/2 || i%97 == 13 {
							once.Do(func() { close(blocked) })
							<-ctx.Done()
							switch reply {
							case "genuine":
								return errIndex{i}
							case "ignore":
								return nil
							}
							return ctx.Err()
						}
						return nil
					}, p.opts...)
					require.LessOrEqual(t, late.Load(), lateMax, "elements kept starting after the parent ended")
					// Even where f ignores the end and every element has run
					// by the time the stop comes, the parent ended before the
					// call returned: its cause is the result.
					require.Equal(t, cause, err)
				})
			}
		}
	}
}

// TestErrParentEndStops runs the call in order on the caller with a single P,
// so that the goroutine on which context.AfterFunc runs the function that sets
// the stop flag gets to run only when the caller lets it. f ignores its
// context, so only the flag and the polls of ctx'.Done() can stop the call.
func TestErrParentEndStops(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const n = 1_000_000
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	for _, yield := range []bool{false, true} {
		t.Run(fmt.Sprintf("yield=%v", yield), func(t *testing.T) {
			cause := errors.New("parent ended")
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var ours atomic.Bool // set by an AfterFunc of the test's own
			stop := context.AfterFunc(ctx, func() { ours.Store(true) })
			defer stop()
			var calls atomic.Int64
			const k = 1000
			err := par.ForEachErr(ctx, s, func(_ context.Context, i int) error {
				calls.Add(1)
				switch {
				case i == k:
					cancel(cause)
				case i == k+1 && yield:
					// Let the AfterFunc goroutines run: the call's sets the flag,
					// so no element after this one may start.
					for r := 0; r < 1000 && !ours.Load(); r++ {
						runtime.Gosched()
					}
					for range 10 {
						runtime.Gosched()
					}
				}
				return nil
			}, par.WithGrain(n))
			require.Equal(t, cause, err)
			if yield {
				require.True(t, ours.Load())
				require.Equal(t, int64(k+2), calls.Load(), "elements started after the stop flag was set")
			} else {
				// The poll of ctx'.Done() stops the call within 64 elements.
				require.LessOrEqual(t, calls.Load(), int64(k+1+64), "elements kept starting after the parent ended")
			}
		})
	}
}

func TestErrAlreadyCancelled(t *testing.T) {
	cause := errors.New("gone")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	for _, n := range errSizes {
		var calls atomic.Int64
		s := make([]int, n)
		got, err := par.MapErr(ctx, s, func(context.Context, int) (int, error) {
			calls.Add(1)
			return 0, nil
		})
		require.Equal(t, cause, err)
		require.Nil(t, got)
		require.Equal(t, cause, par.ForEachErr(ctx, s, func(context.Context, int) error {
			calls.Add(1)
			return nil
		}))
		require.Zero(t, calls.Load(), "f called on a context that had ended")
	}
	dctx, dcancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer dcancel()
	require.Equal(t, context.DeadlineExceeded, par.ForEachErr(dctx, []int{1}, func(context.Context, int) error { return nil }))
}

// TestErrParentEndsDuringLastElement: the parent's end is the result
// whenever it comes before the call returns and nothing failed, even once
// every element has started, or has returned nil; an end after the call
// returned changes nothing.
func TestErrParentEndsDuringLastElement(t *testing.T) {
	for _, n := range errSizes[1:] {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			s := make([]int, n)
			for i := range s {
				s[i] = i
			}
			cause := errors.New("late")
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			got, err := par.MapErr(ctx, s, func(_ context.Context, i int) (int, error) {
				if i == n-1 {
					cancel(cause)
				}
				return i + 1, nil
			}, par.WithGrain(n)) // in order, so the last element is the last call
			require.Equal(t, cause, err, "the parent ended in the last call of f")
			require.Nil(t, got)
			require.Equal(t, cause, par.ForEachErr(ctx, s, func(context.Context, int) error { return nil }), "an ended parent")

			ctx, cancel = context.WithCancelCause(context.Background())
			defer cancel(nil)
			got, err = par.MapErr(ctx, s, func(_ context.Context, i int) (int, error) { return i + 1, nil })
			cancel(cause)
			require.NoError(t, err, "the parent ended after the call returned")
			require.Len(t, got, n)
			require.Equal(t, n, got[n-1])

			ctx, cancel = context.WithCancelCause(context.Background())
			defer cancel(nil)
			_, err = par.MapErr(ctx, s, func(ctx context.Context, i int) (int, error) {
				if i == n/2 {
					cancel(cause)
					return i, nil
				}
				return i, ctx.Err()
			}, par.WithGrain(n))
			require.Equal(t, cause, err)
		})
	}
}

// TestErrParentEndsWhileAllRun: every element has started, and waits, when
// the parent ends; they all return nil. The parent ended before the call
// returned and nothing failed, so its cause is the result, although no
// element was skipped.
func TestErrParentEndsWhileAllRun(t *testing.T) {
	p := par.NewPool(par.Workers(3))
	defer p.Close()
	const n = 4 // the pool's workers and the caller, one element each
	cause := errors.New("parent ended")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var started atomic.Int64
	err := par.ForEachErr(ctx, make([]int, n), func(ctx context.Context, _ int) error {
		if started.Add(1) == n {
			cancel(cause)
		}
		select { // the bound only keeps a broken test from hanging
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
		}
		return nil
	}, par.OnPool(p), par.WithGrain(1))
	require.Equal(t, int64(n), started.Load())
	require.Equal(t, cause, err)
}

// TestErrCtxEndsOnReturn checks that ctx' is cancelled when the call returns,
// whatever the outcome, and that its cause on an error is that error.
func TestErrCtxEndsOnReturn(t *testing.T) {
	for _, fail := range []bool{false, true} {
		var kept atomic.Value
		err := par.ForEachErr(context.Background(), errInput(1000), func(ctx context.Context, x int) error {
			kept.Store(ctx)
			if fail {
				if x%10 == 0 {
					return errIndex{x}
				}
				return nil
			}
			if ctx.Err() != nil {
				return errors.New("ctx' ended while the call ran")
			}
			return nil
		})
		ctx := kept.Load().(context.Context)
		require.Error(t, ctx.Err(), "ctx' still live after the call returned")
		if fail {
			// The error returned is the lowest failing index among the calls
			// that ran; ctx' ended with the first one recorded, which a call
			// at a lower index that was running may have followed.
			require.ErrorAs(t, err, new(errIndex))
			require.ErrorAs(t, context.Cause(ctx), new(errIndex))
			require.LessOrEqual(t, err.(errIndex).i, context.Cause(ctx).(errIndex).i)
		} else {
			require.NoError(t, err)
		}
	}
}

// TestErrPanicWakesBlocked: a call of f blocked on ctx' while another panics
// must be woken, or the panic could not reach the caller (the bridge waits for
// the calls in progress).
func TestErrPanicWakesBlocked(t *testing.T) {
	for _, p := range errPools(t) {
		t.Run(p.name, func(t *testing.T) {
			const n = 64
			s := make([]int, n)
			for i := range s {
				s[i] = i
			}
			var started, woken atomic.Bool
			require.PanicsWithValue(t, "boom", func() {
				_ = par.ForEachErr(context.Background(), s, func(ctx context.Context, i int) error {
					switch i {
					case 5:
						started.Store(true)
						select {
						case <-ctx.Done():
							woken.Store(true)
						case <-time.After(20 * time.Second): // turns a hang into a failure
						}
					case 40:
						panic("boom")
					}
					return nil
				}, append([]par.Option{par.WithGrain(1)}, p.opts...)...)
			})
			require.Equal(t, started.Load(), woken.Load(), "a call blocked on ctx' was not woken by the panic")
		})
	}
}

// chanCtx is a context that the context package does not recognize as one of
// its own, so that every context derived from it, and every AfterFunc on it,
// is watched by a goroutine until it is cancelled or stopped: a call that
// forgot either would leave that goroutine behind.
type chanCtx struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newChanCtx() *chanCtx {
	return &chanCtx{Context: context.Background(), done: make(chan struct{})}
}

func (c *chanCtx) Done() <-chan struct{} { return c.done }

func (c *chanCtx) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

func (c *chanCtx) cancel() { c.once.Do(func() { close(c.done) }) }

func TestErrNoGoroutineLeak(t *testing.T) {
	pool := par.NewPool(par.Workers(2))
	defer pool.Close()
	s := make([]int, 1000)
	for i := range s {
		s[i] = i
	}
	_ = par.ForEachErr(context.Background(), s, func(context.Context, int) error { return nil }) // start the default pool
	before := runtime.NumGoroutine()

	live := newChanCtx() // never ends while the calls run
	for r := range 50 {
		opts := []par.Option{par.OnPool(pool)}
		if r%2 == 0 {
			opts = nil
		}
		_, err := par.MapErr(live, s, func(_ context.Context, i int) (int, error) { return i, nil }, opts...)
		require.NoError(t, err)
		err = par.ForEachErr(live, s, func(_ context.Context, i int) error {
			if i == r*13 {
				return errIndex{i}
			}
			return nil
		}, opts...)
		require.Equal(t, errIndex{r * 13}, err)

		ending := newChanCtx()
		var once sync.Once
		err = par.ForEachErr(ending, s, func(ctx context.Context, i int) error {
			if i == r*7 {
				once.Do(ending.cancel)
				<-ctx.Done()
				return ctx.Err()
			}
			return nil
		}, opts...)
		require.Equal(t, context.Canceled, err)
	}
	var after int
	for range 200 { // goroutines that were ending need a moment to exit
		if after = runtime.NumGoroutine(); after <= before {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	require.LessOrEqual(t, after, before, "goroutines left behind by the calls")
	live.cancel()
}

// TestCancelledContext: a context that has already ended gives its cause at
// once, without a call of f, and is no panic; a cancelled call leaves the
// pool usable.
func TestCancelledContext(t *testing.T) {
	cause := errors.New("gave up")
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		withCause, cancelCause := context.WithCancelCause(context.Background())
		cancelCause(cause)
		expired, cancelT := context.WithDeadline(context.Background(), time.Unix(0, 0))
		defer cancelT()
		for _, c := range []struct {
			ctx  context.Context
			want error
		}{{cancelled, context.Canceled}, {withCause, cause}, {expired, context.DeadlineExceeded}} {
			for _, n := range []int{0, 1, 1000} {
				called := false
				out, err := par.MapErr(c.ctx, indices(n), func(_ context.Context, x int) (int, error) {
					called = true
					return x, nil
				}, opts...)
				require.ErrorIs(t, err, c.want, "MapErr on %d elements", n)
				require.Nil(t, out)
				err = par.ForEachErr(c.ctx, indices(n), func(context.Context, int) error {
					called = true
					return nil
				}, opts...)
				require.ErrorIs(t, err, c.want, "ForEachErr on %d elements", n)
				require.False(t, called, "f called with an ended context")
			}
		}
		requireUsable(t, p)
	}
}
