package par_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Crowded forks: once a worker's deque holds par.CrowdLen unstolen forks, a
// fork runs its halves as plain calls (the second first), and its panics and
// runtime.Goexit follow the rules of a fork whose second half was stolen.

// onCrowdedWorker calls f with a handle whose deque holds par.CrowdLen unstolen
// forks: on a pool of one worker that is held busy, so nobody steals them.
func onCrowdedWorker(t *testing.T, f func(w *par.Worker)) {
	t.Helper()
	onCrowdedPool(t, func(_ *par.Pool, w *par.Worker) { f(w) })
}

func onCrowdedPool(t *testing.T, f func(p *par.Pool, w *par.Worker)) {
	t.Helper()
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	stolen, release, held := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(held)
		par.Do(func(w *par.Worker) {
			w.Join(func(*par.Worker) { <-release }, func(*par.Worker) { close(stolen); <-release })
		}, par.OnPool(p))
	}()
	require.True(t, await(stolen), "setup: the worker did not take the blocking half")
	defer func() { close(release); <-held }()
	par.Do(func(w *par.Worker) { nestJoin2(w, par.CrowdLen, func(w *par.Worker) { f(p, w) }) }, par.OnPool(p))
}

func nestJoin2(w *par.Worker, depth int, f func(w *par.Worker)) {
	if depth == 0 {
		f(w)
		return
	}
	par.Join2(w, func(w *par.Worker, d int) int { nestJoin2(w, d, f); return 0 }, depth-1,
		func(*par.Worker, int) int { return 0 }, 0)
}

// A crowded Join2 runs fb and then fa, and returns both results in place.
func TestJoin2Crowded(t *testing.T) {
	onCrowdedWorker(t, func(w *par.Worker) {
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
}

// Panics in a crowded Join2 or Worker.Join follow the rules of a fork whose
// second half was stolen: the first half still runs after a panic in the
// second, and its own panic wins.
func TestCrowdedPanics(t *testing.T) {
	type join func(w *par.Worker, a, b func())
	forms := map[string]join{
		"Join2": func(w *par.Worker, a, b func()) {
			par.Join2(w, func(*par.Worker, int) int { a(); return 0 }, 0, func(*par.Worker, int) int { b(); return 0 }, 0)
		},
		"Worker.Join": func(w *par.Worker, a, b func()) {
			w.Join(func(*par.Worker) { a() }, func(*par.Worker) { b() })
		},
	}
	for name, j := range forms {
		t.Run(name, func(t *testing.T) {
			onCrowdedWorker(t, func(w *par.Worker) {
				ranA := false
				require.PanicsWithValue(t, "b", func() { j(w, func() { ranA = true }, func() { panic("b") }) })
				require.True(t, ranA, "a runs although b panicked")
				require.PanicsWithValue(t, "a", func() { j(w, func() { panic("a") }, func() { panic("b") }) })
				require.PanicsWithValue(t, "a", func() { j(w, func() { panic("a") }, func() {}) })
				ok := 0
				j(w, func() { ok++ }, func() { ok++ })
				require.Equal(t, 2, ok, "forks go on after the panics")
			})
		})
	}
}

// runtime.Goexit in the second half of a crowded fork ends the goroutine
// without running the first half, and leaves the pool usable.
func TestCrowdedGoexit(t *testing.T) {
	onCrowdedPool(t, func(p *par.Pool, _ *par.Worker) {
		ranA := false
		done := make(chan struct{})
		go func() {
			defer close(done)
			par.Do(func(w *par.Worker) {
				nestJoin2(w, par.CrowdLen, func(w *par.Worker) {
					par.Join2(w, func(*par.Worker, int) int { ranA = true; return 0 }, 0,
						func(*par.Worker, int) int { runtime.Goexit(); return 0 }, 0)
				})
			}, par.OnPool(p))
		}()
		require.True(t, await(done))
		require.False(t, ranA)
	})
}

// Forks push their second halves until CrowdLen of them wait unstolen; from
// then on a fork runs both halves as plain calls, whatever its form.
func TestCrowdedForkRunsInline(t *testing.T) {
	onCrowdedPool(t, func(_ *par.Pool, w *par.Worker) {
		var nested func(w *par.Worker, depth int)
		pushed := -1
		nested = func(w *par.Worker, depth int) {
			if depth == 0 {
				pushed = par.UnstolenForks(w)
				return
			}
			w.Join(func(w *par.Worker) { nested(w, depth-1) }, func(*par.Worker) {})
		}
		nested(w, 3)
		require.Equal(t, par.CrowdLen, pushed, "forks past CrowdLen must not push")
	})
}

// A list walked by recursion, the rest first and the element second: past
// CrowdLen, each level must do its element before it goes down, or every
// element below would wait, unexposed, until the walk unwinds.
func TestCrowdedSpineDoesItsWorkOnTheWayDown(t *testing.T) {
	p, release, g1Done := busyPool(t)
	defer func() { close(release); <-g1Done }()
	const n = par.CrowdLen + 5
	var done []int
	var walk func(w *par.Worker, i int)
	walk = func(w *par.Worker, i int) {
		if i == n {
			return
		}
		w.Join(func(w *par.Worker) { walk(w, i+1) }, func(*par.Worker) { done = append(done, i) })
	}
	par.Do(func(w *par.Worker) { walk(w, 0) }, par.OnPool(p))
	var want []int
	for i := par.CrowdLen; i < n; i++ {
		want = append(want, i) // crowded: on the way down
	}
	for i := par.CrowdLen - 1; i >= 0; i-- {
		want = append(want, i) // pushed: popped back on the way up
	}
	require.Equal(t, want, done)
}
