package par_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/weftgo/weft/par"
)

func fibSeq(n int) int {
	if n < 2 {
		return n
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

// fibJoin2 forks at every level: the cost of one join, W4 without cutoff.
func fibJoin2(w *par.Worker, n int) int {
	if n < 2 {
		return n
	}
	x, y := par.Join2(w, fibJoin2, n-1, fibJoin2, n-2)
	return x + y
}

// fibCutoff forks down to n <= 20: W4 with cutoff.
func fibCutoff(w *par.Worker, n int) int {
	if n <= 20 {
		return fibSeq(n)
	}
	x, y := par.Join2(w, fibCutoff, n-1, fibCutoff, n-2)
	return x + y
}

// fibClosure forks with Worker.Join and closures that capture results.
func fibClosure(w *par.Worker, n int) int {
	if n < 2 {
		return n
	}
	var x, y int
	w.Join(func(w *par.Worker) { x = fibClosure(w, n-1) }, func(w *par.Worker) { y = fibClosure(w, n-2) })
	return x + y
}

// fibGo starts a goroutine per call, waiting with a WaitGroup.
func fibGo(n, cutoff int) int {
	if n <= cutoff || n < 2 {
		return fibSeq(n)
	}
	var x, y int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = fibGo(n-1, cutoff)
	}()
	y = fibGo(n-2, cutoff)
	wg.Wait()
	return x + y
}

var sink int

// BenchmarkFib is W4 of DESIGN.md: fib(32) with a fork at every level and
// with a cutoff at n <= 20, against the sequential recursion and a goroutine
// per call.
func BenchmarkFib(b *testing.B) {
	const n = 32
	b.Run("seq", func(b *testing.B) {
		for b.Loop() {
			sink = fibSeq(n)
		}
	})
	b.Run("join2", func(b *testing.B) {
		for b.Loop() {
			par.Do(func(w *par.Worker) { sink = fibJoin2(w, n) })
		}
	})
	b.Run("closure", func(b *testing.B) {
		for b.Loop() {
			par.Do(func(w *par.Worker) { sink = fibClosure(w, n) })
		}
	})
	b.Run("join2-cutoff20", func(b *testing.B) {
		for b.Loop() {
			par.Do(func(w *par.Worker) { sink = fibCutoff(w, n) })
		}
	})
	b.Run("goroutine-cutoff20", func(b *testing.B) {
		for b.Loop() {
			sink = fibGo(n, 20)
		}
	})
	b.Run("goroutine", func(b *testing.B) {
		for b.Loop() {
			sink = fibGo(n, 0)
		}
	})
}

// BenchmarkJoinEmpty is the cost of one fork of two empty functions, per
// pool size.
func BenchmarkJoinEmpty(b *testing.B) {
	empty := func(*par.Worker, int) int { return 0 }
	for _, workers := range []int{1, 2} {
		p := par.NewPool(par.Workers(workers))
		b.Run(fmt.Sprintf("join2/workers=%d", workers), func(b *testing.B) {
			par.Do(func(w *par.Worker) {
				for b.Loop() {
					par.Join2(w, empty, 0, empty, 0)
				}
			}, par.OnPool(p))
		})
		b.Run(fmt.Sprintf("worker.join/workers=%d", workers), func(b *testing.B) {
			nop := func(*par.Worker) {}
			par.Do(func(w *par.Worker) {
				for b.Loop() {
					w.Join(nop, nop)
				}
			}, par.OnPool(p))
		})
		b.Run(fmt.Sprintf("join/workers=%d", workers), func(b *testing.B) {
			nop := func() {}
			for b.Loop() {
				par.Join(nop, nop, par.OnPool(p))
			}
		})
		p.Close()
	}
}

// BenchmarkSplit is the cost of the library's own split of a range: a leaf
// per element, so every leaf but one costs a fork.
func BenchmarkSplit(b *testing.B) {
	const n = 1 << 16
	for _, workers := range []int{1, 2} {
		p := par.NewPool(par.Workers(workers))
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				par.ForRange(n, func(lo, hi int) {}, par.WithGrain(1), par.OnPool(p))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n-1), "ns/split")
		})
		p.Close()
	}
}
