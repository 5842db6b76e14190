package par_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Memory: what a fork allocates (nothing, with top-level functions, even after
// panics) and what a call keeps reachable once it has returned (nothing).

// TestJoin2DoesNotAllocatePerFork: with top-level functions nothing of a Join2
// escapes to the heap and its task record comes from the worker's cache, so
// fib(20), which forks 10,945 times, costs a few allocations per call.
// Once caught: Join2 allocated on every fork.
func TestJoin2DoesNotAllocatePerFork(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	var r int
	allocs := testing.AllocsPerRun(20, func() {
		par.Do(func(w *par.Worker) { r = fib(w, 20) }, par.OnPool(p))
	})
	assert.Equal(t, 6765, r)
	assert.Less(t, allocs, 100.0, "fib(20) with Join2 made %.0f allocations for 10,945 forks", allocs)
}

// fibPanicAt forks like fib and panics in the leaf numbered at, counting
// leaves in the order they run.
func fibPanicAt(w *par.Worker, n int, at int64, leaves *atomic.Int64) int {
	if n < 2 {
		if leaves.Add(1) == at {
			panic(fmt.Sprint("leaf ", at))
		}
		return n
	}
	x, y := par.Join2(w,
		func(w *par.Worker, n int) int { return fibPanicAt(w, n, at, leaves) }, n-1,
		func(w *par.Worker, n int) int { return fibPanicAt(w, n, at, leaves) }, n-2)
	return x + y
}

// TestForkRecordsSurvivePanics: forks cut short by panics, in either half and
// on thieves, give their records back: after more panics than a worker caches
// records, a fork still costs no allocation.
func TestForkRecordsSurvivePanics(t *testing.T) {
	rounds := 600
	if short() || raceEnabled {
		rounds = 300
	}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			p := par.NewPool(par.Workers(workers))
			defer p.Close()
			for i := range rounds {
				var leaves atomic.Int64
				r := func() (r any) {
					defer func() { r = recover() }()
					par.Do(func(w *par.Worker) { fibPanicAt(w, 14, int64(1+i%377), &leaves) }, par.OnPool(p))
					return nil
				}()
				require.NotNil(t, r, "round %d: the panic must reach the caller", i)
			}
			var r int
			allocs := testing.AllocsPerRun(20, func() {
				par.Do(func(w *par.Worker) { r = fib(w, 20) }, par.OnPool(p))
			})
			assert.Equal(t, 6765, r)
			assert.Less(t, allocs, 100.0, "fib(20) made %.0f allocations for 10,945 forks after %d panics", allocs, rounds)
		})
	}
}

// TestPanickedCallReleasesItsData: once a call has returned, by a panic or
// not, nothing of the library keeps what its functions reference reachable.
// par.For, par.Do with Join2 and par.Join on a pool of one worker hold a 1 MiB
// buffer and panic in their first element (For/thief: in an element that the
// worker runs), or do not (the control); once the caller has dropped the
// buffer, a GC frees it.
// Once caught (by the soak of `go run ./bench -soak`): a fork ended by a panic left its record, and the data, in its deque slot.
func TestPanickedCallReleasesItsData(t *testing.T) {
	type buffer struct{ b [1 << 20]byte }
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	on := par.OnPool(p)
	calls := map[string]func(buf *buffer, fail bool){
		"For": func(buf *buffer, fail bool) {
			par.For(64, func(i int) {
				if i == 0 && fail {
					panic("boom")
				}
				buf.b[i]++
			}, on, par.WithGrain(1))
		},
		"For/thief": func(buf *buffer, fail bool) {
			// The last element runs on the worker, since the caller waits in
			// the first one until it has started, and panics there: the
			// panic reaches the caller through the fork's Sync.
			started := make(chan struct{})
			par.For(64, func(i int) {
				switch i {
				case 0:
					await(started)
				case 63:
					close(started)
					if fail {
						panic("boom")
					}
				}
				buf.b[i]++
			}, on, par.WithGrain(1))
		},
		"Join2": func(buf *buffer, fail bool) {
			var rec func(w *par.Worker, n int) int
			rec = func(w *par.Worker, n int) int {
				if n == 0 {
					if fail {
						panic("boom")
					}
					return 0
				}
				a, _ := par.Join2(w, rec, n-1, func(*par.Worker, int) int { return int(buf.b[0]) }, n)
				return a
			}
			par.Do(func(w *par.Worker) { rec(w, 8) }, on)
		},
		"Join": func(buf *buffer, fail bool) {
			par.Join(func() {
				if fail {
					panic("boom")
				}
			}, func() { buf.b[1]++ }, on)
		},
	}
	for name, call := range calls {
		for _, fail := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/returns", true: "/panics"}[fail], func(t *testing.T) {
				buf := &buffer{}
				wp := weak.Make(buf)
				how, _ := runOn(func() { call(buf, fail) })
				assert.Equal(t, map[bool]ending{false: returned, true: panicked}[fail], how)
				buf = nil
				runtime.GC()
				runtime.GC()
				assert.True(t, wp.Value() == nil, "the data of a call that has returned is still reachable")
			})
		}
	}
}

// TestCollectingAllocatesPerRunOfPieces: the calls that collect (Filter,
// FilterIndex, Positions, FlatMap, Partition) append the pieces that one
// participant runs one after the other to one slice, so their allocations
// grow with the steals, not with the pieces: 1,024 pieces of 1,024 elements,
// half of them kept, on a pool of one worker and the caller. When every
// piece, and every step of a running one, began a slice of its own, Filter
// made 8,200 allocations here, Partition 16,393.
func TestCollectingAllocatesPerRunOfPieces(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	opts := []par.Option{par.OnPool(p), par.WithGrain(1024)}
	in := indices(1 << 20)
	even := func(x int) bool { return x%2 == 0 }
	for name, call := range map[string]func() int{
		"Filter":      func() int { return len(par.Filter(in, even, opts...)) },
		"FilterIndex": func() int { return len(par.FilterIndex(in, func(i, x int) bool { return even(x) }, opts...)) },
		"Positions":   func() int { return len(par.Positions(in, even, opts...)) },
		"FlatMap": func() int {
			return len(par.FlatMap(in, func(x int, out []int) []int {
				if even(x) {
					out = append(out, x)
				}
				return out
			}, opts...))
		},
		"Partition": func() int { y, n := par.Partition(in, even, opts...); return len(y) + len(n) },
	} {
		var got int
		allocs := testing.AllocsPerRun(5, func() { got = call() })
		want := len(in) / 2
		if name == "Partition" {
			want = len(in)
		}
		require.Equal(t, want, got, name)
		assert.Less(t, allocs, 1000.0, "%s made %.0f allocations for 1,024 pieces", name, allocs)
		t.Logf("%s: %.0f allocations", name, allocs)
	}
}

// TestShortCallAllocatesNothingForItsBody: the record of a call (its body)
// stays on the caller's stack while the call runs alone, and only a call
// that forks copies it to the heap for its workers; the copy carries every
// field. A short call of ReduceRange or ForRange whose function captures
// nothing then allocates nothing, and neither does one of For, ForEach,
// MapReduce, Reduce or Count (Map, its result), whose leaf would wrap the user's
// function in a closure: a call that runs as one chunk runs their loop
// without it (config.one), whether its draw times it or not. A call of one
// element runs without timing itself, whatever the machine's load; one of
// 100 is short here, but not under the race detector, where the
// instrumented leaf's learned pace makes it fork.
func TestShortCallAllocatesNothingForItsBody(t *testing.T) {
	var draw uint32
	defer par.SetDrawTimed(func() uint32 { return draw })()
	require.Empty(t, par.CallHeapMissing(), "fields that call.heap does not copy")
	sizes := []int{1, 100}
	if raceEnabled {
		sizes = sizes[:1]
	}
	add := func(a, b int) int { return a + b }
	sq := func(x int) int { return x * x }
	leaf := func(lo, hi int) int { return hi - lo }
	each := func(lo, hi int) { _ = hi - lo }
	odd := func(x int) bool { return x%2 == 1 }
	nop := func(int) {}
	for _, n := range sizes {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		var r, m, d, k int
		var ys []int
		for _, c := range []struct {
			name string
			call func()
			most float64
		}{
			{"ReduceRange", func() { r = par.ReduceRange(len(xs), 0, leaf, add) }, 0},
			{"ForRange", func() { par.ForRange(len(xs), each) }, 0},
			{"For", func() { par.For(len(xs), nop) }, 0},
			{"ForEach", func() { par.ForEach(xs, nop) }, 0},
			{"MapReduce", func() { m = par.MapReduce(xs, sq, 0, add) }, 0},
			{"Reduce", func() { d = par.Reduce(xs, 0, add) }, 0},
			{"Count", func() { k = par.Count(xs, odd) }, 0},
			{"Map", func() { ys = par.Map(xs, sq) }, 1}, // its result
		} {
			for _, draw = range []uint32{1, 0} { // untimed, then timed
				c.call() // the first call of a site learns its pace
				require.LessOrEqual(t, testing.AllocsPerRun(50, c.call), c.most, "%s of %d, draw %d: allocations a call", c.name, n, draw)
			}
		}
		require.Equal(t, n, r)
		require.Equal(t, n*(n-1)*(2*n-1)/6, m)
		require.Equal(t, n*(n-1)/2, d)
		require.Equal(t, n/2, k)
		require.Len(t, ys, n)
		for i, y := range ys {
			require.Equal(t, i*i, y)
		}
	}
}
