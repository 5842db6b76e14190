package par_test

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

// BenchmarkRangeSum is W1, W2 and W3 of docs/DESIGN.md written as `go run ./bench`
// writes them (ForRange, a local sum per piece added to an atomic), beside
// the sequential loop, static halves on goroutines, blocks taken from an
// atomic counter and fixed grains, so that
// changes to the splitting of ranges can be compared with benchstat in one
// binary. Sizes are the bench's quick and full ones.
func BenchmarkRangeSum(b *testing.B) {
	type load struct {
		name string
		n    int
		leaf func(n int) func(lo, hi int) uint64
	}
	loads := []load{
		{"W1", 10_000_000, func(int) func(lo, hi int) uint64 { return squares }},
		{"W1", 50_000_000, func(int) func(lo, hi int) uint64 { return squares }},
		{"W2", 400_000, func(int) func(lo, hi int) uint64 { return varmap }},
		{"W3", 20_000, climbing},
		{"W3", 100_000, climbing},
	}
	for _, l := range loads {
		leaf := l.leaf(l.n)
		n := l.n
		run := func(name string, f func() uint64) {
			b.Run(fmt.Sprintf("%s/n=%d/impl=%s", l.name, n, name), func(b *testing.B) {
				want := leaf(0, n)
				for b.Loop() {
					if f() != want {
						b.Fatal("wrong sum")
					}
				}
			})
		}
		run("seq", func() uint64 { return leaf(0, n) })
		run("adaptive", func() uint64 { return rangeSum(n, leaf) })
		run("grain=n/16", func() uint64 { return rangeSum(n, leaf, par.WithGrain(n/16)) })
		run("blocks", func() uint64 { return blocksSum(n, leaf) })
		run("halves", func() uint64 { return halvesSum(n, leaf) })
	}
}

// halvesSum is the sum of leaf over [0, n) as static halves on two
// goroutines, `go run ./bench`'s static strategy on 2 cores.
func halvesSum(n int, leaf func(lo, hi int) uint64) uint64 {
	var wg sync.WaitGroup
	var parts [2]uint64
	wg.Add(2)
	for c := range 2 {
		go func() {
			defer wg.Done()
			parts[c] = leaf(c*n/2, (c+1)*n/2)
		}()
	}
	wg.Wait()
	return parts[0] + parts[1]
}

// blocksSum is the sum of leaf over [0, n) as blocks (below), each block's sum
// added to an atomic.
func blocksSum(n int, leaf func(lo, hi int) uint64) uint64 {
	var total atomic.Uint64
	blocks(n, func(lo, hi int) { total.Add(leaf(lo, hi)) })
	return total.Load()
}

// blocks runs body over [0, n) as `go run ./bench`'s dynamic strategy does:
// 128 blocks taken from an atomic counter by two goroutines.
func blocks(n int, body func(lo, hi int)) {
	const count = 128
	size := (n + count - 1) / count
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			for c := int(next.Add(1) - 1); c < count; c = int(next.Add(1) - 1) {
				body(c*size, min(n, (c+1)*size))
			}
		}()
	}
	wg.Wait()
}

func rangeSum(n int, leaf func(lo, hi int) uint64, opts ...par.Option) uint64 {
	var total atomic.Uint64
	par.ForRange(n, func(lo, hi int) { total.Add(leaf(lo, hi)) }, opts...)
	return total.Load()
}

// squares is W1's leaf: the sum of x*x over [lo, hi).
func squares(lo, hi int) uint64 {
	var s uint64
	for x := uint64(lo); x < uint64(hi); x++ {
		s += x * x
	}
	return s
}

// varmap is W2's leaf: element x takes x%100+1 steps of acc = acc*31 + 7
// from acc = x.
func varmap(lo, hi int) uint64 {
	var s uint64
	for i := lo; i < hi; i++ {
		x := uint64(i)
		acc := x
		for k := x%100 + 1; k > 0; k-- {
			acc = acc*31 + 7
		}
		s += acc
	}
	return s
}

// climbing is W3's leaf over n elements: element i takes
// 1 + i*i*4000/(n*n) steps of acc = acc*31 + 7.
func climbing(n int) func(lo, hi int) uint64 {
	m := uint64(n)
	return func(lo, hi int) uint64 {
		var s uint64
		for i := lo; i < hi; i++ {
			u := uint64(i)
			acc := u
			for k := 1 + u*u*4000/(m*m); k > 0; k-- {
				acc = acc*31 + 7
			}
			s += acc
		}
		return s
	}
}

// spikes is the leaf of a loop whose elements are cheap but for rare
// costly ones: element x takes one step of acc = acc*31 + 7, or steps of
// them where a hash of x picks it, one element in every (a power of two) on
// average, at places no stride predicts.
func spikes(every, steps uint64) func(lo, hi int) uint64 {
	return func(lo, hi int) uint64 {
		var s uint64
		for i := lo; i < hi; i++ {
			x := uint64(i)
			k := uint64(1)
			if h := (x + 1) * 0x9e3779b97f4a7c15; (h^h>>29)&(every-1) == 0 {
				k = steps
			}
			acc := x
			for ; k > 0; k-- {
				acc = acc*31 + 7
			}
			s += acc
		}
		return s
	}
}

var clockSink time.Time

// BenchmarkClock is what a clock read costs, which a running leaf pays once
// a step (see package par's leaf), and the timed prefix once a chunk:
// time.Now reads the wall and the monotonic clocks, time.Since (the
// prefix's reads after its first) only the monotonic one.
//
//	go test -run '^$' -bench Clock ./par
func BenchmarkClock(b *testing.B) {
	b.Run("impl=Now", func(b *testing.B) {
		for b.Loop() {
			clockSink = time.Now()
		}
	})
	b.Run("impl=Since", func(b *testing.B) {
		t0 := time.Now()
		for b.Loop() {
			clockSink = t0.Add(time.Since(t0))
		}
	})
}

var forkSink uint64

// BenchmarkForksShortCall is a stream of calls of W1's body over 30,000
// elements (W11's size of W1 that lost the most) on a pool of one worker,
// which searches between the calls and so is always there to take a fork:
// the regime where pieces got small. It reports the forks a call (the pool's
// Tasks and Inline), which split.MinPiece bounds.
func BenchmarkForksShortCall(b *testing.B) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	const n = 30_000
	add := func(x, y uint64) uint64 { return x + y }
	before := p.Stats().Total()
	for b.Loop() {
		forkSink = par.ReduceRange(n, 0, squares, add, par.OnPool(p))
	}
	after := p.Stats().Total()
	forks := after.Tasks - before.Tasks + after.Inline - before.Inline
	b.ReportMetric(float64(forks)/float64(b.N), "forks/op")
}

// BenchmarkForksCrowdedCalls is BenchmarkForksShortCall from twice as many
// goroutines as processors at once (b.RunParallel), on a pool of one worker
// fewer than the processors, as the default pool: calls that fill every
// processor, which a fork cannot make shorter. It reports the forks a call,
// and the time a call (ns/op), which is the processors' time shared: a
// call's work over two processors is 5.5 µs here. Before sched.Pool.Spare
// and Oversubscribed (fce9cc9 with this benchmark copied in, 3 runs), 2.6
// forks a call and 6.3-6.4 µs; after, 0.02 forks and 5.6-5.65 µs.
func BenchmarkForksCrowdedCalls(b *testing.B) {
	p := par.NewPool(par.Workers(max(1, runtime.GOMAXPROCS(0)-1)))
	defer p.Close()
	const n = 30_000
	add := func(x, y uint64) uint64 { return x + y }
	before := p.Stats().Total()
	b.SetParallelism(2)
	b.RunParallel(func(pb *testing.PB) {
		var s uint64
		for pb.Next() {
			s += par.ReduceRange(n, 0, squares, add, par.OnPool(p))
		}
		forkSink = s
	})
	after := p.Stats().Total()
	forks := after.Tasks - before.Tasks + after.Inline - before.Inline
	b.ReportMetric(float64(forks)/float64(b.N), "forks/op")
}
