package par

import (
	"fmt"

	"github.com/weftgo/weft/internal/gather"
	"github.com/weftgo/weft/split"
)

// FlatMap returns a new slice holding the elements that f makes from every
// element e of s, in order: f(e, out) appends zero or more elements to out
// and returns the result, as append does, and the elements made from e come
// after those of the elements before e. f runs concurrently with itself on
// different elements, once per element, on the pool's workers and the calling
// goroutine, and never on one out at once; writes made by f happen before
// FlatMap returns.
//
// The pieces of the range that a participant runs one after the other
// append to one slice, which f is handed as out (holding some of the
// elements made just before e's, or none), so an f that appends allocates
// only as that slice grows,
// never per element; these slices are then copied into the result, so the
// extra memory is about one copy of the result (none when one slice holds it
// all). f must leave the elements already in out as they are and not keep out
// after it returns; returning a slice shorter than out panics. For a fused
// form that makes no slice per piece, see pipe.FlatMap.
func FlatMap[S ~[]E, E, R any](s S, f func(e E, out []R) []R, opts ...Option) []R {
	if f == nil {
		panic("par: FlatMap: f is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return []R{}
	}
	l := run(&c, len(s), split.Work[gather.Chunks[R]]{Name: "par.FlatMap", Key: siteKey(f),
		Fold: func(acc gather.Chunks[R], lo, hi int) gather.Chunks[R] {
			out := acc.Room() // f gets what this step made, not the whole run: it may copy it
			for _, e := range s[lo:hi] {
				before := len(out)
				out = f(e, out)
				if len(out) < before {
					panic(fmt.Sprintf("par: FlatMap: f returned %d elements where out held %d: f must append to out", len(out), before))
				}
			}
			acc.Add(out)
			return acc
		},
		Merge: gather.Join[R],
	})
	return l.Flatten()
}
