package par_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Errors of MapErr and ForEachErr: the result is the sequential loop's,
// and of several failing elements the error of the lowest index that ran is
// returned; a panic in f reaches the caller as in every other call.

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

// TestErrStartsAfterError counts the calls of f that start after the error
// was recorded, which they see as ctx' already cancelled: the stop flag is set
// before ctx' is cancelled, so these are calls whose check of the flag came
// just before it was set, at most one per goroutine in the call (the pool's
// workers and the caller). The calls that start between the return of the
// failing call and the recording of its error are not counted: the goroutine
// that records it may be descheduled in between, for as long as the machine
// likes, so the test cannot require that the error skipped any element but
// when the caller, which runs element 0 first and alone, fails on it.
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
					if k == 0 && grain == 0 {
						// Element 0 runs first, alone on the caller.
						require.Equal(t, int64(1), calls.Load())
					}
				})
			}
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
				for _, lowest := range []bool{false, true} {
					p := p
					if lowest {
						if n >= 1_000_000 {
							continue
						}
						p.opts = append([]par.Option{par.LowestIndexError()}, p.opts...)
					}
					t.Run(fmt.Sprintf("%s/n=%d/k=%d/lowest=%v", p.name, n, k, lowest), func(t *testing.T) {
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
}

// TestErrLowestIndex: with LowestIndexError, the error is that of the lowest
// failing index on every run, whichever failed first: the elements before it
// all run, once each, with ctx' alive.
func TestErrLowestIndex(t *testing.T) {
	for _, p := range errPools(t) {
		for _, n := range errSizes[2:] {
			if errBig(p, n) || n >= 1_000_000 && p.name != "default" {
				continue
			}
			reps := 3 // the stop races the failures: a few calls see more interleavings
			if n >= 1_000_000 {
				reps = 1 // under -race a call of this size takes seconds
			}
			for _, fs := range []struct {
				name  string
				fails func(i int) bool
			}{
				{"last-and-middle", func(i int) bool { return i == n-1 || i == n/2 }},
				{"every-7th", func(i int) bool { return i%7 == 3 || i == n-1 }},
				{"first-and-last", func(i int) bool { return i == 0 || i == n-1 }},
			} {
				low := 0
				for !fs.fails(low) {
					low++
				}
				t.Run(fmt.Sprintf("%s/n=%d/%s", p.name, n, fs.name), func(t *testing.T) {
					seen := make(counts, n)
					var live atomic.Int64 // elements before low that found ctx' ended
					g := func(ctx context.Context, i int) (int, error) {
						seen[i].Add(1)
						if i < low && ctx.Err() != nil {
							live.Add(1)
						}
						if fs.fails(i) {
							return 0, errIndex{i}
						}
						return i, nil
					}
					reset := func() {
						for i := range seen {
							seen[i].Store(0)
						}
					}
					opts := append([]par.Option{par.LowestIndexError()}, p.opts...)
					for range reps {
						reset()
						_, err := bothErr(t, context.Background(), n, g, reset, opts)
						require.Equal(t, errIndex{low}, err)
						requireOnce(t, seen[:low+1], "element before the lowest failure")
					}
					require.Zero(t, live.Load(), "ctx' ended before the elements before the failure ran")
				})
			}
		}
	}
}

// TestErrLowestIndexLowerFailsLater: element b fails first, and element a < b
// fails after it, having started before (it waits for b's failure) or not:
// a's error is returned, as the plain loop returns it. Without the option the
// first case returns a's error too (it ran), and the second may return b's.
func TestErrLowestIndexLowerFailsLater(t *testing.T) {
	for _, p := range errPools(t) {
		for _, n := range []int{2, 17, 1000} {
			a, b := n/2-1, n-1
			if n == 2 {
				a = 0
			}
			t.Run(fmt.Sprintf("%s/n=%d", p.name, n), func(t *testing.T) {
				var bFailed chan struct{}
				started := func(ctx context.Context, i int) (int, error) {
					switch i {
					case a:
						<-bFailed
						return 0, errIndex{a}
					case b:
						defer close(bFailed)
						return 0, errIndex{b}
					}
					return i, nil
				}
				reset := func() { bFailed = make(chan struct{}) }
				reset()
				opts := append([]par.Option{par.LowestIndexError(), par.WithGrain(1)}, p.opts...)
				_, err := bothErr(t, context.Background(), n, started, reset, opts)
				require.Equal(t, errIndex{a}, err)

				// a starts after b failed: it is not skipped.
				for range 10 {
					_, err = bothErr(t, context.Background(), n, func(ctx context.Context, i int) (int, error) {
						if i == a || i == b {
							return 0, errIndex{i}
						}
						return i, nil
					}, nil, opts)
					require.Equal(t, errIndex{a}, err)
				}
			})
		}
	}
}

// TestErrLowestIndexParentEnd: the end of ctx stops the call as without the
// option, and its cause is returned if it came before any failure. A call of
// f that sees ctx ended reports it, so each goroutine working on the call
// runs at most one such call, whatever the timing (ctx' may end a moment
// after ctx: the goroutine that cancels ctx cancels it next).
func TestErrLowestIndexParentEnd(t *testing.T) {
	const n = 10_000
	for _, p := range errPools(t) {
		t.Run(p.name, func(t *testing.T) {
			cause := errors.New("parent ended")
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var after atomic.Int64
			err := par.ForEachErr(ctx, indices(n), func(c context.Context, i int) error {
				if i == n/3 {
					cancel(cause)
				}
				if ctx.Err() != nil {
					after.Add(1)
					return ctx.Err() // reports the end: not a failure of its own
				}
				return nil
			}, append([]par.Option{par.LowestIndexError()}, p.opts...)...)
			require.Equal(t, cause, err)
			require.LessOrEqual(t, after.Load(), int64(p.workers+1), "calls of f that saw ctx ended, past one per goroutine")
		})
	}
}

// TestErrLowestIndexRecords: the case, records in JSON with two
// invalid ones at a quarter and three quarters of the input: the default
// returns the error of either, the option that of the first every time, as
// the loop does.
func TestErrLowestIndexRecords(t *testing.T) {
	n := 200_000
	if !full() {
		n = 20_000
	}
	recs := jsonRecords(n, n/4, 3*n/4)
	_, want := parseRecordsLoop(recs)
	first, second := fmt.Sprintf("record %d: ", n/4), fmt.Sprintf("record %d: ", 3*n/4)
	require.ErrorContains(t, want, first)
	for range 5 {
		_, err := par.MapErr(context.Background(), recs, parseRecord, par.LowestIndexError())
		require.Equal(t, want, err)
		_, err = par.MapErr(context.Background(), recs, parseRecord)
		require.Error(t, err)
		require.True(t, strings.HasPrefix(err.Error(), first) || strings.HasPrefix(err.Error(), second), err.Error())
	}
}
