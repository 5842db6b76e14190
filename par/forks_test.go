package par_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Worker.Forks: a recursion that tests it, forks with Join2 when it is true
// and calls itself directly, fb's half first, when it is false, schedules as
// with Join2 alone: the same forks are recorded and promoted, every node
// runs once, and panics reach the caller.

// fibForks is fib in Worker.Forks' form: W4 with direct calls while no fork
// is wanted.
func fibForks(w *par.Worker, n int) int {
	if n < 2 {
		return n
	}
	if w.Forks() {
		x, y := par.Join2(w, fibForks, n-1, fibForks, n-2)
		return x + y
	}
	y := fibForks(w, n-2)
	return fibForks(w, n-1) + y
}

// treeSumForks is treeSumJoin2 in Worker.Forks' form: W14.
func treeSumForks(w *par.Worker, n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	if w.Forks() {
		a, b := par.Join2(w, treeSumForks, n.left, treeSumForks, n.right)
		return n.v + a + b
	}
	b := treeSumForks(w, n.right)
	return n.v + treeSumForks(w, n.left) + b
}

// forksAt is treeSum (join_test.go) in Worker.Forks' form: it marks every
// node of the subtree at a and returns the sum of its indices.
func forksAt(w *par.Worker, a treeAt) int {
	if a.i < 0 {
		return 0
	}
	a.calls[a.i].Add(1)
	l, r := a, a
	l.i, r.i = a.t.left[a.i], a.t.right[a.i]
	if w.Forks() {
		x, y := par.Join2(w, forksAt, l, forksAt, r)
		return x + y + int(a.i)
	}
	y := forksAt(w, r)
	return forksAt(w, l) + y + int(a.i)
}

// TestForksRecordsAsJoin2: with nobody to steal, a recursion in Forks' form
// records the forks that Join2 alone records (Stats' Inline counts them),
// and Forks is true exactly at them: the first fork of each of the first
// par.RecordDepth levels (a young recursion's first path, split.Looks), or,
// on one processor, the first fork alone, which closes the gate for the
// rest. An ask of the heartbeat (a tree that took longer than a period)
// would record more; such a try is made again.
func TestForksRecordsAsJoin2(t *testing.T) {
	for _, procs := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			p, release, g1Done := busyPool(t)
			defer func() { close(release); <-g1Done }()
			root := makeTree(8)
			want := par.RecordDepth
			if procs == 1 {
				want = 0
			}
			inline := func(f func(w *par.Worker)) uint64 {
				before := p.Stats().Callers.Inline
				par.Do(f, par.OnPool(p))
				return p.Stats().Callers.Inline - before
			}
			var opened int
			var count func(w *par.Worker, n *treeNode) uint64
			count = func(w *par.Worker, n *treeNode) uint64 {
				if n == nil {
					return 0
				}
				if w.Forks() {
					opened++
					a, b := par.Join2(w, count, n.left, count, n.right)
					return n.v + a + b
				}
				b := count(w, n.right)
				return n.v + count(w, n.left) + b
			}
			var join2, forks uint64
			for range 5 {
				opened = 0
				join2 = inline(func(w *par.Worker) { sinkU = treeSumJoin2(w, root) })
				forks = inline(func(w *par.Worker) { sinkU = count(w, root) })
				if join2 == uint64(want) && forks == join2 && opened == max(want, 1) {
					break
				}
			}
			require.Equal(t, uint64(want), join2, "forks Join2 alone recorded")
			require.Equal(t, join2, forks, "forks recorded in Forks' form")
			require.Equal(t, max(want, 1), opened, "nodes where Forks was true")
		})
	}
}

// TestForksHoldsAnAsk: an ask opens the gate under a recursion that runs
// plain calls, and Forks stays true until a Join2 on the handle takes the
// ask, however deep the calls made meanwhile: only the handle's owner closes
// the gate, so the Join2 that follows a true Forks takes the slow path,
// where the promotion is decided, as Join2 alone would at that fork. Below
// the recorded levels that path closes the gate for the fork's halves; had
// Join2 made plain calls, fb would find the ask still there. (The pool's
// heartbeat asks too, once the recursion is a period old, and a promotion
// opens the gate to record the levels below it: a try that finds the gate
// open again is made anew.) The test sets the ask at the handle's address,
// where Join2 loads the gate, and the scheduler's look takes it: the gate
// Join2 loads is the scheduler's, without which no fork would record or
// promote.
func TestForksHoldsAnAsk(t *testing.T) {
	var deep func(w *par.Worker, n int) bool
	deep = func(w *par.Worker, n int) bool {
		if n == 0 {
			return w.Forks()
		}
		return deep(w, n-1)
	}
	try := func(w *par.Worker) bool {
		par.Ask(w)
		require.True(t, deep(w, 10), "an ask seen by Forks")
		require.True(t, w.Forks(), "an ask that no Join2 took")
		var inside bool
		x, y := par.Join2(w, func(w *par.Worker, a int) int { return a }, 1,
			func(w *par.Worker, b int) int { inside = w.Forks(); return b }, 2)
		require.Equal(t, [2]int{1, 2}, [2]int{x, y})
		return !inside
	}
	onBusyPool(t, func(_ *par.Pool, w *par.Worker) {
		taken := false
		for range 5 {
			if taken = plainFork(w, try); taken {
				break
			}
		}
		require.True(t, taken, "Join2 did not take the ask")
	})
}

// plainFork forks down, in Forks' form, to the first fork where Forks is
// false, and returns f's result there.
func plainFork(w *par.Worker, f func(w *par.Worker) bool) bool {
	if !w.Forks() {
		return f(w)
	}
	ok, _ := par.Join2(w, func(w *par.Worker, _ int) bool { return plainFork(w, f) }, 0,
		func(*par.Worker, int) bool { return false }, 0)
	return ok
}

// TestForksVisitsOnce: every node of a tree runs exactly once in Forks'
// form, on pools of one to eight workers at GOMAXPROCS 2 and 8, where
// thieves take promoted forks, and while another goroutine asks the
// caller's handle for work all along.
func TestForksVisitsOnce(t *testing.T) {
	n, depth := 100_000, 5_000
	if !full() {
		n, depth = 10_000, 1_000
	}
	trees := map[string]*tree{
		"random": randomTree(newRand(2), n),
		"chain":  chainTree(depth),
		"one":    chainTree(1),
		"empty":  chainTree(0),
	}
	for _, procs := range []int{2, 8} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for _, p := range testPools(t) {
				for name, tr := range trees {
					size := len(tr.left)
					t.Run(poolName(p)+"/"+name, func(t *testing.T) {
						calls := make(counts, size)
						var sum int
						par.Do(func(w *par.Worker) {
							stop := make(chan struct{})
							var asker sync.WaitGroup
							asker.Add(1)
							go func() { // an asker on another goroutine, as the heartbeat is
								defer asker.Done()
								for {
									select {
									case <-stop:
										return
									default:
										par.Ask(w)
										runtime.Gosched()
									}
								}
							}()
							defer func() { close(stop); asker.Wait() }()
							sum = forksAt(w, treeAt{tr, calls, tr.root})
						}, poolOpts(p)...)
						requireOnce(t, calls, "Forks' form: visits of node")
						require.Equal(t, size*(size-1)/2, sum)
					})
				}
			}
		})
	}
}

// TestForksPromotesForIdleWorkers: a recursion in Forks' form hands work to
// idle workers as Join2 alone does: a recorded fork's fa runs elsewhere
// while its fb recurses, and the pool counts promotions and steals, at
// GOMAXPROCS 2 and 8 with seven thieves.
func TestForksPromotesForIdleWorkers(t *testing.T) {
	for _, procs := range []int{2, 8} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			p := par.NewPool(par.Workers(7))
			defer p.Close()
			before := p.Stats().Total().Steals
			for range 5 {
				started := make(chan struct{})
				var during bool
				par.Do(func(w *par.Worker) {
					par.Join2(w, func(*par.Worker, int) int { close(started); return 0 }, 0,
						func(w *par.Worker, _ int) int {
							during = recurseUntil(w, started)
							return 0
						}, 0)
				}, par.OnPool(p))
				require.True(t, during, "fa did not start while fb recursed in Forks' form")
			}
			require.Positive(t, quietStats(p).Total().Promoted)
			var f int
			par.Do(func(w *par.Worker) { f = fibForks(w, 25) }, par.OnPool(p))
			require.Equal(t, 75025, f)
			require.Greater(t, quietStats(p).Total().Steals, before)
		})
	}
}

// recurseUntil runs a small recursion in Forks' form over and over until ch
// is closed, and reports whether it was (the bound only keeps a broken test
// from hanging).
func recurseUntil(w *par.Worker, ch <-chan struct{}) bool {
	root := makeTree(6)
	for range 1_000_000 {
		select {
		case <-ch:
			return true
		default:
		}
		sinkU = treeSumForks(w, root)
		runtime.Gosched()
	}
	return false
}

// TestForksPanics: a panic at any node of a recursion in Forks' form, on a
// recorded level or below them, reaches the caller with its value, on pools
// of one to eight workers, and the pool stays usable.
func TestForksPanics(t *testing.T) {
	const layers = 12
	var boom func(w *par.Worker, at [2]int) int // at: the node's depth and index in its layer
	var target [2]int
	boom = func(w *par.Worker, at [2]int) int {
		if at == target {
			panic(fmt.Sprint("node ", at))
		}
		if at[0] == layers {
			return 1
		}
		l, r := [2]int{at[0] + 1, 2 * at[1]}, [2]int{at[0] + 1, 2*at[1] + 1}
		if w.Forks() {
			x, y := par.Join2(w, boom, l, boom, r)
			return x + y
		}
		y := boom(w, r)
		return boom(w, l) + y
	}
	for _, p := range testPools(t) {
		for _, at := range [][2]int{{0, 0}, {2, 1}, {par.RecordDepth, 3}, {layers, 0}, {layers, 1<<layers - 1}, {layers - 3, 5}} {
			target = at
			v := panicValue(t, func() { par.Do(func(w *par.Worker) { boom(w, [2]int{}) }, poolOpts(p)...) })
			require.Equal(t, fmt.Sprint("node ", at), v, "%s", poolName(p))
		}
		requireUsable(t, p)
	}
}

// TestForksNilDeep: Forks on a nil handle panics with a message naming it,
// at any depth, as Join2 does for its arguments.
func TestForksNilDeep(t *testing.T) {
	var down func(w *par.Worker, n int) int
	down = func(w *par.Worker, n int) int {
		if n == 0 {
			w = nil
		}
		if w.Forks() {
			x, y := par.Join2(w, down, n-1, func(*par.Worker, int) int { return 1 }, 0)
			return x + y
		}
		return down(w, n-1) + 1
	}
	for _, workers := range []int{1, 2, 4} {
		p := par.NewPool(par.Workers(workers))
		for _, depth := range []int{0, 1, 4, 5, 40} {
			v := panicValue(t, func() { par.Do(func(w *par.Worker) { down(w, depth) }, par.OnPool(p)) })
			require.Equal(t, "par: Worker.Forks: w is nil", v, "workers=%d depth=%d", workers, depth)
		}
		requireUsable(t, p)
		p.Close()
	}
}
