package par

import (
	"math/bits"
	"slices"
	"unsafe"
)

// Radix sort for integer and float keys (Knuth, The Art of Computer
// Programming, vol. 3, §5.2.5; the parallel counting pass follows Zagha and
// Blelloch, "Radix sort for vector multiprocessors", Supercomputing 1991).
//
// The input is first distributed by its most significant varying digit
// (8 bits) into 256 buckets of the scratch copy, in parallel blocks: each
// block counts its digits, a prefix sum over (digit, block) gives every
// block its own write positions, and each block scatters its keys. The
// buckets are then sorted independently, in parallel, each by one task: a
// bucket longer than radixLeaf is distributed again by the next digit; one
// that fits in the L2 cache is finished there, by LSD passes (one per
// remaining byte) when at most 24 bits are left to sort, else by one pass on
// a digit of up to 14 bits followed by insertion sorts of buckets of a key
// or two (fine). A digit on which every key of a region agrees is skipped,
// so small values in a wide type cost only the digits they use. The traffic
// to RAM is about two reads and two writes of the input (the count, the
// scatter, the cached leaf writing its result back); the rest stays in cache.
// A wider first digit (1,024 or 4,096 buckets of a few thousand keys, where
// fine is fastest) was measured no faster with 10 bits and slower with 12:
// the scatter to that many write streams from RAM costs what it saves.
//
// Keys are unsigned. A signed integer becomes one by flipping its sign bit
// (x ^ flip, applied wherever a digit is read, so values are never
// rewritten); a float by the usual total-order transform, applied in place
// before the sort and undone on each final piece while it is in cache (see
// floatKeys and radixFloat).
//
// No function of the caller's runs here: keys are read as bits and compared
// with <, and the slices.Sort of small regions compares unsigned integers.
// So unlike the comparison sorts (see merge.go and quick.go), the radix sort
// keeps no restore for a failure half-way: s may hold keys in the scratch
// copy's place, or floats as keys, at any point between the forks. Only a
// runtime.Goexit in another call's task, run by a worker while it waits for
// a piece of this sort, can end it there (see Sort).

// unsigned is the set of key types the radix sort works on.
type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

const (
	digitBits = 8
	radix     = 1 << digitBits

	// radixLeaf is the longest region finished in cache (by lsd or fine):
	// with its scratch it stays within the 1 MiB L2 cache even for 8-byte
	// keys.
	radixLeaf = 1 << 16
	// radixSplit is the shortest input that is distributed by its top digit
	// before the cached passes, so that its buckets can be sorted in
	// parallel. Shorter ones are sorted on the caller, without the pool.
	radixSplit = 1 << 14
	// radixTiny is the longest region handed to slices.Sort, where a
	// comparison sort beats 256-entry histograms.
	radixTiny = 96
	// radixParPass is the shortest region whose distribution pass runs in
	// parallel blocks.
	radixParPass = 1 << 17
	// radixBlock is the shortest block of a parallel distribution pass.
	radixBlock = 1 << 15
	// radixParBuckets is the fewest elements a group of buckets must hold to
	// be split between two tasks.
	radixParBuckets = 1 << 14
)

// keyBits returns the width of K in bits.
func keyBits[K unsigned]() uint { return uint(unsafe.Sizeof(K(0))) * 8 }

// radixSort sorts a by the keys x^flip, using b (of the same length) as
// scratch. w is the caller's worker handle, or nil to sort on the caller
// alone. If post is not nil, it is called on every piece of a once the piece
// holds its final keys, while the piece is still in cache (the pieces
// partition a).
func radixSort[K unsigned](w *Worker, a, b []K, flip K, post func([]K)) {
	leaf := radixLeaf
	if w != nil {
		leaf = radixSplit
	}
	sortRegion(w, a, b, keyBits[K](), flip, true, leaf, post)
}

// sortRegion sorts region a by key, the result ending in a if inA and in b
// otherwise; b is scratch of the same length. Every key of a agrees on the
// bits at and above top. A region longer than leaf is distributed by its top
// digit first. post, if not nil, is called on the pieces of the result (see
// radixSort).
func sortRegion[K unsigned](w *Worker, a, b []K, top uint, flip K, inA bool, leaf int, post func([]K)) {
	n := len(a)
	res := a
	if !inA {
		res = b
	}
	for {
		switch {
		case n == 0:
		case n <= radixTiny && (flip == 0 || top < keyBits[K]()):
			// Within a region that agrees on the sign bit, raw order is key order.
			slices.Sort(a)
			copy(res, a)
		case n <= leaf && top <= lsdMaxBits:
			if inB := lsd(a, b, top, flip); inB == inA {
				if inA {
					copy(a, b)
				} else {
					copy(b, a)
				}
			}
		case n <= leaf:
			fine(a, b, top, flip, inA)
		default:
			sh := uint(0)
			if top > digitBits {
				sh = top - digitBits
			}
			var off [radix + 1]int
			diff, split := distribute(w, a, b, sh, flip, &off)
			if split {
				sortBuckets(w, b, a, &off, 0, radix, sh, flip, !inA, post)
				return
			}
			if diff != 0 {
				top = uint(bits.Len64(uint64(diff)))
				continue
			}
			copy(res, a) // all keys equal
		}
		if post != nil {
			post(res)
		}
		return
	}
}

// sortBuckets sorts buckets [lo, hi) of a, bucket d being a[off[d]:off[d+1]],
// with b as scratch, splitting the buckets between tasks by element count.
func sortBuckets[K unsigned](w *Worker, a, b []K, off *[radix + 1]int, lo, hi int, top uint, flip K, inA bool, post func([]K)) {
	if w != nil && hi-lo > 1 && off[hi]-off[lo] >= radixParBuckets {
		// Cut where half of the elements lie, keeping a bucket on each side.
		half := off[lo] + (off[hi]-off[lo])/2
		mid := lo + 1
		for mid < hi-1 && off[mid+1] <= half {
			mid++
		}
		l, m := lo, mid
		w.joinEager(
			func(w *Worker) { sortBuckets(w, a, b, off, l, m, top, flip, inA, post) },
			func(w *Worker) { sortBuckets(w, a, b, off, m, hi, top, flip, inA, post) },
		)
		return
	}
	for d := lo; d < hi; d++ {
		i, j := off[d], off[d+1]
		if j-i > 0 {
			sortRegion(w, a[i:j], b[i:j], top, flip, inA, radixLeaf, post)
		}
	}
}

// distribute scatters a into b by the digit at sh, stably, and stores the
// bucket bounds in off. If every key has the same digit it scatters nothing,
// reports split false, and returns the OR of x^a[0] over a, whose length in
// bits is the top of the next digit worth looking at.
func distribute[K unsigned](w *Worker, a, b []K, sh uint, flip K, off *[radix + 1]int) (diff K, split bool) {
	n := len(a)
	nb := 1
	if n >= radixParPass {
		nb = blocks(w, n)
	}
	if nb == 1 {
		var c [radix]int
		diff = count(a, sh, flip, a[0], &c)
		if c[byte((a[0]^flip)>>sh)] == n {
			return diff, false
		}
		sum := 0
		for d, k := range c {
			off[d] = sum
			c[d] = sum
			sum += k
		}
		off[radix] = n
		scatter(a, b, sh, flip, &c)
		return 0, true
	}

	// Blocks [i*n/nb, (i+1)*n/nb) count in parallel, then scatter in parallel
	// to positions that a prefix sum over (digit, block) makes disjoint.
	cs := make([][radix]int, nb)
	diffs := make([]K, nb)
	block := func(i int) []K { return a[i*n/nb : (i+1)*n/nb] }
	forEach(w, 0, nb, func(_ *Worker, i int) {
		diffs[i] = count(block(i), sh, flip, a[0], &cs[i])
	})
	for _, d := range diffs {
		diff |= d
	}
	first := byte((a[0] ^ flip) >> sh)
	total := 0
	for i := range cs {
		total += cs[i][first]
	}
	if total == n {
		return diff, false
	}
	sum := 0
	for d := range radix {
		off[d] = sum
		for i := range cs {
			k := cs[i][d]
			cs[i][d] = sum
			sum += k
		}
	}
	off[radix] = n
	forEach(w, 0, nb, func(_ *Worker, i int) {
		scatter(block(i), b, sh, flip, &cs[i])
	})
	return 0, true
}

// count adds the digits at sh of the keys of a to c, and returns the OR of
// x^ref over a.
func count[K unsigned](a []K, sh uint, flip, ref K, c *[radix]int) (diff K) {
	for _, x := range a {
		c[byte((x^flip)>>sh)]++
		diff |= x ^ ref
	}
	return diff
}

// scatter moves every x of a to b[pos[digit]], counting pos up.
func scatter[K unsigned](a, b []K, sh uint, flip K, pos *[radix]int) {
	for _, x := range a {
		d := byte((x ^ flip) >> sh)
		b[pos[d]] = x
		pos[d]++
	}
}

// lsd sorts a by the bits of the key below top, one least-significant digit
// per pass, ping-ponging with b; it reports whether the result is in b.
// The histograms of all digits come from one reading of a.
func lsd[K unsigned](a, b []K, top uint, flip K) (inB bool) {
	n := len(a)
	nd := int((top + digitBits - 1) / digitBits)
	var c [8][radix]uint32
	switch {
	case nd == 1:
		for _, x := range a {
			c[0][byte(x^flip)]++
		}
	case nd == 2:
		for _, x := range a {
			k := uint64(x ^ flip)
			c[0][byte(k)]++
			c[1][byte(k>>8)]++
		}
	case nd <= 4:
		for _, x := range a {
			k := uint64(x ^ flip)
			c[0][byte(k)]++
			c[1][byte(k>>8)]++
			c[2][byte(k>>16)]++
			c[3][byte(k>>24)]++
		}
	default:
		for _, x := range a {
			k := uint64(x ^ flip)
			c[0][byte(k)]++
			c[1][byte(k>>8)]++
			c[2][byte(k>>16)]++
			c[3][byte(k>>24)]++
			c[4][byte(k>>32)]++
			c[5][byte(k>>40)]++
			c[6][byte(k>>48)]++
			c[7][byte(k>>56)]++
		}
	}
	k0 := uint64(a[0] ^ flip)
	src, dst := a, b
	for d := range nd {
		h := &c[d]
		if int(h[byte(k0>>(8*d))]) == n {
			continue // every key has this digit
		}
		var sum uint32
		for i, k := range h {
			h[i] = sum
			sum += k
		}
		sh := uint(8 * d)
		for _, x := range src {
			g := byte((x ^ flip) >> sh)
			dst[h[g]] = x
			h[g]++
		}
		src, dst = dst, src
		inB = !inB
	}
	return inB
}

// blocks returns the number of blocks a parallel pass over n elements is cut
// into: a few per worker, so that a stolen block is not the last to finish,
// but none shorter than radixBlock. With a nil w, one.
func blocks(w *Worker, n int) int {
	if w == nil {
		return 1
	}
	return min(max(n/radixBlock, 1), 4*w.sched().Pool().Workers())
}

// lsdMaxBits is the widest key range left to sort that a cache-sized region
// finishes by LSD passes, one per 8 bits; wider ones go to fine, whose cost
// does not grow with the width.
const lsdMaxBits = 24

// fineRun is the longest bucket of fine sorted by insertion.
const fineRun = 24

// fine sorts a cache-sized region a by the bits of the key below top with
// one distribution pass into b by a digit wide enough that the buckets hold
// one to two keys on average (at most fineBits), then insertion sorts of the
// buckets; a bucket longer than fineRun is sorted by sortRegion. The result
// ends in a if inA. On 5,000 random keys of 56 bits it takes 4.2 ns a key, a
// third of the time of the seven LSD passes they need; on 39,000 (a bucket
// of W6) about 8.5 ns, two thirds.
func fine[K unsigned](a, b []K, top uint, flip K, inA bool) {
	n := len(a)
	wd := min(uint(bits.Len(uint(n)))-1, fineBits, top)
	sh := top - wd
	mask := K(1)<<wd - 1
	var c [1<<fineBits + 1]uint32
	h := c[:1<<wd+1]
	for _, x := range a {
		h[((x^flip)>>sh)&mask]++
	}
	if int(h[((a[0]^flip)>>sh)&mask]) == n { // no key differs in this digit: look lower
		var diff K
		for _, x := range a {
			diff |= x ^ a[0]
		}
		if diff == 0 {
			if !inA {
				copy(b, a)
			}
			return
		}
		sortRegion(nil, a, b, uint(bits.Len64(uint64(diff))), flip, inA, radixLeaf, nil)
		return
	}
	var sum uint32
	for i, k := range h {
		h[i] = sum
		sum += k
	}
	for _, x := range a {
		g := ((x ^ flip) >> sh) & mask
		b[h[g]] = x
		h[g]++
	}
	// h[d] is now the end of bucket d.
	lo := 0
	for _, e := range h[:1<<wd] {
		hi := int(e)
		switch m := hi - lo; {
		case m <= 1:
		case m <= fineRun:
			// The keys of a bucket agree on the sign bit: raw order is key order.
			insertionSortKeys(b[lo:hi])
		default:
			sortRegion(nil, b[lo:hi], a[lo:hi], sh, flip, true, radixLeaf, nil)
		}
		lo = hi
	}
	if inA {
		copy(a, b)
	}
}

// fineBits bounds the digit of fine: 16,384 counters, 64 KiB in the L2
// cache, zeroed on every call (about 1 µs; splitting fine by counter size
// to spare small regions that cost made the hot loop slower). On the
// 39,000-key buckets of W6, 14 bits take 0.85 of the time of 12 bits.
const fineBits = 14

func insertionSortKeys[K unsigned](a []K) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && x < a[j-1]; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}

// forEach calls f(w, i) for every i in [lo, hi), forking a task per half,
// or in a loop if w is nil. It suits a handful of coarse blocks, not
// fine-grained loops.
func forEach(w *Worker, lo, hi int, f func(w *Worker, i int)) {
	if w == nil {
		for i := lo; i < hi; i++ {
			f(nil, i)
		}
		return
	}
	if hi-lo == 1 {
		f(w, lo)
		return
	}
	mid := lo + (hi-lo)/2
	w.joinEager(
		func(w *Worker) { forEach(w, lo, mid, f) },
		func(w *Worker) { forEach(w, mid, hi, f) },
	)
}

// floatKeys maps the bits of IEEE floats, in place, to unsigned keys in the
// order of the values: a negative float has all its bits flipped, a positive
// one its sign bit. -NaN then comes before -Inf and +NaN after +Inf, and -0
// just before +0.
func floatKeys[K unsigned](a []K) {
	top := keyBits[K]() - 1
	for i, x := range a {
		a[i] = x ^ (-(x >> top) | 1<<top)
	}
}

// floatValues undoes floatKeys.
func floatValues[K unsigned](a []K) {
	top := keyBits[K]() - 1
	for i, k := range a {
		a[i] = k ^ ((k >> top) - 1 | 1<<top)
	}
}

// isNaNBits reports whether the float with bits x is a NaN.
func isNaNBits[K unsigned](x K) bool {
	w := keyBits[K]()
	mant := w - 12 // 52 for float64
	if w == 32 {
		mant = 23
	}
	abs := x &^ (1 << (w - 1))
	inf := (K(1)<<(w-1-mant) - 1) << mant
	return abs > inf
}

// radixFloat sorts the floats whose bits are a as slices.Sort orders them:
// every NaN first, then the numbers in ascending order, -0 and +0 being equal.
func radixFloat[K unsigned](w *Worker, a, b []K) {
	n := len(a)
	nb := blocks(w, n)
	block := func(i int) []K { return a[i*n/nb : (i+1)*n/nb] }
	forEach(w, 0, nb, func(_ *Worker, i int) { floatKeys(block(i)) })
	radixSort(w, a, b, 0, floatValues[K])
	// The +NaNs sorted after +Inf: rotate them to the front, after the -NaNs.
	t := 0
	for t < n && isNaNBits(a[n-1-t]) {
		t++
	}
	if t > 0 && t < n {
		copy(b, a[n-t:])
		copy(a[t:], a[:n-t])
		copy(a, b[:t])
	}
}
