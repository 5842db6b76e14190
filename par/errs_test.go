package par_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// errIndex is the error f returns for element i in these tests.
type errIndex struct{ i int }

func (e errIndex) Error() string { return fmt.Sprintf("element %d failed", e.i) }

var errSizes = []int{0, 1, 2, 3, 17, 1000, 1_000_000}

type errPool struct {
	name    string
	workers int
	opts    []par.Option
}

// errPools returns the default pool and pools of 1, 2 and 8 workers, closed
// when t ends.
func errPools(t *testing.T) []errPool {
	ps := []errPool{{name: "default", workers: par.DefaultWorkers()}}
	for _, w := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(w))
		t.Cleanup(p.Close)
		ps = append(ps, errPool{name: fmt.Sprintf("workers=%d", w), workers: w, opts: []par.Option{par.OnPool(p)}})
	}
	return ps
}

// errBig reports whether to skip size n on pool p: the largest size runs on
// the default pool and on the most crowded one only, to keep the tests fast
// under -race.
func errBig(p errPool, n int) bool {
	return n >= 1_000_000 && p.name != "default" && p.name != "workers=8"
}

// errInput returns n ints that are not their own indices.
func errInput(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = (i*7919)%1000003 + 1
	}
	return s
}

// seqMapErr is the sequential oracle: the plain loop that stops at the first
// error.
func seqMapErr(ctx context.Context, s []int, f func(context.Context, int) (int, error)) ([]int, error) {
	out := make([]int, len(s))
	for i, e := range s {
		r, err := f(ctx, e)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// bothErr runs MapErr and ForEachErr with the same per-index function, calling
// reset (if not nil) between the two, and checks that they agree; it returns
// MapErr's results.
func bothErr(t *testing.T, ctx context.Context, n int, g func(ctx context.Context, i int) (int, error), reset func(), opts []par.Option) ([]int, error) {
	t.Helper()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	got, err := par.MapErr(ctx, idx, g, opts...)
	if reset != nil {
		reset()
	}
	ferr := par.ForEachErr(ctx, idx, func(ctx context.Context, i int) error {
		_, err := g(ctx, i)
		return err
	}, opts...)
	require.Equal(t, err, ferr, "MapErr and ForEachErr disagree")
	if err != nil {
		require.Nil(t, got, "MapErr must return a nil slice with an error")
	}
	return got, err
}

func TestMapErrOracle(t *testing.T) {
	for _, p := range errPools(t) {
		for _, n := range errSizes {
			if errBig(p, n) {
				continue
			}
			t.Run(fmt.Sprintf("%s/n=%d", p.name, n), func(t *testing.T) {
				s := errInput(n)
				f := func(ctx context.Context, x int) (int, error) {
					select {
					case <-ctx.Done():
						return 0, errors.New("ctx ended during a successful call")
					default:
					}
					return x*3 + 1, nil
				}
				want, werr := seqMapErr(context.Background(), s, f)
				require.NoError(t, werr)
				// A parent that can end, but does not, takes the path that watches it.
				live, cancel := context.WithCancel(context.Background())
				defer cancel()
				for _, ctx := range []context.Context{context.Background(), live} {
					got, err := par.MapErr(ctx, s, f, p.opts...)
					require.NoError(t, err)
					require.NotNil(t, got)
					require.True(t, slices.Equal(want, got), "MapErr differs from the loop")
				}

				seen := make([]atomic.Int32, n)
				idx := make([]int, n)
				for i := range idx {
					idx[i] = i
				}
				require.NoError(t, par.ForEachErr(context.Background(), idx, func(_ context.Context, i int) error {
					seen[i].Add(1)
					return nil
				}, p.opts...))
				for i := range seen {
					if c := seen[i].Load(); c != 1 {
						require.Failf(t, "wrong number of calls", "element %d called %d times", i, c)
					}
				}
			})
		}
	}
}

func TestMapErrErrorAt(t *testing.T) {
	for _, p := range errPools(t) {
		for _, n := range errSizes[1:] {
			if errBig(p, n) {
				continue
			}
			for _, where := range []string{"front", "middle", "end"} {
				k := map[string]int{"front": 0, "middle": n / 2, "end": n - 1}[where]
				t.Run(fmt.Sprintf("%s/n=%d/%s", p.name, n, where), func(t *testing.T) {
					g := func(_ context.Context, i int) (int, error) {
						if i == k {
							return 0, errIndex{i}
						}
						return i, nil
					}
					_, err := bothErr(t, context.Background(), n, g, nil, p.opts)
					require.Equal(t, errIndex{k}, err)
				})
			}
		}
	}
}

// TestErrSequentialOracle runs the whole slice in order on the caller
// (WithGrain(n)), where the call must behave as the plain loop exactly: the
// same error, and no element after it started.
func TestErrSequentialOracle(t *testing.T) {
	for _, n := range errSizes[1:] {
		failing := []int{n / 3, n / 2, n - 1} // the first of these fails first in order
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			s := make([]int, n)
			for i := range s {
				s[i] = i
			}
			var calls atomic.Int64
			f := func(_ context.Context, i int) (int, error) {
				calls.Add(1)
				if slices.Contains(failing, i) {
					return 0, errIndex{i}
				}
				return -i, nil
			}
			want, werr := seqMapErr(context.Background(), s, f)
			wantCalls := calls.Swap(0)
			got, err := par.MapErr(context.Background(), s, f, par.WithGrain(n))
			require.Equal(t, werr, err)
			require.Equal(t, want, got)
			require.Equal(t, wantCalls, calls.Load(), "elements after the first error were started")
		})
	}
}

// TestErrSeveral checks which error is returned when several elements fail:
// the lowest index among the failing calls that ran.
func TestErrSeveral(t *testing.T) {
	for _, p := range errPools(t) {
		for _, n := range errSizes[2:] {
			t.Run(fmt.Sprintf("%s/n=%d", p.name, n), func(t *testing.T) {
				var mu sync.Mutex
				var ran []int // failing indices whose call ran
				g := func(_ context.Context, i int) (int, error) {
					if i%7 == 3 || i == n-1 || i == n/2 {
						mu.Lock()
						ran = append(ran, i)
						mu.Unlock()
						return 0, errIndex{i}
					}
					return i, nil
				}
				idx := make([]int, n)
				for i := range idx {
					idx[i] = i
				}
				for range 3 {
					ran = ran[:0]
					_, err := par.MapErr(context.Background(), idx, g, p.opts...)
					require.NotEmpty(t, ran)
					require.Equal(t, errIndex{slices.Min(ran)}, err)
					ran = ran[:0]
					err = par.ForEachErr(context.Background(), idx, func(ctx context.Context, i int) error {
						_, err := g(ctx, i)
						return err
					}, p.opts...)
					require.NotEmpty(t, ran)
					require.Equal(t, errIndex{slices.Min(ran)}, err)
				}
			})
		}
	}
}

// TestErrLowerIndexFailsLater makes element a fail only after element b > a
// has stopped the call: a blocks on its context, which only b's failure can
// cancel, so the call returning at all shows that ctx' was cancelled. What a
// returns then decides the result: a genuine error of a lower index wins; a
// report of the cancellation does not.
func TestErrLowerIndexFailsLater(t *testing.T) {
	for _, p := range errPools(t) {
		for _, n := range []int{2, 3, 17, 1000} {
			a, b := n/2-1, n-1
			if n == 2 {
				a = 0
			}
			for _, tc := range []struct {
				name   string
				report func(ctx context.Context) error
				want   error
			}{
				{"genuine", func(context.Context) error { return errIndex{a} }, errIndex{a}},
				{"ctx.Err", func(ctx context.Context) error { return ctx.Err() }, errIndex{b}},
				{"wrapped-Err", func(ctx context.Context) error { return fmt.Errorf("a: %w", ctx.Err()) }, errIndex{b}},
				{"wrapped-Cause", func(ctx context.Context) error { return fmt.Errorf("a: %w", context.Cause(ctx)) }, errIndex{b}},
			} {
				t.Run(fmt.Sprintf("%s/n=%d/%s", p.name, n, tc.name), func(t *testing.T) {
					var cause atomic.Value
					var aStarted chan struct{}
					g := func(ctx context.Context, i int) (int, error) {
						switch i {
						case a:
							close(aStarted)
							<-ctx.Done()
							cause.Store(context.Cause(ctx))
							return 0, tc.report(ctx)
						case b:
							<-aStarted // so that a has started, and cannot be skipped
							return 0, errIndex{b}
						}
						return i, nil
					}
					// A grain of 1 keeps every element not started stealable while
					// a or b blocks, so the other one is reached.
					reset := func() { aStarted = make(chan struct{}) }
					reset()
					_, err := bothErr(t, context.Background(), n, g, reset, append([]par.Option{par.WithGrain(1)}, p.opts...))
					require.Equal(t, tc.want, err)
					require.Equal(t, errIndex{b}, cause.Load(), "context.Cause(ctx') must be the error that stopped the call")
				})
			}
		}
	}
}

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
					if reply != "ignore" || n == 1_000_000 {
						require.Equal(t, cause, err)
					} else if err != nil {
						// f never fails: only the stop flag and the polls of
						// ctx'.Done() stop the call, so the few elements left may
						// all have run by then, and the result stands.
						require.Equal(t, cause, err)
					}
				})
			}
		}
	}
}

// TestErrStartsAfterError counts the calls of f that start after the error
// was recorded, which they see as ctx' already cancelled: the stop flag is set
// before ctx' is cancelled, so these are calls whose check of the flag came
// just before it was set, at most one per goroutine in the call (the pool's
// workers and the caller). The calls that start between the return of the
// failing call and the recording of its error are not counted: the goroutine
// that records it may be descheduled in between, for as long as the machine
// likes.
func TestErrStartsAfterError(t *testing.T) {
	const n = 1_000_000
	for _, p := range errPools(t) {
		for _, k := range []int{0, n / 2, n - 1000} {
			for _, grain := range []int{0, 1000} {
				if grain > 0 && k != n/2 {
					continue
				}
				t.Run(fmt.Sprintf("%s/k=%d/grain=%d", p.name, k, grain), func(t *testing.T) {
					opts := p.opts
					if grain > 0 {
						opts = append([]par.Option{par.WithGrain(grain)}, opts...)
					}
					s := make([]int, n)
					for i := range s {
						s[i] = i
					}
					var afterCancel, calls atomic.Int64
					err := par.ForEachErr(context.Background(), s, func(ctx context.Context, i int) error {
						calls.Add(1)
						if ctx.Err() != nil {
							afterCancel.Add(1)
						}
						if i == k {
							return errIndex{i}
						}
						return nil
					}, opts...)
					require.Equal(t, errIndex{k}, err)
					require.LessOrEqual(t, afterCancel.Load(), int64(p.workers+1), "elements started after the error was recorded")
					if k == n/2 {
						require.Less(t, calls.Load(), int64(n), "the error stopped nothing")
					}
					if k == 0 && grain == 0 {
						// Element 0 runs first, alone on the caller.
						require.Equal(t, int64(1), calls.Load())
					}
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

// TestErrParentEndsAfterLastElement: an end of the parent that comes after
// every element is done changes nothing; one that stops elements is returned.
func TestErrParentEndsAfterLastElement(t *testing.T) {
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
			require.NoError(t, err)
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
			if n/2 == n-1 { // the cancelling call was the last one
				require.NoError(t, err)
			} else {
				require.Equal(t, cause, err)
			}
		})
	}
}

// TestErrCtxEndsOnReturn checks that ctx' is cancelled when the call returns,
// whatever the outcome, and that its cause on an error is that error.
func TestErrCtxEndsOnReturn(t *testing.T) {
	for _, fail := range []bool{false, true} {
		var kept atomic.Value
		err := par.ForEachErr(context.Background(), errInput(1000), func(ctx context.Context, x int) error {
			kept.Store(ctx)
			if ctx.Err() != nil {
				return errors.New("ctx' ended while the call ran")
			}
			if fail && x%10 == 0 {
				return errIndex{x}
			}
			return nil
		})
		ctx := kept.Load().(context.Context)
		require.Error(t, ctx.Err(), "ctx' still live after the call returned")
		if fail {
			require.Error(t, err)
			require.Equal(t, err, context.Cause(ctx))
		} else {
			require.NoError(t, err)
		}
	}
}

func TestErrPanic(t *testing.T) {
	type boom struct{ i int }
	for _, p := range errPools(t) {
		for _, n := range errSizes[1:] {
			if errBig(p, n) {
				continue
			}
			for _, k := range []int{0, n / 2, n - 1} {
				t.Run(fmt.Sprintf("%s/n=%d/k=%d", p.name, n, k), func(t *testing.T) {
					s := make([]int, n)
					for i := range s {
						s[i] = i
					}
					require.PanicsWithValue(t, boom{k}, func() {
						_, _ = par.MapErr(context.Background(), s, func(_ context.Context, i int) (int, error) {
							if i == k {
								panic(boom{k})
							}
							return i, nil
						}, p.opts...)
					})
					require.PanicsWithValue(t, boom{k}, func() {
						_ = par.ForEachErr(context.Background(), s, func(_ context.Context, i int) error {
							if i == k {
								panic(boom{k})
							}
							return nil
						}, p.opts...)
					})
					// The pool stays usable.
					got, err := par.MapErr(context.Background(), s, func(_ context.Context, i int) (int, error) { return i, nil }, p.opts...)
					require.NoError(t, err)
					require.True(t, slices.Equal(s, got), "wrong result after a panic")
				})
			}
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

var errBenchSink error

// errInterleaved times the plain loop, the call without errors and the call
// with them in turn within each iteration, rotating their order, so that the
// three share whatever else the machine is doing; it reports the time of the
// error call over each of the others.
func errInterleaved(b *testing.B, loop, plain, withErr func()) {
	fs := [3]func(){loop, plain, withErr}
	var t [3]time.Duration
	r := 0
	for b.Loop() {
		for k := range 3 {
			j := (r + k) % 3
			start := time.Now()
			fs[j]()
			t[j] += time.Since(start)
		}
		r++
	}
	b.ReportMetric(float64(t[2])/float64(t[0]), "err/loop")
	b.ReportMetric(float64(t[2])/float64(t[1]), "err/plain")
	b.ReportMetric(0, "ns/op") // an iteration runs all three
}

// BenchmarkForEachErr compares ForEachErr with the plain loop and with
// ForEach, all calling the same cheap f through a func value, to show what the
// error path (the stop flag, the poll of ctx', the error result) costs. The
// interleaved sub-benchmarks report the ratios measured in one loop, which a
// busy machine disturbs less than it does separate runs.
func BenchmarkForEachErr(b *testing.B) {
	errNeg := errors.New("negative")
	f := func(_ context.Context, x int) error {
		if x < 0 {
			return errNeg
		}
		return nil
	}
	g := func(x int) {
		if x < 0 {
			errBenchSink = errNeg
		}
	}
	ctx := context.Background()
	for _, n := range []int{1000, 1_000_000} {
		s := errInput(n)
		loop := func() {
			var err error
			for _, x := range s {
				if err = f(ctx, x); err != nil {
					break
				}
			}
			errBenchSink = err
		}
		plain := func() { par.ForEach(s, g) }
		withErr := func() { errBenchSink = par.ForEachErr(ctx, s, f) }
		for _, c := range []struct {
			name string
			f    func()
		}{{"loop", loop}, {"ForEach", plain}, {"ForEachErr", withErr}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				for b.Loop() {
					c.f()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
		b.Run(fmt.Sprintf("n=%d/interleaved", n), func(b *testing.B) { errInterleaved(b, loop, plain, withErr) })
		// WithGrain(n) runs both calls on the caller alone: what is left over
		// the loop is the cost per element of each path, without the pool.
		b.Run(fmt.Sprintf("n=%d/interleaved-caller", n), func(b *testing.B) {
			errInterleaved(b, loop,
				func() { par.ForEach(s, g, par.WithGrain(n)) },
				func() { errBenchSink = par.ForEachErr(ctx, s, f, par.WithGrain(n)) })
		})
	}
}

// BenchmarkMapErr compares MapErr with the plain loop and with Map, as
// BenchmarkForEachErr does.
func BenchmarkMapErr(b *testing.B) {
	errNeg := errors.New("negative")
	f := func(_ context.Context, x int) (int, error) {
		if x < 0 {
			return 0, errNeg
		}
		return x * 2, nil
	}
	g := func(x int) int { return x * 2 }
	ctx := context.Background()
	for _, n := range []int{1000, 1_000_000} {
		s := errInput(n)
		var sink []int
		loop := func() {
			out := make([]int, n)
			var err error
			for i, x := range s {
				if out[i], err = f(ctx, x); err != nil {
					out = nil
					break
				}
			}
			sink, errBenchSink = out, err
		}
		plain := func() { sink = par.Map(s, g) }
		withErr := func() { sink, errBenchSink = par.MapErr(ctx, s, f) }
		for _, c := range []struct {
			name string
			f    func()
		}{{"loop", loop}, {"Map", plain}, {"MapErr", withErr}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				for b.Loop() {
					c.f()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
		b.Run(fmt.Sprintf("n=%d/interleaved", n), func(b *testing.B) { errInterleaved(b, loop, plain, withErr) })
		b.Run(fmt.Sprintf("n=%d/interleaved-caller", n), func(b *testing.B) {
			errInterleaved(b, loop,
				func() { sink = par.Map(s, g, par.WithGrain(n)) },
				func() { sink, errBenchSink = par.MapErr(ctx, s, f, par.WithGrain(n)) })
		})
		_ = sink
	}
}
