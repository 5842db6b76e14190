package par_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/leakcheck"
	"github.com/weftgo/weft/par"
)

// idleWorker is the function in the stack of every worker goroutine of a
// pool that is waiting for work: searching or parked, never while it runs a
// task. The default pool's workers live as long as the process by design, so
// the leak checks ignore them, and only them: a goroutine that is stuck in a
// task on a worker, or a caller parked waiting for a piece, has no findWork
// in its stack and is reported. Ignoring the worker's loop function instead
// would hide the first of those.
const idleWorker = "github.com/weftgo/weft/internal/sched.(*Worker).findWork"

// ignoreIdleWorkers is the option of every leak check that may meet the
// default pool.
var ignoreIdleWorkers = leakcheck.IgnoreAnyFunction(idleWorker)

// TestMain fails the package if a goroutine other than an idle worker is
// left when the tests end, and if more idle workers are left than the
// default pool has: a private pool that a test did not close, or whose Close
// left workers behind.
func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m, ignoreIdleWorkers, leakcheck.Cleanup(func(code int) {
		if code == 0 {
			if err := onlyDefaultWorkers(); err != nil {
				fmt.Fprintln(os.Stderr, "leak:", err)
				code = 1
			}
		}
		os.Exit(code)
	}))
}

// onlyDefaultWorkers returns an error if more goroutines run the worker loop
// than the default pool has workers. It retries for a while: a default pool
// retired when GOMAXPROCS changed closes on a goroutine of its own.
func onlyDefaultWorkers() error {
	want := len(par.DefaultStats().Workers)
	var got int
	for range 200 {
		if got = workerGoroutines(); got <= want {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("%d goroutines run a pool's worker loop, the default pool has %d workers", got, want)
}

// workerGoroutines counts the goroutines with a pool worker's loop in their
// stack.
func workerGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	k := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "internal/sched.(*Worker).loop(") {
			k++
		}
	}
	return k
}

// onEachPool runs f on the default pool, then checks that nothing but idle
// workers is left; then on private pools of 1, 2 and 8 workers, each closed
// after f, and checks that nothing at all is left that was not there before
// the pool was made: a private pool's workers must exit on Close, so they
// are not ignored.
func onEachPool(t *testing.T, f func(t *testing.T, p *par.Pool, opts []par.Option)) {
	t.Helper()
	t.Run("default", func(t *testing.T) {
		f(t, nil, nil)
		leakcheck.VerifyNone(t, ignoreIdleWorkers)
	})
	for _, n := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("pool%d", n), func(t *testing.T) {
			before := leakcheck.IgnoreCurrent()
			p := par.NewPool(par.Workers(n))
			f(t, p, poolOpts(p))
			p.Close()
			leakcheck.VerifyNone(t, before)
		})
	}
}

// warmDefault starts the default pool, so that its workers exist before a
// check takes a snapshot of the goroutines.
func warmDefault() { par.For(1000, func(int) {}, par.WithGrain(1)) }

func TestLeakPrivatePoolClose(t *testing.T) {
	warmDefault()
	n := 1000
	uses := []struct {
		name string
		use  func(p *par.Pool)
	}{
		{"unused", func(*par.Pool) {}},
		{"For", func(p *par.Pool) { par.For(n, func(int) {}, par.OnPool(p), par.WithGrain(1)) }},
		{"Map", func(p *par.Pool) { par.Map(indices(n), func(x int) int { return 2 * x }, par.OnPool(p)) }},
		{"Sum", func(p *par.Pool) { par.Sum(indices(100*n), par.OnPool(p)) }},
		{"Join", func(p *par.Pool) { par.Join(func() {}, func() {}, par.OnPool(p)) }},
		{"Join2", func(p *par.Pool) {
			par.Do(func(w *par.Worker) { fibPar(w, 20) }, par.OnPool(p))
		}},
		{"Scope", func(p *par.Pool) {
			par.Scope(func(s *par.Spawner, w *par.Worker) {
				for range n {
					s.Spawn(w, func(*par.Worker) {})
					s.Go(func(*par.Worker) {})
				}
			}, par.OnPool(p))
		}},
		{"MapSeq", func(p *par.Pool) {
			for range par.MapSeq(intSeq(n), func(x int) int { return x }, par.OnPool(p), par.WithGrain(10)) {
			}
		}},
		{"Sort", func(p *par.Pool) { par.Sort(randInts(newRand(1), 100*n), par.OnPool(p)) }},
		// Tasks that end their goroutine: a worker that ran one carries on
		// as a new goroutine, which must exit on Close too.
		{"Goexit", func(p *par.Pool) {
			for _, pc := range panicCalls {
				for _, at := range panicPositions(2000) {
					runOn(func() { pc.call(2000, at, nil, []par.Option{par.OnPool(p), par.WithGrain(1)}) })
				}
			}
		}},
		// Calls from goroutines of their own, in progress when Close is
		// called: Close waits for them, then the workers exit.
		{"busy", func(p *par.Pool) {
			release := make(chan struct{})
			started := make(chan struct{}, 4)
			done := make(chan struct{}, 4)
			for range 4 {
				go func() {
					par.For(64, func(i int) {
						if i == 0 {
							started <- struct{}{}
							<-release
						}
					}, par.OnPool(p), par.WithGrain(1))
					done <- struct{}{}
				}()
			}
			for range 4 {
				<-started
			}
			go func() { time.Sleep(time.Millisecond); close(release) }()
			p.Close() // while the calls are in progress
			for range 4 {
				<-done
			}
		}},
	}
	for _, u := range uses {
		for _, workers := range []int{1, 2, 8} {
			t.Run(fmt.Sprintf("%s/pool%d", u.name, workers), func(t *testing.T) {
				before := leakcheck.IgnoreCurrent()
				p := par.NewPool(par.Workers(workers))
				u.use(p)
				p.Close()
				leakcheck.VerifyNone(t, before) // no ignore of workers: Close must end them
			})
		}
	}
}

// TestLeakCheckSeesPrivateWorkers makes sure the check above can fail: an
// open private pool's workers are reported.
func TestLeakCheckSeesPrivateWorkers(t *testing.T) {
	warmDefault()
	before := leakcheck.IgnoreCurrent()
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	par.For(100, func(int) {}, par.OnPool(p), par.WithGrain(1))
	err := leakcheck.Find(before)
	require.Error(t, err, "the workers of an open pool must be seen")
	require.Contains(t, err.Error(), "internal/sched.(*Worker)")
}

func intSeq(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func TestLeakAfterPanic(t *testing.T) {
	n := panicLen()
	onEachPool(t, func(t *testing.T, p *par.Pool, opts []par.Option) {
		for _, grain := range []int{0, 1} {
			o := opts
			if grain > 0 {
				o = append([]par.Option{par.WithGrain(grain)}, opts...)
			}
			for _, pc := range panicCalls {
				for _, at := range panicPositions(n) {
					want := &boomError{where: pc.name}
					require.Same(t, want, panicValue(t, func() { pc.call(n, at, want, o) }), pc.name)
					how, _ := runOn(func() { pc.call(n, at, nil, o) })
					require.Equal(t, goexited, how, pc.name)
				}
			}
		}
		for _, js := range joinShapes {
			for _, leaf := range []int{0, 17, 31} {
				want := &boomError{where: js.name}
				require.Same(t, want, panicValue(t, func() { js.run(p, 5, leaf, want) }), js.name)
			}
		}
		for _, call := range seqPanics {
			want := &boomError{where: call.name}
			require.Same(t, want, panicValue(t, func() { call.run(want, opts) }), call.name)
		}
	})
}

// seqPanics are passes over a sequence that panic in the function, in the
// loop body, or in the sequence itself, while batches are in flight.
var seqPanics = []struct {
	name string
	run  func(v any, opts []par.Option)
}{
	{"MapSeq/f", func(v any, opts []par.Option) {
		for range par.MapSeq(intSeq(10_000), func(x int) int {
			if x == 5000 {
				panic(v)
			}
			return x
		}, append(opts, par.WithGrain(16))...) {
		}
	}},
	{"MapSeq/body", func(v any, opts []par.Option) {
		for x := range par.MapSeq(intSeq(10_000), func(x int) int { return x }, append(opts, par.WithGrain(16))...) {
			if x == 5000 {
				panic(v)
			}
		}
	}},
	{"FilterSeq/seq", func(v any, opts []par.Option) {
		seq := func(yield func(int) bool) {
			for i := range 10_000 {
				if i == 5000 {
					panic(v)
				}
				if !yield(i) {
					return
				}
			}
		}
		for range par.FilterSeq(seq, func(x int) bool { return x%2 == 0 }, append(opts, par.WithGrain(16))...) {
		}
	}},
	{"ForEachSeq/f", func(v any, opts []par.Option) {
		par.ForEachSeq(intSeq(10_000), func(x int) {
			if x == 5000 {
				panic(v)
			}
		}, append(opts, par.WithGrain(16))...)
	}},
	{"ReduceSeq/op", func(v any, opts []par.Option) {
		par.ReduceSeq(intSeq(10_000), 0, func(a, b int) int {
			if b == 5000 {
				panic(v)
			}
			return a + b
		}, append(opts, par.WithGrain(16))...)
	}},
	{"MapErr/f", func(v any, opts []par.Option) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, _ = par.MapErr(ctx, indices(10_000), func(ctx context.Context, x int) (int, error) {
			if x == 5000 {
				panic(v)
			}
			return x, nil
		}, opts...)
	}},
	{"Scope/body", func(v any, opts []par.Option) {
		par.Scope(func(s *par.Spawner, w *par.Worker) {
			for range 1000 {
				s.Spawn(w, func(*par.Worker) {})
			}
			panic(v)
		}, opts...)
	}},
}

func TestLeakEarlyBreak(t *testing.T) {
	n := 100_000
	if !full() {
		n = 20_000
	}
	onEachPool(t, func(t *testing.T, p *par.Pool, opts []par.Option) {
		variants := [][]par.Option{
			opts,
			append([]par.Option{par.WithGrain(1)}, opts...),
			append([]par.Option{par.WithGrain(100)}, opts...),
			append([]par.Option{par.WithMinLen(50)}, opts...),
		}
		for vi, o := range variants {
			for _, stopAt := range []int{0, 1, 99, n / 3} { // FilterSeq keeps more than half
				// A function slow enough that the pass sends batches to
				// the pool, and that some are running at the break.
				slow := func(x int) int {
					for range 50 {
						x = x*31 + 7
					}
					return x
				}
				k := 0
				for range par.MapSeq(intSeq(n), slow, o...) {
					if k == stopAt {
						break
					}
					k++
				}
				require.Equal(t, stopAt, k, "MapSeq variant %d", vi)

				k = 0
				for x := range par.FilterSeq(intSeq(n), func(x int) bool { return slow(x)%2 == 0 || x%2 == 0 }, o...) {
					_ = x
					if k == stopAt {
						break
					}
					k++
				}
				require.Equal(t, stopAt, k, "FilterSeq variant %d", vi)

				// A break out of a pass nested in a pass.
				outer := 0
				for range par.MapSeq(intSeq(50), func(x int) int {
					inner := 0
					for range par.FilterSeq(intSeq(2000), func(y int) bool { return (x+y)%3 == 0 }, o...) {
						if inner == 10 {
							break
						}
						inner++
					}
					return inner
				}, o...) {
					if outer == stopAt%50 {
						break
					}
					outer++
				}
			}
		}
	})
}

func TestLeakCancelledErr(t *testing.T) {
	n := 10_000
	errBoom := errors.New("boom")
	onEachPool(t, func(t *testing.T, p *par.Pool, opts []par.Option) {
		for _, grain := range []int{0, 1, 64} {
			o := opts
			if grain > 0 {
				o = append([]par.Option{par.WithGrain(grain)}, opts...)
			}
			in := indices(n)

			// Cancelled before the call.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := par.MapErr(ctx, in, func(context.Context, int) (int, error) { return 0, nil }, o...)
			require.ErrorIs(t, err, context.Canceled)
			require.ErrorIs(t, par.ForEachErr(ctx, in, func(context.Context, int) error { return nil }, o...), context.Canceled)

			// Cancelled by a call of f, with the other calls blocked on
			// ctx' until it ends.
			for _, at := range []int{0, n / 2, n - 1} {
				var stopped atomic.Bool
				var ran atomic.Int64
				ctx, cancel := context.WithCancelCause(context.Background())
				_, err = par.MapErr(ctx, in, func(c context.Context, x int) (int, error) {
					ran.Add(1)
					if x == at {
						cancel(errBoom)
						stopped.Store(true)
					}
					if stopped.Load() && x%7 == 0 {
						<-c.Done() // ends with the call
					}
					return x, nil
				}, o...)
				requireStopped(t, err, errBoom, ran.Load() == int64(n), "MapErr, cancel at %d, grain %d", at, grain)
				cancel(nil)

				stopped.Store(false)
				ran.Store(0)
				ctx, cancel = context.WithCancelCause(context.Background())
				err = par.ForEachErr(ctx, in, func(c context.Context, x int) error {
					ran.Add(1)
					if x == at {
						cancel(errBoom)
						stopped.Store(true)
					}
					if stopped.Load() && x%7 == 0 {
						<-c.Done()
					}
					return nil
				}, o...)
				requireStopped(t, err, errBoom, ran.Load() == int64(n), "ForEachErr, cancel at %d, grain %d", at, grain)
				cancel(nil)
			}

			// Stopped by an error of f, while other calls wait on ctx'.
			var failed atomic.Bool
			err = par.ForEachErr(context.Background(), in, func(c context.Context, x int) error {
				if x == n/3 {
					failed.Store(true)
					return errBoom
				}
				if failed.Load() && x%7 == 0 {
					<-c.Done()
				}
				return nil
			}, o...)
			require.ErrorIs(t, err, errBoom)

			// A deadline that passes during the call.
			ctx, cancelT := context.WithTimeout(context.Background(), time.Millisecond)
			err = par.ForEachErr(ctx, in, func(c context.Context, x int) error {
				if x%97 == 0 {
					<-c.Done()
				}
				return nil
			}, o...)
			cancelT()
			require.ErrorIs(t, err, context.DeadlineExceeded)

			// A context that ends after the call: its AfterFunc must be
			// gone with the call.
			ctx, cancel = context.WithCancel(context.Background())
			require.NoError(t, par.ForEachErr(ctx, in, func(context.Context, int) error { return nil }, o...))
			cancel()
		}
	})
}

// requireStopped requires err to be want, or nil if f ran on every element:
// a cancellation that came from inside f while the elements after it had
// already run stops nothing, and the contract of MapErr then gives nil.
func requireStopped(t *testing.T, err, want error, ranAll bool, msg string, args ...any) {
	t.Helper()
	if ranAll && err == nil {
		return
	}
	require.ErrorIs(t, err, want, append([]any{msg}, args...)...)
}

func TestLeakScopePanic(t *testing.T) {
	onEachPool(t, func(t *testing.T, p *par.Pool, opts []par.Option) {
		shapes := []struct {
			name string
			body func(s *par.Spawner, w *par.Worker, v any)
		}{
			{"body", func(s *par.Spawner, w *par.Worker, v any) {
				for range 100 {
					s.Spawn(w, func(*par.Worker) {})
					s.Go(func(*par.Worker) {})
				}
				fail(v)
			}},
			{"Spawn", func(s *par.Spawner, w *par.Worker, v any) {
				var spawn func(w *par.Worker, d int)
				spawn = func(w *par.Worker, d int) {
					if d == 0 {
						return
					}
					if d == 3 {
						fail(v)
					}
					s.Spawn(w, func(w *par.Worker) { spawn(w, d-1) })
					s.Spawn(w, func(w *par.Worker) { spawn(w, d-1) })
				}
				spawn(w, 8)
			}},
			{"Go", func(s *par.Spawner, _ *par.Worker, v any) {
				var started atomic.Int32
				for i := range 1000 {
					s.Go(func(*par.Worker) {
						started.Add(1)
						if i == 500 {
							fail(v)
						}
					})
				}
			}},
		}
		for _, sh := range shapes {
			want := &boomError{where: "Scope/" + sh.name}
			got := panicValue(t, func() {
				par.Scope(func(s *par.Spawner, w *par.Worker) { sh.body(s, w, want) }, opts...)
			})
			require.Same(t, want, got, sh.name)
			how, _ := runOn(func() {
				par.Scope(func(s *par.Spawner, w *par.Worker) { sh.body(s, w, nil) }, opts...)
			})
			require.Equal(t, goexited, how, sh.name)
		}
	})
}

// TestLeakScopeErr: ScopeErr leaves nothing behind, whether it succeeds,
// fails, is cancelled, panics or ends by runtime.Goexit, with and without a
// bound, and under a parent of a type the context package does not know
// (watched by a goroutine until the scope's context is cancelled). Tasks
// that wait on the scope's context do so only where the body itself stops
// the scope after spawning them: every goroutine of a pool, and every place
// of a bound, may be taken by a waiting task.
func TestLeakScopeErr(t *testing.T) {
	errBoom := errors.New("boom")
	onEachPool(t, func(t *testing.T, p *par.Pool, opts []par.Option) {
		// tree spawns 2^7-2 tasks, each of which visit decides the fate of,
		// and then calls end, which decides the body's.
		tree := func(limit int, visit func(ctx context.Context, id int) error, end func() error) func(context.Context, *par.Group, *par.Worker) error {
			return func(_ context.Context, g *par.Group, w *par.Worker) error {
				if limit > 0 {
					g.SetLimit(limit)
				}
				binTree(g, w, 1, 6, visit)
				return end()
			}
		}
		waitOn := func(every int) func(ctx context.Context, id int) error {
			return func(ctx context.Context, id int) error {
				if id%every == 0 {
					<-ctx.Done()
					return ctx.Err()
				}
				return nil
			}
		}
		succeed := func() error { return nil }
		for _, limit := range []int{0, 1, 3} {
			require.NoError(t, par.ScopeErr(context.Background(), tree(limit, func(context.Context, int) error { return nil }, succeed), opts...))

			// A failure deep in the tree, and one of the body while tasks
			// wait on the context.
			err := par.ScopeErr(context.Background(), tree(limit, func(_ context.Context, id int) error {
				if id == 40 {
					return errBoom
				}
				return nil
			}, succeed), opts...)
			require.Equal(t, errBoom, err)
			err = par.ScopeErr(context.Background(), tree(limit, waitOn(3), func() error { return errBoom }), opts...)
			require.Equal(t, errBoom, err)

			// The parent cancelled by the body while tasks wait.
			ctx, cancel := context.WithCancelCause(context.Background())
			err = par.ScopeErr(ctx, tree(limit, waitOn(4), func() error { cancel(errBoom); return nil }), opts...)
			cancel(nil)
			require.Equal(t, errBoom, err)

			// A parent the context package does not know, ending or not.
			live := newChanCtx()
			require.NoError(t, par.ScopeErr(live, tree(limit, func(context.Context, int) error { return nil }, succeed), opts...))
			err = par.ScopeErr(live, tree(limit, waitOn(5), func() error { live.cancel(); return nil }), opts...)
			require.Equal(t, context.Canceled, err)

			// A panic deep in the tree and one of the body while tasks
			// wait, and a runtime.Goexit in a task.
			want := &boomError{where: "ScopeErr"}
			got := panicValue(t, func() {
				_ = par.ScopeErr(context.Background(), tree(limit, func(_ context.Context, id int) error {
					if id == 70 {
						panic(want)
					}
					return nil
				}, succeed), opts...)
			})
			require.Same(t, want, got)
			got = panicValue(t, func() {
				_ = par.ScopeErr(context.Background(), tree(limit, waitOn(2), func() error { panic(want) }), opts...)
			})
			require.Same(t, want, got)
			how, _ := runOn(func() {
				_ = par.ScopeErr(context.Background(), tree(limit, func(_ context.Context, id int) error {
					if id == 33 {
						runtime.Goexit()
					}
					return nil
				}, succeed), opts...)
			})
			require.Equal(t, goexited, how)
		}
	})
}

// TestLeakIgnoreIsNarrow makes sure the ignore of idle workers hides nothing
// else: a task stuck on a worker of the default pool, and the caller waiting
// for it, are reported until the task returns.
func TestLeakIgnoreIsNarrow(t *testing.T) {
	warmDefault()
	started, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		par.Scope(func(s *par.Spawner, _ *par.Worker) {
			s.Go(func(*par.Worker) {
				close(started)
				<-release
			})
		})
	}()
	<-started
	err := leakcheck.Find(ignoreIdleWorkers)
	close(release)
	<-done
	require.Error(t, err, "a task blocked on a worker must be reported")
	require.Contains(t, err.Error(), "TestLeakIgnoreIsNarrow")
	leakcheck.VerifyNone(t, ignoreIdleWorkers)
}
