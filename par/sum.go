package par

import (
	"unsafe"

	"github.com/weftgo/weft/internal/pairwise"
	"github.com/weftgo/weft/split"
	"golang.org/x/exp/constraints"
)

// Number is the element type of Sum: any integer or floating-point type.
type Number interface {
	constraints.Integer | constraints.Float
}

// Sum returns the sum of the elements of s; 0 if s is empty. Integer sums wrap
// as Go arithmetic does. Float sums are deterministic: blocks of 128 elements
// are added with four accumulators and the blocks are combined pairwise, over
// a tree that depends only on len(s), never on timing or the number of workers
// (see split.Pairwise), so the same input gives a bit-identical result on
// every run. Pairwise summation is also more accurate than a sequential loop:
// its error grows with log(len(s)) rather than len(s).
func Sum[S ~[]E, E Number](s S, opts ...Option) E {
	return reduceBlocks("par.Sum", pairwise.Add, s, opts)
}

// Product returns the product of the elements of s; 1 if s is empty. Integer
// products wrap as Go arithmetic does. Float products are deterministic in the
// way Sum is: blocks of 128 elements are multiplied with four accumulators and
// the blocks are combined pairwise, over the tree of Sum, which depends only
// on len(s), so the same input gives a bit-identical result on every run and
// for every pool, number of workers and option, overflow to an infinity, and
// NaN included. The result may differ in its last bits from a sequential
// loop's: every grouping rounds len(s)-1 times, so the relative error is
// bounded by about len(s)-1 units in the last place, as the loop's is, but
// the roundings differ. It costs what Sum costs.
func Product[S ~[]E, E Number](s S, opts ...Option) E {
	return reduceBlocks("par.Product", pairwise.Mul, s, opts)
}

// reduceBlocks is Sum (op pairwise.Add) or Product (pairwise.Mul): the range is
// one of blocks, folded and combined by package pairwise, and cut only at nodes
// of the canonical tree (fixedTree).
func reduceBlocks[E Number](name string, op pairwise.Op, s []E, opts []Option) E {
	c := configure(opts)
	n := split.Blocks(len(s))
	if n == 0 {
		return pairwise.Identity[E](op)
	}
	// Grains given in elements become blocks, so that no piece cuts a block
	// of the canonical tree.
	if c.Grain > 0 {
		c.Grain = max(1, c.Grain/split.Block)
	}
	c.MinLen = max(1, c.MinLen/split.Block)
	var zero E
	return run(&c, n, split.Work[E]{Name: name, Tree: true,
		MinSeq: split.Blocks(split.StreamLen(int(unsafe.Sizeof(zero)))),
		Fold:   func(_ E, lo, hi int) E { return pairwise.Slice(op, s, lo, hi) },
		Merge:  pairwise.Combiner[E](op),
	})
}
