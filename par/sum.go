package par

import (
	"unsafe"

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
	c := configure(opts)
	blocks := split.Blocks(len(s))
	if blocks == 0 {
		return 0
	}
	// The range is one of blocks: grains given in elements become blocks, so
	// that no piece cuts a block of the canonical tree.
	if c.grain > 0 {
		c.grain = max(1, c.grain/split.Block)
	}
	c.minLen = max(1, c.minLen/split.Block)
	var zero E
	add := func(a, b E) E { return a + b }
	return run(&c, blocks, &body[E]{
		name: "par.Sum",
		leaf: func(lo, hi int) E {
			return split.Pairwise(lo, hi, func(b int) E {
				blo, bhi := split.BlockRange(b, len(s))
				return blockSum(s[blo:bhi])
			}, add)
		},
		combine:   add,
		fixedTree: true,
		minSeq:    split.Blocks(split.StreamLen(int(unsafe.Sizeof(zero)))),
	})
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
	c := configure(opts)
	blocks := split.Blocks(len(s))
	if blocks == 0 {
		return 1
	}
	// As in Sum, whose body this is with * for +. Sum's leaf calls blockSum
	// directly, not through a function value that both could share: W8's
	// small sum (2000 float64, all in one leaf) is meant to cost what the
	// loop costs.
	if c.grain > 0 {
		c.grain = max(1, c.grain/split.Block)
	}
	c.minLen = max(1, c.minLen/split.Block)
	var zero E
	mul := func(a, b E) E { return a * b }
	return run(&c, blocks, &body[E]{
		name: "par.Product",
		leaf: func(lo, hi int) E {
			return split.Pairwise(lo, hi, func(b int) E {
				blo, bhi := split.BlockRange(b, len(s))
				return blockProduct(s[blo:bhi])
			}, mul)
		},
		combine:   mul,
		fixedTree: true,
		minSeq:    split.Blocks(split.StreamLen(int(unsafe.Sizeof(zero)))),
	})
}

// pairwise sums s over the canonical tree of split.Pairwise, as Sum does on
// one goroutine.
func pairwise[E Number](s []E) E {
	if len(s) == 0 {
		return 0
	}
	return split.Pairwise(0, split.Blocks(len(s)), func(b int) E {
		lo, hi := split.BlockRange(b, len(s))
		return blockSum(s[lo:hi])
	}, func(a, b E) E { return a + b })
}

// blockSum adds up to split.Block elements with four accumulators in a fixed
// pattern, which is both faster than one (the additions overlap) and
// deterministic.
func blockSum[E Number](s []E) E {
	var a0, a1, a2, a3 E
	i := 0
	for ; i+4 <= len(s); i += 4 {
		a0 += s[i]
		a1 += s[i+1]
		a2 += s[i+2]
		a3 += s[i+3]
	}
	for ; i < len(s); i++ {
		a0 += s[i]
	}
	return (a0 + a1) + (a2 + a3)
}

// blockProduct multiplies up to split.Block elements in the pattern of
// blockSum.
func blockProduct[E Number](s []E) E {
	a0, a1, a2, a3 := E(1), E(1), E(1), E(1)
	i := 0
	for ; i+4 <= len(s); i += 4 {
		a0 *= s[i]
		a1 *= s[i+1]
		a2 *= s[i+2]
		a3 *= s[i+3]
	}
	for ; i < len(s); i++ {
		a0 *= s[i]
	}
	return (a0 * a1) * (a2 * a3)
}
