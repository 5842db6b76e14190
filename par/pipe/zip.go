package pipe

import (
	"fmt"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/split"
)

// Zip returns the pipeline of f(a[i], b[i]) for every index i, in order: the
// two slices walked together, with no slice of pairs made. The positions of
// its items are the indexes i. It panics at once if the slices differ in
// length, naming both lengths: a silent truncation would hide the bug that
// made them differ.
//
// A dot product is Sum(Zip(xs, ys, mul)): one pass over both slices, whose
// allocations do not grow with the length (a few records per fork: O(P log
// n) at most), and whose float result is the same on every run. Sum of a
// Zip whose f returns one of Go's predeclared number types adds f's results
// as they come back, with no batch buffer between, in the pattern of
// par.Sum's blocks, so with the same bits as par.Sum over the collected
// products; and it asks the memory for the pairs a few blocks ahead. f is
// still called through a function value per pair, which Go cannot inline:
// over 50,000,000 float64 pairs (BenchmarkDot, 2 cores) Sum(Zip) took about
// two thirds of the plain loop's time, where the loop written in the leaf of
// par.ReduceRange took one half. The stages read a and b while a terminal
// runs; they must not be modified until it returns.
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

// Product returns the product of the items of p; 1 if there are none.
// Integer products wrap. Float products are deterministic in the way Sum's
// are: blocks of 128 source positions are multiplied with four accumulators
// and the blocks are combined over the tree of split.Pairwise, which depends
// only on Len(), so the same pipe gives the same bits on every run and every
// number of workers. (That is a different grouping from a sequential loop's,
// so a float product may differ from the loop's in the last bits; and an
// overflow to Inf or an underflow to 0 may happen in one grouping and not in
// another.)
func Product[T par.Number](p Pipe[T], opts ...par.Option) T {
	blocks := split.Blocks(p.n)
	t := productTask[T]{p: &p, grain: max(1, blocks/(16*split.Probe().Workers)), ls: blockLeaves(p, mul4[T])}
	if blocks <= t.grain || p.n <= split.StreamLen(8) {
		checkOpts(opts)
		if blocks == 0 {
			return 1
		}
		return t.leaf(0, blocks)
	}
	var total T
	par.Do(func(w *par.Worker) { total = t.tree(w, span{0, blocks}) }, opts...)
	return total
}

// productTask cuts a block range as the canonical tree does, forking above
// grain blocks, as sumTask does for Sum.
type productTask[T par.Number] struct {
	p     *Pipe[T]
	grain int
	ls    *leaves[[4]T]
}

func (t *productTask[T]) tree(w *par.Worker, s span) T {
	if s.hi-s.lo <= t.grain {
		return t.leaf(s.lo, s.hi)
	}
	mid := split.Cut(s.lo, s.hi)
	a, b := par.Join2(w, t.tree, span{s.lo, mid}, t.tree, span{mid, s.hi})
	return a * b
}

// leaf multiplies the blocks [lo, hi) on one goroutine, over the canonical
// tree.
func (t *productTask[T]) leaf(lo, hi int) T {
	st := t.ls.get(lo)
	s := split.Pairwise(lo, hi, func(b int) T {
		st.acc = [4]T{1, 1, 1, 1}
		st.feed(split.BlockRange(b, t.p.n))
		return (st.acc[0] * st.acc[1]) * (st.acc[2] * st.acc[3])
	}, func(a, b T) T { return a * b })
	t.ls.put(st, hi)
	return s
}

// mul4 multiplies four accumulators by xs in the pattern of Sum's add4, with
// the accumulators in registers (see add4).
func mul4[T par.Number](xs []T, a0, a1, a2, a3 T) (T, T, T, T) {
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		a0 *= xs[i]
		a1 *= xs[i+1]
		a2 *= xs[i+2]
		a3 *= xs[i+3]
	}
	for ; i < len(xs); i++ {
		a0 *= xs[i]
	}
	return a0, a1, a2, a3
}
