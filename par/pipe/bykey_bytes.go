package pipe

import (
	"github.com/weftgo/weft/internal/keyed"
	"github.com/weftgo/weft/par"
)

// ReduceBytesBy is ReduceBy for items that are bytes a source may reuse
// (Reader.LineBytes, LineChunkBytes), with the key given as bytes too:
// f(x) gives each item's key, as a []byte that may be part of x, and its
// value. A key is looked up without a copy and copied once, into the
// result's string, when it is first met in a map, so an item costs what it
// costs in the hand-written loop over a buffer that is reused (m[string(b)]
// to look up, a copy to insert), and no memory per item: the form for the
// lines of a large file. The One Billion Row Challenge from a file is
//
//	stats := pipe.ReduceBytesBy(pipe.NewReader(f).LineBytes(), func(line []byte) ([]byte, Stats) {
//		name, temp, _ := bytes.Cut(line, []byte{';'})
//		t := parseTenths(temp)
//		return name, Stats{Min: t, Max: t, Sum: t, Count: 1}
//	}, Stats.Merge)
//
// The value must not hold the item's bytes (copy what it keeps); the key
// need not be copied. Everything else is as for ReduceBy: op must be
// associative and need not be commutative, the result does not depend on
// the timing where op's results do not, a run of adjacent pieces folds into
// a map of its own, and over LineBytes and Lines of a []byte, with no stage
// between, each line goes to f as it is cut. Over a Reader's LineBytes W12f
// of go run ./bench ran it at 1.2 to 1.3 times the speed of the hand-written
// goroutine-per-core program (a bufio.Scanner per part), where ReduceBy over
// Reader.Lines, which reads every line into memory of its own, ran at 0.99.
func ReduceBytesBy[V any](p Pipe[[]byte], f func([]byte) ([]byte, V), op func(V, V) V, opts ...par.Option) map[string]V {
	switch {
	case f == nil:
		panic("pipe: ReduceBytesBy: f is nil")
	case op == nil:
		panic("pipe: ReduceBytesBy: op is nil")
	}
	merge := func(a, b keyed.Map[string, V]) keyed.Map[string, V] { return keyed.Merge(a, b, op) }
	if sp, ok := p.spans.(*sepSpans[[]byte]); ok {
		opMerge := func(acc, other *V) { *acc = op(*acc, *other) }
		return foldSpansWith(p.n, sp, keyed.NewStrings[V], func(m *keyed.Strings[V], x []byte) {
			k, v := f(x)
			m.AddBytes(k, v, op)
		}, func(a, b *keyed.Strings[V]) *keyed.Strings[V] { return keyed.MergeStrings(a, b, opMerge) }, p.config(opts)).Map.Values()
	}
	return foldRuns(p, newKeyed[string, V], func(fo *folder[keyed.Map[string, V]]) func([][]byte) {
		return func(xs [][]byte) {
			m := fo.acc // not kept: a merge may have replaced it
			for _, x := range xs {
				k, v := f(x)
				keyed.AddBytes(m, k, v, op)
			}
		}
	}, merge, opts).Values()
}

// FoldBytesBy is FoldBy for items that are bytes a source may reuse, with
// the key given as bytes, looked up without a copy and copied once when it
// is first met in a map, as for ReduceBytesBy. The value must not hold the
// item's bytes. Everything else is as for FoldBy.
func FoldBytesBy[V, A any](p Pipe[[]byte], f func([]byte) ([]byte, V), init func() A, fold func(acc *A, v V), merge func(acc, other *A), opts ...par.Option) map[string]*A {
	switch {
	case f == nil:
		panic("pipe: FoldBytesBy: f is nil")
	case init == nil:
		panic("pipe: FoldBytesBy: init is nil")
	case fold == nil:
		panic("pipe: FoldBytesBy: fold is nil")
	case merge == nil:
		panic("pipe: FoldBytesBy: merge is nil")
	}
	mergeMaps := func(a, b keyed.Map[string, A]) keyed.Map[string, A] { return keyed.MergeInto(a, b, merge) }
	if sp, ok := p.spans.(*sepSpans[[]byte]); ok {
		return foldSpansWith(p.n, sp, keyed.NewStrings[A], func(m *keyed.Strings[A], x []byte) {
			k, v := f(x)
			fold(m.AtBytes(k, init), v)
		}, func(a, b *keyed.Strings[A]) *keyed.Strings[A] { return keyed.MergeStrings(a, b, merge) }, p.config(opts)).Map
	}
	return foldRuns(p, newKeyed[string, A], func(fo *folder[keyed.Map[string, A]]) func([][]byte) {
		return func(xs [][]byte) {
			m := fo.acc // not kept: a merge may have replaced it
			for _, x := range xs {
				k, v := f(x)
				fold(keyed.AtBytes(m, k, init), v)
			}
		}
	}, mergeMaps, opts)
}
