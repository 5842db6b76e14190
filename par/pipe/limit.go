package pipe

import (
	"fmt"
	"slices"

	"github.com/weftgo/weft/par"
)

// Take, Skip, StepBy and Rev pick items by their index, so they need a pipe
// whose items are its source positions one for one: no Filter or FlatMap
// among its stages (Rayon asks the same of take, skip, step_by and rev: an
// IndexedParallelIterator). On any other pipe they panic at once, naming the
// call, rather than count the items first in a hidden extra pass. TakeWhile
// and SkipWhile cut at the first item that fails a predicate, which a
// find-first can locate on any pipe whose positions are known, so they take
// every pipe, and run that find-first when they are called.

// notIndexed is the panic message of a call that needs a one-to-one pipe.
func notIndexed(name string) string {
	return fmt.Sprintf("pipe: %s: needs a one-to-one pipe, and a stage that drops or adds items (Filter, FlatMap) is among p's stages", name)
}

// Take returns the pipeline of the first n items of p, in order (all of them
// if p has fewer): Rayon's take. The stages of p run only on those items. It
// costs nothing: the pipe's range is cut short. It panics if n is negative or
// if p is not one-to-one (see above).
func (p Pipe[T]) Take(n int) Pipe[T] {
	if n < 0 {
		panic(fmt.Sprintf("pipe: Take: n = %d, want n >= 0", n))
	}
	if !p.oneToOne {
		panic(notIndexed("Take"))
	}
	return Pipe[T]{n: min(n, p.n), oneToOne: true, bare: p.bare, open: p.open}
}

// Skip returns the pipeline of the items of p after the first n, in order
// (none if p has n items or fewer): Rayon's skip. The stages of p run only on
// the items kept, and positions after Skip count from 0. Unless n is a
// multiple of 256 it costs a copy per item, which keeps float sums after it
// equal to par.Sum's (see shift). It panics if n is negative or if p is not
// one-to-one (see above).
func (p Pipe[T]) Skip(n int) Pipe[T] {
	if n < 0 {
		panic(fmt.Sprintf("pipe: Skip: n = %d, want n >= 0", n))
	}
	if !p.oneToOne {
		panic(notIndexed("Skip"))
	}
	return p.shift(min(n, p.n))
}

// shift returns the view of p's source positions from cut on, counted from 0.
// A run of the view is two runs of p's source when cut is not a multiple of
// batch. For a one-to-one p the two batches are joined in a buffer (a copy
// per item), so that each run of the view is one batch, as a source's is:
// Sum then adds each block with the pattern of par.Sum, and agrees with it
// bit for bit. Past a Filter or FlatMap nothing promises that, and the
// batches pass as they come.
func (p Pipe[T]) shift(cut int) Pipe[T] {
	if cut == 0 {
		return p
	}
	q := Pipe[T]{n: p.n - cut, oneToOne: p.oneToOne, bare: p.bare, open: func() feeder[T] {
		up := p.open()
		return func(lo, hi int, sink func([]T)) { up(lo+cut, hi+cut, sink) }
	}}
	if p.oneToOne && cut%batch != 0 {
		q.open = func() feeder[T] {
			up := p.open()
			buf := make([]T, 0, batch)
			collect := func(xs []T) { buf = append(buf, xs...) }
			return func(lo, hi int, sink func([]T)) {
				for lo < hi {
					next := batchEnd(lo, hi)
					buf = buf[:0]
					up(lo+cut, next+cut, collect)
					sink(buf)
					lo = next
				}
			}
		}
	}
	if up := p.openPos; up != nil {
		q.openPos = func() posFeeder[T] {
			feed := up()
			pbuf := make([]int, batch)
			var sink func([]int, []T)
			each := func(pos []int, xs []T) {
				ps := pbuf[:len(pos)]
				for k, i := range pos {
					ps[k] = i - cut
				}
				sink(ps, xs)
			}
			return func(lo, hi int, s func([]int, []T)) {
				sink = s
				feed(lo+cut, hi+cut, each)
			}
		}
	}
	return q
}

// StepBy returns the pipeline of every k-th item of p, starting with the
// first: items 0, k, 2k, ..., in order (Rayon's step_by). The stages of p
// run only on those items, each fed on its own, which costs a call through
// p's stages per item; for a cheap source and large k that beats producing
// the items in between. It panics if k is less than 1 or if p is not
// one-to-one (see above).
func (p Pipe[T]) StepBy(k int) Pipe[T] {
	if k < 1 {
		panic(fmt.Sprintf("pipe: StepBy: k = %d, want k >= 1", k))
	}
	if !p.oneToOne {
		panic(notIndexed("StepBy"))
	}
	if k == 1 {
		return p
	}
	n := 0
	if p.n > 0 {
		n = (p.n-1)/k + 1
	}
	return Pipe[T]{n: n, oneToOne: true, bare: p.bare, open: func() feeder[T] {
		up := p.open()
		buf := make([]T, 0, batch)
		collect := func(xs []T) { buf = append(buf, xs...) }
		return func(lo, hi int, sink func([]T)) {
			for lo < hi {
				next := batchEnd(lo, hi)
				buf = buf[:0]
				for j := lo; j < next; j++ {
					up(j*k, j*k+1, collect) // j*k < p.n: no overflow
				}
				sink(buf)
				lo = next
			}
		}
	}}
}

// Rev returns the pipeline of the items of p in reverse order (Rayon's rev):
// item i of the result is item Len()-1-i of p. Each batch is produced in
// p's order and reversed in a buffer, a copy per item. It panics if p is not
// one-to-one (see above).
func (p Pipe[T]) Rev() Pipe[T] {
	if !p.oneToOne {
		panic(notIndexed("Rev"))
	}
	n := p.n
	return Pipe[T]{n: n, oneToOne: true, bare: p.bare, open: func() feeder[T] {
		up := p.open()
		buf := make([]T, 0, batch)
		collect := func(xs []T) { buf = append(buf, xs...) }
		return func(lo, hi int, sink func([]T)) {
			for lo < hi {
				next := batchEnd(lo, hi)
				buf = buf[:0]
				up(n-next, n-lo, collect)
				slices.Reverse(buf)
				sink(buf)
				lo = next
			}
		}
	}}
}

// TakeWhile returns the pipeline of the items of p before the first one, in
// order, for which pred is false (all of them if there is none): Rayon's
// take_while is sequential-only, and its parallel take_any_while keeps no
// order; this one keeps it. It works on any pipe whose positions are known:
// every pipe of this package, Filter, FlatMap and the text sources included.
// Behind a FlatMap the cut may fall between two items made from one element,
// which the terminal then tells apart by their rank at that position, at the
// cost of carrying positions through the stages.
//
// Unlike the other stages it runs at once: it finds the first failing item
// with a parallel find-first (pieces after a failure stop early, as in Find),
// with opts, and returns p cut short before it. So p's stages run on the
// items up to that one now, and again in the terminal. A panic in pred
// reaches the caller of TakeWhile.
//
// pred runs concurrently with itself and with the pipe's stages on different
// items, at most once per item, on the pool's workers and the calling
// goroutine, during the call of TakeWhile.
func (p Pipe[T]) TakeWhile(pred func(T) bool, opts ...par.Option) Pipe[T] {
	if pred == nil {
		panic("pipe: TakeWhile: pred is nil")
	}
	h := findFirst(p, func(x T) bool { return !pred(x) }, "TakeWhile", opts)
	if h == nil {
		return p
	}
	if h.rank > 0 { // the items before it at its position stay
		return p.trimAt(h.pos, h.rank, true)
	}
	return Pipe[T]{n: h.pos, oneToOne: p.oneToOne, bare: p.bare, open: p.open, openPos: p.openPos}
}

// SkipWhile returns the pipeline of the items of p from the first one, in
// order, for which pred is false (none if there is none), in order; positions
// after it count from that item's source position as 0. Like TakeWhile it
// runs a find-first at once, with opts, and works on any pipe whose positions
// are known, cutting between two items made from one element where the first
// failing item falls.
//
// pred runs concurrently with itself and with the pipe's stages on different
// items, at most once per item, on the pool's workers and the calling
// goroutine, during the call of SkipWhile.
func (p Pipe[T]) SkipWhile(pred func(T) bool, opts ...par.Option) Pipe[T] {
	if pred == nil {
		panic("pipe: SkipWhile: pred is nil")
	}
	h := findFirst(p, func(x T) bool { return !pred(x) }, "SkipWhile", opts)
	if h == nil {
		return p.shift(p.n)
	}
	if h.rank > 0 { // the items before it at its position go
		return p.trimAt(h.pos, h.rank, false).shift(h.pos)
	}
	return p.shift(h.pos)
}

// trimAt returns p with only the first k of the items at position at, and
// nothing after that position, if head; else with every item but those k.
// It is how TakeWhile and SkipWhile cut between two items that a FlatMap made
// from one element: p's positions are known (a find-first found the cut),
// and the feeders carry them, a cost the cut of a one-to-one pipe, or one
// that falls between two positions, does not pay.
func (p Pipe[T]) trimAt(at, k int, head bool) Pipe[T] {
	up := p.positions()
	n := p.n
	if head {
		n = at + 1
	}
	openPos := func() posFeeder[T] {
		feed := up()
		var sink func([]int, []T)
		seen := 0 // the items at position at fed so far in this call, which feeds them all
		each := func(pos []int, xs []T) {
			if len(pos) == 0 || pos[0] > at || pos[len(pos)-1] < at {
				sink(pos, xs)
				return
			}
			a := 0
			for pos[a] < at {
				a++
			}
			b := a
			for b < len(pos) && pos[b] == at {
				b++
			}
			m := a + min(b-a, max(0, k-seen)) // xs[a:m] are among the first k at position at
			seen += b - a
			if head {
				sink(pos[:m], xs[:m]) // no position after at is fed: n is at+1
				return
			}
			if a > 0 {
				sink(pos[:a], xs[:a])
			}
			sink(pos[m:], xs[m:])
		}
		return func(lo, hi int, s func([]int, []T)) {
			sink, seen = s, 0
			feed(lo, hi, each)
		}
	}
	return Pipe[T]{n: n, open: withoutPos(openPos), openPos: openPos}
}
