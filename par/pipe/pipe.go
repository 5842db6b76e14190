// Package pipe chains parallel stages over a slice, a range or a text into
// one fused pass: Map, then Filter, then Sum over ten million elements reads
// each element once and makes no intermediate slice.
//
//	total := pipe.Sum(pipe.Map(pipe.From(xs), square).Filter(isEven))
//
// # What to call
//
//   - a source: [From] (a slice), [Range], [Zip] and [Zip3] (slices walked
//     together), [Chunks], [ChunksExact] and [Windows] (subslices); a text:
//     [Split], [Lines], [Fields], [LineChunks]; a file: [NewReader]
//   - stages: [Map], [Pipe.Filter], [Pipe.Inspect], [FlatMap], [MapInit] (a
//     scratch value per goroutine); with the item's position: [MapIndex],
//     [Pipe.FilterIndex]; part of a pipe: [Pipe.Take], [Pipe.Skip],
//     [Pipe.StepBy], [Pipe.Rev], [Pipe.TakeWhile], [Pipe.SkipWhile]
//   - terminals, which run the pipe: [Sum], [Product], [Min], [Max],
//     [Pipe.Count], [Pipe.Collect], [Pipe.Reduce], [Fold], [Pipe.ForEach],
//     [Pipe.ForEachIndex], [ForEachInit]; a search: [Pipe.Find],
//     [Pipe.FindLast], [Pipe.IndexFunc], [Pipe.LastIndexFunc], [Pipe.Any],
//     [Pipe.All]; per key: [ReduceBy], [FoldBy], [CountBy], [GroupBy], and
//     over bytes a source reuses (a file's [Reader.LineBytes]),
//     [ReduceBytesBy], [FoldBytesBy]
//
// Go methods cannot take type parameters, so the stages that keep the item
// type are methods, and those that change it, or need a constraint, are
// functions. A Pipe is a value: stages return new Pipes, and one Pipe may
// feed several terminals.
//
// # Concurrency and order
//
// A Pipe describes the work; nothing runs until a terminal is called, except
// TakeWhile and SkipWhile, which find their cut at once with a parallel
// find-first. The terminal cuts the source's positions as the par functions
// do, and each piece runs every stage on its items in batches. So the
// functions of a pipe's stages run concurrently with themselves and with each
// other on different items, on the pool's workers and the terminal's calling
// goroutine; an item goes through the stages in order, on one goroutine, and
// writes made by the functions happen before the terminal returns. Results
// keep the source's order. A panic in a stage's function reaches the
// terminal's caller as in package par. A stage costs one call of its function
// per item and no allocation per item: its buffers are made once per
// goroutine that runs pieces of the terminal's call.
//
// # Positions
//
// MapIndex, FilterIndex, ForEachIndex, IndexFunc and LastIndexFunc give each
// item's position in the pipe's source (the index in the slice of From, Zip
// or Chunks, the offset of Range, the byte at which a piece of Split, Lines
// or Fields starts), whatever Filter, Map or FlatMap stages stand between:
// after Filter an item keeps its source position, and every item FlatMap
// makes from x has x's. Take, Skip, StepBy, Rev, TakeWhile and SkipWhile make
// a new view, and positions after them count in that view. In a one-to-one
// pipe the position is a counter and costs nothing; past a Filter or FlatMap
// it travels as one int per item, and only when a stage asks for it.
package pipe

import (
	"fmt"

	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/par"
)

// batch is the most items a stage hands to the next one at a time: large
// enough to amortize a call per batch, small enough to stay in L1.
const batch = 256

// batchEnd returns where the run of source positions that holds lo ends: at
// the next multiple of batch, or at hi if that comes first (see feeder).
func batchEnd(lo, hi int) int { return runEnd(lo, hi, batch) }

// runEnd returns the next multiple of size after lo, or hi if that comes
// first. It adds to lo only what fits before hi, so a range that ends at
// math.MaxInt does not wrap around.
func runEnd(lo, hi, size int) int {
	if r := size - lo%size; hi-lo > r {
		return lo + r
	}
	return hi
}

// Pipe is a parallel pipeline of items of type T, drawn from a source of
// Len() positions. A Pipe is a value; stages return new Pipes and never
// modify their input, so a Pipe may be used by several terminals.
type Pipe[T any] struct {
	n int
	// oneToOne: every source position yields exactly one item (no Filter),
	// so a collect can write each item in place.
	oneToOne bool
	// bare: the items are the source's, with no function of the caller's
	// run to make them (no stage, nor Zip's f), so Count of a one-to-one
	// bare pipe may answer from n without feeding it.
	bare bool
	// open makes a feeder for one piece of the range, with the buffers of
	// every stage allocated once, so that feeding costs no allocation.
	open func() feeder[T]
	// openPos, if not nil, makes a feeder that also hands over the source
	// position of every item (see index.go). Nil means: derived from open
	// when oneToOne, unknown otherwise. Only the stages that need positions
	// call it, so a pipe that never asks for them pays nothing.
	openPos func() posFeeder[T]
	// add, if not nil, is an adder[T] (zipsum.go) that Sum uses in place of
	// open: set by Zip alone, and dropped by every stage after it, since
	// each builds a new Pipe.
	add any
	// cover, unless nil, tells a terminal's call how far the work done
	// covers from a position (engine.Config.Covered): set by Split,
	// Lines and Fields (a long piece read once), kept by the stages
	// whose positions are their input's (Map, Filter, Inspect, FlatMap and
	// the index stages), dropped by the views (Take, Skip, TakeWhile, ...).
	cover func(pos int) int
	// count, if not nil, is what a text source knows beyond its feeder: set
	// by the text sources, and dropped by every stage, since each builds a
	// new Pipe. Count and Collect use it (collectCounted).
	count *counter[T]
	// spans, if not nil, is the *sepSpans[T] of a source that cuts a text
	// at a separator (textfold.go), for the terminals that fold its pieces
	// as they are cut: set by Split and Lines, and a Reader's, and dropped
	// by every stage.
	spans any
}

// counter is what a text source with no stage knows beyond its feeder.
type counter[T any] struct {
	src countedSource[T]
	// alone is how long a text Collect runs alone (collectAlone).
	alone aloneSizes
}

// textSource is a source that cuts a text into pieces (see textPipe).
type textSource[T any] interface {
	// feed hands sink the pieces that start in [lo, hi), as feedSep does.
	feed(lo, hi int, buf []T, pbuf []int, sink func([]int, []T)) int
	// opened is called as each feeder of a terminal's call is opened
	// (text.opened).
	opened()
}

// countedSource is a textSource that counts its pieces.
type countedSource[T any] interface {
	textSource[T]
	// count counts the pieces that start in [lo, hi) without making them
	// (a byte count finds the pieces of Split and Lines).
	count(lo, hi int) int
}

// count counts the items of the positions [lo, hi) without making them.
func (c *counter[T]) count(lo, hi int) int { return c.src.count(lo, hi) }

// opened is called once by a terminal's call that feeds the source itself.
func (c *counter[T]) opened() { c.src.opened() }

// all returns the pieces of the text of n positions, appended on the
// calling goroutine through a feeder's first, short buffer (firstRoom).
func (c *counter[T]) all(n int) []T {
	out := []T{}
	c.opened()
	c.src.feed(0, n, make([]T, 0, firstRoom), nil, func(_ []int, xs []T) { out = append(out, xs...) })
	return out
}

// fill writes the pieces that start in [lo, hi) into dst, which is exactly
// as long as count says they are: in place, with no batch buffer to copy
// from, and no call a batch. The caller has called c.opened for its call.
func (c *counter[T]) fill(lo, hi int, dst []T) {
	c.src.feed(lo, hi, dst[:0], nil, nil)
}

// aloneSizes are the longest texts of a source that Collect runs on the
// calling goroutine: of short pieces (dense), and of long ones. A call that
// short would end before a worker woke to help it.
type aloneSizes struct{ sparse, dense int }

// longest returns the longest text to run alone, of short pieces or not.
func (a aloneSizes) longest(dense bool) int {
	if dense {
		return a.dense
	}
	return a.sparse
}

// config resolves opts for a terminal's call over p's positions, with
// p.cover.
func (p Pipe[T]) config(opts []par.Option) engine.Config {
	c := configure(opts)
	c.Covered = p.cover
	return c
}

// A feeder calls sink with the items of the source positions [lo, hi), in
// order, in batches: exactly one batch (maybe empty) per call of the
// source's sink, which gets one batch per run of up to `batch` positions
// aligned to multiples of batch (a text source packs up to batch pieces from
// several runs into one batch, and skips runs that hold none: see feedSep).
// sink must not keep a batch after it returns.
// A feeder belongs to one goroutine, and may be called any number of times,
// on any ranges, in any order.
//
// What a stage may rely on is weaker than that, since some stages rebatch:
// every batch holds at most `batch` items, and the items come in order. A
// FlatMap hands over its items in as many batches as they fill, and
// SkipWhile past a Filter or FlatMap may hand over one run in two batches,
// since the runs of the pipe and of its source are aligned differently.
type feeder[T any] func(lo, hi int, sink func([]T))

// Len returns the number of source positions of p: its item count if no
// Filter is among its stages, an upper bound otherwise.
func (p Pipe[T]) Len() int { return p.n }

// From returns the pipeline of the elements of s, in order. The stages read
// s while a terminal runs; s must not be modified until it returns.
func From[S ~[]E, E any](s S) Pipe[E] {
	return Pipe[E]{n: len(s), oneToOne: true, bare: true, open: func() feeder[E] {
		return func(lo, hi int, sink func([]E)) {
			for lo < hi {
				next := batchEnd(lo, hi)
				sink(s[lo:next])
				lo = next
			}
		}
	}}
}

// Range returns the pipeline of the integers lo, lo+1, ..., hi-1; empty if
// hi <= lo. It panics if there are more than math.MaxInt of them.
func Range(lo, hi int) Pipe[int] {
	n := 0
	if hi > lo {
		n = hi - lo
		if n < 0 { // wrapped around
			panic(fmt.Sprintf("pipe: Range(%d, %d): more than math.MaxInt items", lo, hi))
		}
	}
	return Pipe[int]{n: n, oneToOne: true, bare: true, open: func() feeder[int] {
		buf := make([]int, batch)
		return func(a, b int, sink func([]int)) {
			for a < b {
				next := batchEnd(a, b)
				k := next - a
				for i := range k {
					buf[i] = lo + a + i
				}
				sink(buf[:k])
				a = next
			}
		}
	}}
}

// A stage's work is a step: it turns one batch, xs, into the batch it hands
// on, with their source positions. pos holds the positions of xs when a
// stage after it or the terminal asked for them, and is nil otherwise; the
// step returns its batch's positions, or nil when pos is nil. A step that
// keeps every item returns pos itself. A step belongs to one feeder, which
// makes it (and its buffers) once, and reuses it from one batch to the next.
//
// A stage is written once, as its step, and stage derives both of its
// feeders from it: the plain one, which calls the step with nil positions
// (one call per batch, the only cost over a feeder written out by hand), and
// the one that carries positions (liftPos, index.go), which is built only
// when asked for. A stage that reads the positions (MapIndex, FilterIndex)
// gets them in both: its plain feeder drops them after it (dropPos).
type stageStep[T, R any] func(pos []int, xs []T) ([]int, []R)

// stage returns the pipe of a stage over p whose step mk makes once per
// feeder. oneToOne tells whether the stage keeps every item (Map, Inspect)
// or may drop some (Filter).
func stage[T, R any](p Pipe[T], oneToOne bool, mk func() stageStep[T, R]) Pipe[R] {
	return Pipe[R]{n: p.n, oneToOne: oneToOne && p.oneToOne, cover: p.cover, openPos: liftPos(p, oneToOne, mk), open: func() feeder[R] {
		up := p.open()
		step := mk()
		var sink func([]R)
		each := func(xs []T) {
			_, out := step(nil, xs)
			sink(out)
		}
		return func(lo, hi int, s func([]R)) {
			sink = s
			up(lo, hi, each)
		}
	}}
}

// Map returns the pipeline of f(x) for every item x of p, in order. f runs in
// parallel; writes made by f happen before the terminal returns.
//
// f runs when a terminal runs the pipe, concurrently with itself and with the
// other stages' functions on different items, once per item, on the pool's
// workers and the terminal's calling goroutine.
func Map[T, R any](p Pipe[T], f func(T) R) Pipe[R] {
	if f == nil {
		panic("pipe: Map: f is nil")
	}
	return mapEach(p, func() func(T) R { return f })
}

// mapEach is Map with the function made by mk each time the pipe is opened
// for a goroutine (MapInit's calls init there).
func mapEach[T, R any](p Pipe[T], mk func() func(T) R) Pipe[R] {
	return stage(p, true, func() stageStep[T, R] {
		f := mk()
		buf := make([]R, batch)
		return func(pos []int, xs []T) ([]int, []R) {
			out := buf[:len(xs)]
			for i, x := range xs {
				out[i] = f(x)
			}
			return pos, out
		}
	})
}

// Filter returns the pipeline of the items x of p for which keep(x) is true,
// in order.
//
// keep runs when a terminal runs the pipe, concurrently with itself and with
// the other stages' functions on different items, once per item, on the
// pool's workers and the terminal's calling goroutine.
func (p Pipe[T]) Filter(keep func(T) bool) Pipe[T] {
	if keep == nil {
		panic("pipe: Filter: keep is nil")
	}
	return stage(p, false, func() stageStep[T, T] {
		buf := make([]T, batch)
		var pbuf []int // made the first time positions come
		return func(pos []int, xs []T) ([]int, []T) {
			if pos != nil && pbuf == nil {
				pbuf = make([]int, batch)
			}
			m := 0
			for i, x := range xs {
				if keep(x) {
					buf[m] = x
					if pos != nil {
						pbuf[m] = pos[i]
					}
					m++
				}
			}
			if pos == nil {
				return nil, buf[:m]
			}
			return pbuf[:m], buf[:m]
		}
	})
}

// Inspect returns p with f called on every item as it passes, for side
// effects such as counting or logging; f runs when a terminal runs the pipe,
// concurrently with itself and with the other stages' functions on different
// items, once per item, on the pool's workers and the terminal's calling
// goroutine.
func (p Pipe[T]) Inspect(f func(T)) Pipe[T] {
	if f == nil {
		panic("pipe: Inspect: f is nil")
	}
	return stage(p, true, func() stageStep[T, T] {
		return func(pos []int, xs []T) ([]int, []T) {
			for _, x := range xs {
				f(x)
			}
			return pos, xs
		}
	})
}
