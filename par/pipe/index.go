package pipe

import (
	"fmt"

	"github.com/weftgo/weft/internal/find"
	"github.com/weftgo/weft/par"
)

// Source positions.
//
// The index that MapIndex, FilterIndex, ForEachIndex, IndexFunc and
// LastIndexFunc give is the item's position in the pipe's source: the index
// in the slice of From, Zip or Chunks, the offset of Range, or the byte at
// which a piece of Split, Lines or Fields starts, whatever Filter, Map or
// FlatMap stages stand between the source and the call. After Filter, an item
// keeps the position it had in the source; after FlatMap, every item made
// from x has x's position. Take, Skip, StepBy, Rev, TakeWhile and SkipWhile
// make a new view of their pipe, and positions after them are positions in
// that view: Skip(3) then MapIndex counts from 0, as Rayon's
// skip(3).enumerate() does.
//
// Positions travel only where they are asked for. In a one-to-one pipe (no
// stage that drops or adds items) the k-th item of a call feed(lo, hi) is at
// position lo+k, so a counter gives the positions at no cost. Past a Filter
// or FlatMap, or from a text source, that no longer holds, and each stage
// keeps, beside its feeder, a recipe (Pipe.openPos) for a second feeder that
// hands over the position of every item with the item. The recipe is only
// followed when a stage that needs positions opens the pipe for a terminal; a
// pipe that never asks for them builds no position buffer and runs exactly as
// without this mechanism. The cost when asked for: one int per item written
// and read, in a buffer of `batch` ints per stage and piece.
//
// Rejected: carrying the positions in every batch always (a cost for every
// pipe, used by few), and a position per item inside the item (an Enumerate
// stage yielding pairs: a tuple type in every user's signature, and no way
// for Filter to keep the pair without knowing it).

// A posFeeder is a feeder that also hands over the source position of every
// item: pos[k] is the position of xs[k], and len(pos) == len(xs) <= batch.
type posFeeder[T any] func(lo, hi int, sink func(pos []int, xs []T))

// positions returns the recipe for p's positional feeder, or nil if the
// positions of p's items are not known (a stage or source that does not keep
// them).
func (p Pipe[T]) positions() func() posFeeder[T] {
	if p.openPos != nil {
		return p.openPos
	}
	if !p.oneToOne {
		return nil
	}
	return func() posFeeder[T] {
		up := p.open()
		pos := make([]int, batch)
		var sink func([]int, []T)
		at := 0
		each := func(xs []T) {
			ps := pos[:len(xs)]
			for k := range ps {
				ps[k] = at + k
			}
			at += len(xs)
			sink(ps, xs)
		}
		return func(lo, hi int, s func([]int, []T)) {
			sink, at = s, lo
			up(lo, hi, each)
		}
	}
}

// mustPositions is positions for a call named name that cannot do without
// them.
func (p Pipe[T]) mustPositions(name string) func() posFeeder[T] {
	open := p.positions()
	if open == nil && p.n > 0 {
		panic(fmt.Sprintf("pipe: %s: the source positions of the pipe's items are not known: a stage or source that does not keep them is among its stages", name))
	}
	if open == nil { // an empty pipe: nothing to feed
		return func() posFeeder[T] { return func(int, int, func([]int, []T)) {} }
	}
	return open
}

// liftPos returns the recipe for the positional feeder of a stage over p
// whose step mk makes once per feeder (see stageStep). It returns nil when
// p's positions are not known, or when p is one-to-one and the stage keeps
// that (keepsOneToOne), since the stage's positions are then a counter over
// its plain feeder (Pipe.positions).
func liftPos[T, R any](p Pipe[T], keepsOneToOne bool, mk func() stageStep[T, R]) func() posFeeder[R] {
	if keepsOneToOne && p.oneToOne {
		return nil
	}
	up := p.positions()
	if up == nil {
		return nil
	}
	return func() posFeeder[R] {
		feed := up()
		step := mk()
		var sink func([]int, []R)
		each := func(pos []int, xs []T) { sink(step(pos, xs)) }
		return func(lo, hi int, s func([]int, []R)) {
			sink = s
			feed(lo, hi, each)
		}
	}
}

// MapIndex returns the pipeline of f(i, x) for every item x of p, in order,
// where i is x's position in p's source (see the package's notes on
// positions): after a Filter, still the position in the source slice. f runs
// when a terminal runs the pipe, concurrently with itself and with the other
// stages' functions on different items, once per item, on the pool's workers
// and the terminal's calling goroutine; writes made by f happen before the
// terminal returns.
//
// On a one-to-one pipe the position is a counter and costs nothing; after a
// Filter or FlatMap it costs one int per item through each stage from the
// last one-to-one point on. It panics if p's positions are not known (a
// stage from outside this file's family that drops them).
func MapIndex[T, R any](p Pipe[T], f func(i int, x T) R) Pipe[R] {
	if f == nil {
		panic("pipe: MapIndex: f is nil")
	}
	if p.oneToOne {
		return Pipe[R]{n: p.n, oneToOne: true, cover: p.cover, open: func() feeder[R] {
			up := p.open()
			buf := make([]R, batch)
			var sink func([]R)
			at := 0
			each := func(xs []T) {
				out := buf[:len(xs)]
				for k, x := range xs {
					out[k] = f(at+k, x)
				}
				at += len(xs)
				sink(out)
			}
			return func(lo, hi int, s func([]R)) {
				sink, at = s, lo
				up(lo, hi, each)
			}
		}}
	}
	up := p.mustPositions("MapIndex")
	step := func() stageStep[T, R] {
		buf := make([]R, batch)
		return func(pos []int, xs []T) ([]int, []R) {
			out := buf[:len(xs)]
			for k, x := range xs {
				out[k] = f(pos[k], x)
			}
			return pos, out
		}
	}
	return Pipe[R]{n: p.n, cover: p.cover, open: dropPos(up, step), openPos: liftPos(p, false, step)}
}

// dropPos makes the plain feeder of a stage that needs the positions of its
// input but whose output's positions nobody asked for.
func dropPos[T, R any](up func() posFeeder[T], mk func() stageStep[T, R]) func() feeder[R] {
	return func() feeder[R] {
		feed := up()
		step := mk()
		var sink func([]R)
		each := func(pos []int, xs []T) {
			_, out := step(pos, xs)
			sink(out)
		}
		return func(lo, hi int, s func([]R)) {
			sink = s
			feed(lo, hi, each)
		}
	}
}

// withoutPos makes the plain feeder of a pipe whose feeder must carry
// positions.
func withoutPos[T any](open func() posFeeder[T]) func() feeder[T] {
	return func() feeder[T] {
		feed := open()
		var sink func([]T)
		fwd := func(_ []int, xs []T) { sink(xs) }
		return func(lo, hi int, s func([]T)) {
			sink = s
			feed(lo, hi, fwd)
		}
	}
}

// FilterIndex returns the pipeline of the items x of p for which keep(i, x)
// is true, in order, where i is x's position in p's source. The items keep
// their positions, so a MapIndex after it still sees source positions. It
// panics if p's positions are not known.
//
// keep runs when a terminal runs the pipe, concurrently with itself and with
// the other stages' functions on different items, once per item, on the
// pool's workers and the terminal's calling goroutine.
func (p Pipe[T]) FilterIndex(keep func(i int, x T) bool) Pipe[T] {
	if keep == nil {
		panic("pipe: FilterIndex: keep is nil")
	}
	up := p.mustPositions("FilterIndex")
	step := func() stageStep[T, T] {
		buf := make([]T, batch)
		pbuf := make([]int, batch)
		return func(pos []int, xs []T) ([]int, []T) {
			m := 0
			for k, x := range xs {
				if keep(pos[k], x) {
					buf[m], pbuf[m] = x, pos[k]
					m++
				}
			}
			return pbuf[:m], buf[:m]
		}
	}
	return Pipe[T]{n: p.n, cover: p.cover, open: dropPos(up, step), openPos: liftPos(p, false, step)}
}

// ForEachIndex calls f(i, x) on every item x of p, where i is x's position in
// p's source, in parallel, and returns when every call has returned. It
// panics if p's positions are not known.
//
// f runs concurrently with itself and with the pipe's stages on different
// items, once per item, on the pool's workers and the calling goroutine.
func (p Pipe[T]) ForEachIndex(f func(i int, x T), opts ...par.Option) {
	if f == nil {
		panic("pipe: ForEachIndex: f is nil")
	}
	open := p.mustPositions("ForEachIndex")
	ls := (&leaves[struct{}]{open: func(st *leafState[struct{}]) {
		feed := open()
		sink := func(pos []int, xs []T) {
			for k, x := range xs {
				f(pos[k], x)
			}
		}
		st.feed = func(lo, hi int) { feed(lo, hi, sink) }
	}}).warm(p.n)
	cfg := p.config(opts)
	runFor("pipe.ForEachIndex", &cfg, p.n, func(lo, hi int) {
		st := ls.get(lo)
		st.feed(lo, hi)
		ls.put(st, hi)
	})
}

// IndexFunc returns the source position of the first item of p, in order,
// for which pred is true, or -1 if there is none. Pieces after a match stop
// within a batch of 256 positions and pieces not yet started are skipped, as
// in Find. It panics if p's positions are not known.
//
// pred runs concurrently with itself and with the pipe's stages on different
// items, at most once per item, on the pool's workers and the calling
// goroutine; items past the match may be tested or not.
func (p Pipe[T]) IndexFunc(pred func(T) bool, opts ...par.Option) int {
	if pred == nil {
		panic("pipe: IndexFunc: pred is nil")
	}
	if h := findFirst(p, pred, "IndexFunc", opts); h != nil {
		return h.pos
	}
	return -1
}

// LastIndexFunc returns the source position of the last item of p, in
// order, for which pred is true, or -1 if there is none. It is Find run from
// the end: the range is cut from its end, each piece looks at its batches
// from the last one back, and a piece stops once a match at a later position
// is known. It panics if p's positions are not known.
//
// pred runs concurrently with itself and with the pipe's stages on different
// items, at most once per item, on the pool's workers and the calling
// goroutine; items before the match may be tested or not.
func (p Pipe[T]) LastIndexFunc(pred func(T) bool, opts ...par.Option) int {
	if pred == nil {
		panic("pipe: LastIndexFunc: pred is nil")
	}
	i, _ := findLast(p, pred, "LastIndexFunc", opts)
	return i
}

// FindLast returns the last item of p, in order, for which pred is true, and
// true; or the zero value and false. It stops early as LastIndexFunc does.
//
// pred runs concurrently with itself and with the pipe's stages on different
// items, at most once per item, on the pool's workers and the calling
// goroutine; items before the match may be tested or not.
func (p Pipe[T]) FindLast(pred func(T) bool, opts ...par.Option) (T, bool) {
	if pred == nil {
		panic("pipe: FindLast: pred is nil")
	}
	i, x := findLast(p, pred, "FindLast", opts)
	return x, i >= 0
}

// hit is a match of a find: the item, its source position, and how many
// items at that position came before it (a FlatMap makes several).
type hit[T any] struct {
	pos, rank int
	x         T
}

// findFirst returns the first item of p with pred, or nil.
func findFirst[T any](p Pipe[T], pred func(T) bool, name string, opts []par.Option) *hit[T] {
	open := p.mustPositions(name)
	bd := find.First()
	ls := (&leaves[*hit[T]]{open: func(st *leafState[*hit[T]]) {
		feed := open()
		last, rank := -1, 0 // the position of the item before, and the items at it before this one
		sink := func(pos []int, xs []T) {
			for k, x := range xs {
				if st.acc != nil {
					return
				}
				if pos[k] == last {
					rank++
				} else {
					last, rank = pos[k], 0
				}
				if pred(x) {
					st.acc = &hit[T]{pos[k], rank, x}
				}
			}
		}
		// The items of a position all come within one call of the feeder.
		st.feed = func(lo, hi int) { last = -1; feed(lo, hi, sink) }
	}}).warm(p.n)
	cfg := p.config(opts)
	return runReduce("pipe.findFirst", &cfg, p.n, (*hit[T])(nil), func(lo, hi int) *hit[T] {
		st := ls.get(lo)
		bd.Scan(lo, hi, func(a, c int) int { return feedHit(st, a, c) })
		h := st.acc
		ls.put(st, hi) // not deferred: a state whose callback panicked is dropped
		return h
	}, leftmost[hit[T]])
}

// findLast returns the position and value of the last item of p with pred,
// or -1 and the zero value.
func findLast[T any](p Pipe[T], pred func(T) bool, name string, opts []par.Option) (int, T) {
	open := p.mustPositions(name)
	bd := find.Last()
	ls := (&leaves[*hit[T]]{open: func(st *leafState[*hit[T]]) {
		feed := open()
		sink := func(pos []int, xs []T) {
			for k, x := range xs {
				if pred(x) {
					st.acc = &hit[T]{pos: pos[k], x: x}
				}
			}
		}
		st.feed = func(lo, hi int) { feed(lo, hi, sink) }
	}}).warm(p.n)
	// The pieces are cut from the mirrored range, so that the timed prefix
	// and the left-first order of the bridge start from the end, where the
	// answer is looked for first.
	cfg := configure(opts) // no cover: the range is mirrored
	found := runReduce("pipe.findLast", &cfg, p.n, (*hit[T])(nil), func(mlo, mhi int) *hit[T] {
		st := ls.get(mlo)
		bd.Scan(p.n-mhi, p.n-mlo, func(a, c int) int { return feedHit(st, a, c) })
		h := st.acc
		ls.put(st, mhi) // not deferred: a state whose callback panicked is dropped
		return h
	}, leftmost[hit[T]]) // over the mirrored range: l holds the later positions
	if found == nil {
		var zero T
		return -1, zero
	}
	return found.pos, found.x
}

// leftmost is the combine of a find's pieces: the left one's hit if it has
// one, else the right one's.
func leftmost[H any](l, r *H) *H {
	if l != nil {
		return l
	}
	return r
}

// feedHit feeds the positions [a, c) to a find's leaf state and returns the
// position of the hit it holds then, or -1.
func feedHit[T any](st *leafState[*hit[T]], a, c int) int {
	if st.feed(a, c); st.acc != nil {
		return st.acc.pos
	}
	return -1
}
