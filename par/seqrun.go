package par

import (
	"iter"
	"runtime/debug"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// The engine of the ...Seq functions. A sequence cannot be cut in halves: its
// length is unknown and only the calling goroutine may pull it. So the caller
// pulls, and the work is cut in time instead of in space: the caller fills a
// batch, queues it on the pool, and goes on pulling while workers process it,
// each batch being a range that the bridge (reduce) may cut further when
// workers are idle. At most a fixed number of batches are held at once (see
// seqSlots), and results are handed over in order by waiting for the oldest.
//
// Like run, it begins with a prefix processed on the caller one element at a
// time, so that a short sequence costs what the plain loop costs and a long
// one has spent at most about seqBudget before the pool is involved.

const (
	// seqSlotsPerWorker is the number of batches held per worker of the pool,
	// the one being filled included. Two keep every worker busy while the
	// caller waits for the oldest; more only hold more memory.
	seqSlotsPerWorker = 2
	// seqBatchTime is the time of work a batch is sized for: large enough that
	// queueing it and handing its results back (a few microseconds when a
	// worker must be woken) stays a few per cent, small enough that the first
	// results come soon and the last batches spread over the workers.
	seqBatchTime = 100 * time.Microsecond
	// seqBatchBytes bounds the memory of one batch, inputs and per-element
	// outputs, whatever the timing says: it is what bounds the memory of a call.
	seqBatchBytes = 256 << 10
	// seqMaxStep bounds the number of elements between two looks at the clock
	// in the prefix: a few microseconds of the cheapest loop.
	seqMaxStep = 4096
)

// seqOps is what one of the ...Seq functions does: the algebra, kept apart
// from the batching as body is kept apart from the bridge. V is the value of
// a batch (or of a piece of one) and k the index of the slot that holds it,
// for outputs kept per element.
type seqOps[E, V any] struct {
	// one processes one element on the caller during the prefix and reports
	// whether to go on.
	one func(e E) bool
	// leaf processes in[lo:hi] of the batch in slot k; any goroutine.
	leaf func(k int, in []E, lo, hi int) V
	// combine merges the values of two adjacent pieces; nil when V carries
	// nothing.
	combine func(left, right V) V
	// init, if set, is told the number of slots before any batch is queued;
	// caller only.
	init func(slots int)
	// prepare, if set, makes slot k's outputs ready for a batch of n elements
	// before it is queued; caller only.
	prepare func(k, n int)
	// emit hands the batch in slot k over, on the caller and in order, and
	// reports whether to go on.
	emit func(k int, in []E, v V) bool
	// tail, if set, processes the last, partial batch on the caller instead
	// of as a range (SumSeq: its tree is not that of a range).
	tail func(in []E)
	// outBytes is the memory of the outputs per element, for the batch cap.
	outBytes int
	// minPiece, when positive, is the shortest piece a batch may be cut into
	// (SumSeq: pieces must be whole subtrees, no shorter than a block).
	minPiece int
	// fixed, when positive, is the length of every batch, and the prefix
	// ends only at a multiple of it (SumSeq: its tree must not depend on
	// where the prefix ends).
	fixed int
}

// seqRun is the state of one pass over a sequence. Caller only, except where
// a field says otherwise.
type seqRun[E, V any] struct {
	c   config
	ops *seqOps[E, V]

	// The prefix.
	prefix bool
	start  time.Time
	count  int // elements processed in the prefix
	next   int // count at which to look at the clock
	step   int

	// The batches: a ring of slots, head the oldest in flight.
	slots    []*seqSlot[E, V]
	head     int
	inflight int
	fill     *seqSlot[E, V] // being filled; not in flight
	size     int            // the length at which fill is queued
	minSize  int
	maxSize  int
	gen      uint64 // numbers the batches queued, for their tickets
	stopped  bool   // the consumer stopped, or the pass is being torn down
}

// seqSlot holds one batch.
type seqSlot[E, V any] struct {
	k    int
	r    *seqRun[E, V]
	in   []E
	body body[V]
	gen  uint64
	// done: the batch is processed and no worker will touch it again, or the
	// caller has taken it back to process it itself.
	done bool

	// ticket is gen while the batch is queued and nobody has taken it; the
	// worker or the caller that swaps it to 0 processes the batch. So the
	// caller can take back a batch that no worker has started, and a job left
	// over from an earlier batch of the slot can never run a later one.
	ticket atomic.Uint64

	// Written by whoever processes the batch, before the send on token (a
	// worker) or before the caller reads them (the caller itself).
	v   V
	dur time.Duration
	p   *sched.Panic

	token chan struct{} // cap 1; a worker that took the batch sends once it is done
}

// seqJob is the task of one batch on the pool's injection queue.
type seqJob[E, V any] struct {
	sched.Job
	s   *seqSlot[E, V]
	gen uint64
}

func runSeqJob[E, V any](w *sched.Worker, j *sched.Job) {
	t := sched.Payload[seqJob[E, V]](j)
	s := t.s
	if !s.ticket.CompareAndSwap(t.gen, 0) { // the caller took the batch back, or this job is stale
		return
	}
	normal := false
	defer func() {
		if !normal {
			r := recover()
			s.p = &sched.Panic{Value: r, Stack: debug.Stack(), Goexit: r == nil}
		}
		s.token <- struct{}{} // hands s.v, s.dur, s.p and the outputs to the caller
	}()
	s.process(w)
	normal = true
}

// process runs the batch on w's pool, cut by the call's splitter.
func (s *seqSlot[E, V]) process(w *sched.Worker) {
	t0 := time.Now()
	s.v = reduce(w, 0, len(s.in), s.r.splitter(w.Pool().Workers()), false, &s.body)
	s.dur = time.Since(t0)
}

func newSeqRun[E, V any](c config, ops *seqOps[E, V]) *seqRun[E, V] {
	r := &seqRun[E, V]{c: c, ops: ops, prefix: c.grain == 0 || ops.fixed > 0, step: 1, next: 1}
	if ops.fixed > 0 {
		r.step, r.next = ops.fixed, ops.fixed
	}
	return r
}

// run pulls seq to its end or until the consumer stops. When it returns, or
// panics, no batch of the pass is running or will run: batches not started
// are dropped, and those running have finished.
func (r *seqRun[E, V]) run(seq iter.Seq[E]) {
	normal := false
	defer func() {
		if !normal {
			r.cancel() // a panic is already on its way; later ones are dropped
		}
	}()
	r.start = time.Now()
	if !r.prefix {
		r.startBatches(0)
	}
	seq(r.push)
	if !r.stopped {
		r.finish()
	}
	p := r.cancel()
	normal = true
	if p != nil {
		p.Repanic()
	}
}

// push takes one element from the sequence.
func (r *seqRun[E, V]) push(e E) bool {
	if r.prefix {
		if !r.ops.one(e) {
			r.stopped = true
			return false
		}
		r.count++
		if r.count == r.next {
			r.lookAtClock()
		}
		return true
	}
	s := r.fill
	s.in = append(s.in, e)
	if len(s.in) < r.size {
		return true
	}
	return r.flush()
}

// lookAtClock ends the prefix once it has taken seqBudget.
func (r *seqRun[E, V]) lookAtClock() {
	el := time.Since(r.start)
	if el <= seqBudget {
		if r.ops.fixed == 0 {
			r.step = min(r.step*seqGrowth, seqMaxStep)
		}
		r.next = r.count + r.step
		return
	}
	r.prefix = false
	r.startBatches(el / time.Duration(r.count))
}

// startBatches sets up the ring; perElem is the cost of an element so far, or
// 0 if unknown.
func (r *seqRun[E, V]) startBatches(perElem time.Duration) {
	workers := r.c.poolNow().Workers()
	r.slots = make([]*seqSlot[E, V], seqSlotsPerWorker*workers+1)
	if r.ops.init != nil {
		r.ops.init(len(r.slots))
	}
	var zero E
	r.maxSize = max(1, seqBatchBytes/max(1, int(unsafe.Sizeof(zero))+r.ops.outBytes))
	r.minSize = max(1, r.c.minLen)
	r.maxSize = max(r.maxSize, r.minSize)
	switch {
	case r.ops.fixed > 0:
		r.size = r.ops.fixed
	case r.c.grain > 0:
		r.size = r.c.grain
	default:
		r.resize(perElem)
	}
	r.fill = r.slot(0)
}

// resize sizes the next batches for seqBatchTime of work at perElem each.
func (r *seqRun[E, V]) resize(perElem time.Duration) {
	if r.ops.fixed > 0 || r.c.grain > 0 {
		return
	}
	n := r.maxSize
	if perElem > 0 {
		n = int(min(int64(seqBatchTime/perElem), int64(r.maxSize)))
	}
	r.size = max(n, r.minSize)
}

// slot returns slot i of the ring, emptied for a new batch.
func (r *seqRun[E, V]) slot(i int) *seqSlot[E, V] {
	s := r.slots[i]
	if s == nil {
		s = &seqSlot[E, V]{k: i, r: r, token: make(chan struct{}, 1)}
		s.body.leaf = func(lo, hi int) V { return r.ops.leaf(s.k, s.in, lo, hi) }
		s.body.combine = r.ops.combine
		r.slots[i] = s
	}
	if n := min(r.size, r.maxSize); cap(s.in) < n { // a larger grain grows by append
		s.in = make([]E, 0, n)
	}
	s.in = s.in[:0]
	s.done = false
	return s
}

// flush queues the full batch and makes room for the next one, handing the
// oldest over if every slot is taken. It reports whether to go on.
func (r *seqRun[E, V]) flush() bool {
	if r.stopped {
		return false
	}
	r.queue(r.fill)
	r.inflight++
	if r.inflight == len(r.slots) && !r.handOver() {
		return false
	}
	r.fill = r.slot((r.head + r.inflight) % len(r.slots))
	return true
}

// queue puts s on the pool.
func (r *seqRun[E, V]) queue(s *seqSlot[E, V]) {
	if r.ops.prepare != nil {
		r.ops.prepare(s.k, len(s.in))
	}
	p := r.c.poolNow()
	r.gen++
	s.gen = r.gen
	s.ticket.Store(r.gen) // published to the worker by the injection
	j := &seqJob[E, V]{s: s, gen: r.gen}
	j.Init(nil, runSeqJob[E, V])
	// A pool retired between poolNow and here may never run j; the caller
	// then takes the batch back when it is the oldest.
	p.Inject(&j.Job)
}

// handOver waits for the oldest batch and emits it. It reports whether to go
// on.
func (r *seqRun[E, V]) handOver() bool {
	s := r.slots[r.head]
	r.await(s)
	r.head = (r.head + 1) % len(r.slots)
	r.inflight--
	r.resize(s.dur / time.Duration(len(s.in)))
	if !r.ops.emit(s.k, s.in, s.v) {
		r.stopped = true
		return false
	}
	return true
}

// await returns once s has been processed, by a worker or, if none has
// started it, by the caller; it re-raises the batch's panic.
func (r *seqRun[E, V]) await(s *seqSlot[E, V]) {
	if s.done {
		return
	}
	if s.ticket.CompareAndSwap(s.gen, 0) { // no worker has started it: do it here
		r.processHere(s)
		return
	}
	<-s.token // the worker's writes happen before this receive
	s.done = true
	if p := s.p; p != nil {
		s.p = nil
		p.Repanic()
	}
}

// processHere processes s on the caller, with a seat of the call's pool so
// that idle workers can take parts of it.
func (r *seqRun[E, V]) processHere(s *seqSlot[E, V]) {
	s.done = true // before the work: a panic in it must not make cancel wait for a token
	if r.ops.prepare != nil {
		r.ops.prepare(s.k, len(s.in))
	}
	r.c.run(func(w *sched.Worker) { s.process(w) })
}

// finish processes what is left once the sequence has ended, and hands every
// batch over in order.
func (r *seqRun[E, V]) finish() {
	if r.prefix {
		return
	}
	if s := r.fill; len(s.in) > 0 && r.ops.tail == nil {
		// The caller would only wait: it processes the last batch itself while
		// the workers finish the others.
		r.processHere(s)
		r.inflight++
	}
	for r.inflight > 0 {
		if !r.handOver() {
			return
		}
	}
	if r.ops.tail != nil && len(r.fill.in) > 0 {
		r.ops.tail(r.fill.in)
	}
}

// cancel ends the pass: it stops the batches in flight, drops those no worker
// has started, waits for the others, and returns the first panic among them.
func (r *seqRun[E, V]) cancel() *sched.Panic {
	r.stopped = true
	var first *sched.Panic
	for ; r.inflight > 0; r.inflight-- {
		s := r.slots[r.head]
		r.head = (r.head + 1) % len(r.slots)
		if s.done {
			continue
		}
		s.body.stop.Store(true) // leaves not yet started are skipped
		if s.ticket.CompareAndSwap(s.gen, 0) {
			continue // never started: dropped
		}
		<-s.token
		if first == nil {
			first = s.p
		}
		s.p = nil
	}
	return first
}

// splitter returns the splitter of a batch on a pool of the given number of
// workers.
func (r *seqRun[E, V]) splitter(workers int) split.Splitter {
	if r.ops.minPiece == 0 {
		return r.c.splitter(workers)
	}
	return split.New(workers, max(r.c.minLen, r.ops.minPiece), r.c.grain)
}

// poolNow returns the pool to queue on: the call's, or the current default
// pool, which may be a new one if GOMAXPROCS has changed. It panics with
// sched.ErrClosed if the call's pool is closed.
func (c *config) poolNow() *sched.Pool {
	if c.pool != nil {
		if c.pool.p.Closed() {
			panic(sched.ErrClosed)
		}
		return c.pool.p
	}
	return sched.Default()
}
