package par_test

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Fork-join: Join, Worker.Join, Join2, Do and Scope run every half and task
// exactly once, from any goroutine, nested in other calls and on other pools,
// at GOMAXPROCS=1 as with many goroutines at once.

// Callbacks in these tests never call require or t.FailNow: those end the
// goroutine that calls them, which may be a worker of the pool (see
// TestGoexitEndsCaller). They count or record, and the test goroutine checks.

// poolOpts returns the options that direct a call at p (nil: the default pool).
func poolOpts(p *par.Pool) []par.Option {
	if p == nil {
		return nil
	}
	return []par.Option{par.OnPool(p)}
}

func TestJoinRunsBoth(t *testing.T) {
	for _, p := range testPools(t) {
		t.Run(poolName(p), func(t *testing.T) {
			for range 100 {
				var a, b int // plain writes: Join must order them before its return
				par.Join(func() { a++ }, func() { b++ }, poolOpts(p)...)
				require.Equal(t, 1, a)
				require.Equal(t, 1, b)
			}
		})
	}
}

func TestJoinInsideFor(t *testing.T) {
	for _, p := range testPools(t) {
		for _, v := range variants() {
			t.Run(poolName(p)+"/"+v.name, func(t *testing.T) {
				n := min(v.maxN, 10_000)
				opts := append(append([]par.Option(nil), v.opts...), poolOpts(p)...)
				left, right := make([]int, n), make([]int, n)
				par.For(n, func(i int) {
					par.Join(func() { left[i] = 2 * i }, func() { right[i] = 2*i + 1 }, opts...)
				}, opts...)
				for i := range n {
					if left[i] != 2*i || right[i] != 2*i+1 {
						t.Fatalf("index %d: left %d, right %d", i, left[i], right[i])
					}
				}
			})
		}
	}
}

// TestNestedMapInMapInForEach runs Map inside Map inside ForEach, with the
// inner calls directed at other pools than the outer ones.
func TestNestedMapInMapInForEach(t *testing.T) {
	pools := testPools(t)
	const outer, mid, inner = 40, 30, 200
	want := func(i, j int) int {
		s := 0
		for k := range inner {
			s += i*j + k
		}
		return s
	}
	for _, po := range pools {
		for _, pi := range pools {
			t.Run(poolName(po)+"/"+poolName(pi), func(t *testing.T) {
				got := make([][]int, outer)
				par.ForEach(indices(outer), func(i int) {
					got[i] = par.Map(indices(mid), func(j int) int {
						row := par.Map(indices(inner), func(k int) int { return i*j + k }, poolOpts(pi)...)
						return par.Sum(row, poolOpts(pi)...)
					}, poolOpts(po)...)
				}, append(poolOpts(po), par.WithGrain(1))...)
				for i := range outer {
					for j := range mid {
						require.Equal(t, want(i, j), got[i][j], "[%d][%d]", i, j)
					}
				}
			})
		}
	}
}

// fib forks with Join2 at every level, with top-level functions: nothing of
// a fork escapes to the heap (W4 without cutoff in the benchmarks).
func fib(w *par.Worker, n int) int {
	if n < 2 {
		return n
	}
	x, y := par.Join2(w, fib, n-1, fib, n-2)
	return x + y
}

// fibJoin is fib with Worker.Join and closures.
func fibJoin(w *par.Worker, n int) int {
	if n < 2 {
		return n
	}
	var x, y int
	w.Join(func(w *par.Worker) { x = fibJoin(w, n-1) }, func(w *par.Worker) { y = fibJoin(w, n-2) })
	return x + y
}

func TestFib(t *testing.T) {
	for _, p := range testPools(t) {
		t.Run(poolName(p), func(t *testing.T) {
			var a, b int
			par.Do(func(w *par.Worker) { a = fib(w, 20) }, poolOpts(p)...)
			par.Do(func(w *par.Worker) { b = fibJoin(w, 20) }, poolOpts(p)...)
			require.Equal(t, 6765, a, "Join2")
			require.Equal(t, 6765, b, "Worker.Join")
		})
	}
}

// tree is a binary tree of random shape, stored as child indices (-1: none).
type tree struct {
	left, right []int32
	root        int32
}

// randomTree builds a tree of n nodes whose shape is that of a random binary
// search tree: each node splits the rest at a random point.
func randomTree(r *rand.Rand, n int) *tree {
	t := &tree{left: make([]int32, n), right: make([]int32, n)}
	var build func(lo, hi int) int32
	build = func(lo, hi int) int32 {
		if lo >= hi {
			return -1
		}
		m := lo + r.IntN(hi-lo)
		t.left[m] = build(lo, m)
		t.right[m] = build(m+1, hi)
		return int32(m)
	}
	t.root = build(0, n)
	return t
}

// chainTree is a tree of n nodes, each the right child of the one before: as
// deep as a tree can be.
func chainTree(n int) *tree {
	t := &tree{left: make([]int32, n), right: make([]int32, n)}
	for i := range n {
		t.left[i] = -1
		t.right[i] = int32(i + 1)
	}
	if n > 0 {
		t.right[n-1] = -1
	}
	t.root = 0
	if n == 0 {
		t.root = -1
	}
	return t
}

// treeAt names a node of a tree and the counters to mark it in: the argument
// of a Join2 function.
type treeAt struct {
	t     *tree
	calls counts
	i     int32
}

// treeSum marks every node of the subtree at a and returns the sum of its
// indices.
func treeSum(w *par.Worker, a treeAt) int {
	if a.i < 0 {
		return 0
	}
	a.calls[a.i].Add(1)
	l, r := a, a
	l.i, r.i = a.t.left[a.i], a.t.right[a.i]
	x, y := par.Join2(w, treeSum, l, treeSum, r)
	return x + y + int(a.i)
}

func TestTreeVisitedOnce(t *testing.T) {
	n := 100_000
	depth := 10_000
	if !full() {
		n, depth = 10_000, 2_000
	}
	trees := map[string]*tree{
		"random": randomTree(newRand(1), n),
		"chain":  chainTree(depth),
		"one":    chainTree(1),
		"empty":  chainTree(0),
	}
	for _, p := range testPools(t) {
		for name, tr := range trees {
			size := len(tr.left)
			t.Run(poolName(p)+"/"+name, func(t *testing.T) {
				// Worker.Join with closures.
				calls := make(counts, size)
				var visit func(w *par.Worker, i int32)
				visit = func(w *par.Worker, i int32) {
					if i < 0 {
						return
					}
					calls[i].Add(1)
					w.Join(func(w *par.Worker) { visit(w, tr.left[i]) }, func(w *par.Worker) { visit(w, tr.right[i]) })
				}
				par.Do(func(w *par.Worker) { visit(w, tr.root) }, poolOpts(p)...)
				requireOnce(t, calls, "Worker.Join visits of node")

				// Join2 with a top-level function.
				calls = make(counts, size)
				var sum int
				par.Do(func(w *par.Worker) { sum = treeSum(w, treeAt{tr, calls, tr.root}) }, poolOpts(p)...)
				requireOnce(t, calls, "Join2 visits of node")
				require.Equal(t, size*(size-1)/2, sum)
			})
		}
	}
}

// TestManyGoroutines makes a thousand goroutines call Sum and Map at once, on
// the default pool and on a pool of two workers.
func TestManyGoroutines(t *testing.T) {
	const goroutines = 1000
	sumLen, mapLen := 20_000, 2_000
	if !full() {
		sumLen, mapLen = 2_000, 200
	}
	in := randInts(newRand(3), sumLen)
	want := 0
	for _, x := range in {
		want += x
	}
	p2 := par.NewPool(par.Workers(2))
	t.Cleanup(p2.Close)
	for _, p := range []*par.Pool{nil, p2} {
		t.Run(poolName(p), func(t *testing.T) {
			var wg sync.WaitGroup
			var bad atomic.Int32
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if par.Sum(in, poolOpts(p)...) != want {
						bad.Add(1)
					}
					got := par.Map(in[:mapLen], func(x int) int { return x ^ g }, poolOpts(p)...)
					for i, x := range in[:mapLen] {
						if got[i] != x^g {
							bad.Add(1)
							return
						}
					}
				}()
			}
			wg.Wait()
			require.Zero(t, bad.Load(), "goroutines that got a wrong result")
		})
	}
}

// TestGOMAXPROCS1 runs calls on the default pool at GOMAXPROCS=1, where the
// caller and the pool's one worker share a single processor, and checks that
// the default pool follows GOMAXPROCS down and back up.
func TestGOMAXPROCS1(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)

	in := randInts(newRand(4), 100_000)
	want := 0
	for _, x := range in {
		want += x
	}
	require.Equal(t, want, par.Sum(in))
	require.Equal(t, want, par.Reduce(in, 0, func(a, b int) int { return a + b }, par.WithGrain(100)))
	sq := par.Map(in, func(x int) int { return x * x }, par.WithGrain(1000))
	for i, x := range in {
		if sq[i] != x*x {
			t.Fatalf("Map(...)[%d] = %d, want %d", i, sq[i], x*x)
		}
	}
	calls := make(counts, 10_000)
	par.For(len(calls), func(i int) { calls[i].Add(1) }, par.WithGrain(1))
	requireOnce(t, calls, "f(i) for i =")
	var f int
	par.Do(func(w *par.Worker) { f = fib(w, 20) })
	require.Equal(t, 6765, f)
	evens := par.Filter(in, func(x int) bool { return x%2 == 0 }, par.WithMinLen(100))
	require.True(t, slices.Equal(slices.DeleteFunc(slices.Clone(in), func(x int) bool { return x%2 != 0 }), evens))
	require.Len(t, par.DefaultStats().Workers, 1, "the default pool follows GOMAXPROCS")

	runtime.GOMAXPROCS(prev)
	require.Equal(t, want, par.Sum(in))
	require.Len(t, par.DefaultStats().Workers, max(1, prev-1), "the default pool follows GOMAXPROCS back")
}

func TestJoinNested(t *testing.T) {
	// Join inside Join inside Join, from any goroutine: each borrows a worker.
	for _, p := range testPools(t) {
		t.Run(poolName(p), func(t *testing.T) {
			var leaves atomic.Int32
			var rec func(d int)
			rec = func(d int) {
				if d == 0 {
					leaves.Add(1)
					return
				}
				par.Join(func() { rec(d - 1) }, func() { rec(d - 1) }, poolOpts(p)...)
			}
			rec(10)
			require.EqualValues(t, 1<<10, leaves.Load())
		})
	}
}

func TestScopeSmoke(t *testing.T) {
	var n atomic.Int64
	var walk func(s *par.Spawner, w *par.Worker, d int)
	walk = func(s *par.Spawner, w *par.Worker, d int) {
		n.Add(1)
		if d == 0 {
			return
		}
		s.Spawn(w, func(w *par.Worker) { walk(s, w, d-1) })
		s.Spawn(w, func(w *par.Worker) { walk(s, w, d-1) })
	}
	par.Scope(func(s *par.Spawner, w *par.Worker) { walk(s, w, 14) })
	require.Equal(t, int64(1<<15-1), n.Load())
	n.Store(0)
	par.Scope(func(s *par.Spawner, w *par.Worker) {
		for i := 0; i < 1000; i++ {
			s.Go(func(w *par.Worker) { n.Add(1) })
		}
	})
	require.Equal(t, int64(1000), n.Load())
	require.PanicsWithValue(t, "boom", func() {
		par.Scope(func(s *par.Spawner, w *par.Worker) {
			s.Spawn(w, func(w *par.Worker) { panic("boom") })
		})
	})
}

// nilAt forks a chain of depth n with Join2 and, at the bottom, forks once
// more with the nil function or handle bad names, far below the levels that
// a recursion records.
func nilAt(bad string) func(w *par.Worker, n int) int {
	var down func(w *par.Worker, n int) int
	leaf := func(*par.Worker, int) int { return 1 }
	down = func(w *par.Worker, n int) int {
		if n > 0 {
			x, y := par.Join2(w, down, n-1, leaf, 0)
			return x + y
		}
		fa, fb := leaf, leaf
		switch bad {
		case "fa":
			fa = nil
		case "fb":
			fb = nil
		case "w":
			w = nil
		}
		x, y := par.Join2(w, fa, 0, fb, 0)
		return x + y
	}
	return down
}

// TestJoin2NilDeep: a nil fa, fb or w panics with a message naming Join2 and
// the parameter at any depth, where the fork is a plain call and the fast
// path, which has no room for a check, faults; on every pool size, and for a
// nil handle in the first fork of Do too.
// Once caught: below the recorded levels the caller got the runtime's nil
// pointer dereference.
func TestJoin2NilDeep(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		p := par.NewPool(par.Workers(workers))
		for _, bad := range []string{"fa", "fb", "w"} {
			for _, depth := range []int{0, 1, 3, 4, 5, 12, 40} {
				f := nilAt(bad)
				v := panicValue(t, func() { par.Do(func(w *par.Worker) { f(w, depth) }, par.OnPool(p)) })
				require.Equal(t, "par: Join2: "+bad+" is nil", v, "workers=%d depth=%d", workers, depth)
			}
		}
		requireUsable(t, p)
		p.Close()
	}
}

// TestJoin2PanicsPassUntouched: the check that names a nil function reads
// the stack of a panic that unwinds through a fork; any other panic, a
// runtime error included, reaches the caller as it was.
func TestJoin2PanicsPassUntouched(t *testing.T) {
	var boom func(w *par.Worker, n int) int
	boom = func(w *par.Worker, n int) int {
		if n == 0 {
			var s []int
			return s[n] // out of range: a runtime error that is not Join2's
		}
		x, y := par.Join2(w, boom, n-1, boom, n-1)
		return x + y
	}
	v := panicValue(t, func() { par.Do(func(w *par.Worker) { boom(w, 10) }) })
	err, ok := v.(runtime.Error)
	require.True(t, ok, "%v", v)
	require.Contains(t, err.Error(), "index out of range")
}
