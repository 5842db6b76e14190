package par

import (
	"iter"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// The engine of the ...Seq functions. A sequence cannot be cut in halves: its
// length is unknown and only the calling goroutine may pull it. So the caller
// pulls, and the work is cut in time instead: the caller fills a batch, queues
// it on the pool, and goes on pulling while workers process it, each batch
// being a range that the engine may cut further for idle workers. At
// most a fixed number of batches are held at once (seqSlotsPerWorker per
// worker), and results are handed over in order, each batch as soon as it and
// those before it are done.
//
// The caller's own part (pulling, copying into the batch, handing results
// over) is serial, so batching pays only when the work per element outweighs
// what batching adds to that part. The engine measures both and moves between
// two modes:
//
//   - alone: each element goes through the operation at once on the caller,
//     as in the plain loop, with a look at the clock every few thousand
//     elements. Every pass begins so, as run does, which keeps a short sequence
//     about as cheap as a loop over a sequence that the compiler cannot
//     inline; after a stint (split.PrefixBudget at first) it tries the pool.
//   - on the pool: batches as above. Each batch records the time of its work;
//     the caller records the time of its own part. When the work per element
//     falls below half the caller's part, the pool cannot pay: the engine hands
//     over what is in flight and goes back to working alone, for a stint twice
//     as long as the last one (up to seqMaxStint), so that a cheap operation
//     spends almost all its time in the plain loop while a change in cost is
//     still noticed.
//
// With a fixed grain the engine stays on the pool: the caller asked for it.

const (
	// seqSlotsPerWorker is the number of batches held per worker of the pool,
	// the one being filled included (plus one). Two keep every worker busy
	// while the caller waits for the oldest; more only hold more memory.
	seqSlotsPerWorker = 2
	// seqBatchTime is the time a batch is sized to take on one goroutine
	// (the caller's part and the work): large enough that queueing it and
	// handing it back stays cheap (about a microsecond when workers are awake,
	// tens when one must be woken), small enough that the first results come
	// soon and the last batches spread over the workers.
	seqBatchTime = 100 * time.Microsecond
	// seqBatchBytes bounds the memory of one batch, inputs and per-element
	// outputs, whatever the timing says: it is what bounds the memory of a pass.
	seqBatchBytes = 256 << 10
	// seqMaxStep bounds the number of elements between two looks at the clock
	// when alone: a few microseconds of the cheapest loop.
	seqMaxStep = 4096
	// seqMaxStint is the longest stint alone between two tries of the pool:
	// a try that does not pay costs about two batches of extra work, a few
	// per cent of this.
	seqMaxStint = 10 * time.Millisecond
)

// seqFlip, set by tests only, makes every pass change mode as often as it can,
// with batches of varied lengths: to the pool at the first look at the clock,
// and back alone after every batch handed over.
var seqFlip atomic.Bool

// seqAlgebra is what one of the ...Seq functions does with a batch: the
// algebra, kept apart from the batching as a split.Work is kept apart from
// the engine. V is the value of a batch (or of a piece of one), and k the index of
// the slot that holds it, for outputs kept per element. What it does with an
// element when the engine works alone is in the function given to run.
type seqAlgebra[E, V any] interface {
	// leaf processes in[lo:hi] of the batch in slot k; any goroutine.
	leaf(k int, in []E, lo, hi int) V
	// combine merges the values of two adjacent pieces.
	combine(left, right V) V
	// slots is told the number of slots before any batch is queued, and
	// prepare makes slot k's outputs ready for a batch of n elements before it
	// is processed; caller only.
	slots(n int)
	prepare(k, n int)
	// emit hands the batch in slot k over, on the caller and in order, and
	// reports whether to go on.
	emit(k int, in []E, v V) bool
	// tail processes the last, partial batch on the caller, if the shape says
	// so, instead of as a range (SumSeq: its tree is not that of a range).
	tail(in []E)
}

// seqShape is what the engine must know of an algebra beyond its methods.
type seqShape struct {
	// outBytes is the memory of the outputs per element, for the batch cap.
	outBytes int
	// carries: V carries a value, so pieces must be combined.
	carries bool
	// tail: the last, partial batch goes to the algebra's tail.
	tail bool
	// minPiece, when positive, is the shortest piece a batch may be cut into
	// (SumSeq: pieces must be whole subtrees, no shorter than a block).
	minPiece int
	// fixed, when positive, is the length of every batch, and modes change
	// only at multiples of it (SumSeq: its tree must not depend on timing).
	fixed int
}

// seqRun is the state of one pass over a sequence. Caller only.
type seqRun[E, V any] struct {
	c     config
	alg   seqAlgebra[E, V]
	shape seqShape

	pos     int  // elements pulled so far
	stopped bool // the consumer stopped, or the pass is being torn down

	// Alone.
	alone    bool
	next     int // pos at which to look at the clock
	step     int
	stint    time.Time     // when the current stint alone began
	stintPos int           // pos then
	stintLen time.Duration // how long it may last

	// On the pool: a ring of slots, head the oldest in flight.
	slots    []*seqSlot[E, V]
	head     int
	inflight int
	fill     *seqSlot[E, V] // being filled; not in flight
	buf      []E            // fill's buffer; len(buf) <= size
	n        int            // elements in buf
	size     int            // the length at which a batch is queued
	minSize  int
	maxSize  int
	capSize  int       // what seqBatchBytes allows; a longer batch (a grain, a minimum length) grows as it fills
	filling  time.Time // when the caller began to fill
	gen      uint64    // numbers the batches queued, for their tickets
	leave    bool      // the pool does not pay: go back to alone
	first    bool      // the next batch is the first of a stint on the pool
	// Costs in nanoseconds per element, smoothed over the batches: of the
	// work, wherever it ran, and of the caller's part in filling and emitting.
	costWork, costFill, costEmit float64
}

// seqSlot holds one batch.
type seqSlot[E, V any] struct {
	k    int
	r    *seqRun[E, V]
	in   []E
	work split.Work[some[V]]
	gen  uint64
	// cancelled is set when the pass drops the batch's result: its pieces
	// not yet started are skipped.
	cancelled atomic.Bool
	// done: no worker will touch the batch again, because the caller
	// processed it, took it back to do so, or received its token.
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
	// waiting is set by the caller before it blocks on token, so that the
	// worker that sends yields its processor to it.
	waiting atomic.Bool
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
	if l := s.r.c.Labels; l != nil {
		defer w.Label(w.Label(l)) // the batch is the call's work
	}
	normal := false
	defer func() {
		if !normal {
			s.p = sched.Recovered(recover())
		}
		s.token <- struct{}{} // hands s.v, s.dur, s.p and the outputs to the caller
		if s.waiting.Load() {
			// The caller, just readied, would wait for this processor until
			// this worker runs out of batches; it is what feeds them.
			runtime.Gosched()
		}
	}()
	s.process(w)
	normal = true
}

// process runs the batch on w's pool, cut by the pass's splitter.
func (s *seqSlot[E, V]) process(w *sched.Worker) {
	t0 := time.Now()
	s.v = engine.RunOn(w, &s.r.c.Config, len(s.in), s.work, s.r.splitter(w.Pool().Workers(), len(s.in))).v
	s.dur = time.Since(t0)
}

// init prepares r for a pass of the call configured by c, with alg (in
// practice the structure that r is embedded in) and its shape.
func (r *seqRun[E, V]) init(c config, alg seqAlgebra[E, V], shape seqShape) {
	r.c, r.alg, r.shape, r.stintLen = c, alg, shape, split.PrefixBudget
}

// run pulls seq to its end or until the consumer stops, passing each element
// to body: while r.alone, body processes the element itself, as the plain loop
// would, and then calls r.tick (or r.stop if the consumer stopped); otherwise
// it hands the element to r.push. The operation lives in body rather than
// behind one more function value so that working alone costs one call per
// element over the plain loop, not two. When run returns, or panics, no batch
// of the pass is running or will run: batches not started are dropped, and
// those running have finished.
func (r *seqRun[E, V]) run(seq iter.Seq[E], body func(e E) bool) {
	normal := false
	defer func() {
		if !normal {
			r.cancel() // a panic is already on its way; later ones are dropped
		}
	}()
	if r.c.Grain > 0 {
		r.toPool(0)
	} else {
		r.toAlone()
	}
	seq(body)
	if !r.stopped {
		r.finish()
	}
	p := r.cancel()
	normal = true
	if p != nil {
		p.Repanic()
	}
}

// tick counts an element processed alone, and reports true.
func (r *seqRun[E, V]) tick() bool {
	r.pos++
	if r.pos == r.next {
		r.lookAtClock()
	}
	return true
}

// stop records that the consumer stopped, and reports false.
func (r *seqRun[E, V]) stop() bool {
	r.stopped = true
	return false
}

// push puts one element in the batch being filled.
func (r *seqRun[E, V]) push(e E) bool {
	r.buf[r.n] = e
	r.n++
	if r.n < len(r.buf) {
		return true
	}
	return r.full()
}

// toAlone begins a stint alone.
func (r *seqRun[E, V]) toAlone() {
	r.alone = true
	r.fill, r.buf, r.n = nil, nil, 0
	r.step = max(1, r.shape.fixed)
	r.next = r.pos + r.step
	r.stint, r.stintPos = time.Now(), r.pos
}

// lookAtClock ends the stint alone once it has lasted stintLen.
func (r *seqRun[E, V]) lookAtClock() {
	el := time.Since(r.stint)
	if el <= r.stintLen && !seqFlip.Load() {
		if r.shape.fixed == 0 {
			r.step = min(r.step*split.PrefixGrowth, seqMaxStep)
		}
		r.next = r.pos + r.step
		return
	}
	r.toPool(el / time.Duration(r.pos-r.stintPos))
}

// toPool begins batching; perElem is the cost of an element alone, if known.
func (r *seqRun[E, V]) toPool(perElem time.Duration) {
	r.alone = false
	if r.slots == nil {
		workers := r.c.poolNow().Workers()
		r.slots = make([]*seqSlot[E, V], seqSlotsPerWorker*workers+1)
		r.alg.slots(len(r.slots))
		var zero E
		r.minSize = max(1, r.c.MinLen)
		r.capSize = seqBatchBytes / max(1, int(unsafe.Sizeof(zero))+r.shape.outBytes)
		r.maxSize = max(r.minSize, r.capSize)
		switch {
		case r.shape.fixed > 0:
			r.size = r.shape.fixed
		case r.c.Grain > 0:
			r.size = r.c.Grain
		}
	}
	if r.costWork == 0 {
		r.resize(float64(perElem))
	}
	r.first = true
	r.startFill()
}

// resize sizes the next batches to take seqBatchTime at perElem nanoseconds
// an element, or as large as they may be if perElem is unknown.
func (r *seqRun[E, V]) resize(perElem float64) {
	if r.shape.fixed > 0 || r.c.Grain > 0 {
		return
	}
	n := r.maxSize
	if perElem > 0 {
		n = int(min(float64(seqBatchTime)/perElem, float64(r.maxSize)))
	}
	if seqFlip.Load() {
		n = 1 + int(r.gen*7919%300)
	}
	r.size = max(n, r.minSize)
}

// startFill takes the next free slot to fill.
func (r *seqRun[E, V]) startFill() {
	i := (r.head + r.inflight) % len(r.slots)
	s := r.slots[i]
	if s == nil {
		s = &seqSlot[E, V]{k: i, r: r, token: make(chan struct{}, 1)}
		s.work = split.Work[some[V]]{
			Fold: func(acc some[V], lo, hi int) some[V] {
				if !r.shape.carries {
					r.alg.leaf(s.k, s.in, lo, hi)
					return acc
				}
				return acc.then(r.alg.leaf(s.k, s.in, lo, hi), r.alg.combine)
			},
			Merge: func(a, b some[V]) some[V] { return a.then(b.v, r.alg.combine) },
			// Batches of a fixed length are whole subtrees of the algebra's
			// tree (SumSeq): a running leaf may give part of itself away only
			// along it.
			Tree:    r.shape.fixed > 0,
			Settled: func(int) bool { return s.cancelled.Load() },
		}
		r.slots[i] = s
	}
	if n := min(r.size, r.capSize); cap(s.in) < n { // a longer batch grows as it fills
		s.in = make([]E, n)
	}
	s.done = false
	r.fill = s
	r.buf = s.in[:min(r.size, cap(s.in))]
	r.n = 0
	r.filling = time.Now()
}

// full is called when buf is full: it grows buf up to size, or queues the
// batch. It reports whether to go on.
func (r *seqRun[E, V]) full() bool {
	if r.n < r.size {
		b := make([]E, min(2*r.n, r.size))
		copy(b, r.buf)
		r.fill.in, r.buf = b, b
		return true
	}
	return r.flush()
}

// flush queues the full batch, hands over the batches that are done, and
// makes room for the next one. It reports whether to go on.
func (r *seqRun[E, V]) flush() bool {
	if r.stopped {
		return false
	}
	s := r.fill
	s.in = r.buf[:r.n]
	r.pos += r.n
	r.costFill = smooth(r.costFill, float64(time.Since(r.filling))/float64(r.n))
	r.queue(s)
	r.inflight++
	for r.inflight > 0 && (r.inflight == len(r.slots) || r.ready(r.slots[r.head])) {
		if !r.handOver() {
			return false
		}
	}
	if r.leave {
		r.leave = false
		for r.inflight > 0 {
			if !r.handOver() {
				return false
			}
		}
		r.stintLen = min(2*r.stintLen, seqMaxStint)
		r.toAlone()
		return true
	}
	r.startFill()
	return true
}

// queue puts s on the pool.
func (r *seqRun[E, V]) queue(s *seqSlot[E, V]) {
	r.alg.prepare(s.k, len(s.in))
	p := r.c.poolNow()
	r.gen++
	s.gen = r.gen
	s.ticket.Store(r.gen) // published to the worker by the injection
	j := &seqJob[E, V]{s: s, gen: r.gen}
	j.Init(nil, runSeqJob[E, V])
	// A pool retired between poolNow and here may never run j; the caller
	// then takes the batch back when it is the oldest.
	p.Inject(&j.Job)
	if r.first {
		// The worker that the injection woke is queued by the Go scheduler to
		// run next on this goroutine's processor, where it may wait for as long
		// as this goroutine keeps running: on a busy machine we saw injected
		// jobs wait milliseconds behind a caller that did not block, and a
		// yield after the injection cut that to microseconds. One yield when
		// the pool may be asleep lets it start; later batches find workers
		// awake, and a yield each time would hand this goroutine's processor
		// to a searching worker instead.
		r.first = false
		runtime.Gosched()
	}
}

// ready reports, without blocking, whether s is done.
func (r *seqRun[E, V]) ready(s *seqSlot[E, V]) bool {
	if s.done {
		return true
	}
	select {
	case <-s.token: // the worker's writes happen before this receive
		s.done = true
		return true
	default:
		return false
	}
}

// handOver waits for the oldest batch and emits it. It reports whether to go
// on.
func (r *seqRun[E, V]) handOver() bool {
	s := r.slots[r.head]
	r.await(s)
	r.head = (r.head + 1) % len(r.slots)
	r.inflight--
	r.costWork = smooth(r.costWork, float64(s.dur)/float64(len(s.in)))
	t0 := time.Now()
	if !r.alg.emit(s.k, s.in, s.v) {
		r.stopped = true
		return false
	}
	r.costEmit = smooth(r.costEmit, float64(time.Since(t0))/float64(len(s.in)))
	if r.c.Grain == 0 {
		r.resize(r.costWork + r.costFill + r.costEmit)
		if r.costWork < (r.costFill+r.costEmit)/2 || seqFlip.Load() {
			r.leave = true
		}
	}
	return true
}

// smooth folds sample x into the running figure avg.
func smooth(avg, x float64) float64 {
	if avg == 0 {
		return x
	}
	return (avg + x) / 2
}

// await returns once s has been processed, by a worker or, if none has
// started it, by the caller; it re-raises the batch's panic.
func (r *seqRun[E, V]) await(s *seqSlot[E, V]) {
	if !s.done {
		if s.ticket.Load() == s.gen {
			// No worker has started it: perhaps none has had a processor
			// (see queue). Let them run once before doing it here.
			runtime.Gosched()
		}
		if s.ticket.CompareAndSwap(s.gen, 0) { // still not started: do it here
			r.processHere(s)
			return
		}
		s.waiting.Store(true) // before the receive: the sender yields to us
		<-s.token             // the worker's writes happen before this receive
		s.waiting.Store(false)
		s.done = true
	}
	if p := s.p; p != nil {
		s.p = nil
		p.Repanic()
	}
}

// processHere processes s on the caller, with a seat of the call's pool so
// that idle workers can take parts of it.
func (r *seqRun[E, V]) processHere(s *seqSlot[E, V]) {
	s.done = true // before the work: a panic in it must not make cancel wait for a token
	r.alg.prepare(s.k, len(s.in))
	r.c.run(func(w *sched.Worker) { s.process(w) })
}

// finish processes what is left once the sequence has ended, and hands every
// batch over in order.
func (r *seqRun[E, V]) finish() {
	if r.alone {
		return
	}
	last := r.buf[:r.n]
	if len(last) > 0 && !r.shape.tail {
		// The caller would only wait: it processes the last batch itself while
		// the workers finish the others.
		r.fill.in = last
		r.processHere(r.fill)
		r.inflight++
	}
	for r.inflight > 0 {
		if !r.handOver() {
			return
		}
	}
	if len(last) > 0 && r.shape.tail {
		r.alg.tail(last)
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
		if !s.done {
			s.cancelled.Store(true) // its result is dropped: pieces not yet started are skipped
			if s.ticket.CompareAndSwap(s.gen, 0) {
				continue // never started: dropped
			}
			<-s.token
		}
		if first == nil {
			first = s.p
		}
		s.p = nil
	}
	return first
}

// splitter returns the splitter of a batch of n elements on a pool of the
// given number of workers, which alone work on it while the caller pulls.
func (r *seqRun[E, V]) splitter(workers, n int) split.Splitter {
	return split.ForRange(workers, n, r.c.MinLen, r.c.Grain, split.Pace{}).AtLeast(r.shape.minPiece)
}

// poolNow returns the pool to queue on: the call's, or the current default
// pool, which may be a new one if GOMAXPROCS has changed. It panics with
// an error that wraps ErrClosed if the call's pool is closed.
func (c *config) poolNow() *sched.Pool { return c.Current() }
