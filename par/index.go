package par

import (
	"github.com/weftgo/weft/internal/gather"
	"github.com/weftgo/weft/split"
)

// The ...Index functions hand the callback the element's position in s with
// the element, as a range loop over s does (for i, e := range s), for bodies
// that need both: a weight by position, a neighbour, a write to a parallel
// slice. They cost what their plain forms cost: the index is the loop
// counter of the piece.

// MapIndex returns a new slice holding f(i, s[i]) for every index i of s, in
// order. f runs concurrently with itself on different elements, once per
// element, on the pool's workers and the calling goroutine; writes made by f
// happen before MapIndex returns. A panic in f reaches the caller with its
// original value once the calls in progress have returned; pieces not yet
// started are skipped. Besides the result, a call allocates a few small
// records per worker at most.
func MapIndex[S ~[]E, E, R any](s S, f func(i int, e E) R, opts ...Option) []R {
	if f == nil {
		panic("par: MapIndex: f is nil")
	}
	out := make([]R, len(s))
	forRange("par.MapIndex", siteKey(f), len(s), func(lo, hi int) {
		src, dst := s[lo:hi], out[lo:hi] // locals, as in Map
		dst = dst[:len(src)]
		for i, e := range src {
			dst[i] = f(lo+i, e)
		}
	}, opts)
	return out
}

// ForEachIndex calls f(i, s[i]) for every index i of s, in parallel, and
// returns when every call has returned. Writes made by f happen before
// ForEachIndex returns; the order of the calls is not specified. A panic in f
// reaches the caller as for MapIndex.
//
// f runs concurrently with itself on different elements, once per element, on
// the pool's workers and the calling goroutine.
func ForEachIndex[S ~[]E, E any](s S, f func(i int, e E), opts ...Option) {
	if f == nil {
		panic("par: ForEachIndex: f is nil")
	}
	forRange("par.ForEachIndex", siteKey(f), len(s), func(lo, hi int) {
		for i, e := range s[lo:hi] {
			f(lo+i, e)
		}
	}, opts)
}

// FilterIndex returns a new slice holding the elements s[i] for which keep(i,
// s[i]) is true, in their order in s. keep runs concurrently with itself on
// different elements, once per element, on the pool's workers and the calling
// goroutine; writes made by keep happen before FilterIndex returns. It
// collects as Filter does: the extra memory is about one copy of the result.
// An empty result is an empty, non-nil slice.
func FilterIndex[S ~[]E, E any](s S, keep func(i int, e E) bool, opts ...Option) S {
	if keep == nil {
		panic("par: FilterIndex: keep is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return S{}
	}
	l := run(&c, len(s), split.Work[gather.Chunks[E]]{Name: "par.FilterIndex", Key: siteKey(keep),
		Fold: func(acc gather.Chunks[E], lo, hi int) gather.Chunks[E] {
			kept := acc.Last()
			for i, e := range s[lo:hi] {
				if keep(lo+i, e) {
					kept = append(kept, e)
				}
			}
			acc.SetLast(kept)
			return acc
		},
		Merge: gather.Join[E],
	})
	return S(l.Flatten())
}
