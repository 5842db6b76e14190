package par

import (
	"iter"
	"math/bits"

	"github.com/weftgo/weft/internal/pairwise"
	"github.com/weftgo/weft/split"
)

// The ...Seq functions take an iter.Seq, which only the calling goroutine may
// pull and whose length is unknown until it ends. They pull it on the caller,
// as a plain range loop does, and either process each element there at once
// or, when that pays, gather elements into pieces that the pool's workers and
// the caller itself process between two pulls (seqrun.go has the engine, and
// docs/DESIGN.md's section on sequences how it chooses). Each function's doc
// states its order, cost and memory bound.
//
// WithGrain(n) makes every piece n elements long and sends every piece to the
// pool from the first element on, without working alone or choosing: for an
// operation whose cost is known. WithMinLen(n) keeps the choice but makes
// pieces at least n long. SumSeq's pieces always hold 16384 elements, which
// its tree needs.
//
// Rejected designs: iter.Pull turns the push loop into calls of next, but
// each costs a switch between coroutines: about 75 ns per element here,
// against under 1 ns for the push loop. A goroutine per pass feeding a
// channel costs more still, and leaks unless every early exit is tracked.
// Tasks detached at an early exit would be cheaper to abandon but would call
// f after the loop has ended. Batches queued to the pool while the caller
// only pulls and waits leave the caller's processor idle: on 2 cores the
// default pool has one worker, so one core computed while the other pulled
// or waited (0.89-0.94 of the plain loop, where batches on goroutines reach
// 1.25-1.90).

// MapSeq returns a sequence of f(e) for every element e of seq, in the order
// of seq. f runs on the caller as each element comes or, when f costs enough
// for the pool to pay, in parallel on batches of seq whose results are then
// yielded together: a result may wait for its batch to fill.
//
// Nothing happens until the result is ranged over; each range pulls seq
// anew, so the result may be ranged over more than once only if seq may. If
// the loop stops early, seq is pulled no further and the batches in flight
// are abandoned: those not started are dropped, those running are waited for.
// A panic in f reaches the loop with its original value.
//
// Every call of f happens before the range loop ends, whether it ends
// normally, by a break, or by a panic (in f, in the loop body or in seq):
// pieces that nobody has started are dropped and those running are waited
// for, never left behind.
//
// Cost: every pass begins on the caller alone, where an element costs the
// plain loop's plus a call of yield through a function value and a count (one
// or two nanoseconds), with a look at the clock every few thousand elements:
// the loop to compare it with is one that calls f and the loop body through
// function values, since no function that takes f can inline it. After 20 µs it tries
// the pool: first, unless an element took 4 µs or more, with one piece that
// the caller fills and processes itself, which bounds what the pool could gain
// and costs the copies of that piece when f is too cheap for any parallel form
// (then the next try waits until the cost per element grows, or for up to 10
// ms); then it stays on the pool while the elements handed over come faster
// than they did alone (where they came slower twice in a row with a worker,
// the next try waits as after a failed piece). On the pool, the caller pulls
// and copies each element into a piece (of about 50 µs of f's work, up to
// 200 µs where an element takes 4 µs or more), and between two pulls
// processes pieces as the pool's workers do, so pulling overlaps computing
// and a sequence slow to pull keeps the caller pulling while the workers
// compute. A pass that stays on the caller allocates its state (under 200
// bytes) and its loop body, and first looks at the clock after its first
// element; its first try of the pool allocates the rest of its state (some
// 500 bytes and the ring of pieces), and a piece on the pool costs one or
// two allocations (the job that wakes a worker, a buffer grown to the
// piece's length).
//
// Memory: a pass holds at most 4×P+2 pieces, P being the participants (the
// caller and at most GOMAXPROCS-1 of the pool's workers), each at most 64
// KiB of elements and per-element results unless WithGrain or WithMinLen
// ask for longer pieces: 640 KiB on 2 cores, however long seq is.
func MapSeq[E, R any](seq iter.Seq[E], f func(E) R, opts ...Option) iter.Seq[R] {
	if seq == nil {
		panic("par: MapSeq: seq is nil")
	}
	if f == nil {
		panic("par: MapSeq: f is nil")
	}
	c := seqConfigure(opts)
	return func(yield func(R) bool) {
		m := &mapSeq[E, R]{f: f, yield: yield}
		m.init(c, m, seqShape{outBytes: seqOutBytes[R]()})
		m.run(func() {
			seq(func(e E) bool {
				if m.left <= 0 && m.pooled() {
					return m.push(e)
				}
				m.left--
				if !m.yield(m.f(e)) {
					return m.stop()
				}
				return true
			})
		})
	}
}

type mapSeq[E, R any] struct {
	seqRun[E, struct{}]
	f     func(E) R
	yield func(R) bool
	outs  [][]R // per slot; a worker writes only the one of its batch
}

func (m *mapSeq[E, R]) leaf(k int, in []E, lo, hi int) struct{} {
	out := m.outs[k][lo:hi]
	for i, e := range in[lo:hi] {
		out[i] = m.f(e)
	}
	return struct{}{}
}

func (m *mapSeq[E, R]) emit(k int, _ []E, _ struct{}) bool {
	for _, x := range m.outs[k] {
		if !m.yield(x) {
			return false
		}
	}
	return true
}

func (m *mapSeq[E, R]) slots(n int)                       { m.outs = make([][]R, n) }
func (m *mapSeq[E, R]) prepare(k, n int)                  { m.outs[k] = resized(m.outs[k], n) }
func (*mapSeq[E, R]) combine(struct{}, struct{}) struct{} { return struct{}{} }
func (*mapSeq[E, R]) tail([]E)                            {}

// FilterSeq returns the sequence of the elements of seq for which keep is
// true, in the order of seq. keep runs in parallel on batches; the rest is as
// for MapSeq.
//
// Cost and memory are as for MapSeq: a pass begins alone on the caller and
// moves to the pool while that pays, and it holds at most 4×P+2 pieces of at
// most 64 KiB each, P being the participants (the caller and at most
// GOMAXPROCS-1 of the pool's workers), however long seq is.
func FilterSeq[E any](seq iter.Seq[E], keep func(E) bool, opts ...Option) iter.Seq[E] {
	if seq == nil {
		panic("par: FilterSeq: seq is nil")
	}
	if keep == nil {
		panic("par: FilterSeq: keep is nil")
	}
	c := seqConfigure(opts)
	return func(yield func(E) bool) {
		m := &filterSeq[E]{keep: keep, yield: yield}
		m.init(c, m, seqShape{outBytes: 1})
		m.run(func() {
			seq(func(e E) bool {
				if m.left <= 0 && m.pooled() {
					return m.push(e)
				}
				m.left--
				if m.keep(e) && !m.yield(e) {
					return m.stop()
				}
				return true
			})
		})
	}
}

type filterSeq[E any] struct {
	seqRun[E, struct{}]
	keep  func(E) bool
	yield func(E) bool
	masks [][]bool // per slot, as mapSeq.outs
}

func (m *filterSeq[E]) leaf(k int, in []E, lo, hi int) struct{} {
	mask := m.masks[k][lo:hi]
	for i, e := range in[lo:hi] {
		mask[i] = m.keep(e)
	}
	return struct{}{}
}

func (m *filterSeq[E]) emit(k int, in []E, _ struct{}) bool {
	for i, ok := range m.masks[k] {
		if ok && !m.yield(in[i]) {
			return false
		}
	}
	return true
}

func (m *filterSeq[E]) slots(n int)                       { m.masks = make([][]bool, n) }
func (m *filterSeq[E]) prepare(k, n int)                  { m.masks[k] = resized(m.masks[k], n) }
func (*filterSeq[E]) combine(struct{}, struct{}) struct{} { return struct{}{} }
func (*filterSeq[E]) tail([]E)                            {}

// ForEachSeq calls f for every element of seq, in parallel on batches of seq,
// and returns when every call has returned; writes made by f happen before it
// returns. A panic in f reaches the caller with its original value once the
// calls in progress have returned.
//
// Cost and memory are as for MapSeq: a pass begins alone on the caller and
// moves to the pool while that pays, and it holds at most 4×P+2 pieces of at
// most 64 KiB each, P being the participants (the caller and at most
// GOMAXPROCS-1 of the pool's workers), however long seq is.
func ForEachSeq[E any](seq iter.Seq[E], f func(E), opts ...Option) {
	if seq == nil {
		panic("par: ForEachSeq: seq is nil")
	}
	if f == nil {
		panic("par: ForEachSeq: f is nil")
	}
	m := &forEachSeq[E]{f: f}
	m.init(seqConfigure(opts), m, seqShape{})
	m.run(func() {
		seq(func(e E) bool {
			if m.left <= 0 && m.pooled() {
				return m.push(e)
			}
			m.left--
			m.f(e)
			return true
		})
	})
}

type forEachSeq[E any] struct {
	seqRun[E, struct{}]
	f func(E)
}

func (m *forEachSeq[E]) leaf(_ int, in []E, lo, hi int) struct{} {
	for _, e := range in[lo:hi] {
		m.f(e)
	}
	return struct{}{}
}

func (*forEachSeq[E]) emit(int, []E, struct{}) bool        { return true }
func (*forEachSeq[E]) slots(int)                           {}
func (*forEachSeq[E]) prepare(int, int)                    {}
func (*forEachSeq[E]) combine(struct{}, struct{}) struct{} { return struct{}{} }
func (*forEachSeq[E]) tail([]E)                            {}

// ReduceSeq combines the elements of seq with op, in parallel on batches of
// seq. As for Reduce, op must be associative with identity as its identity
// element; the order of the elements is kept, so op need not be commutative,
// but the grouping depends on timing. An empty seq gives identity.
//
// Cost and memory are as for MapSeq: a pass begins alone on the caller and
// moves to the pool while that pays, and it holds at most 4×P+2 pieces of at
// most 64 KiB each, P being the participants (the caller and at most
// GOMAXPROCS-1 of the pool's workers), however long seq is.
func ReduceSeq[E any](seq iter.Seq[E], identity E, op func(E, E) E, opts ...Option) E {
	if seq == nil {
		panic("par: ReduceSeq: seq is nil")
	}
	if op == nil {
		panic("par: ReduceSeq: op is nil")
	}
	m := &reduceSeq[E]{identity: identity, op: op, acc: identity}
	m.init(seqConfigure(opts), m, seqShape{})
	m.run(func() {
		seq(func(e E) bool {
			if m.left <= 0 && m.pooled() {
				return m.push(e)
			}
			m.left--
			m.acc = m.op(m.acc, e)
			return true
		})
	})
	return m.acc
}

type reduceSeq[E any] struct {
	seqRun[E, E]
	identity, acc E
	op            func(E, E) E
}

func (m *reduceSeq[E]) leaf(_ int, in []E, lo, hi int) E {
	a := m.identity
	for _, e := range in[lo:hi] {
		a = m.op(a, e)
	}
	return a
}

func (m *reduceSeq[E]) emit(_ int, _ []E, v E) bool { m.acc = m.op(m.acc, v); return true }
func (m *reduceSeq[E]) combine(a, b E) E            { return m.op(a, b) }
func (*reduceSeq[E]) slots(int)                     {}
func (*reduceSeq[E]) prepare(int, int)              {}
func (*reduceSeq[E]) tail([]E)                      {}

// sumSeqBatch is the length of SumSeq's batches: split.Block times a power of
// two, so that a batch is a whole subtree of SumSeq's tree.
const sumSeqBatch = split.Block << 7

// SumSeq returns the sum of the elements of seq; 0 if seq is empty. Integer
// sums wrap. Float sums are deterministic: the elements are added in blocks
// of 128, as by Sum, and the blocks are combined by a binary counter, a
// pairwise tree that depends only on the length of seq, never on timing or
// the number of workers, so the same sequence gives a bit-identical result on
// every run, with an error that grows with log(n). It is the tree of
// split.Pairwise, which Sum and pipe.Sum follow too, so the result equals Sum
// over the same elements collected into a slice, bit for bit.
//
// An addition costs less than pulling the element that it adds, so the pool
// rarely pays here: SumSeq mostly runs on the caller, trying pieces of 16384
// elements on the pool now and then, with the same result wherever a piece
// runs. On the caller an integer element costs one addition, as in the plain
// loop. It holds at most 4×P+2 such pieces (128 KiB each for 8-byte
// elements), P being the participants (the caller and at most GOMAXPROCS-1
// of the pool's workers), however long seq is.
func SumSeq[E Number](seq iter.Seq[E], opts ...Option) E {
	if seq == nil {
		panic("par: SumSeq: seq is nil")
	}
	c, shape := seqConfigure(opts), seqShape{tail: true, fixed: sumSeqBatch}
	if exact[E]() {
		// Integer sums wrap and are the same in any order: alone, an element
		// is one addition, as in the plain loop, and the pass has no tree.
		m := &sumSeqExact[E]{}
		m.init(c, m, shape)
		m.run(func() {
			seq(func(e E) bool {
				if m.left <= 0 && m.pooled() {
					return m.push(e)
				}
				m.left--
				m.sum += e
				return true
			})
		})
		return m.sum
	}
	m := &sumSeq[E]{}
	m.init(c, m, shape)
	m.run(func() {
		seq(func(e E) bool {
			if m.left <= 0 && m.pooled() {
				return m.push(e)
			}
			m.left--
			m.st.add(e, sumSeqBatch-1-m.left) // a countdown alone is a batch, from a multiple of it
			return true
		})
	})
	return m.st.total(m.pos + m.n)
}

// exact reports whether E is an integer type, whose sums are the same in
// any order.
func exact[E Number]() bool {
	half := 0.5
	return E(half) == 0
}

// sumOps is what SumSeq's two forms share: a piece's sum and the sum of two.
type sumOps[E Number] struct{}

func (sumOps[E]) leaf(_ int, in []E, lo, hi int) E { return pairwise.All(pairwise.Add, in[lo:hi]) }
func (sumOps[E]) combine(a, b E) E                 { return a + b }
func (sumOps[E]) slots(int)                        {}
func (sumOps[E]) prepare(int, int)                 {}

// sumSeq is SumSeq over floats: the sum so far, over the tree.
type sumSeq[E Number] struct {
	sumOps[E]
	seqRun[E, E]
	st sumStack[E]
}

func (m *sumSeq[E]) emit(_ int, _ []E, v E) bool {
	m.st.push(v, bits.TrailingZeros(sumSeqBatch/split.Block))
	return true
}

func (m *sumSeq[E]) tail(in []E) {
	for i, e := range in { // in begins at a multiple of sumSeqBatch
		m.st.add(e, i)
	}
}

// sumSeqExact is SumSeq over integers: the sum so far.
type sumSeqExact[E Number] struct {
	sumOps[E]
	seqRun[E, E]
	sum E
}

func (m *sumSeqExact[E]) emit(_ int, _ []E, v E) bool { m.sum += v; return true }

func (m *sumSeqExact[E]) tail(in []E) {
	for _, e := range in {
		m.sum += e
	}
}

// sumStack adds a sequence over the pairwise tree of its blocks: the sums of
// complete subtrees of 2^level blocks, at most one per level, in order. The
// block being filled is summed as it comes, in the pattern of pairwise.Add4
// (four accumulators taking one element of each group of four in turn, the
// elements of a last incomplete group going to the first), so that it needs
// no copy of the block and its sum is bit-identical to pairwise.Block's.
type sumStack[E Number] struct {
	acc   [4]E
	group [4]E
	// t holds the subtrees' sums, allocated when the first block ends: a
	// pass of fewer elements (and one over integers, which never uses it)
	// does not carry its 600 bytes.
	t *sumTree[E]
}

// sumTree is the sums of a sumStack's complete subtrees.
type sumTree[E Number] struct {
	sums   [64]E
	levels [64]uint8
	n      int // entries in use; their levels decrease
}

// add appends the element at position i of the sequence, counted from a
// multiple of split.Block. It is small enough to be inlined into the loop of
// SumSeq.
func (s *sumStack[E]) add(e E, i int) {
	s.group[i%4] = e
	if i%4 == 3 {
		s.addGroup(i)
	}
}

// addGroup adds the full group that ends at position i, and pushes the block
// if the group ends it.
func (s *sumStack[E]) addGroup(i int) {
	s.acc[0] += s.group[0]
	s.acc[1] += s.group[1]
	s.acc[2] += s.group[2]
	s.acc[3] += s.group[3]
	if i%split.Block == split.Block-1 {
		s.push((s.acc[0]+s.acc[1])+(s.acc[2]+s.acc[3]), 0)
		s.acc = [4]E{}
	}
}

// push appends the sum of a subtree of 2^level blocks, which must start where
// the sums so far end and at a multiple of its own length.
func (s *sumStack[E]) push(v E, level int) {
	if s.t == nil {
		s.t = new(sumTree[E])
	}
	t := s.t
	for t.n > 0 && int(t.levels[t.n-1]) == level {
		t.n--
		v = t.sums[t.n] + v
		level++
	}
	t.sums[t.n], t.levels[t.n] = v, uint8(level)
	t.n++
}

// total returns the sum of a sequence of n elements: the incomplete block, if
// any, then the incomplete subtrees, from the right.
func (s *sumStack[E]) total(n int) E {
	var sums []E
	if s.t != nil {
		sums = s.t.sums[:s.t.n]
	}
	var t E
	if r := n % split.Block; r > 0 {
		a := s.acc
		for _, e := range s.group[:r%4] {
			a[0] += e
		}
		t = (a[0] + a[1]) + (a[2] + a[3])
	} else if len(sums) == 0 {
		return 0
	} else {
		t = sums[len(sums)-1]
		sums = sums[:len(sums)-1]
	}
	for i := len(sums) - 1; i >= 0; i-- {
		t = sums[i] + t
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
