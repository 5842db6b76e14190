package pipe

import (
	"github.com/weftgo/weft/internal/keyed"
	"github.com/weftgo/weft/par"
)

// ReduceBy aggregates the items of p by key: f(x) gives each item's key and
// value, and the result maps each key to the reduction with op of the values
// of its items, in the pipe's order, and holds no other key (an empty,
// non-nil map if there are none). It is par.ReduceBy at the end of a fused
// pipeline, with the same guarantees and costs: op must be associative but
// need not be commutative, the result does not depend on the timing where
// op's results do not, and each run of adjacent pieces folds into a map of
// its own, about one per participant. The One Billion Row Challenge over a
// text in memory is
//
//	stats := pipe.ReduceBy(pipe.Lines(text), func(line string) (string, Stats) {
//		name, temp, _ := strings.Cut(line, ";")
//		t := parseTenths(temp)
//		return name, Stats{Min: t, Max: t, Sum: t, Count: 1}
//	}, Stats.Merge)
//
// and over a file, ReduceBytesBy over Reader.LineBytes (see the cost
// paragraphs below).
//
// f and op run concurrently with themselves, with each other and with the
// pipe's stages on different items and keys, on the pool's workers and the
// calling goroutine, as in par.ReduceBy.
//
// Use ReduceBy where a value is a few words (a count, a sum, a min and a
// max): each item costs a call of f, a lookup and a call of op on two
// values. Where a key's value is larger or grows (a histogram, a struct of
// many counters, a slice), use FoldBy, which updates it in place: an item
// builds and copies no value. With a histogram of 50 counters per station,
// ReduceBy took 2.7 times FoldBy's time (W12h of go run ./bench).
//
// Over Lines or Split, and a Reader's, with no stage between, the lines go
// to f one at a time as they are cut, not in batches; f and op are then
// the only calls an item costs beyond the hand-written loop's, which
// inlines its parsing and its update. A string key is looked up through an
// index in front of the map, which finds a key of up to 16 bytes by
// comparing words in a table of its own and costs less than the map's
// lookup: on the rows of the One Billion Row Challenge (a few nanoseconds
// of parsing and a lookup per line) ReduceBy runs level with the
// hand-written goroutine-per-core program over Go maps in memory (1.00 of
// its speed, FoldBy 1.10; W12 of go run ./bench, bench/RESULTS.md,
// "Aggregation by key"), where through the map alone it ran at 0.93. A
// Reader's Lines read every line into memory of its own, since a string may
// be kept, and ReduceBy ran at 0.99 of the hand-written program from the
// file (W12f). From a file, use ReduceBytesBy (or FoldBytesBy) over
// Reader.LineBytes, whose lines are views of a buffer each goroutine reuses
// and whose keys are copied only when first met: 1.2 to 1.3 times as fast
// as the hand-written program there.
func ReduceBy[T any, K comparable, V any](p Pipe[T], f func(T) (K, V), op func(V, V) V, opts ...par.Option) map[K]V {
	switch {
	case f == nil:
		panic("pipe: ReduceBy: f is nil")
	case op == nil:
		panic("pipe: ReduceBy: op is nil")
	}
	if m, ok := reduceText(p, f, op, opts); ok {
		return m.Values()
	}
	return foldRuns(p, newKeyed[K, V], func(fo *folder[keyed.Map[K, V]]) func([]T) {
		return func(xs []T) {
			m := fo.acc // not kept: a merge may have replaced it
			for _, x := range xs {
				k, v := f(x)
				m.Add(k, v, op)
			}
		}
	}, func(a, b keyed.Map[K, V]) keyed.Map[K, V] { return keyed.Merge(a, b, op) }, opts).Values()
}

// FoldBy aggregates the items of p by key into accumulators updated in
// place: f(x) gives each item's key and value, and fold(acc, v) folds the
// value into the accumulator of its key, which init made when the key was
// first met; merge(acc, other) folds into acc the accumulator of the same
// key from the part of the pipe right after acc's. The result maps each key
// to its accumulator, and holds no other key (an empty, non-nil map if there
// are none). It is Java's groupingBy with a downstream collector (a
// supplier, an accumulator and a combiner per key), and what a hand-written
// program does with a map of pointers: an item costs a call of f, a lookup
// and a call of fold, and no value is built or copied per item, however
// large the accumulator. A histogram per station:
//
//	hists := pipe.FoldBy(pipe.Lines(text), func(line string) (string, int) {
//		name, temp, _ := strings.Cut(line, ";")
//		return name, bucket(parseTenths(temp))
//	}, func() Hist { return Hist{} },
//		func(h *Hist, b int) { h[b]++ },
//		func(h, other *Hist) { for i := range h { h[i] += other[i] } })
//
// merge must be associative, and fold must agree with it: folding the
// values of two adjacent parts one after the other into one accumulator
// gives what merging their two folds gives. The result is then that of the
// sequential fold over the items in order, whatever the timing; merge need
// not be commutative.
//
// Each run of adjacent pieces folds into a map of its own, as for ReduceBy:
// about one per participant, a few more when pieces are stolen; init runs
// once per key per map, merge once per key that two runs' maps share, at the
// end, left then right, each merge moving the smaller map into the larger.
// An accumulator is used by one goroutine at a time; f, init, fold and merge
// run in parallel, and writes made by them happen before FoldBy returns. A
// panic in any of them reaches the caller with its original value.
func FoldBy[T any, K comparable, V, A any](p Pipe[T], f func(T) (K, V), init func() A, fold func(acc *A, v V), merge func(acc, other *A), opts ...par.Option) map[K]*A {
	switch {
	case f == nil:
		panic("pipe: FoldBy: f is nil")
	case init == nil:
		panic("pipe: FoldBy: init is nil")
	case fold == nil:
		panic("pipe: FoldBy: fold is nil")
	case merge == nil:
		panic("pipe: FoldBy: merge is nil")
	}
	if m, ok := foldText(p, f, init, fold, merge, opts); ok {
		return m
	}
	return foldRuns(p, newKeyed[K, A], func(fo *folder[keyed.Map[K, A]]) func([]T) {
		return func(xs []T) {
			m := fo.acc // not kept: a merge may have replaced it
			for _, x := range xs {
				k, v := f(x)
				fold(m.At(k, init), v)
			}
		}
	}, func(a, b keyed.Map[K, A]) keyed.Map[K, A] { return keyed.MergeInto(a, b, merge) }, opts)
}

func newKeyed[K comparable, V any]() keyed.Map[K, V] { return keyed.Map[K, V]{} }
