package split

// The canonical tree of deterministic reductions. A float sum must not depend
// on where the scheduler happened to cut its range, so par.Sum, pipe.Sum and
// par.SumSeq cut a range of length n into blocks of Block positions counted
// from 0, reduce each block sequentially, and combine the blocks pairwise over
// a tree that halves the block range at its middle block. A piece [lo, hi)
// of blocks cut by a Splitter (which also halves at the middle) is always a
// node of that tree, so any schedule gives the same result bit for bit.

// Block is the number of positions a deterministic reduction folds
// sequentially: long enough for four accumulators to pay, short enough that
// the pairwise tree above it keeps the error growing with log(n).
const Block = 128

// Blocks returns the number of blocks of a range of length n.
func Blocks(n int) int { return (n + Block - 1) / Block }

// BlockRange returns the positions [lo, hi) of block b of a range of length n.
func BlockRange(b, n int) (lo, hi int) { return b * Block, min(n, (b+1)*Block) }

// Pairwise combines leaf(b) for the blocks b in [lo, hi) over the canonical
// tree. hi must be greater than lo.
func Pairwise[R any](lo, hi int, leaf func(b int) R, combine func(left, right R) R) R {
	if hi-lo == 1 {
		return leaf(lo)
	}
	mid := lo + (hi-lo)/2
	return combine(Pairwise(lo, mid, leaf, combine), Pairwise(mid, hi, leaf, combine))
}
