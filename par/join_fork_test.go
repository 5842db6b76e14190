package par_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Forks of a recursion: a recursion records its first par.RecordDepth levels
// of forks; past them, a fork nobody asked to promote runs its halves as
// plain calls, the second first, and its panics and runtime.Goexit follow
// from that order.

// onBusyPool calls f with a handle on a pool of one worker that is held busy,
// so that no fork is stolen or promoted for a thief.
func onBusyPool(t *testing.T, f func(p *par.Pool, w *par.Worker)) {
	t.Helper()
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	stolen, release, held := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(held)
		// Join's second half is stealable at once, and its first blocks.
		par.Join(func() { <-release }, func() { close(stolen); <-release }, par.OnPool(p))
	}()
	require.True(t, await(stolen), "setup: the worker did not take the blocking half")
	defer func() { close(release); <-held }()
	par.Do(func(w *par.Worker) { f(p, w) }, par.OnPool(p))
}

// onPlainForks calls f with a handle whose recursion already holds
// RecordDepth records, on a busy pool: f's forks are plain calls.
func onPlainForks(t *testing.T, f func(w *par.Worker)) {
	t.Helper()
	onBusyPool(t, func(_ *par.Pool, w *par.Worker) { nestJoin2(w, par.RecordDepth, f) })
}

func nestJoin2(w *par.Worker, depth int, f func(w *par.Worker)) {
	if depth == 0 {
		f(w)
		return
	}
	par.Join2(w, func(w *par.Worker, d int) int { nestJoin2(w, d, f); return 0 }, depth-1,
		func(*par.Worker, int) int { return 0 }, 0)
}

// A fork runs fb and then fa on its caller, and returns both results in
// place, whether it records fa or makes plain calls.
func TestJoin2RunsSecondFirst(t *testing.T) {
	paths := map[string]func(t *testing.T, f func(w *par.Worker)){
		"recorded": func(t *testing.T, f func(w *par.Worker)) {
			onBusyPool(t, func(_ *par.Pool, w *par.Worker) { f(w) })
		},
		"plain": onPlainForks,
	}
	for path, on := range paths {
		t.Run(path, func(t *testing.T) {
			on(t, func(w *par.Worker) {
				var order []string
				x, y := par.Join2(w,
					func(_ *par.Worker, a int) int { order = append(order, "fa"); return a * 2 },
					21,
					func(_ *par.Worker, b string) string { order = append(order, "fb"); return b + "!" },
					"hi")
				require.Equal(t, 42, x)
				require.Equal(t, "hi!", y)
				require.Equal(t, []string{"fb", "fa"}, order)
			})
		})
	}
}

// Panics in a fork reach its caller with their value, whichever half
// panics and whatever path the fork took; the forks go on after them.
func TestJoin2Panics(t *testing.T) {
	type join func(w *par.Worker, a, b func())
	forms := map[string]join{
		"Join2": func(w *par.Worker, a, b func()) {
			par.Join2(w, func(*par.Worker, int) int { a(); return 0 }, 0, func(*par.Worker, int) int { b(); return 0 }, 0)
		},
		"Worker.Join": func(w *par.Worker, a, b func()) {
			w.Join(func(*par.Worker) { a() }, func(*par.Worker) { b() })
		},
	}
	paths := map[string]func(t *testing.T, f func(w *par.Worker)){
		"recorded": func(t *testing.T, f func(w *par.Worker)) {
			onBusyPool(t, func(_ *par.Pool, w *par.Worker) { f(w) })
		},
		"plain": onPlainForks,
	}
	for name, j := range forms {
		for path, on := range paths {
			t.Run(name+"/"+path, func(t *testing.T) {
				on(t, func(w *par.Worker) {
					require.PanicsWithValue(t, "b", func() { j(w, func() {}, func() { panic("b") }) })
					require.PanicsWithValue(t, "a", func() { j(w, func() { panic("a") }, func() {}) })
					v := func() (v any) { // on w's own goroutine: a handle is its goroutine's
						defer func() { v = recover() }()
						j(w, func() { panic("a") }, func() { panic("b") })
						return nil
					}()
					require.Contains(t, []any{"a", "b"}, v)
					ok := 0
					j(w, func() { ok++ }, func() { ok++ })
					require.Equal(t, 2, ok, "forks go on after the panics")
				})
			})
		}
	}
}

// A panic in fb skips fa, which had not started, whether the fork recorded
// fa or makes plain calls.
func TestJoin2PanicSkipsTheHalfNotStarted(t *testing.T) {
	try := func(w *par.Worker) bool {
		ranA := false
		require.PanicsWithValue(t, "b", func() {
			par.Join2(w, func(*par.Worker, int) int { ranA = true; return 0 }, 0,
				func(*par.Worker, int) int { panic("b") }, 0)
		})
		return ranA
	}
	onPlainForks(t, func(w *par.Worker) { require.False(t, try(w), "fa ran after fb panicked in a plain fork") })
	onBusyPool(t, func(_ *par.Pool, w *par.Worker) {
		require.False(t, try(w), "fa ran after fb panicked in a recorded fork")
	})
}

// runtime.Goexit in the second half of a plain fork ends the goroutine
// without running the first half, and leaves the pool usable.
func TestJoin2PlainGoexit(t *testing.T) {
	onBusyPool(t, func(p *par.Pool, _ *par.Worker) {
		ranA := false
		done := make(chan struct{})
		go func() {
			defer close(done)
			par.Do(func(w *par.Worker) {
				nestJoin2(w, par.RecordDepth, func(w *par.Worker) {
					par.Join2(w, func(*par.Worker, int) int { ranA = true; return 0 }, 0,
						func(*par.Worker, int) int { runtime.Goexit(); return 0 }, 0)
				})
			}, par.OnPool(p))
		}()
		require.True(t, await(done))
		require.False(t, ranA)
		var f int
		par.Do(func(w *par.Worker) { f = fib(w, 15) }, par.OnPool(p))
		require.Equal(t, 610, f)
	})
}

// A list walked by recursion, the rest first and the element second: each
// level does its element before it goes down, recorded or not, so that the
// rest of the walk is what a promotion hands over, and no element waits
// hidden on the stack until the walk unwinds.
func TestJoinSpineDoesItsWorkOnTheWayDown(t *testing.T) {
	onBusyPool(t, func(_ *par.Pool, w *par.Worker) {
		const n = par.RecordDepth + 5
		var done []int
		var walk func(w *par.Worker, i int)
		walk = func(w *par.Worker, i int) {
			if i == n {
				return
			}
			w.Join(func(w *par.Worker) { walk(w, i+1) }, func(*par.Worker) { done = append(done, i) })
		}
		walk(w, 0)
		var want []int
		for i := range n {
			want = append(want, i) // on the way down
		}
		require.Equal(t, want, done)
	})
}

// A recorded fork whose fb keeps forking is promoted for an idle worker:
// its fa runs while its fb still runs. On one processor a fork is never
// promoted (TestJoin2OnOneProcessorRunsOnItsCaller).
func TestJoin2PromotesForAnIdleWorker(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("on one processor nothing is promoted: a thief could only run in its forker's place")
	}
	for _, workers := range []int{1, 3} {
		p := par.NewPool(par.Workers(workers))
		for range 5 {
			started := make(chan struct{})
			var during bool
			par.Do(func(w *par.Worker) {
				par.Join2(w, func(*par.Worker, int) int { close(started); return 0 }, 0,
					func(w *par.Worker, _ int) int {
						during = spinUntil(w, started) // forks while it waits
						return 0
					}, 0)
			}, par.OnPool(p))
			require.True(t, during, "fa did not start while fb forked and waited")
		}
		require.Positive(t, quietStats(p).Total().Promoted)
		p.Close()
	}
}

// On one processor a recursion's forks are plain calls on its caller, fb
// and then fa, however long fb forks and whatever workers are idle: a
// thief could only run in the forker's place, and its wake-up and the join
// would cost time. Nothing is promoted.
func TestJoin2OnOneProcessorRunsOnItsCaller(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, workers := range []int{1, 3} {
		p := par.NewPool(par.Workers(workers))
		for range 5 {
			caller := goid()
			var order []string
			var faOn uint64
			par.Do(func(w *par.Worker) {
				par.Join2(w, func(*par.Worker, int) int {
					order = append(order, "fa")
					faOn = goid()
					return 0
				}, 0, func(w *par.Worker, _ int) int {
					for range 100 {
						w.Join(func(*par.Worker) {}, func(*par.Worker) {})
						runtime.Gosched() // the workers run, and find nothing
					}
					order = append(order, "fb")
					return 0
				}, 0)
			}, par.OnPool(p))
			require.Equal(t, []string{"fb", "fa"}, order)
			require.Equal(t, caller, faOn, "fa ran on another goroutine")
		}
		require.Zero(t, quietStats(p).Total().Promoted)
		p.Close()
	}
}
