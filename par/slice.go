package par

import (
	"github.com/weftgo/weft/internal/gather"
	"github.com/weftgo/weft/split"
)

// Map returns a new slice holding f(e) for every element e of s, in order. f
// runs concurrently with itself on different elements, once per element, on
// the pool's workers and the calling goroutine; writes made by f happen
// before Map returns. Besides the result, a call allocates a few small
// records per worker at most.
func Map[S ~[]E, E, R any](s S, f func(E) R, opts ...Option) []R {
	if f == nil {
		panic("par: Map: f is nil")
	}
	c := configure(opts)
	out := make([]R, len(s))
	if len(s) == 0 {
		return out
	}
	one, key, ok := oneChunk(&c, f, 0, len(s))
	if ok {
		mapInto(out, s, f)
		one.End(len(s))
		return out
	}
	run(&c, len(s), split.Work[struct{}]{Name: "par.Map", Key: key,
		Fold: func(_ struct{}, lo, hi int) struct{} { mapInto(out[lo:hi], s[lo:hi], f); return struct{}{} }})
	return out
}

// mapInto sets dst[i] to f(src[i]) for every i of src: Map's loop. A loop
// over locals: one that writes out[lo+i] in a closure reloads the captured
// slices after every call of f, 25 instructions per element against 14 (go
// test -c ./par; go tool objdump -s 'par\.Map\[.*func1', where it is
// inlined).
func mapInto[E, R any](dst []R, src []E, f func(E) R) {
	dst = dst[:len(src)] // drops the bounds check of dst[i]
	for i, e := range src {
		dst[i] = f(e)
	}
}

// ForEach calls f for every element of s, in parallel, and returns when every
// call has returned. Writes made by f happen before ForEach returns.
//
// f runs concurrently with itself on different elements, once per element, on
// the pool's workers and the calling goroutine.
func ForEach[S ~[]E, E any](s S, f func(E), opts ...Option) {
	if f == nil {
		panic("par: ForEach: f is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return
	}
	one, key, ok := oneChunk(&c, f, 0, len(s))
	if ok {
		eachOf(s, f)
		one.End(len(s))
		return
	}
	run(&c, len(s), split.Work[struct{}]{Name: "par.ForEach", Key: key,
		Fold: func(_ struct{}, lo, hi int) struct{} { eachOf(s[lo:hi], f); return struct{}{} }})
}

// eachOf calls f for every element of s: ForEach's loop.
func eachOf[E any](s []E, f func(E)) {
	for _, e := range s {
		f(e)
	}
}

// Reduce combines the elements of s with op, in parallel. op must be
// associative and identity must be its identity element (op(identity, x) ==
// x): the elements are grouped in a tree whose shape depends on timing, and
// identity starts every group. The order of the elements is kept, so op need
// not be commutative. An empty s gives identity.
//
// op runs concurrently with itself on different parts of s, on the pool's
// workers and the calling goroutine.
func Reduce[S ~[]E, E any](s S, identity E, op func(E, E) E, opts ...Option) E {
	if op == nil {
		panic("par: Reduce: op is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return identity
	}
	one, key, ok := oneChunk(&c, op, 0, len(s)) // the pace of op's calls: one site per op, not one for every Reduce
	if ok {
		r := reduceOf(s, identity, op)
		one.End(len(s))
		return r
	}
	return run(&c, len(s), split.Work[E]{Name: "par.Reduce", Key: key,
		Init:  func() E { return identity },
		Fold:  func(acc E, lo, hi int) E { return reduceOf(s[lo:hi], acc, op) },
		Merge: op})
}

// reduceOf folds every element of s into acc with op: Reduce's loop.
func reduceOf[E any](s []E, acc E, op func(E, E) E) E {
	for _, e := range s {
		acc = op(acc, e)
	}
	return acc
}

// MapReduce returns the reduction with op of f(e) for every element e of s:
// Reduce(Map(s, f), identity, op) without the intermediate slice. op must be
// associative with identity as its identity element (see Reduce).
//
// f and op run concurrently with themselves and with each other on different
// parts of s, on the pool's workers and the calling goroutine; f runs once
// per element.
//
// Each element costs two calls through function values, f and op, which the
// compiler cannot inline. Where the combine is known, prefer the function
// that knows it (Sum, Count, Min, Max, or pipe.Sum(pipe.Map(...))): they pay
// one call per element, f's. Where f itself costs a few nanoseconds, write
// the range form, ReduceRange with the loop in the leaf, where both stay
// inlined: on W2 of `go run ./bench` (a body of 1 to 100 multiply-adds),
// MapReduce(xs, f, 0, add) reached 1.91 times the sequential loop's speed on
// 2 cores and the range form 2.00.
func MapReduce[S ~[]E, E, R any](s S, f func(E) R, identity R, op func(R, R) R, opts ...Option) R {
	if f == nil {
		panic("par: MapReduce: f is nil")
	}
	if op == nil {
		panic("par: MapReduce: op is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return identity
	}
	one, key, ok := oneChunk(&c, f, 0, len(s))
	if ok {
		r := mapReduce(s, f, identity, op)
		one.End(len(s))
		return r
	}
	return run(&c, len(s), split.Work[R]{Name: "par.MapReduce", Key: key,
		Init:  func() R { return identity },
		Fold:  func(acc R, lo, hi int) R { return mapReduce(s[lo:hi], f, acc, op) },
		Merge: op})
}

// mapReduce folds f of every element of s into acc with op: MapReduce's loop.
func mapReduce[E, R any](s []E, f func(E) R, acc R, op func(R, R) R) R {
	for _, e := range s {
		acc = op(acc, f(e))
	}
	return acc
}

// Count returns the number of elements of s for which pred is true.
//
// pred runs concurrently with itself on different elements, once per element,
// on the pool's workers and the calling goroutine.
func Count[S ~[]E, E any](s S, pred func(E) bool, opts ...Option) int {
	if pred == nil {
		panic("par: Count: pred is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return 0
	}
	one, key, ok := oneChunk(&c, pred, 0, len(s))
	if ok {
		k := countOf(s, pred)
		one.End(len(s))
		return k
	}
	return run(&c, len(s), split.Work[int]{Name: "par.Count", Key: key,
		Fold:  func(acc int, lo, hi int) int { return acc + countOf(s[lo:hi], pred) },
		Merge: func(a, b int) int { return a + b }})
}

// countOf returns how many elements of s pred holds for: Count's loop.
func countOf[E any](s []E, pred func(E) bool) int {
	n := 0
	for _, e := range s {
		if pred(e) {
			n++
		}
	}
	return n
}

// Filter returns a new slice holding the elements of s for which keep is
// true, in their order in s. keep runs concurrently with itself on different
// elements, once per element, on the pool's workers and the calling
// goroutine. The pieces of the range that a participant runs one after the
// other append what they keep to one slice, and these slices are then copied
// into the result, so the extra memory is about one copy of the result (none
// when one slice holds it all), and the allocations grow with the steals, not
// with the pieces.
func Filter[S ~[]E, E any](s S, keep func(E) bool, opts ...Option) S {
	if keep == nil {
		panic("par: Filter: keep is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return S{}
	}
	l := run(&c, len(s), split.Work[gather.Chunks[E]]{Name: "par.Filter", Key: siteKey(keep),
		Fold: func(acc gather.Chunks[E], lo, hi int) gather.Chunks[E] {
			kept := acc.Last()
			for _, e := range s[lo:hi] {
				if keep(e) {
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
