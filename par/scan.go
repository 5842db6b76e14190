package par

import (
	"sync"

	"github.com/weftgo/weft/split"
)

// A prefix scan (oneTBB's parallel_scan; Rayon has none) over blocks fixed by
// the length alone, in one pass where it can and two where it must.
//
// Element i of block b is offset(b) op s[lo] op ... op s[i], where offset(b)
// is the fold, in order, of the totals of the blocks before it, and a block's
// total is the fold of its elements from identity. The pieces of the range
// take their blocks in order, and a piece whose block is at the frontier (its
// offset known: every block before it is done) scans it at once, reading and
// writing each element once and folding its total beside, which moves the
// frontier on. A piece ahead of the frontier cannot scan yet: it folds its
// block's total only, and the frontier moves over such blocks as soon as it
// reaches them. A second pass then scans, from their offsets, the blocks
// that were only folded. This is reduce-then-scan where the work runs ahead
// of the frontier, which reads those blocks twice, and a plain scan where it
// does not: a call that runs alone (a short input within the timed prefix, a
// pool whose workers are busy elsewhere) costs what the sequential loop does.
// Scan-then-fix (scan each block from identity, then combine the offsets into
// the output) would read once but write twice and read the output back,
// more bytes on a loop bound by memory bandwidth (W10 of `go run ./bench`).
//
// Which blocks are scanned at once depends on timing; the values never do:
// the blocks depend only on n, and every element and offset is computed by
// the same sequence of op calls whichever way its block went, so a float
// scan gives the same bits on every run and worker count.

// scanMinBlock is the shortest block; an input of at most this many elements
// is one block, scanned in one pass on the calling goroutine.
const scanMinBlock = 1 << 12

// scanMaxBlocks bounds the number of blocks, and so the locking per block.
const scanMaxBlocks = 1 << 12

// scanBlockLen returns the block length of a scan of n elements: a function of
// n alone.
func scanBlockLen(n int) int {
	return max(scanMinBlock, ceilDiv(n, scanMaxBlocks))
}

// ceilDiv returns n/d rounded up, for n >= 0 and d >= 1, without the sum
// n+d-1 that wraps around for n near math.MaxInt.
func ceilDiv(n, d int) int {
	if n == 0 {
		return 0
	}
	return (n-1)/d + 1
}

// scanBlock returns the elements [lo, hi) of block b of n in blocks of bl.
func scanBlock(b, bl, n int) (lo, hi int) {
	lo = b * bl
	return lo, lo + min(bl, n-lo)
}

// scanKernels are what a scan does with a block [lo, hi): total folds it
// from identity; scan writes its scan from offset into the output and
// returns its total, folded beside from identity.
type scanKernels[E any] struct {
	total func(lo, hi int) E
	scan  func(lo, hi int, offset E) E
}

// scanFront is the frontier of a scan: the blocks before it are done (scanned,
// or folded and given their offset), so its own offset is known.
type scanFront[E any] struct {
	op func(E, E) E
	mu sync.Mutex
	// Guarded by mu while the pieces run, and read by the caller after:
	at      int    // the frontier: offsets[b] is known for every b <= at
	offsets []E    // offsets[b] is the fold of the totals of the blocks before b
	totals  []E    // the totals of the blocks that were only folded
	folded  []bool // the blocks that were only folded: the second pass scans them
}

// offset returns the offset of block b and true if b is at the frontier.
func (f *scanFront[E]) offset(b int) (E, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.at != b {
		var zero E
		return zero, false
	}
	return f.offsets[b], true
}

// scanned records that block b, at the frontier, was scanned and has total t,
// and moves the frontier on.
func (f *scanFront[E]) scanned(b int, t E) {
	f.mu.Lock()
	defer f.mu.Unlock() // op may panic
	f.offsets[b+1] = f.op(f.offsets[b], t)
	f.at = b + 1
	f.advance()
}

// fold records that block b, ahead of the frontier when it began, has total t.
func (f *scanFront[E]) fold(b int, t E) {
	f.mu.Lock()
	defer f.mu.Unlock() // op may panic
	f.totals[b], f.folded[b] = t, true
	f.advance()
}

// advance moves the frontier over the blocks that were folded. f.mu is held.
func (f *scanFront[E]) advance() {
	for f.at < len(f.folded) && f.folded[f.at] {
		f.offsets[f.at+1] = f.op(f.offsets[f.at], f.totals[f.at])
		f.at++
	}
}

// scanRun scans n elements in blocks of scanBlockLen(n) with k, combining the
// totals of the blocks with op from identity.
func scanRun[E any](name string, n int, identity E, op func(E, E) E, k scanKernels[E], opts []Option) {
	c := configure(opts)
	if n == 0 {
		return
	}
	bl := scanBlockLen(n)
	blocks := ceilDiv(n, bl)
	if blocks == 1 {
		k.scan(0, n, identity)
		return
	}
	// The range of both passes is one of blocks: grains given in elements
	// become blocks, so that no piece cuts a block.
	if c.Grain > 0 {
		c.Grain = max(1, c.Grain/bl)
	}
	c.MinLen = max(1, c.MinLen/bl)
	f := &scanFront[E]{op: op, offsets: make([]E, blocks+1), totals: make([]E, blocks), folded: make([]bool, blocks)}
	f.offsets[0] = identity
	run(&c, blocks, split.Work[struct{}]{Name: name, Fold: func(_ struct{}, lo, hi int) struct{} {
		for b := lo; b < hi; b++ {
			blo, bhi := scanBlock(b, bl, n)
			if off, ok := f.offset(b); ok {
				f.scanned(b, k.scan(blo, bhi, off))
			} else {
				f.fold(b, k.total(blo, bhi))
			}
		}
		return struct{}{}
	}})
	// Every block is done, so the frontier is at the end; the pieces'
	// writes happen before run returns.
	var late []int
	for b, folded := range f.folded {
		if folded {
			late = append(late, b)
		}
	}
	if len(late) == 0 {
		return
	}
	run(&c, len(late), split.Work[struct{}]{Name: name, Fold: func(_ struct{}, lo, hi int) struct{} {
		for _, b := range late[lo:hi] {
			blo, bhi := scanBlock(b, bl, n)
			k.scan(blo, bhi, f.offsets[b])
		}
		return struct{}{}
	}})
}

// Scan returns the inclusive prefix scan of s with op: a new slice whose
// element i is s[0] op s[1] op ... op s[i]. op must be associative, with
// identity as its identity element (op(identity, x) == x); it need not be
// commutative. op runs concurrently with itself on different blocks, on the
// pool's workers and the calling goroutine; writes made by op happen before
// Scan returns.
//
// The elements are scanned in blocks whose length depends only on len(s)
// (4,096 elements, or ceil(len(s)/4,096) when longer). Element i of block b is
// offset(b) op s[lo] op ... op s[i], computed left to right from the block's
// first element lo, where offset(b) is the fold, in order and from identity,
// of the totals of the blocks before b, and a block's total is the fold of
// its elements from identity. So a float scan gives the same bits on every
// run and every number of workers; those bits may differ from the
// sequential loop's, as the additions are grouped by block.
//
// The pieces of the range take their blocks in order: a block whose offset
// is known when a piece comes to it is scanned at once, each element read and
// written once (op runs twice per element: the scan and the total); a block
// ahead of that is only folded to its total (once per element), and scanned
// from its offset in a second pass (once more). An input of one block, or a
// call that runs on the caller alone, is scanned in one pass. Besides the
// result, a call allocates three slices of one entry per block.
func Scan[S ~[]E, E any](s S, identity E, op func(E, E) E, opts ...Option) S {
	if op == nil {
		panic("par: Scan: op is nil")
	}
	out := make(S, len(s))
	scanRun("par.Scan", len(s), identity, op, opKernels(s, out, identity, op, false), opts)
	return out
}

// ScanExclusive returns the exclusive prefix scan of s with op: a new slice
// whose element 0 is identity and element i is s[0] op ... op s[i-1]. op must
// be associative with identity as its identity element. It works as Scan
// does, with the same blocks and guarantees: element i of block b, from its
// first element lo, is offset(b) op s[lo] op ... op s[i-1] (offset(b) at lo).
//
// op runs concurrently with itself on different blocks, on the pool's workers
// and the calling goroutine, as for Scan.
func ScanExclusive[S ~[]E, E any](s S, identity E, op func(E, E) E, opts ...Option) S {
	if op == nil {
		panic("par: ScanExclusive: op is nil")
	}
	out := make(S, len(s))
	scanRun("par.ScanExclusive", len(s), identity, op, opKernels(s, out, identity, op, true), opts)
	return out
}

// ScanInPlace replaces each element of s by the inclusive prefix scan up to
// it, as Scan computes, without a new slice.
//
// If op panics, ScanInPlace panics with the same value once the pieces in
// progress have finished, and every element of s holds either its original
// value or its scanned one, never anything else: a block is written only
// once its offset is known, each element once, with its final value.
//
// op runs concurrently with itself on different blocks, on the pool's workers
// and the calling goroutine, as for Scan.
func ScanInPlace[S ~[]E, E any](s S, identity E, op func(E, E) E, opts ...Option) {
	if op == nil {
		panic("par: ScanInPlace: op is nil")
	}
	scanRun("par.ScanInPlace", len(s), identity, op, opKernels(s, s, identity, op, false), opts)
}

// ScanExclusiveInPlace replaces each element of s by the exclusive prefix
// scan up to it, as ScanExclusive computes, without a new slice. If op
// panics, every element of s holds either its original value or its scanned
// one, as with ScanInPlace.
//
// op runs concurrently with itself on different blocks, on the pool's workers
// and the calling goroutine, as for Scan.
func ScanExclusiveInPlace[S ~[]E, E any](s S, identity E, op func(E, E) E, opts ...Option) {
	if op == nil {
		panic("par: ScanExclusiveInPlace: op is nil")
	}
	scanRun("par.ScanExclusiveInPlace", len(s), identity, op, opKernels(s, s, identity, op, true), opts)
}

// opKernels are the block kernels of a scan of s into dst (which may be s)
// with op.
func opKernels[E any](s, dst []E, identity E, op func(E, E) E, exclusive bool) scanKernels[E] {
	k := scanKernels[E]{total: func(lo, hi int) E {
		acc := identity
		for _, x := range s[lo:hi] {
			acc = op(acc, x)
		}
		return acc
	}}
	if exclusive {
		k.scan = func(lo, hi int, acc E) E {
			src, out := s[lo:hi], dst[lo:hi]
			out = out[:len(src)]
			t := identity
			for i, x := range src { // x is read before out[i] is written: dst may be s
				out[i] = acc
				acc = op(acc, x)
				t = op(t, x)
			}
			return t
		}
	} else {
		k.scan = func(lo, hi int, acc E) E {
			src, out := s[lo:hi], dst[lo:hi]
			out = out[:len(src)]
			t := identity
			for i, x := range src {
				acc = op(acc, x)
				t = op(t, x)
				out[i] = acc
			}
			return t
		}
	}
	return k
}

// PrefixSum returns the running sums of s: a new slice whose element i is
// s[0] + ... + s[i]. Integer sums wrap. It is Scan(s, 0, add) with the
// addition inlined, and gives the same result bit for bit, floats included:
// the same on every run and worker count.
func PrefixSum[S ~[]E, E Number](s S, opts ...Option) S {
	out := make(S, len(s))
	scanRun("par.PrefixSum", len(s), 0, add[E], sumKernels(s, out), opts)
	return out
}

// PrefixSumInPlace replaces each element of s by the running sum up to it,
// as PrefixSum computes, without a new slice.
func PrefixSumInPlace[S ~[]E, E Number](s S, opts ...Option) {
	scanRun("par.PrefixSumInPlace", len(s), 0, add[E], sumKernels(s, s), opts)
}

func add[E Number](a, b E) E { return a + b }

// sumKernels are the block kernels of a running sum of s into dst (which may
// be s), with the additions in the order of opKernels with add.
func sumKernels[E Number](s, dst []E) scanKernels[E] {
	return scanKernels[E]{
		total: func(lo, hi int) E {
			var acc E
			for _, x := range s[lo:hi] {
				acc += x
			}
			return acc
		},
		scan: func(lo, hi int, acc E) E {
			src, out := s[lo:hi], dst[lo:hi]
			out = out[:len(src)]
			var t E
			for i, x := range src {
				acc += x
				t += x
				out[i] = acc
			}
			return t
		},
	}
}
