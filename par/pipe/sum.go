package pipe

import (
	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/pairwise"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/split"
)

// Sum returns the sum of the items of p; 0 if there are none. Integer sums
// wrap. Float sums are deterministic: the items of each block of 128 source
// positions are added with four accumulators and the blocks are combined
// over the tree of split.Pairwise, which depends only on Len(), whatever the
// timing and the number of workers. When p is one-to-one (no Filter,
// FilterIndex or FlatMap among its stages, and not a text source: Split,
// Lines, Fields), a block of positions is a block of items, and the sum
// equals par.Sum over the collected items bit for bit; otherwise the blocks
// hold as many items as their positions make, and the last bits may differ
// from par.Sum's.
func Sum[T par.Number](p Pipe[T], opts ...par.Option) T {
	return reduceBlocks("pipe.Sum", p, pairwise.Add, opts)
}

// Product returns the product of the items of p; 1 if there are none.
// Integer products wrap. Float products are deterministic in the way Sum's
// are: blocks of 128 source positions are multiplied with four accumulators
// and the blocks are combined over the tree of split.Pairwise, which depends
// only on Len(), so the same pipe gives the same bits on every run and every
// number of workers. (That is a different grouping from a sequential loop's,
// so a float product may differ from the loop's in the last bits; and an
// overflow to Inf or an underflow to 0 may happen in one grouping and not in
// another.)
func Product[T par.Number](p Pipe[T], opts ...par.Option) T {
	return reduceBlocks("pipe.Product", p, pairwise.Mul, opts)
}

// reduceBlocks is Sum (op pairwise.Add) or Product (pairwise.Mul): the blocks
// of p's positions are folded and combined by package pairwise, as par.Sum's
// are, and cut only at the nodes of the canonical tree (split.Work.Tree).
func reduceBlocks[T par.Number](name string, p Pipe[T], op pairwise.Op, opts []par.Option) T {
	cfg := configure(opts)
	n := split.Blocks(p.n)
	if n == 0 {
		return pairwise.Identity[T](op)
	}
	// Grains given in positions become blocks, so that no piece cuts a
	// block of the canonical tree.
	if cfg.Grain > 0 {
		cfg.Grain = max(1, cfg.Grain/split.Block)
	}
	cfg.MinLen = max(1, cfg.MinLen/split.Block)
	t := blockTask[T]{p: &p, op: op, ls: blockLeaves(p, op)}
	minSeq := split.Blocks(split.StreamLen(8))
	if n <= minSeq { // as the engine would, without building the work
		return t.leaf(0, n)
	}
	return engine.Run(&cfg, n, split.Work[T]{Name: name, Tree: true,
		MinSeq: minSeq,
		Fold:   func(_ T, lo, hi int) T { return t.leaf(lo, hi) },
		Merge:  pairwise.Combiner[T](op),
	})
}

// blockTask is what the leaves of Sum or Product share.
type blockTask[T par.Number] struct {
	p  *Pipe[T]
	op pairwise.Op
	ls *leaves[[4]T] // the leaves' feeders, reused by the leaves after them
}

// leaf reduces the blocks [lo, hi) on one goroutine, over the canonical
// tree.
func (t *blockTask[T]) leaf(lo, hi int) T {
	if add, ok := t.p.add.(adder[T]); ok && t.op == pairwise.Add {
		return pairwise.Tree(t.op, lo, hi, t.p.n, func(blo, bhi int) T {
			a0, a1, a2, a3 := add(blo, bhi, 0, 0, 0, 0)
			return pairwise.Join4(t.op, [4]T{a0, a1, a2, a3})
		})
	}
	st := t.ls.get(lo)
	e := pairwise.Identity[T](t.op)
	s := pairwise.Tree(t.op, lo, hi, t.p.n, func(blo, bhi int) T {
		st.acc = [4]T{e, e, e, e}
		st.feed(blo, bhi)
		return pairwise.Join4(t.op, st.acc)
	})
	t.ls.put(st, hi)
	return s
}

// blockLeaves returns the leaves of Sum or Product over p: each state folds
// the batches of a block into its four accumulators with pairwise.Fold4.
func blockLeaves[T par.Number](p Pipe[T], op pairwise.Op) *leaves[[4]T] {
	return leavesOf(p, func(st *leafState[[4]T]) func([]T) {
		return func(xs []T) {
			a := &st.acc
			a[0], a[1], a[2], a[3] = pairwise.Fold4(op, xs, a[0], a[1], a[2], a[3])
		}
	})
}
