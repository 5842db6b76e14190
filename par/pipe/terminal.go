package pipe

import (
	"cmp"
	"sync/atomic"

	"github.com/weftgo/weft/internal/find"
	"github.com/weftgo/weft/internal/gather"
	"github.com/weftgo/weft/par"
)

// Collect returns the items of p in order, in a new slice. Without a Filter
// among the stages, each piece writes its items in place; with one, the
// pieces that a participant runs one after the other append to one slice,
// and these slices are concatenated, as par.Filter does.
func (p Pipe[T]) Collect(opts ...par.Option) []T {
	if p.oneToOne {
		out := make([]T, p.n)
		ls := leavesOf(p, func(st *leafState[int]) func([]T) {
			return func(xs []T) { st.acc += copy(out[st.acc:], xs) }
		})
		par.ForRange(p.n, func(lo, hi int) { ls.run(lo, hi, lo) }, opts...)
		return out
	}
	ls := leavesOf(p, func(st *leafState[[]T]) func([]T) {
		return func(xs []T) { st.acc = append(st.acc, xs...) }
	})
	var t gather.Tails[T]
	l := par.ReduceRange(p.n, gather.Chunks[T]{}, func(lo, hi int) gather.Chunks[T] {
		buf, lease := t.Take(lo)
		items := ls.run(lo, hi, buf) // put drops it from the state
		t.Leave(hi, items, lease)
		return gather.One(items)
	}, gather.Join[T], opts...)
	return l.Flatten()
}

// ForEach calls f on every item of p, in parallel, and returns when every call
// has returned.
func (p Pipe[T]) ForEach(f func(T), opts ...par.Option) {
	if f == nil {
		panic("pipe: ForEach: f is nil")
	}
	ls := leavesOf(p, func(*leafState[struct{}]) func([]T) {
		return func(xs []T) {
			for _, x := range xs {
				f(x)
			}
		}
	})
	par.ForRange(p.n, func(lo, hi int) { ls.run(lo, hi, struct{}{}) }, opts...)
}

// Count returns the number of items of p. It runs p's stages on every item,
// as Rayon's count does, since they may have effects (Inspect) or panic; only
// a pipe without any function of the caller's (a source, maybe cut by Take,
// Skip, StepBy or Rev) answers from its length alone.
func (p Pipe[T]) Count(opts ...par.Option) int {
	if p.oneToOne && p.bare {
		checkOpts(opts)
		return p.n
	}
	ls := leavesOf(p, func(st *leafState[int]) func([]T) {
		return func(xs []T) { st.acc += len(xs) }
	})
	return par.ReduceRange(p.n, 0, func(lo, hi int) int { return ls.run(lo, hi, 0) },
		func(a, b int) int { return a + b }, opts...)
}

// Reduce combines the items of p with op, keeping their order. op must be
// associative with identity as its identity element; identity is the result
// for no items. identity is a value that op combines, copied and never
// modified by the library; an accumulator that is modified in place (a map)
// wants Fold, which takes a constructor.
func (p Pipe[T]) Reduce(identity T, op func(T, T) T, opts ...par.Option) T {
	if op == nil {
		panic("pipe: Reduce: op is nil")
	}
	return Fold(p, func() T { return identity }, op, op, opts...)
}

// checkOpts checks opts as every call of par does (a zero Option, a closed
// pool) for a terminal that does not call par: a call on an empty range
// does that and nothing else.
func checkOpts(opts []par.Option) {
	if len(opts) > 0 {
		par.ForRange(0, func(int, int) {}, opts...)
	}
}

// Find returns the first item of p, in order, for which pred is true, and
// true; or the zero value and false. Pieces after a match stop early.
func (p Pipe[T]) Find(pred func(T) bool, opts ...par.Option) (T, bool) {
	if pred == nil {
		panic("pipe: Find: pred is nil")
	}
	type hit struct{ x T }
	bd := find.First() // offered the start of a match's batch: its position may be unknown
	ls := leavesOf(p, func(st *leafState[*hit]) func([]T) {
		return func(xs []T) {
			for _, x := range xs {
				if st.acc == nil && pred(x) {
					st.acc = &hit{x: x}
				}
			}
		}
	})
	found := par.ReduceRange(p.n, (*hit)(nil), func(lo, hi int) *hit {
		st := ls.get(lo)
		bd.Scan(lo, hi, func(a, c int) int {
			if st.feed(a, c); st.acc != nil {
				return a
			}
			return -1
		})
		h := st.acc
		ls.put(st, hi) // not deferred: a state whose callback panicked is dropped
		return h
	}, leftmost[hit], opts...)
	if found == nil {
		var zero T
		return zero, false
	}
	return found.x, true
}

// Any reports whether pred is true for some item of p; it stops early.
func (p Pipe[T]) Any(pred func(T) bool, opts ...par.Option) bool {
	if pred == nil {
		panic("pipe: Any: pred is nil")
	}
	var hit atomic.Bool
	ls := leavesOf(p, func(*leafState[struct{}]) func([]T) {
		return func(xs []T) {
			for _, x := range xs {
				if pred(x) {
					hit.Store(true)
					return
				}
			}
		}
	})
	par.ForRange(p.n, func(lo, hi int) {
		st := ls.get(lo)
		for a := lo; a < hi && !hit.Load(); a = batchEnd(a, hi) {
			st.feed(a, batchEnd(a, hi))
		}
		ls.put(st, hi)
	}, opts...)
	return hit.Load()
}

// All reports whether pred is true for every item of p (true if there are
// none); it stops at the first failure.
func (p Pipe[T]) All(pred func(T) bool, opts ...par.Option) bool {
	if pred == nil {
		panic("pipe: All: pred is nil")
	}
	return !p.Any(func(x T) bool { return !pred(x) }, opts...)
}

// Min returns the least item of p and true, as slices.Min would over the
// collected items (NaN wins for floats), or the zero value and false if there
// are none.
func Min[T cmp.Ordered](p Pipe[T], opts ...par.Option) (T, bool) {
	return pick(p, func(a, b T) T { return min(a, b) }, opts)
}

// Max returns the greatest item of p and true, as slices.Max would over the
// collected items, or the zero value and false if there are none.
func Max[T cmp.Ordered](p Pipe[T], opts ...par.Option) (T, bool) {
	return pick(p, func(a, b T) T { return max(a, b) }, opts)
}

type maybe[T any] struct {
	v  T
	ok bool
}

func pick[T any](p Pipe[T], better func(a, b T) T, opts []par.Option) (T, bool) {
	ls := leavesOf(p, func(st *leafState[maybe[T]]) func([]T) {
		return func(xs []T) {
			m := &st.acc
			for _, x := range xs {
				if !m.ok {
					*m = maybe[T]{x, true}
				} else {
					m.v = better(m.v, x)
				}
			}
		}
	})
	r := par.ReduceRange(p.n, maybe[T]{}, func(lo, hi int) maybe[T] { return ls.run(lo, hi, maybe[T]{}) }, func(a, b maybe[T]) maybe[T] {
		if !a.ok {
			return b
		}
		if !b.ok {
			return a
		}
		return maybe[T]{better(a.v, b.v), true}
	}, opts...)
	return r.v, r.ok
}
