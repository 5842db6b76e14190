package split

import "math/bits"

// The canonical tree of deterministic reductions. A float sum must not depend
// on where the scheduler happened to cut its range, so par.Sum, pipe.Sum and
// par.SumSeq cut a range of length n into blocks of Block positions counted
// from 0, reduce each block sequentially, and combine the blocks over one
// tree: a range of m blocks is cut after the largest power of two below m
// (in halves when m is a power of two). That is the tree a binary counter
// builds as blocks arrive one by one, so a sequence of unknown length can
// follow it too (par.SumSeq), and every piece that a caller cuts with Cut is
// a node of it, so any schedule gives the same result bit for bit.

// Block is the number of positions a deterministic reduction folds
// sequentially: long enough for four accumulators to pay, short enough that
// the pairwise tree above it keeps the error growing with log(n).
const Block = 128

// Blocks returns the number of blocks of a range of length n. Nothing is
// added to n, which may be as large as math.MaxInt.
func Blocks(n int) int {
	if n <= 0 {
		return 0
	}
	return (n-1)/Block + 1
}

// BlockRange returns the positions [lo, hi) of block b of a range of length
// n, with no sum past n.
func BlockRange(b, n int) (lo, hi int) {
	lo = b * Block
	return lo, lo + min(Block, n-lo)
}

// Cut returns where the canonical tree cuts the block range [lo, hi): after
// the largest power of two below hi-lo. hi-lo must be at least 2.
func Cut(lo, hi int) int {
	return lo + 1<<(bits.Len(uint(hi-lo-1))-1)
}

// Pairwise combines leaf(b) for the blocks b in [lo, hi) over the canonical
// tree. hi must be greater than lo.
func Pairwise[R any](lo, hi int, leaf func(b int) R, combine func(left, right R) R) R {
	if hi-lo == 1 {
		return leaf(lo)
	}
	mid := Cut(lo, hi)
	return combine(Pairwise(lo, mid, leaf, combine), Pairwise(mid, hi, leaf, combine))
}
