package par

import (
	"sync/atomic"

	"github.com/weftgo/weft/internal/find"

	"github.com/weftgo/weft/split"
)

// findCheck is how many elements a leaf of Any or FindAny examines between
// looks at whether a match has been found.
const findCheck = find.Run

// FindIndex returns the index of the first element of s, in order, for which
// pred is true, or -1 if there is none. Once a match is found, pieces after it
// stop within a few hundred elements and pieces not started are skipped; the
// pieces before it still run, since one of them may hold an earlier match.
//
// pred runs concurrently with itself on different elements, at most once per
// element, on the pool's workers and the calling goroutine; elements past the
// match may be tested or not.
func FindIndex[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) int {
	if pred == nil {
		panic("par: FindIndex: pred is nil")
	}
	return findFirst("par.Find", len(s), func(i int) bool { return pred(s[i]) }, opts)
}

// Find returns the first element of s, in order, for which pred is true, and
// true; or the zero value and false if there is none. It stops early as
// FindIndex does.
//
// pred runs concurrently with itself on different elements, at most once per
// element, on the pool's workers and the calling goroutine; elements past the
// match may be tested or not.
func Find[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) (E, bool) {
	if pred == nil {
		panic("par: Find: pred is nil")
	}
	return found(s, findFirst("par.Find", len(s), func(i int) bool { return pred(s[i]) }, opts))
}

// found returns s[i] and true, or the zero value and false if i is -1 (no
// match).
func found[E any](s []E, i int) (E, bool) {
	if i < 0 {
		var zero E
		return zero, false
	}
	return s[i], true
}

// findFirst returns the least i in [0, n) with match(i), or -1. name names
// the call in an execution trace.
func findFirst(name string, n int, match func(i int) bool, opts []Option) int {
	return search(name, n, match, false, opts)
}

// search returns the least i in [0, n) with match(i), or the greatest if
// last, or -1. A find-last cuts the mirrored range, position j standing for
// n-1-j, so that the timed prefix and the left-first order of the engine
// start from the end, and the settling of the pieces (body.settled) skips
// those before a match.
func search(name string, n int, match func(i int) bool, last bool, opts []Option) int {
	c := configure(opts)
	if n == 0 {
		return -1
	}
	var bd *find.Bound
	if last {
		bd = find.Last()
	} else {
		bd = find.First()
	}
	w := split.Work[struct{}]{Name: name, Fold: func(_ struct{}, lo, hi int) struct{} {
		if last {
			lo, hi = n-hi, n-lo
		}
		// The closure stays on the stack: Scan only calls it.
		bd.Scan(lo, hi, func(a, c int) int { return matchIn(a, c, last, match) })
		return struct{}{}
	}}
	if last {
		w.Settled = func(lo int) bool { return bd.Settled(0, n-lo) }
	} else {
		w.Settled = func(lo int) bool { return bd.Settled(lo, n) }
	}
	run(&c, n, w)
	return bd.Best() // every leaf's Offer happens before run returns
}

// matchIn returns the first i in [a, c) with match(i), or the last if last,
// or -1.
func matchIn(a, c int, last bool, match func(i int) bool) int {
	if last {
		for i := c - 1; i >= a; i-- {
			if match(i) {
				return i
			}
		}
		return -1
	}
	for i := a; i < c; i++ {
		if match(i) {
			return i
		}
	}
	return -1
}

// Any reports whether pred is true for some element of s. It stops as soon as
// one is found: running leaves within a few hundred elements, the rest at once.
//
// pred runs concurrently with itself on different elements, at most once per
// element, on the pool's workers and the calling goroutine; elements past the
// match may be tested or not.
func Any[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) bool {
	if pred == nil {
		panic("par: Any: pred is nil")
	}
	return anyMatch(len(s), func(i int) bool { return pred(s[i]) }, opts)
}

// All reports whether pred is true for every element of s (true for an empty
// s). It stops as soon as an element fails pred, as Any stops.
//
// pred runs concurrently with itself on different elements, at most once per
// element, on the pool's workers and the calling goroutine; elements past the
// match may be tested or not.
func All[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) bool {
	if pred == nil {
		panic("par: All: pred is nil")
	}
	return !anyMatch(len(s), func(i int) bool { return !pred(s[i]) }, opts)
}

// anyMatch reports whether match(i) holds for some i in [0, n).
func anyMatch(n int, match func(i int) bool, opts []Option) bool {
	c := configure(opts)
	if n == 0 {
		return false
	}
	var found atomic.Bool
	run(&c, n, split.Work[struct{}]{Name: "par.Any",
		Fold: func(_ struct{}, lo, hi int) struct{} {
			for i := lo; i < hi; i++ {
				if (i-lo)%findCheck == 0 && found.Load() {
					break
				}
				if match(i) {
					found.Store(true) // read after run returns, and by other pieces to stop early
					break
				}
			}
			return struct{}{}
		},
		Settled: func(int) bool { return found.Load() },
	})
	return found.Load()
}
