package par

import (
	"cmp"
	"slices"

	"github.com/weftgo/weft/split"
)

// Min returns the minimal value in s, exactly as slices.Min does: it panics if
// s is empty, and for floating-point numbers a NaN anywhere makes the result
// NaN (the same NaN, bit for bit).
func Min[S ~[]E, E cmp.Ordered](s S, opts ...Option) E {
	if len(s) == 0 {
		panic("par.Min: empty list")
	}
	m := extreme(s, true, opts)
	if m != m {
		// A NaN: its payload depends on the order of the min operations, so
		// take the one slices.Min makes. Rare, and no slower than the loop.
		return slices.Min(s)
	}
	return m
}

// Max returns the maximal value in s, as slices.Max does: it panics if s is
// empty, and for floating-point numbers a NaN anywhere makes the result NaN.
func Max[S ~[]E, E cmp.Ordered](s S, opts ...Option) E {
	if len(s) == 0 {
		panic("par.Max: empty list")
	}
	m := extreme(s, false, opts)
	if m != m {
		return slices.Max(s) // a NaN: see Min
	}
	return m
}

// extreme folds s with the built-in min (isMin) or max: the leaves loop with
// the built-in itself, which the compiler inlines, not through a func value.
func extreme[S ~[]E, E cmp.Ordered](s S, isMin bool, opts []Option) E {
	c := configure(opts)
	op := func(a, b E) E { return max(a, b) }
	if isMin {
		op = func(a, b E) E { return min(a, b) }
	}
	return run(&c, len(s), split.Work[some[E]]{Name: "par.Min/Max",
		Fold: func(acc some[E], lo, hi int) some[E] {
			m := acc.v
			if !acc.ok {
				m, lo = s[lo], lo+1
			}
			if isMin {
				for _, e := range s[lo:hi] {
					m = min(m, e)
				}
			} else {
				for _, e := range s[lo:hi] {
					m = max(m, e)
				}
			}
			return some[E]{m, true}
		},
		Merge: func(a, b some[E]) some[E] { return some[E]{op(a.v, b.v), true} },
	}).v
}

// MinFunc returns the minimal value in s according to cmp, as slices.MinFunc
// does: if several are minimal, the first one; it panics if s is empty.
//
// cmp runs concurrently with itself on different pairs of elements, on the
// pool's workers and the calling goroutine.
func MinFunc[S ~[]E, E any](s S, cmp func(a, b E) int, opts ...Option) E {
	if cmp == nil {
		panic("par: MinFunc: cmp is nil")
	}
	if len(s) == 0 {
		panic("par.MinFunc: empty list")
	}
	return pick(s, func(best, e E) bool { return cmp(e, best) < 0 }, opts)
}

// MaxFunc returns the maximal value in s according to cmp, as slices.MaxFunc
// does: if several are maximal, the first one; it panics if s is empty.
//
// cmp runs concurrently with itself on different pairs of elements, on the
// pool's workers and the calling goroutine.
func MaxFunc[S ~[]E, E any](s S, cmp func(a, b E) int, opts ...Option) E {
	if cmp == nil {
		panic("par: MaxFunc: cmp is nil")
	}
	if len(s) == 0 {
		panic("par.MaxFunc: empty list")
	}
	return pick(s, func(best, e E) bool { return cmp(e, best) > 0 }, opts)
}

// pick returns the element that wins a left-to-right tournament in which a
// later element replaces the best so far only if better(best, e): the first of
// the best ones. Pieces combine the same way, left before right.
func pick[S ~[]E, E any](s S, better func(best, e E) bool, opts []Option) E {
	c := configure(opts)
	return run(&c, len(s), split.Work[some[E]]{Name: "par.MinFunc/MaxFunc", Key: siteKey(better),
		Fold: func(acc some[E], lo, hi int) some[E] {
			m := acc.v
			if !acc.ok {
				m, lo = s[lo], lo+1
			}
			for _, e := range s[lo:hi] {
				if better(m, e) {
					m = e
				}
			}
			return some[E]{m, true}
		},
		Merge: func(l, r some[E]) some[E] {
			if better(l.v, r.v) {
				return r
			}
			return l
		},
	}).v
}
