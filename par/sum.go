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

// sumBlock is the length of the runs that pairwise summation adds
// sequentially, with four accumulators.
const sumBlock = 128

// Sum returns the sum of the elements of s; 0 if s is empty. Integer sums wrap
// as Go arithmetic does. Float sums are deterministic: they are computed by
// pairwise summation over a tree that depends only on len(s), never on timing
// or the number of workers, so the same input gives a bit-identical result on
// every run; pairwise summation is also more accurate than a sequential loop,
// its error growing with log(len(s)) rather than len(s).
func Sum[S ~[]E, E Number](s S, opts ...Option) E {
	if len(s) == 0 {
		return 0
	}
	c := configure(opts)
	var zero E
	return run(&c, len(s), &body[E]{
		leaf:      func(lo, hi int) E { return pairwise(s[lo:hi]) },
		combine:   func(a, b E) E { return a + b },
		fixedTree: true,
		minSeq:    split.StreamLen(int(unsafe.Sizeof(zero))),
	})
}

// pairwise sums s over the canonical tree: halves cut at len/2 down to
// sumBlock, so that any piece the splitter makes is a node of the same tree.
func pairwise[E Number](s []E) E {
	if len(s) <= sumBlock {
		return blockSum(s)
	}
	h := len(s) / 2
	return pairwise(s[:h]) + pairwise(s[h:])
}

// blockSum adds up to sumBlock elements with four accumulators in a fixed
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
