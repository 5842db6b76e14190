package par

import (
	"iter"
	"math/bits"
	"unsafe"
)

// The ...Seq functions take an iter.Seq, which only the calling goroutine may
// pull and whose length is unknown until it ends. They pull it on the caller in
// batches, process the batches on the pool while the caller pulls more, and
// hand results over in the order of the sequence; a fixed number of batches is
// held at a time, so memory stays bounded however long the sequence is (see
// seqrun.go for the engine).
//
// A pass begins like every call of the package: alone on the caller, one
// element at a time, for about 20 µs; a sequence that ends sooner costs about
// what the plain loop costs and never touches the pool.
//
// When a pass ends, early or not, no call of the function passed in is in
// progress or will start: the writes it made happen before the pass returns.

// MapSeq returns a sequence of f(e) for every element e of seq, in the order
// of seq. f runs in parallel on batches of seq; results are yielded in
// batches, so the first one may wait for a batch to fill.
//
// Nothing happens until the result is ranged over; each range pulls seq
// anew, so the result may be ranged over more than once only if seq may. If
// the loop stops early, seq is pulled no further and the batches in flight
// are abandoned: those not started are dropped, those running are waited for.
// A panic in f reaches the loop with its original value.
//
// Memory: at most 2×workers+1 batches of at most 256 KiB of elements and
// results each, whatever the length of seq.
func MapSeq[E, R any](seq iter.Seq[E], f func(E) R, opts ...Option) iter.Seq[R] {
	if seq == nil {
		panic("par: MapSeq: seq is nil")
	}
	if f == nil {
		panic("par: MapSeq: f is nil")
	}
	c := configure(opts)
	var zero R
	return func(yield func(R) bool) {
		var outs [][]R // per slot; a worker writes only the one of its batch
		newSeqRun(c, &seqOps[E, struct{}]{
			one: func(e E) bool { return yield(f(e)) },
			leaf: func(k int, in []E, lo, hi int) struct{} {
				out := outs[k][lo:hi]
				for i, e := range in[lo:hi] {
					out[i] = f(e)
				}
				return struct{}{}
			},
			init:    func(n int) { outs = make([][]R, n) },
			prepare: func(k, n int) { outs[k] = resized(outs[k], n) },
			emit: func(k int, _ []E, _ struct{}) bool {
				for _, x := range outs[k] {
					if !yield(x) {
						return false
					}
				}
				return true
			},
			outBytes: int(unsafe.Sizeof(zero)),
		}).run(seq)
	}
}

// FilterSeq returns the sequence of the elements of seq for which keep is
// true, in the order of seq. keep runs in parallel on batches; the rest is as
// for MapSeq.
func FilterSeq[E any](seq iter.Seq[E], keep func(E) bool, opts ...Option) iter.Seq[E] {
	if seq == nil {
		panic("par: FilterSeq: seq is nil")
	}
	if keep == nil {
		panic("par: FilterSeq: keep is nil")
	}
	c := configure(opts)
	return func(yield func(E) bool) {
		var masks [][]bool
		newSeqRun(c, &seqOps[E, struct{}]{
			one: func(e E) bool { return !keep(e) || yield(e) },
			leaf: func(k int, in []E, lo, hi int) struct{} {
				m := masks[k][lo:hi]
				for i, e := range in[lo:hi] {
					m[i] = keep(e)
				}
				return struct{}{}
			},
			init:    func(n int) { masks = make([][]bool, n) },
			prepare: func(k, n int) { masks[k] = resized(masks[k], n) },
			emit: func(k int, in []E, _ struct{}) bool {
				for i, ok := range masks[k] {
					if ok && !yield(in[i]) {
						return false
					}
				}
				return true
			},
			outBytes: 1,
		}).run(seq)
	}
}

// ForEachSeq calls f for every element of seq, in parallel on batches of seq,
// and returns when every call has returned; writes made by f happen before it
// returns. A panic in f reaches the caller with its original value once the
// calls in progress have returned.
func ForEachSeq[E any](seq iter.Seq[E], f func(E), opts ...Option) {
	if seq == nil {
		panic("par: ForEachSeq: seq is nil")
	}
	if f == nil {
		panic("par: ForEachSeq: f is nil")
	}
	c := configure(opts)
	newSeqRun(c, &seqOps[E, struct{}]{
		one: func(e E) bool { f(e); return true },
		leaf: func(_ int, in []E, lo, hi int) struct{} {
			for _, e := range in[lo:hi] {
				f(e)
			}
			return struct{}{}
		},
		emit: func(int, []E, struct{}) bool { return true },
	}).run(seq)
}

// ReduceSeq combines the elements of seq with op, in parallel on batches of
// seq. As for Reduce, op must be associative with identity as its identity
// element; the order of the elements is kept, so op need not be commutative,
// but the grouping depends on timing. An empty seq gives identity.
func ReduceSeq[E any](seq iter.Seq[E], identity E, op func(E, E) E, opts ...Option) E {
	if seq == nil {
		panic("par: ReduceSeq: seq is nil")
	}
	if op == nil {
		panic("par: ReduceSeq: op is nil")
	}
	c := configure(opts)
	acc := identity
	newSeqRun(c, &seqOps[E, E]{
		one: func(e E) bool { acc = op(acc, e); return true },
		leaf: func(_ int, in []E, lo, hi int) E {
			a := identity
			for _, e := range in[lo:hi] {
				a = op(a, e)
			}
			return a
		},
		combine: op,
		emit:    func(_ int, _ []E, v E) bool { acc = op(acc, v); return true },
	}).run(seq)
	return acc
}

// sumSeqBatch is the length of SumSeq's batches: sumBlock times a power of
// two, so that a batch is a whole subtree of SumSeq's tree.
const sumSeqBatch = sumBlock << 7

// SumSeq returns the sum of the elements of seq; 0 if seq is empty. Integer
// sums wrap. Float sums are deterministic: the elements are added in blocks
// of 128, as by Sum, and the blocks are combined by a binary counter, a
// pairwise tree that depends only on the length of seq, never on timing or
// the number of workers, so the same sequence gives a bit-identical result on
// every run, with an error that grows with log(n). The result equals Sum over
// the same elements collected into a slice when n <= 128 or n is 128 times a
// power of two; Sum's tree halves the whole length, which a sequence does not
// know in advance, so for other lengths the trees differ in their last bits.
func SumSeq[E Number](seq iter.Seq[E], opts ...Option) E {
	if seq == nil {
		panic("par: SumSeq: seq is nil")
	}
	c := configure(opts)
	var st sumStack[E]
	newSeqRun(c, &seqOps[E, E]{
		one: func(e E) bool { st.add(e); return true },
		leaf: func(_ int, in []E, lo, hi int) E {
			return pairwise(in[lo:hi])
		},
		combine: func(a, b E) E { return a + b },
		emit: func(_ int, _ []E, v E) bool {
			st.push(v, bits.TrailingZeros(sumSeqBatch/sumBlock))
			return true
		},
		tail: func(in []E) {
			for _, e := range in {
				st.add(e)
			}
		},
		minPiece: sumBlock,
		fixed:    sumSeqBatch,
	}).run(seq)
	return st.total()
}

// sumStack adds a sequence over the pairwise tree of its blocks: the sums of
// complete subtrees of 2^level blocks, at most one per level, in order.
type sumStack[E Number] struct {
	sums   [64]E
	levels [64]int
	n      int // entries in use; their levels decrease
	block  [sumBlock]E
	fill   int // elements in block
}

// add appends one element.
func (s *sumStack[E]) add(e E) {
	s.block[s.fill] = e
	s.fill++
	if s.fill == sumBlock {
		s.fill = 0
		s.push(blockSum(s.block[:]), 0)
	}
}

// push appends the sum of a subtree of 2^level blocks, which must start where
// the sums so far end and at a multiple of its own length.
func (s *sumStack[E]) push(v E, level int) {
	for s.n > 0 && s.levels[s.n-1] == level {
		s.n--
		v = s.sums[s.n] + v
		level++
	}
	s.sums[s.n], s.levels[s.n] = v, level
	s.n++
}

// total returns the sum: the incomplete subtrees, from the right.
func (s *sumStack[E]) total() E {
	var t E
	if s.fill > 0 {
		t = blockSum(s.block[:s.fill])
		if s.n == 0 {
			return t
		}
	} else if s.n == 0 {
		return 0
	} else {
		s.n--
		t = s.sums[s.n]
	}
	for i := s.n - 1; i >= 0; i-- {
		t = s.sums[i] + t
	}
	return t
}

// resized returns s with length n, reusing its array if it is large enough.
func resized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
