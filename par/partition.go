package par

import (
	"github.com/weftgo/weft/internal/gather"
	"github.com/weftgo/weft/split"
)

// Partition returns the elements of s for which pred is true in yes, and the
// others in no, each in their order in s. pred runs concurrently with itself
// on different elements, on the pool's workers and the calling goroutine,
// once per element; writes made by pred happen before Partition returns. It
// collects each part as Filter collects, so the extra memory is about one
// copy of s. Both results are new slices, empty but not nil when nothing goes
// to them. A panic in pred reaches the caller with its original value once
// the calls in progress have returned; pieces not yet started are skipped.
func Partition[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) (yes, no S) {
	if pred == nil {
		panic("par: Partition: pred is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return S{}, S{}
	}
	p := run(&c, len(s), split.Work[parts[E]]{Name: "par.Partition", Key: siteKey(pred),
		Fold: func(acc parts[E], lo, hi int) parts[E] {
			y, n := acc.yes.Last(), acc.no.Last()
			for _, e := range s[lo:hi] {
				if pred(e) {
					y = append(y, e)
				} else {
					n = append(n, e)
				}
			}
			acc.yes.SetLast(y)
			acc.no.SetLast(n)
			return acc
		},
		Merge: func(a, b parts[E]) parts[E] {
			return parts[E]{gather.Join(a.yes, b.yes), gather.Join(a.no, b.no)}
		},
	})
	return S(p.yes.Flatten()), S(p.no.Flatten())
}

// parts is what a piece of Partition's range keeps, in two ordered lists.
type parts[E any] struct{ yes, no gather.Chunks[E] }

// Unzip returns two new slices a and b of len(s), where a[i], b[i] = f(s[i])
// for every index i of s: one pass of f fills both, as a map to pairs
// followed by an unzip would, without the slice of pairs. f runs concurrently
// with itself on different elements, once per element, on the pool's workers
// and the calling goroutine; writes made by f happen before Unzip returns. A
// panic in f reaches the caller as for Map. Besides the results, a call
// allocates a few small records per worker at most.
func Unzip[S ~[]E, E, A, B any](s S, f func(E) (A, B), opts ...Option) ([]A, []B) {
	if f == nil {
		panic("par: Unzip: f is nil")
	}
	as, bs := make([]A, len(s)), make([]B, len(s))
	forRange("par.Unzip", siteKey(f), len(s), func(lo, hi int) {
		src, da, db := s[lo:hi], as[lo:hi], bs[lo:hi] // locals, as in Map
		da, db = da[:len(src)], db[:len(src)]
		for i, e := range src {
			da[i], db[i] = f(e)
		}
	}, opts)
	return as, bs
}
