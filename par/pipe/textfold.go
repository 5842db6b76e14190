package pipe

import (
	"strings"

	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/keyed"
	"github.com/weftgo/weft/par"
)

// Folding a text's pieces as they are cut.
//
// A feeder hands its items over in batches, so that a stage costs a call
// per batch. But a terminal that aggregates by key right after a text
// source gains nothing from a batch, and pays for it: cutting 256 of W12's
// lines and then parsing and looking them up took longer than cutting and
// parsing each line in turn, and a call per piece between the cut and the
// fold cost as much again (go test ./par/pipe -run '^$' -bench
// TextFold). So the sources that cut a text at a separator (Split, Lines,
// Reader.Split, Reader.Lines) also tell ReduceBy and FoldBy, when no stage
// stands between, which text holds the pieces of a range, and those run
// the cut and the caller's function in one loop (reduceText, foldText):
// an item costs the calls of the caller's functions, and no more.

// sepSpans is what a source that cuts a text of type S at sep gives the
// terminals that fold its pieces as they are cut.
type sepSpans[S ~string | ~[]byte] struct {
	sep byte
	// open makes, for one goroutine, the function that calls cut(t, a, b)
	// for a piece [lo, hi) of the range: t holds the pieces that start in
	// it, and they are the pieces of t that start in [a, b). A Reader reads
	// t there (a block of the file), and lets it go when cut returns.
	open func() func(lo, hi int, cut func(t *text[S], lo, hi int))
}

// firstAt returns the start of the first piece of t on sep that starts in
// [lo, hi): after the first sep in [lo-1, hi-1), or at 0; hi if there is
// none. The pieces after it start after each sep, up to hi; the loops that
// cut them (reduceSpans, foldSpans) are written out in place, so that the
// caller's function is their only call: a final separator of Lines starts
// no piece since a range of Lines ends at len(s) at most, and Split's empty
// piece after one is at len(s), which a range of Split may hold.
func (t *text[S]) firstAt(sep byte, lo, hi int) int {
	if lo == 0 {
		return 0
	}
	if j, _ := t.index(lo-1, hi-1, sep); j >= 0 {
		return j + 1
	}
	return hi
}

// reduceText is ReduceBy over p when p is a text source that cuts at a
// separator, with no stage after it, and f takes its pieces as they are
// (a string or a []byte): each run's pieces go to f as they are cut. It
// reports false for any other pipe.
func reduceText[T any, K comparable, V any](p Pipe[T], f func(T) (K, V), op func(V, V) V, opts []par.Option) (keyed.Map[K, V], bool) {
	switch sp := p.spans.(type) {
	case *sepSpans[string]:
		if f, ok := any(f).(func(string) (string, V)); ok {
			return any(reduceStrings(p.n, sp, f, op, p.config(opts))).(keyed.Map[K, V]), true
		}
		if f, ok := any(f).(func(string) (K, V)); ok {
			return reduceSpans(p.n, sp, f, op, p.config(opts)), true
		}
	case *sepSpans[[]byte]:
		if f, ok := any(f).(func([]byte) (string, V)); ok {
			return any(reduceStrings(p.n, sp, f, op, p.config(opts))).(keyed.Map[K, V]), true
		}
		if f, ok := any(f).(func([]byte) (K, V)); ok {
			return reduceSpans(p.n, sp, f, op, p.config(opts)), true
		}
	}
	return nil, false
}

// reduceStrings is reduceSpans for string keys, looked up through an
// index in front of each run's map (keyed.Strings).
func reduceStrings[S ~string | ~[]byte, V any](n int, sp *sepSpans[S], f func(S) (string, V), op func(V, V) V, cfg engine.Config) keyed.Map[string, V] {
	merge := func(acc, other *V) { *acc = op(*acc, *other) }
	return foldSpansWith(n, sp, keyed.NewStrings[V], func(m *keyed.Strings[V], x S) {
		k, v := f(x)
		m.Add(k, v, op)
	}, func(a, b *keyed.Strings[V]) *keyed.Strings[V] { return keyed.MergeStrings(a, b, merge) }, cfg).Map
}

// reduceSpans is ReduceBy over the pieces of a text that sp describes, cut
// and reduced in one loop.
func reduceSpans[S ~string | ~[]byte, K comparable, V any](n int, sp *sepSpans[S], f func(S) (K, V), op func(V, V) V, cfg engine.Config) keyed.Map[K, V] {
	return foldOn(&cfg, n, newKeyed[K, V], func(fo *folder[keyed.Map[K, V]]) func(lo, hi int) {
		var m keyed.Map[K, V] // fo.acc, read at each run: a merge may have replaced it
		spans, sep := sp.open(), sp.sep
		cut := func(t *text[S], lo, hi int) {
			start := t.firstAt(sep, lo, hi)
			if start >= hi {
				return
			}
			for rest := t.str[start:]; ; {
				j := strings.IndexByte(rest, sep)
				if j < 0 {
					j = len(rest)
				}
				end := start + j
				if j >= gapMin {
					t.noteGap(start, end) // a long piece, as cutSep notes it
				}
				k, v := f(t.pieceOf(rest[:j]))
				m.Add(k, v, op)
				if start = end + 1; start >= hi {
					return
				}
				rest = rest[j+1:]
			}
		}
		return func(lo, hi int) { m = fo.acc; spans(lo, hi, cut) }
	}, func(a, b keyed.Map[K, V]) keyed.Map[K, V] { return keyed.Merge(a, b, op) })
}

// foldText is reduceText for FoldBy.
func foldText[T any, K comparable, V, A any](p Pipe[T], f func(T) (K, V), init func() A, fold func(*A, V), merge func(*A, *A), opts []par.Option) (keyed.Map[K, A], bool) {
	switch sp := p.spans.(type) {
	case *sepSpans[string]:
		if f, ok := any(f).(func(string) (string, V)); ok {
			return any(foldStrings(p.n, sp, f, init, fold, merge, p.config(opts))).(keyed.Map[K, A]), true
		}
		if f, ok := any(f).(func(string) (K, V)); ok {
			return foldSpans(p.n, sp, f, init, fold, merge, p.config(opts)), true
		}
	case *sepSpans[[]byte]:
		if f, ok := any(f).(func([]byte) (string, V)); ok {
			return any(foldStrings(p.n, sp, f, init, fold, merge, p.config(opts))).(keyed.Map[K, A]), true
		}
		if f, ok := any(f).(func([]byte) (K, V)); ok {
			return foldSpans(p.n, sp, f, init, fold, merge, p.config(opts)), true
		}
	}
	return nil, false
}

// foldStrings is foldSpans for string keys (see reduceStrings).
func foldStrings[S ~string | ~[]byte, V, A any](n int, sp *sepSpans[S], f func(S) (string, V), init func() A, fold func(*A, V), merge func(*A, *A), cfg engine.Config) keyed.Map[string, A] {
	return foldSpansWith(n, sp, keyed.NewStrings[A], func(m *keyed.Strings[A], x S) {
		k, v := f(x)
		fold(m.At(k, init), v)
	}, func(a, b *keyed.Strings[A]) *keyed.Strings[A] { return keyed.MergeStrings(a, b, merge) }, cfg).Map
}

// foldSpans is reduceSpans for FoldBy.
func foldSpans[S ~string | ~[]byte, K comparable, V, A any](n int, sp *sepSpans[S], f func(S) (K, V), init func() A, fold func(*A, V), merge func(*A, *A), cfg engine.Config) keyed.Map[K, A] {
	return foldOn(&cfg, n, newKeyed[K, A], func(fo *folder[keyed.Map[K, A]]) func(lo, hi int) {
		var m keyed.Map[K, A] // fo.acc, read at each run: a merge may have replaced it
		spans, sep := sp.open(), sp.sep
		cut := func(t *text[S], lo, hi int) {
			start := t.firstAt(sep, lo, hi)
			if start >= hi {
				return
			}
			for rest := t.str[start:]; ; {
				j := strings.IndexByte(rest, sep)
				if j < 0 {
					j = len(rest)
				}
				end := start + j
				if j >= gapMin {
					t.noteGap(start, end) // a long piece, as cutSep notes it
				}
				k, v := f(t.pieceOf(rest[:j]))
				fold(m.At(k, init), v)
				if start = end + 1; start >= hi {
					return
				}
				rest = rest[j+1:]
			}
		}
		return func(lo, hi int) { m = fo.acc; spans(lo, hi, cut) }
	}, func(a, b keyed.Map[K, A]) keyed.Map[K, A] { return keyed.MergeInto(a, b, merge) })
}

// foldSpansWith is reduceSpans with the item's step given as add, for the
// forms whose keys go through an index (string keys, ReduceBytesBy,
// FoldBytesBy): a call of add per piece, which costs nothing measurable
// beside f's (W12f of go run ./bench, the two written out as reduceSpans
// is, and through add: alternated runs, level).
func foldSpansWith[S ~string | ~[]byte, M any](n int, sp *sepSpans[S], init func() M, add func(m M, x S), merge func(a, b M) M, cfg engine.Config) M {
	return foldOn(&cfg, n, init, func(fo *folder[M]) func(lo, hi int) {
		var m M // fo.acc, read at each run: a merge may have replaced it
		spans, sep := sp.open(), sp.sep
		cut := func(t *text[S], lo, hi int) {
			start := t.firstAt(sep, lo, hi)
			if start >= hi {
				return
			}
			for rest := t.str[start:]; ; {
				j := strings.IndexByte(rest, sep)
				if j < 0 {
					j = len(rest)
				}
				end := start + j
				if j >= gapMin {
					t.noteGap(start, end) // a long piece, as cutSep notes it
				}
				add(m, t.pieceOf(rest[:j]))
				if start = end + 1; start >= hi {
					return
				}
				rest = rest[j+1:]
			}
		}
		return func(lo, hi int) { m = fo.acc; spans(lo, hi, cut) }
	}, merge)
}
