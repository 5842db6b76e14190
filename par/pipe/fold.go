package pipe

import (
	"github.com/weftgo/weft/internal/accum"
	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/par"
)

// The terminals that keep an accumulator (Fold, ReduceBy) or a value per
// participant (ForEachInit, MapInit) open the pipe once per accumulator or
// value, not per piece: the engine hands a run of adjacent pieces, the
// steps of a running piece among them, the accumulator of the piece before,
// and with it the feeder opened for it, whose buffers are still in this
// core's cache.

// folder is the accumulator of a run of a pipe's fold: the pipe opened for
// the run, and what its items have folded into.
type folder[A any] struct {
	feed func(lo, hi int)
	acc  A
}

// foldRuns folds the items of p into accumulators that init makes, one per
// run of adjacent pieces, each fed through a feeder of its own whose sink
// sinkOf makes, and merges them in order.
func foldRuns[T, A any](p Pipe[T], init func() A, sinkOf func(f *folder[A]) func([]T), merge func(A, A) A, opts []par.Option) A {
	cfg := p.config(opts)
	return foldOn(&cfg, p.n, init, func(f *folder[A]) func(lo, hi int) {
		feed, sink := p.open(), sinkOf(f)
		return func(lo, hi int) { feed(lo, hi, sink) }
	}, merge)
}

// foldOn folds the positions [0, n) into accumulators that init makes,
// one per run of adjacent pieces, each fed by the function that open makes
// for it, and merges them in order.
func foldOn[A any](cfg *engine.Config, n int, init func() A, open func(f *folder[A]) func(lo, hi int), merge func(A, A) A) A {
	r := runFold("pipe.Fold", cfg, n, func() *folder[A] {
		f := &folder[A]{acc: init()}
		f.feed = open(f)
		return f
	}, func(f *folder[A], lo, hi int) *folder[A] {
		f.feed(lo, hi)
		return f
	}, func(a, b *folder[A]) *folder[A] {
		// The folders are the engine's accumulators, each new: look at
		// what init made. Only Fold's can be one (ReduceBy makes its own
		// maps).
		accum.Distinct("pipe", "Fold", a.acc, b.acc)
		a.acc = merge(a.acc, b.acc)
		return a
	})
	return r.acc
}

// Fold folds the items of p: fold(acc, x) folds each item into an
// accumulator that init made, and merge combines the accumulators of two
// adjacent parts of the pipe, left then right. It is par.Fold at the end of
// a fused pipeline (Rayon's fold followed by reduce), and init is a
// constructor, not a value, so that an accumulator that is a map or a slice
// is never shared by two goroutines by mistake:
//
//	counts := pipe.Fold(pipe.Fields(text), func() map[string]int { return map[string]int{} },
//		func(m map[string]int, w string) map[string]int { m[w]++; return m },
//		mergeCounts)
//
// merge must be associative, and fold must agree with it: folding the items
// of two adjacent parts one after the other into one accumulator gives what
// merging their two folds gives. The result is then that of the sequential
// fold over the items in order, whatever the timing. An empty pipe gives
// init().
//
// One accumulator serves a run of adjacent pieces, as in par.FoldRange: init
// runs about once per participant of the call, a few times more when pieces
// are stolen, not with the call's length; the pipe's stages are opened once
// per accumulator. init must return a new accumulator at each call: a call
// whose merge would get one accumulator (a map, pointer, slice or channel)
// as both left and right panics, naming init. init, fold and merge run in
// parallel, as in par.FoldRange: fold concurrently with itself on other
// accumulators, never on one at once; writes made by them happen before
// Fold returns.
//
// Where merge needs no order (a map of counts or sums, the One Billion Row
// Challenge), ForEachInit makes fewer accumulators: one per participant,
// whatever the steals, which the caller merges as the hand-written
// goroutine-per-core programs merge theirs. Keeping the order costs an
// accumulator per steal: about 7 maps per call of W12 of `go run ./bench`
// on two cores, against 2.
func Fold[T, A any](p Pipe[T], init func() A, fold func(acc A, x T) A, merge func(left, right A) A, opts ...par.Option) A {
	switch {
	case init == nil:
		panic("pipe: Fold: init is nil")
	case fold == nil:
		panic("pipe: Fold: fold is nil")
	case merge == nil:
		panic("pipe: Fold: merge is nil")
	}
	return foldRuns(p, init, func(f *folder[A]) func([]T) {
		return func(xs []T) {
			acc := f.acc
			for _, x := range xs {
				acc = fold(acc, x)
			}
			f.acc = acc
		}
	}, merge, opts)
}

// ForEachInit calls f(s, x) for every item x of p, in parallel, where s is a
// value made by init and used by one goroutine at a time, as
// par.ForEachInit does, and returns every value that init made, in no
// particular order: Rayon's for_each_init, with the values handed back. init
// runs about once per participant of the call; the pipe's stages are opened
// once per value. Writes made by f and init happen before ForEachInit
// returns; after a panic in either, the values are lost.
//
// init runs concurrently with itself and with the stages' functions, and f
// with itself on other items, on the pool's workers and the calling
// goroutine, but never on one value s at once.
func ForEachInit[T, S any](p Pipe[T], init func() S, f func(s S, x T), opts ...par.Option) []S {
	switch {
	case init == nil:
		panic("pipe: ForEachInit: init is nil")
	case f == nil:
		panic("pipe: ForEachInit: f is nil")
	}
	type state struct {
		feed func(lo, hi int)
		s    S
	}
	cfg := p.config(opts)
	sts := runEach("pipe.ForEachInit", &cfg, p.n, func() *state {
		st := &state{s: init()}
		feed := p.open()
		sink := func(xs []T) {
			for _, x := range xs {
				f(st.s, x)
			}
		}
		st.feed = func(lo, hi int) { feed(lo, hi, sink) }
		return st
	}, func(st *state, lo, hi int) { st.feed(lo, hi) })
	out := make([]S, len(sts))
	for i, st := range sts {
		out[i] = st.s
	}
	return out
}

// MapInit returns the pipeline of f(s, x) for every item x of p, in order,
// where s is a value made by init and used by one goroutine at a time: a
// scratch buffer, a decoder, a random generator (Rayon's map_init). init runs
// each time a terminal opens the pipe for a goroutine: about once per
// participant of the terminal's call, and once per accumulator of a Fold or
// ReduceBy. The values are dropped when the terminal returns; ForEachInit
// hands its values back. init runs concurrently with itself and with the
// stages' functions, and f with itself on other items, but never on one value
// s at once; writes made by them happen before the terminal returns.
func MapInit[T, S, R any](p Pipe[T], init func() S, f func(s S, x T) R) Pipe[R] {
	switch {
	case init == nil:
		panic("pipe: MapInit: init is nil")
	case f == nil:
		panic("pipe: MapInit: f is nil")
	}
	return mapEach(p, func() func(T) R {
		s := init()
		return func(x T) R { return f(s, x) }
	})
}
