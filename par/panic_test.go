package par_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Panics: a panic in any function of any call reaches the caller with its
// original value once every started piece has finished, runtime.Goexit ends
// the calling goroutine, the pieces not started are skipped, and the pool
// stays usable.

// boomError is a custom error type: a panic with a *boomError must reach the
// caller as the very same pointer.
type boomError struct{ where string }

func (e *boomError) Error() string { return "boom at " + e.where }

// panicCall is a call whose callback panics with v at the element at, or
// calls runtime.Goexit instead when v is nil.
type panicCall struct {
	name string
	call func(n, at int, v any, opts []par.Option)
}

// fail panics with v, or ends the goroutine if v is nil.
func fail(v any) {
	if v == nil {
		runtime.Goexit()
	}
	panic(v)
}

// failAt returns an element function that fails with v (as fail does) at
// element at, and otherwise returns ret(i).
func failAt[R any](at int, v any, ret func(i int) R) func(int) R {
	return func(i int) R {
		if i == at {
			fail(v)
		}
		return ret(i)
	}
}

// failOn returns a combine or comparison function that fails with v when
// either operand is at, and otherwise returns ret(a, b).
func failOn(at int, v any, ret func(a, b int) int) func(a, b int) int {
	return func(a, b int) int {
		if a == at || b == at {
			fail(v)
		}
		return ret(a, b)
	}
}

var panicCalls = []panicCall{
	{"Map", func(n, at int, v any, opts []par.Option) {
		par.Map(indices(n), failAt(at, v, func(i int) int { return i }), opts...)
	}},
	{"ForEach", func(n, at int, v any, opts []par.Option) {
		f := failAt(at, v, func(int) bool { return true })
		par.ForEach(indices(n), func(i int) { f(i) }, opts...)
	}},
	{"For", func(n, at int, v any, opts []par.Option) {
		f := failAt(at, v, func(int) bool { return true })
		par.For(n, func(i int) { f(i) }, opts...)
	}},
	{"ForRange", func(n, at int, v any, opts []par.Option) {
		par.ForRange(n, func(lo, hi int) {
			if lo <= at && at < hi {
				fail(v)
			}
		}, opts...)
	}},
	{"Reduce", func(n, at int, v any, opts []par.Option) {
		par.Reduce(indices(n), -1, failOn(at, v, func(a, b int) int { return max(a, b) }), opts...)
	}},
	{"MapReduce", func(n, at int, v any, opts []par.Option) {
		par.MapReduce(indices(n), failAt(at, v, func(i int) int { return i }), 0, func(a, b int) int { return a + b }, opts...)
	}},
	{"Filter", func(n, at int, v any, opts []par.Option) {
		par.Filter(indices(n), failAt(at, v, func(i int) bool { return i%2 == 0 }), opts...)
	}},
	{"Count", func(n, at int, v any, opts []par.Option) {
		par.Count(indices(n), failAt(at, v, func(int) bool { return true }), opts...)
	}},
	{"FindIndex", func(n, at int, v any, opts []par.Option) {
		par.FindIndex(indices(n), failAt(at, v, func(int) bool { return false }), opts...)
	}},
	{"Any", func(n, at int, v any, opts []par.Option) {
		par.Any(indices(n), failAt(at, v, func(int) bool { return false }), opts...)
	}},
	{"MinFunc", func(n, at int, v any, opts []par.Option) {
		par.MinFunc(indices(n), failOn(at, v, func(a, b int) int { return a - b }), opts...)
	}},
	{"ScopeErr", func(n, at int, v any, opts []par.Option) {
		// A task per range of 16 elements, found by halving, as a tree walk
		// finds its tasks.
		f := failAt(at, v, func(int) error { return nil })
		var span func(g *par.Group, w *par.Worker, lo, hi int) error
		span = func(g *par.Group, w *par.Worker, lo, hi int) error {
			for hi-lo > 16 {
				mid, end := lo+(hi-lo)/2, hi
				g.Spawn(w, func(_ context.Context, w *par.Worker) error { return span(g, w, mid, end) })
				hi = mid
			}
			for i := lo; i < hi; i++ {
				if err := f(i); err != nil {
					return err
				}
			}
			return nil
		}
		_ = par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
			return span(g, w, 0, n)
		}, opts...)
	}},
}

// requireUsable checks that p (nil: the default pool) still runs calls.
func requireUsable(t *testing.T, p *par.Pool) {
	t.Helper()
	in := indices(bigN() / 10)
	require.Equal(t, len(in)*(len(in)-1)/2, par.Sum(in, poolOpts(p)...), "pool after the panic")
	calls := make(counts, 1000)
	par.For(len(calls), func(i int) { calls[i].Add(1) }, append(poolOpts(p), par.WithGrain(1))...)
	requireOnce(t, calls, "f(i) after the panic, for i =")
}

// panicLen is the input length of the panic tests: long enough that pieces
// run on several workers.
func panicLen() int {
	if !full() {
		return 2000
	}
	return 20_000
}

// panicPositions are where in n elements a callback fails: the front, the
// middle and the end, in pieces that run on the caller and on thieves.
func panicPositions(n int) []int { return []int{0, n / 2, n - 1} }

// eachPanicCall runs check as a subtest for every call of panicCalls on
// every test pool, adaptive and with a grain of 1, and then requires the pool
// to be usable.
func eachPanicCall(t *testing.T, check func(t *testing.T, pc panicCall, n int, opts []par.Option)) {
	n := panicLen()
	for _, p := range testPools(t) {
		for _, v := range []variant{{name: "adaptive"}, {name: "grain1", opts: []par.Option{par.WithGrain(1)}}} {
			opts := append(append([]par.Option(nil), v.opts...), poolOpts(p)...)
			for _, pc := range panicCalls {
				t.Run(fmt.Sprintf("%s/%s/%s", poolName(p), v.name, pc.name), func(t *testing.T) {
					check(t, pc, n, opts)
					requireUsable(t, p)
				})
			}
		}
	}
}

// TestPanicReachesCaller: a panic in a function of a call reaches the caller
// with its value, the very pointer for a pointer, wherever it happens.
func TestPanicReachesCaller(t *testing.T) {
	eachPanicCall(t, func(t *testing.T, pc panicCall, n int, opts []par.Option) {
		for _, at := range panicPositions(n) {
			want := &boomError{where: fmt.Sprintf("%s[%d]", pc.name, at)}
			got := panicValue(t, func() { pc.call(n, at, want, opts) })
			require.Same(t, want, got, "the panic value must reach the caller unchanged")

			// A panic with a non-pointer value, compared by value.
			got = panicValue(t, func() { pc.call(n, at, fmt.Sprint(at), opts) })
			require.Equal(t, fmt.Sprint(at), got)
		}
	})
}

// TestGoexitEndsCaller: runtime.Goexit in a function of a call ends the
// calling goroutine, wherever it happens.
func TestGoexitEndsCaller(t *testing.T) {
	eachPanicCall(t, func(t *testing.T, pc panicCall, n int, opts []par.Option) {
		for _, at := range panicPositions(n) {
			how, _ := runOn(func() { pc.call(n, at, nil, opts) })
			require.Equal(t, goexited, how, "runtime.Goexit at %d must end the calling goroutine", at)
		}
	})
}

// TestGoexitWaitsForStartedTasks: a scope whose body, or a task its caller
// runs while it waits, calls runtime.Goexit ends the calling goroutine only
// after every task that had started has returned, as a panic does. The slow
// task runs on the pool's one worker while the caller goes on.
func TestGoexitWaitsForStartedTasks(t *testing.T) {
	type spawn func(f func())
	scopes := map[string]func(opts []par.Option, body func(spawn)){
		"Scope": func(opts []par.Option, body func(spawn)) {
			par.Scope(func(s *par.Spawner, w *par.Worker) {
				body(func(f func()) { s.Spawn(w, func(*par.Worker) { f() }) })
			}, opts...)
		},
		"ScopeErr": func(opts []par.Option, body func(spawn)) {
			_ = par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
				body(func(f func()) { g.Spawn(w, func(context.Context, *par.Worker) error { f(); return nil }) })
				return nil
			}, opts...)
		},
	}
	for name, scope := range scopes {
		for _, where := range []string{"body", "task in the wait"} {
			t.Run(name+"/"+where, func(t *testing.T) {
				p := par.NewPool(par.Workers(1))
				defer p.Close()
				var finished atomic.Bool
				how, _ := runOn(func() {
					scope([]par.Option{par.OnPool(p)}, func(spawn spawn) {
						started := make(chan struct{})
						spawn(func() {
							close(started)
							time.Sleep(5 * time.Millisecond)
							finished.Store(true)
						})
						<-started // the worker stole it: the caller is in the body
						if where == "body" {
							runtime.Goexit()
						}
						spawn(runtime.Goexit) // popped by the caller as it waits
					})
				})
				require.Equal(t, goexited, how)
				require.True(t, finished.Load(), "the goroutine ended while a started task still ran")
			})
		}
	}
}

// joinShapes are the fork-join calls whose halves fail: leaf selects the
// leaf of a complete binary recursion of the given depth that fails, and v
// is as for panicCall.
var joinShapes = []struct {
	name string
	run  func(p *par.Pool, depth, leaf int, v any)
}{
	{"Join", func(p *par.Pool, depth, leaf int, v any) {
		var rec func(d, id int)
		rec = func(d, id int) {
			if d == 0 {
				if id == leaf {
					fail(v)
				}
				return
			}
			par.Join(func() { rec(d-1, 2*id) }, func() { rec(d-1, 2*id+1) }, poolOpts(p)...)
		}
		rec(depth, 0)
	}},
	{"Worker.Join", func(p *par.Pool, depth, leaf int, v any) {
		var rec func(w *par.Worker, d, id int)
		rec = func(w *par.Worker, d, id int) {
			if d == 0 {
				if id == leaf {
					fail(v)
				}
				return
			}
			w.Join(func(w *par.Worker) { rec(w, d-1, 2*id) }, func(w *par.Worker) { rec(w, d-1, 2*id+1) })
		}
		par.Do(func(w *par.Worker) { rec(w, depth, 0) }, poolOpts(p)...)
	}},
	{"Join2", func(p *par.Pool, depth, leaf int, v any) {
		type arg struct{ d, id int }
		var rec func(w *par.Worker, a arg) int
		rec = func(w *par.Worker, a arg) int {
			if a.d == 0 {
				if a.id == leaf {
					fail(v)
				}
				return 1
			}
			x, y := par.Join2(w, rec, arg{a.d - 1, 2 * a.id}, rec, arg{a.d - 1, 2*a.id + 1})
			return x + y
		}
		par.Do(func(w *par.Worker) { rec(w, arg{depth, 0}) }, poolOpts(p)...)
	}},
}

func joinDepths() []int {
	if !full() {
		return []int{1, 2, 5, 9}
	}
	return []int{1, 2, 5, 12}
}

func TestJoinPanicAtAnyDepth(t *testing.T) {
	for _, p := range testPools(t) {
		for _, js := range joinShapes {
			t.Run(poolName(p)+"/"+js.name, func(t *testing.T) {
				for _, depth := range joinDepths() {
					leaves := 1 << depth
					// The first leaf fails in the first half at every level,
					// the last in the second half, the others in both.
					for _, leaf := range []int{0, leaves - 1, leaves / 3, leaves / 2} {
						want := &boomError{where: fmt.Sprintf("depth %d leaf %d", depth, leaf)}
						got := panicValue(t, func() { js.run(p, depth, leaf, want) })
						require.Same(t, want, got)
						how, _ := runOn(func() { js.run(p, depth, leaf, nil) })
						require.Equal(t, goexited, how, "Goexit at depth %d leaf %d", depth, leaf)
					}
				}
				requireUsable(t, p)
			})
		}
	}
}

// TestJoinBothPanicFirstWins: when both halves panic, the value of the half
// that ran first reaches the caller, whether or not the other was stolen:
// Join's a, and the fb of Join2 and Worker.Join, whose fa is then skipped.
func TestJoinBothPanicFirstWins(t *testing.T) {
	for _, p := range testPools(t) {
		t.Run(poolName(p), func(t *testing.T) {
			for range 50 {
				a, b := &boomError{"a"}, &boomError{"b"}
				got := panicValue(t, func() { par.Join(func() { panic(a) }, func() { panic(b) }, poolOpts(p)...) })
				require.Same(t, a, got, "Join")
				got = panicValue(t, func() {
					par.Do(func(w *par.Worker) {
						w.Join(func(*par.Worker) { panic(a) }, func(*par.Worker) { panic(b) })
					}, poolOpts(p)...)
				})
				require.Same(t, b, got, "Worker.Join: b runs first, and a, not started, is skipped")
				got = panicValue(t, func() {
					par.Do(func(w *par.Worker) {
						par.Join2(w, func(*par.Worker, int) int { panic(a) }, 0, func(*par.Worker, int) int { panic(b) }, 0)
					}, poolOpts(p)...)
				})
				require.Same(t, b, got, "Join2: fb runs first, and fa, not started, is skipped")
			}
			requireUsable(t, p)
		})
	}
}

// TestPanicInNestedCall: a panic in a call made from inside another call's
// callback reaches the outer caller.
func TestPanicInNestedCall(t *testing.T) {
	pools := testPools(t)
	for _, p := range pools {
		t.Run(poolName(p), func(t *testing.T) {
			want := &boomError{"nested"}
			got := panicValue(t, func() {
				par.ForEach(indices(20), func(i int) {
					par.Map(indices(100), func(j int) int {
						par.Join(func() {}, func() {
							if i == 13 && j == 77 {
								panic(want)
							}
						}, poolOpts(pools[len(pools)-1])...)
						return j
					}, poolOpts(p)...)
				}, append(poolOpts(p), par.WithGrain(1))...)
			})
			require.Same(t, want, got)
			requireUsable(t, p)
		})
	}
}

// TestPanicSkipsRest: once a piece panics, pieces not yet started are
// skipped, so a panic at the front of a long range does not run all of it.
// The count is bounded loosely: pieces already running finish.
func TestPanicSkipsRest(t *testing.T) {
	const n = 1_000_000
	for _, p := range testPools(t) {
		t.Run(poolName(p), func(t *testing.T) {
			calls := make(counts, 1)
			panicValue(t, func() {
				par.For(n, func(i int) {
					// The first element to run panics, wherever it is: the
					// element at index 0 may wait for a core while the
					// workers of an oversubscribed pool run everything else.
					if calls[0].Add(1) == 1 {
						panic("first")
					}
				}, append(poolOpts(p), par.WithGrain(1000))...)
			})
			require.Less(t, calls[0].Load(), int32(n/2))
		})
	}
}

// TestMapReduceOpNeverSeesZero: once a callback of MapReduce (or Reduce,
// ReduceRange, ReduceSeq, pipe.Reduce) panics, op is never handed a value
// that identity, f and op did not make, so an op that cannot handle one
// cannot replace the original panic with its own: the caller gets f's value.
// It depends on timing, so the call repeats; on 2 cores the bug showed
// within a few rounds.
// Once caught (by TestTorture, case 0x886ed245d947f364 of master seed 1795321014801159146): pieces skipped after the panic returned the zero R, and the bridge combined them.
func TestMapReduceOpNeverSeesZero(t *testing.T) {
	p := par.NewPool(par.Workers(4))
	defer p.Close()
	type acc struct {
		made bool // set on every value identity, f or op makes
		n    int
	}
	in := indices(1 << 14)
	var zeroSeen atomic.Int64
	var where atomic.Pointer[string] // the stack of the first such call of op
	for round := range 2000 {
		orig := &boomError{where: "f"}
		got := panicValue(t, func() {
			par.MapReduce(in, func(i int) acc {
				if i == 1<<13+round%(1<<13) { // a piece in the second half, often stolen
					panic(orig)
				}
				return acc{true, 1}
			}, acc{made: true}, func(l, r acc) acc {
				if !l.made || !r.made {
					zeroSeen.Add(1)
					st := string(debug.Stack())
					where.CompareAndSwap(nil, &st)
					panic("op: given a value that identity, f and op never made")
				}
				return acc{true, l.n + r.n}
			}, par.OnPool(p), par.WithGrain(64))
		})
		if got != any(orig) {
			t.Logf("op called with a zero value from:\n%s", *where.Load())
		}
		require.Equal(t, any(orig), got, "round %d: the caller must get f's panic (op saw a zero value %d times so far)", round, zeroSeen.Load())
	}
	require.Zero(t, zeroSeen.Load(), "op was called with a zero value that identity, f and op never made")
}

// crashCaseEnv names the crash case that a re-executed test binary runs.
const crashCaseEnv = "WEFT_CRASH_CASE"

// crashValue is what the crash cases panic with.
const crashValue = "crash case: the user's function panicked"

// crashed is set just before crashHere panics, so that the caller's share of
// a crash case stops waiting for a worker to panic.
var crashed atomic.Bool

// crashHere is the user's function that panics in every crash case; the
// crash output must name it and the line of its panic.
func crashHere() {
	crashed.Store(true)
	panic(crashValue) // the line a crash must name
}

// goroutineID returns the calling goroutine's id, from its stack header.
func goroutineID() uint64 {
	var buf [64]byte
	s := strings.TrimPrefix(string(buf[:runtime.Stack(buf[:], false)]), "goroutine ")
	id, _ := strconv.ParseUint(s[:strings.IndexByte(s, ' ')], 10, 64)
	return id
}

// offCaller returns a function for the elements of a call made by the
// calling goroutine: on another goroutine (a worker) it crashes; on the
// caller it waits a while, so that the call hands pieces to the pool.
func offCaller() func() {
	caller := goroutineID()
	return func() {
		if crashed.Load() {
			return // on the caller: the rest of its share, quickly
		}
		if goroutineID() != caller {
			crashHere()
		}
		time.Sleep(time.Millisecond)
	}
}

// crashCases are programs that panic in crashHere and recover nowhere, on the
// caller's goroutine or on a worker, through each path that carries a panic.
var crashCases = map[string]func(opts []par.Option){
	"Map on the caller": func(opts []par.Option) {
		par.Map(indices(1000), func(i int) int { // element 0 runs in the caller's prefix
			if i == 0 {
				crashHere()
			}
			return i
		}, opts...)
	},
	"Scope body on the caller": func(opts []par.Option) {
		par.Scope(func(s *par.Spawner, w *par.Worker) {
			s.Spawn(w, func(*par.Worker) { time.Sleep(time.Millisecond) })
			crashHere() // held until the task has finished, then raised again
		}, opts...)
	},
	"ScopeErr task on a worker": func(opts []par.Option) {
		_ = par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, _ *par.Worker) error {
			g.Go(func(context.Context, *par.Worker) error { crashHere(); return nil })
			for !crashed.Load() { // the caller waits in the body: the task runs on a worker
				time.Sleep(time.Millisecond)
			}
			return nil
		}, opts...)
	},
	"Join on a worker": func(opts []par.Option) {
		started := make(chan struct{})
		par.Join(func() { <-started }, func() { close(started); crashHere() }, opts...)
	},
	"Worker.Join carried twice": func(opts []par.Option) {
		// b is stolen by the worker, which forks d; the caller, waiting for
		// b, steals d, which panics: the panic goes to the worker, which
		// raises it again in b, and from there back to the caller.
		par.Do(func(w *par.Worker) {
			bStarted, dStarted := make(chan struct{}), make(chan struct{})
			w.Join(func(*par.Worker) { <-bStarted }, func(w *par.Worker) {
				close(bStarted)
				w.Join(func(*par.Worker) { <-dStarted }, func(*par.Worker) { close(dStarted); crashHere() })
			})
		}, opts...)
	},
	"For on a worker": func(opts []par.Option) {
		f := offCaller()
		par.For(1000, func(int) { f() }, opts...)
	},
	"ForEachSeq batch on a worker": func(opts []par.Option) {
		f := offCaller()
		par.ForEachSeq(slices.Values(indices(1000)), func(int) { f() }, opts...)
	},
	"ForEachErr on a worker": func(opts []par.Option) {
		f := offCaller()
		_ = par.ForEachErr(context.Background(), indices(1000), func(context.Context, int) error { f(); return nil }, opts...)
	},
	"SortStableFunc on a worker": func(opts []par.Option) {
		caller := goroutineID()
		s := make([]int, 1<<14)
		for i := range s {
			s[i] = i * 7919 % len(s) // not presorted
		}
		waits := 0 // the caller's only
		par.SortStableFunc(s, func(a, b int) int {
			switch {
			case crashed.Load(): // the caller finishes its half before the panic is raised again
			case goroutineID() != caller:
				crashHere()
			case waits < 200:
				waits++
				time.Sleep(time.Millisecond)
			}
			return a - b
		}, opts...)
	},
}

// TestCrashPrintsWherePanicked runs each crash case in a child process (this
// test binary, re-executed) and requires its crash output to name crashHere
// and the file:line of its panic, whichever goroutine panicked, beside the
// original value. recover() keeps getting the original value alone
// (TestPanicReachesCaller).
func TestCrashPrintsWherePanicked(t *testing.T) {
	if name := os.Getenv(crashCaseEnv); name != "" {
		// One worker: it and the caller are the only participants.
		p := par.NewPool(par.Workers(1))
		go crashCases[name]([]par.Option{par.OnPool(p)}) // off the test's goroutine, which would recover it
		time.Sleep(time.Minute)
		os.Exit(3) // no crash
	}
	src, err := os.ReadFile("panic_test.go")
	require.NoError(t, err)
	line := 1 + bytes.Count(src[:bytes.Index(src, []byte("// the line a crash must name"))], []byte("\n"))
	site := fmt.Sprintf("par/panic_test.go:%d", line)
	for name := range crashCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrashPrintsWherePanicked$")
			cmd.Env = append(os.Environ(), crashCaseEnv+"="+name, "GOTRACEBACK=single")
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "the child must crash:\n%s", out)
			require.Equal(t, 2, exit.ExitCode(), "a crash exits with status 2:\n%s", out)
			require.Contains(t, string(out), "panic: "+crashValue, "the original value")
			require.Contains(t, string(out), "par_test.crashHere(", "the function that panicked")
			require.Contains(t, string(out), site, "the line that panicked")
		})
	}
}

// TestScopeErrPanicAfterError: a panic wins over an error recorded before it:
// the error stopped the scope, a task blocked on the scope's context then
// panics, and the panic reaches the caller. A task blocked on the context
// while another panics is woken by the cancellation the panic causes.
func TestScopeErrPanicAfterError(t *testing.T) {
	for _, p := range testPools(t) {
		t.Run(poolName(p), func(t *testing.T) {
			want := &boomError{where: "after the error"}
			got := panicValue(t, func() {
				_ = par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, _ *par.Worker) error {
					started := make(chan struct{})
					g.Go(func(ctx context.Context, _ *par.Worker) error {
						close(started)
						<-ctx.Done()
						panic(want)
					})
					g.Go(func(context.Context, *par.Worker) error {
						<-started // the panicking task cannot be skipped
						return errors.New("first")
					})
					return nil
				}, poolOpts(p)...)
			})
			require.Same(t, want, got)

			var woken atomic.Bool
			want = &boomError{where: "while a task waits"}
			got = panicValue(t, func() {
				_ = par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, _ *par.Worker) error {
					started := make(chan struct{})
					g.Go(func(ctx context.Context, _ *par.Worker) error {
						close(started)
						<-ctx.Done()
						woken.Store(context.Cause(ctx) != nil)
						return ctx.Err()
					})
					g.Go(func(context.Context, *par.Worker) error {
						<-started
						panic(want)
					})
					return nil
				}, poolOpts(p)...)
			})
			require.Same(t, want, got)
			require.True(t, woken.Load())
			requireUsable(t, p)
		})
	}
}
