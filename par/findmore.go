package par

import (
	"sync/atomic"

	"github.com/weftgo/weft/internal/gather"

	"github.com/weftgo/weft/split"
)

// FindLastIndex returns the index of the last element of s, in order, for
// which pred is true, or -1 if there is none. It is FindIndex from the other
// end: the range is walked from the end of s, so the timed prefix (see
// docs/DESIGN.md) covers the last elements, each leaf examines its
// piece from right to left, and once a match is found, pieces to its right
// stop within a few hundred elements and pieces not started to its left are
// skipped without being cut; the pieces to its right still run, since one of
// them may hold a later match. Writes made by pred happen before
// FindLastIndex returns. A panic in pred reaches the caller with its original
// value once the calls in progress have returned.
//
// pred runs concurrently with itself on different elements, at most once per
// element, on the pool's workers and the calling goroutine; elements beyond
// the match may be tested or not.
func FindLastIndex[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) int {
	if pred == nil {
		panic("par: FindLastIndex: pred is nil")
	}
	return findLast(len(s), func(i int) bool { return pred(s[i]) }, opts)
}

// FindLast returns the last element of s, in order, for which pred is true,
// and true; or the zero value and false if there is none. It stops early as
// FindLastIndex does.
//
// pred runs concurrently with itself on different elements, at most once per
// element, on the pool's workers and the calling goroutine; elements beyond
// the match may be tested or not.
func FindLast[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) (E, bool) {
	if pred == nil {
		panic("par: FindLast: pred is nil")
	}
	return found(s, findLast(len(s), func(i int) bool { return pred(s[i]) }, opts))
}

// findLast returns the greatest i in [0, n) with match(i), or -1.
func findLast(n int, match func(i int) bool, opts []Option) int {
	return search("par.FindLast", n, match, true, opts)
}

// FindAnyIndex returns the index of some element of s for which pred is
// true, or -1 if there is none. Which match it returns, when there are
// several, depends on timing: it is the first that a leaf finds. Everything
// stops at that find, the pieces before it too (running leaves within a few
// hundred elements, the rest at once), so when matches are many FindAnyIndex
// can end long before FindIndex, which must still search every piece before
// its match. Writes made by pred happen before FindAnyIndex returns; pred may
// not have been called on every element. A panic in pred reaches the caller
// with its original value once the calls in progress have returned.
//
// pred runs concurrently with itself on different elements, at most once per
// element, on the pool's workers and the calling goroutine; elements beyond
// the match may be tested or not.
func FindAnyIndex[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) int {
	if pred == nil {
		panic("par: FindAnyIndex: pred is nil")
	}
	return findAny(len(s), func(i int) bool { return pred(s[i]) }, opts)
}

// FindAny returns some element of s for which pred is true, and true; or the
// zero value and false if there is none. Which match, and when it stops, are
// as for FindAnyIndex.
//
// pred runs concurrently with itself on different elements, at most once per
// element, on the pool's workers and the calling goroutine; elements beyond
// the match may be tested or not.
func FindAny[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) (E, bool) {
	if pred == nil {
		panic("par: FindAny: pred is nil")
	}
	return found(s, findAny(len(s), func(i int) bool { return pred(s[i]) }, opts))
}

// findAny returns some i in [0, n) with match(i), or -1.
func findAny(n int, match func(i int) bool, opts []Option) int {
	c := configure(opts)
	if n == 0 {
		return -1
	}
	var found atomic.Int64 // the first match found, plus one; 0 until then
	run(&c, n, split.Work[struct{}]{Name: "par.FindAny",
		Fold: func(_ struct{}, lo, hi int) struct{} {
			for i := lo; i < hi; i++ {
				if (i-lo)%findCheck == 0 && found.Load() != 0 {
					break
				}
				if match(i) {
					// The first find wins; read after run returns, and by
					// other pieces to stop early.
					found.CompareAndSwap(0, int64(i)+1)
					break
				}
			}
			return struct{}{}
		},
		Settled: func(int) bool { return found.Load() != 0 }, // pieces not started are skipped, and not cut
	})
	return int(found.Load()) - 1 // every leaf's CAS happens before run returns
}

// Positions returns the indices of the elements of s for which pred is true,
// in increasing order: the indices that a loop calling slices.IndexFunc over
// the rest of s would find one by one. pred runs concurrently with itself on
// different elements, on the pool's workers and the calling goroutine, once
// per element; writes made by pred happen before Positions returns. It
// collects the indices as Filter collects elements. An empty result is an
// empty, non-nil slice. A panic in pred reaches the caller with its original
// value once the calls in progress have returned.
func Positions[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) []int {
	if pred == nil {
		panic("par: Positions: pred is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return []int{}
	}
	l := run(&c, len(s), split.Work[gather.Chunks[int]]{Name: "par.Positions", Key: siteKey(pred),
		Fold: func(acc gather.Chunks[int], lo, hi int) gather.Chunks[int] {
			at := acc.Last()
			for i, e := range s[lo:hi] {
				if pred(e) {
					at = append(at, lo+i)
				}
			}
			acc.SetLast(at)
			return acc
		},
		Merge: gather.Join[int],
	})
	return l.Flatten()
}
