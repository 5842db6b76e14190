// Package pairwise is the arithmetic of the deterministic sums and products:
// how one block of split.Block positions is folded (four accumulators in a
// fixed pattern) and how the blocks of a range are combined (over split's
// canonical tree). par.Sum, par.Product, par.SumSeq, pipe.Sum and
// pipe.Product all fold and combine here, which is what makes a float sum of
// the same items the same bits whichever of them computed it.
//
// It is a package of its own, below par and par/pipe, because pipe reaches
// par only through par's public API, and these kernels are nothing a user
// should see: an exported helper in par would be API. How a block range is
// cut and run in parallel stays with each caller (the engine, pipe's
// par.Join2 tree); both cut where split.Cut says, so every piece is a node of
// the canonical tree and the schedule never changes a bit.
//
// Who may call: any goroutine; nothing here keeps state.
package pairwise

import (
	"github.com/weftgo/weft/split"
	"golang.org/x/exp/constraints"
)

// Number is what Sum and Product fold: any integer or floating-point type
// (par.Number, restated here since par cannot be imported below it).
type Number interface {
	constraints.Integer | constraints.Float
}

// Op is the operation of a block reduction.
type Op uint8

const (
	Add Op = iota // a sum: identity 0
	Mul           // a product: identity 1
)

// Identity returns op's identity element: the result over no items, and each
// accumulator's start.
func Identity[E Number](op Op) E {
	if op == Mul {
		return 1
	}
	return 0
}

// Combine returns a op b.
func Combine[E Number](op Op, a, b E) E {
	if op == Mul {
		return a * b
	}
	return a + b
}

// Combiner returns op as a function of two operands, with no branch on op in
// it, for split.Pairwise.
func Combiner[E Number](op Op) func(a, b E) E {
	if op == Mul {
		return func(a, b E) E { return a * b }
	}
	return func(a, b E) E { return a + b }
}

// Fold4 folds xs into four accumulators with op: Add4 or Mul4.
func Fold4[E Number](op Op, xs []E, a0, a1, a2, a3 E) (E, E, E, E) {
	if op == Mul {
		return Mul4(xs, a0, a1, a2, a3)
	}
	return Add4(xs, a0, a1, a2, a3)
}

// Join4 returns the accumulators of a block combined, (a[0] op a[1]) op
// (a[2] op a[3]): the block's result.
func Join4[E Number](op Op, a [4]E) E {
	if op == Mul {
		return (a[0] * a[1]) * (a[2] * a[3])
	}
	return (a[0] + a[1]) + (a[2] + a[3])
}

// Add4 adds xs to four accumulators, the element at offset k of each full
// group of four to accumulator k, the elements of a last incomplete group to
// the first: faster than one accumulator (the additions overlap), and
// deterministic. A block fed in several parts gives the same bits as in one
// when every part but the last has a multiple of four elements. The
// accumulators are parameters and results, kept in registers: in a closure
// that captured them, each addition was a load and a store, since xs might
// alias them.
func Add4[E Number](xs []E, a0, a1, a2, a3 E) (E, E, E, E) {
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		a0 += xs[i]
		a1 += xs[i+1]
		a2 += xs[i+2]
		a3 += xs[i+3]
	}
	for ; i < len(xs); i++ {
		a0 += xs[i]
	}
	return a0, a1, a2, a3
}

// Mul4 multiplies four accumulators by xs in the pattern of Add4.
func Mul4[E Number](xs []E, a0, a1, a2, a3 E) (E, E, E, E) {
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		a0 *= xs[i]
		a1 *= xs[i+1]
		a2 *= xs[i+2]
		a3 *= xs[i+3]
	}
	for ; i < len(xs); i++ {
		a0 *= xs[i]
	}
	return a0, a1, a2, a3
}

// Block returns the result of one block, xs, of at most split.Block items.
func Block[E Number](op Op, xs []E) E {
	e := Identity[E](op)
	a0, a1, a2, a3 := Fold4(op, xs, e, e, e, e)
	return Join4(op, [4]E{a0, a1, a2, a3})
}

// Tree combines with op the results block(BlockRange(b, n)) of the blocks b
// in [lo, hi) of a range of n positions, over the canonical tree; hi must be
// greater than lo.
func Tree[E Number](op Op, lo, hi, n int, block func(lo, hi int) E) E {
	return split.Pairwise(lo, hi, func(b int) E {
		return block(split.BlockRange(b, n))
	}, Combiner[E](op))
}

// Slice returns the result of the blocks [lo, hi) of s over the canonical
// tree, as Tree does with Block, but with Block called directly: par.Sum
// over W8's 2,000 float64 is one such call, and is meant to cost what the
// loop costs.
func Slice[E Number](op Op, s []E, lo, hi int) E {
	return split.Pairwise(lo, hi, func(b int) E {
		blo, bhi := split.BlockRange(b, len(s))
		return Block(op, s[blo:bhi])
	}, Combiner[E](op))
}

// All returns the result of all of s over the canonical tree, on one
// goroutine: op's identity if s is empty.
func All[E Number](op Op, s []E) E {
	if len(s) == 0 {
		return Identity[E](op)
	}
	return Slice(op, s, 0, split.Blocks(len(s)))
}
