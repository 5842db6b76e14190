package par

// A prefix scan (oneTBB's parallel_scan; Rayon has none) in two passes over
// blocks fixed by the length alone. The first pass folds every block but the
// last into its total, in parallel; the totals are then scanned on the calling
// goroutine into each block's offset, the fold of all the blocks before it;
// the second pass scans every block from its offset, in parallel. This is
// reduce-then-scan: it reads the input twice and writes the output once. The
// other shape, scan-then-fix (scan each block from identity, then add the
// offsets), reads once but writes twice and reads its output back, which on
// a loop bound by memory bandwidth moves more bytes (W10 of `go run ./bench`).
//
// The blocks depend only on n, never on the workers or the timing, and each
// element's value is computed by the same sequence of op calls whatever runs
// it, so a float scan gives the same bits on every run and worker count.

// scanMinBlock is the shortest block; an input of at most this many elements
// is one block, scanned in one pass on the calling goroutine.
const scanMinBlock = 1 << 12

// scanMaxBlocks bounds the number of blocks, and so the sequential scan of
// their totals between the passes.
const scanMaxBlocks = 1 << 12

// scanBlockLen returns the block length of a scan of n elements: a function of
// n alone.
func scanBlockLen(n int) int {
	return max(scanMinBlock, (n+scanMaxBlocks-1)/scanMaxBlocks)
}

// scanKernels are what a scan does with a block: total folds s[lo:hi] from
// identity; scan writes the scan of s[lo:hi] from offset into the output.
type scanKernels[E any] struct {
	total func(lo, hi int) E
	scan  func(lo, hi int, offset E)
}

// scanRun scans n elements in blocks of scanBlockLen(n) with k, combining the
// totals of the blocks with op from identity.
func scanRun[E any](name string, n int, identity E, op func(E, E) E, k scanKernels[E], opts []Option) {
	c := configure(opts)
	if n == 0 {
		return
	}
	bl := scanBlockLen(n)
	blocks := (n + bl - 1) / bl
	if blocks == 1 {
		k.scan(0, n, identity)
		return
	}
	// The range of both passes is one of blocks: grains given in elements
	// become blocks, so that no piece cuts a block.
	if c.grain > 0 {
		c.grain = max(1, c.grain/bl)
	}
	c.minLen = max(1, c.minLen/bl)
	offsets := make([]E, blocks)
	// Pass 1: the totals of every block but the last, which no offset needs.
	run(&c, blocks-1, &body[struct{}]{name: name, each: func(lo, hi int) {
		for b := lo; b < hi; b++ {
			offsets[b+1] = k.total(b*bl, (b+1)*bl)
		}
	}})
	// offsets[b] holds the total of block b-1: fold them in order.
	offsets[0] = identity
	for b := 1; b < blocks; b++ {
		offsets[b] = op(offsets[b-1], offsets[b])
	}
	// Pass 2: each block from its offset.
	run(&c, blocks, &body[struct{}]{name: name, each: func(lo, hi int) {
		for b := lo; b < hi; b++ {
			k.scan(b*bl, min(n, (b+1)*bl), offsets[b])
		}
	}})
}

// Scan returns the inclusive prefix scan of s with op: a new slice whose
// element i is s[0] op s[1] op ... op s[i]. op must be associative, with
// identity as its identity element (op(identity, x) == x); it need not be
// commutative. op runs in parallel; writes made by op happen before Scan
// returns.
//
// The scan works in two passes over blocks whose length depends only on
// len(s) (4,096 elements, or len(s)/4,096 when longer): the first folds each
// block but the last from identity into its total, in parallel; the totals
// are folded in order on the calling goroutine into each block's offset; the
// second pass scans each block from its offset, in parallel. Element i of
// block b is so offset(b) op s[lo] op ... op s[i], computed left to right,
// whatever the schedule: a float scan gives the same bits on every run and
// every number of workers (bits that may differ from the sequential loop's,
// as the additions are grouped by block). op runs about twice per element;
// an input of one block (up to 4,096 elements) is scanned in one pass on the
// calling goroutine.
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
// does, with the same blocks and guarantees.
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
// value or its scanned one, never anything else: the first pass only reads
// s, and the second writes each element once, with its final value.
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
		k.scan = func(lo, hi int, acc E) {
			src, out := s[lo:hi], dst[lo:hi]
			out = out[:len(src)]
			for i, x := range src { // x is read before out[i] is written: dst may be s
				out[i] = acc
				acc = op(acc, x)
			}
		}
	} else {
		k.scan = func(lo, hi int, acc E) {
			src, out := s[lo:hi], dst[lo:hi]
			out = out[:len(src)]
			for i, x := range src {
				acc = op(acc, x)
				out[i] = acc
			}
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
		scan: func(lo, hi int, acc E) {
			src, out := s[lo:hi], dst[lo:hi]
			out = out[:len(src)]
			for i, x := range src {
				acc += x
				out[i] = acc
			}
		},
	}
}
