package pipe

import "iter"

// The two shapes of FlatMap that were measured against the append form and
// not chosen (BenchmarkFlatMapShapes); they live here so that the benchmark
// compares the same machinery with only the callback's shape changed.

// FlatMapYield is FlatMap with a callback that hands each item to yield.
func FlatMapYield[T, R any](p Pipe[T], f func(x T, yield func(R))) Pipe[R] {
	return Pipe[R]{n: p.n, open: func() feeder[R] {
		up := p.open()
		buf := make([]R, 0, batch)
		var sink func([]R)
		yield := func(r R) {
			buf = append(buf, r)
			if len(buf) == batch {
				sink(buf)
				buf = buf[:0]
			}
		}
		each := func(xs []T) {
			for _, x := range xs {
				f(x, yield)
			}
		}
		return func(lo, hi int, s func([]R)) {
			sink = s
			buf = buf[:0]
			up(lo, hi, each)
			if len(buf) > 0 {
				sink(buf)
				buf = buf[:0]
			}
		}
	}}
}

// FlatMapSeq is FlatMap with a callback that returns an iter.Seq per item.
func FlatMapSeq[T, R any](p Pipe[T], f func(x T) iter.Seq[R]) Pipe[R] {
	return FlatMapYield(p, func(x T, yield func(R)) {
		for r := range f(x) {
			yield(r)
		}
	})
}
