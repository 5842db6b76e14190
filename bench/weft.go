package main

import (
	"sync/atomic"

	"github.com/weftgo/weft/par"
)

// The weft implementations, written as a user of the public API would.

// weftSum is a range reduction with ForRange: each piece sums into a local and
// adds it to the total once, so the atomic costs one operation per piece.
func weftSum(n int, leaf func(lo, hi int) uint64, opts []par.Option) uint64 {
	var total atomic.Uint64
	par.ForRange(n, func(lo, hi int) { total.Add(leaf(lo, hi)) }, opts...)
	return total.Load()
}

// fibCutoff is W4's sequential cutoff: calls with n <= fibCutoff do not fork.
const fibCutoff = 20

// weftFib forks at every level with Join2: a top-level function and its
// argument, so that nothing escapes to the heap.
func weftFib(w *par.Worker, n int) uint64 {
	if n < 2 {
		return uint64(n)
	}
	a, b := par.Join2(w, weftFib, n-1, weftFib, n-2)
	return a + b
}

// weftFibForks is weftFib in par.Worker.Forks' form: Join2 where a fork is
// wanted, and direct calls elsewhere, the second half first as Join2 runs
// them.
func weftFibForks(w *par.Worker, n int) uint64 {
	if n < 2 {
		return uint64(n)
	}
	if w.Forks() {
		a, b := par.Join2(w, weftFibForks, n-1, weftFibForks, n-2)
		return a + b
	}
	b := weftFibForks(w, n-2)
	return weftFibForks(w, n-1) + b
}

// weftFibCutoff forks above the cutoff and runs the sequential fib below it.
func weftFibCutoff(w *par.Worker, n int) uint64 {
	if n <= fibCutoff {
		return fib(n)
	}
	a, b := par.Join2(w, weftFibCutoff, n-1, weftFibCutoff, n-2)
	return a + b
}

func weftFibDo(n int, cutoff bool, opts []par.Option) uint64 {
	var r uint64
	f := weftFib
	if cutoff {
		f = weftFibCutoff
	}
	par.Do(func(w *par.Worker) { r = f(w, n) }, opts...)
	return r
}

func double(x int) int { return x * 2 }
