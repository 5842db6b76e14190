package pipe

import "fmt"

// Zip returns the pipeline of f(a[i], b[i]) for every index i, in order: the
// two slices walked together, with no slice of pairs made. The positions of
// its items are the indexes i. It panics at once if the slices differ in
// length, naming both lengths: a silent truncation would hide the bug that
// made them differ.
//
// Sum of a Zip whose f returns one of Go's predeclared number types adds
// f's results as they come back, with no batch buffer between, in the
// pattern of par.Sum's blocks, so with the same bits as par.Sum over the
// collected products, in allocations that do not grow with the length (a
// few records per fork: O(P log n) at most). f is still called through a
// function value per pair, which Go cannot inline, and that call is the
// cost: over 50,000,000 float64 pairs on 2 cores (BenchmarkDot)
// Sum(Zip(xs, ys, mul)) takes about 3 times as long as a goroutine per
// core running the plain loop. A dot product is Dot(xs, ys), which folds
// the same blocks with the multiplication compiled in, in the same bits, and
// is level with the goroutines. The stages read a and b while a terminal
// runs; they must not be modified until it returns.
//
// f runs when a terminal runs the pipe, concurrently with itself and with the
// other stages' functions on different items, once per position, on the
// pool's workers and the terminal's calling goroutine.
func Zip[A, B, T any](a []A, b []B, f func(A, B) T) Pipe[T] {
	if f == nil {
		panic("pipe: Zip: f is nil")
	}
	if len(a) != len(b) {
		panic(fmt.Sprintf("pipe: Zip: len(a) = %d, len(b) = %d", len(a), len(b)))
	}
	return Pipe[T]{n: len(a), oneToOne: true, add: zipAdder(a, b, f), open: func() feeder[T] {
		buf := make([]T, batch)
		return func(lo, hi int, sink func([]T)) {
			for lo < hi {
				next := batchEnd(lo, hi)
				out := buf[:next-lo]
				zip2(out, a[lo:next], b[lo:next], f)
				sink(out)
				lo = next
			}
		}
	}}
}

// Zip3 returns the pipeline of f(a[i], b[i], c[i]) for every index i, in
// order, as Zip does for two slices. It panics at once if the slices differ
// in length, naming the three lengths.
//
// f runs when a terminal runs the pipe, concurrently with itself and with the
// other stages' functions on different items, once per position, on the
// pool's workers and the terminal's calling goroutine.
func Zip3[A, B, C, T any](a []A, b []B, c []C, f func(A, B, C) T) Pipe[T] {
	if f == nil {
		panic("pipe: Zip3: f is nil")
	}
	if len(a) != len(b) || len(a) != len(c) {
		panic(fmt.Sprintf("pipe: Zip3: len(a) = %d, len(b) = %d, len(c) = %d", len(a), len(b), len(c)))
	}
	return Pipe[T]{n: len(a), oneToOne: true, open: func() feeder[T] {
		buf := make([]T, batch)
		return func(lo, hi int, sink func([]T)) {
			for lo < hi {
				next := batchEnd(lo, hi)
				out := buf[:next-lo]
				zip3(out, a[lo:next], b[lo:next], c[lo:next], f)
				sink(out)
				lo = next
			}
		}
	}}
}

// zip2 sets out[i] = f(a[i], b[i]); the slices have out's length. It is a
// function of its own, kept out of the feeder, so that only its five values
// live across the call of f: Go's calls save no register, and in the
// feeder's loop every value of the feeder was reloaded after each call (12
// loads from the stack per item against 6; go test -c ./par/pipe; go tool
// objdump -s 'pipe\.zip2').
//
//go:noinline
func zip2[A, B, T any](out []T, a []A, b []B, f func(A, B) T) {
	a, b = a[:len(out)], b[:len(out)] // drops the bounds checks below
	for i := range out {
		out[i] = f(a[i], b[i])
	}
}

// zip3 is zip2 for three slices.
//
//go:noinline
func zip3[A, B, C, T any](out []T, a []A, b []B, c []C, f func(A, B, C) T) {
	a, b, c = a[:len(out)], b[:len(out)], c[:len(out)]
	for i := range out {
		out[i] = f(a[i], b[i], c[i])
	}
}
