package par

import (
	"fmt"

	"github.com/weftgo/weft/split"
)

// For calls f(i) for every i in [0, n), in parallel, and returns when every
// call has returned. Writes made by the calls happen before For returns. The
// range is cut adaptively (see package split); WithGrain and WithMinLen
// override that. A panic in f reaches the caller with its original value once
// the calls in progress have returned; pieces not yet started are skipped.
//
// f runs concurrently with itself on different indices, once per index, on
// the pool's workers and the calling goroutine.
func For(n int, f func(i int), opts ...Option) {
	if f == nil {
		panic("par: For: f is nil")
	}
	if n < 0 {
		panic(fmt.Sprintf("par: For: n = %d, want n >= 0", n))
	}
	c := configure(opts)
	if n == 0 {
		return
	}
	one, key, ok := oneChunk(&c, f, 0, n)
	if ok {
		forIndices(0, n, f)
		one.End(n)
		return
	}
	run(&c, n, split.Work[struct{}]{Name: "par.For", Key: key,
		Fold: func(_ struct{}, lo, hi int) struct{} { forIndices(lo, hi, f); return struct{}{} }})
}

// forIndices calls f(i) for every i in [lo, hi): For's loop.
func forIndices(lo, hi int, f func(i int)) {
	for i := lo; i < hi; i++ {
		f(i)
	}
}

// ForRange calls f(lo, hi) on pieces [lo, hi) that together cover [0, n)
// exactly once, in parallel, and returns when every call has returned. It is
// For for loop bodies that want a whole piece at a time: to keep state across
// the elements of a piece, or to let the compiler see a plain loop.
//
// f runs concurrently with itself on different pieces, which never overlap,
// on the pool's workers and the calling goroutine.
func ForRange(n int, f func(lo, hi int), opts ...Option) {
	if f == nil {
		panic("par: ForRange: f is nil")
	}
	if n < 0 {
		panic(fmt.Sprintf("par: ForRange: n = %d, want n >= 0", n))
	}
	forRange("par.ForRange", 0, n, f, opts)
}

// forRange is ForRange under the name of the calling function, its site
// named by key (0: f's code).
func forRange(name string, key uintptr, n int, f func(lo, hi int), opts []Option) {
	c := configure(opts)
	if n == 0 {
		return
	}
	one, key, ok := oneChunk(&c, f, key, n)
	if ok {
		f(0, n)
		one.End(n)
		return
	}
	run(&c, n, split.Work[struct{}]{Name: name, Key: key, Fold: each(f)})
}

// ReduceRange folds [0, n) in pieces, in parallel: leaf(lo, hi) computes the
// result of the piece [lo, hi), and op combines the results of two adjacent
// pieces, left then right. op must be associative; it need not be
// commutative. identity is the result for n == 0; leaf is never called on an
// empty piece. It is the range form of MapReduce, for folds that want a whole
// piece at a time (a local accumulator, a buffer reused across the piece).
//
// leaf is called a bounded number of times, whatever n and however often
// pieces are stolen: about split.RecordDepth pieces per participant, and a
// few more for the prefix that times the call. A leaf that builds a value
// (a map per piece) so costs about what it costs in a goroutine per core
// over chunks (go test ./par -run '^$' -bench ReduceRangeMapLeaf); a piece
// cannot be cut once its leaf has started, so a participant that runs out
// of work waits at most for one such piece.
//
// leaf and op run concurrently with themselves and with each other on
// different pieces, on the pool's workers and the calling goroutine; op
// combines two results only once both are made.
func ReduceRange[R any](n int, identity R, leaf func(lo, hi int) R, op func(left, right R) R, opts ...Option) R {
	if leaf == nil {
		panic("par: ReduceRange: leaf is nil")
	}
	if op == nil {
		panic("par: ReduceRange: op is nil")
	}
	if n < 0 {
		panic(fmt.Sprintf("par: ReduceRange: n = %d, want n >= 0", n))
	}
	c := configure(opts)
	if n == 0 {
		return identity
	}
	return run(&c, n, split.Work[R]{Name: "par.ReduceRange", Leaf: leaf, Merge: op})
}

// some is the accumulator of a fold whose op has no identity to start
// from: no value yet, or the fold so far. identity, ReduceRange's result
// for an empty range, is never given to op.
type some[R any] struct {
	v  R
	ok bool
}

// then folds v into s with op, s on the left.
func (s some[R]) then(v R, op func(R, R) R) some[R] {
	if !s.ok {
		return some[R]{v, true}
	}
	return some[R]{op(s.v, v), true}
}
