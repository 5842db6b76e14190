package par

import (
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/weftgo/weft/internal/carry"
	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// The engine of the ...Seq functions. A sequence cannot be cut in halves: its
// length is unknown and only the calling goroutine may pull it, from inside
// the loop that seq runs. So the caller pulls, and the work is cut in time:
// the caller fills a piece (a run of consecutive elements), publishes it, and
// every participant, the pool's workers and the caller alike, claims the
// oldest published piece no one has taken, processes it and marks it done.
// The caller hands the pieces over (emits them) in order, each as soon as it
// and those before it are done. It takes part between two pulls, from inside
// the loop body that seq calls: after each piece it publishes it computes
// pieces while enough are published for the workers to go on meanwhile, and
// goes back to pulling when no more are; so pulling the next piece overlaps
// the workers' computing of the last ones, and a sequence slow to pull keeps
// the caller pulling while the workers compute.
//
// The pieces live in a ring of slots (seqSlotsPer per participant, plus two),
// which bounds the memory of a pass; the caller fills a slot only once the
// piece it held has been emitted, and, when every slot is taken and nothing is
// left to claim, waits for the oldest.
//
// The caller's own part (pulling, copying into a piece, handing results over)
// is serial, so pieces pay only when the work per element outweighs what they
// add to that part. The engine measures both and moves between two modes:
//
//   - alone: each element goes through the operation at once on the caller,
//     as in the plain loop, the body counting down to a look at the clock
//     every few thousand elements (split.SeqStep: no further than the
//     stint's end where an element is dear). Every pass begins so, which
//     keeps a short sequence about as cheap as a loop over a sequence that
//     the compiler cannot inline: a stint's clock starts at its first look,
//     after one element, and the pass's state for the pool (seqPool) is
//     allocated when it first tries the pool. After a stint
//     (split.PrefixBudget at first) it tries the pool.
//   - on the pool: pieces as above. A try begins with a dry piece, which the
//     caller fills, processes and hands over itself: it measures a bound on
//     what the pool could do, and a pool that cannot pay ends there (judge);
//     no dry piece where an element alone took a leaf's length or more
//     (split.SeqNeedsDry), which is a piece by itself.
//     Otherwise the caller times windows of what the pool hands over once a
//     worker has taken part; when the elements took longer than they would
//     have alone (the caller's own stalls set aside: they would have held
//     up a pass alone as well), or no worker took part, the engine drains the pieces in
//     flight and goes back to working alone. After a try that failed, stints
//     alone double, and after a dry piece that failed they end without a try
//     while the cost alone stays about what it was, so that a cheap operation
//     spends almost all its time in the plain loop while a change in cost is
//     still noticed.
//
// When to try the pool and when to leave it are split's rules (split/seq.go);
// this file measures the costs they take.
//
// With a fixed grain the engine stays on the pool: the caller asked for it.

const (
	// seqSlotsPer is the number of pieces held per participant, the pool's
	// workers and the caller; a pass holds seqSlotsPer*participants+2. It
	// covers, per participant, a piece being processed and one waiting to be
	// claimed, with room for pieces done behind a slower one.
	seqSlotsPer = 4
	// seqSpins is how many times a caller waiting for a piece looks at it
	// again, yielding in between, before it blocks: a piece being processed
	// is usually done within microseconds, and a wake-up costs as much.
	seqSpins = 64
)

// seqFlip, set by tests only, makes every pass change mode as often as it can,
// with pieces of varied lengths: to the pool at the first look at the clock,
// and back alone after every piece handed over.
var seqFlip atomic.Bool

// seqAlgebra is what one of the ...Seq functions does with a piece: the
// algebra, kept apart from the pass as a split.Work is kept apart from the
// engine.
// V is the value of a piece, and k the index of the slot that holds it, for
// outputs kept per element. What it does with an element when the engine
// works alone is in the function given to run.
type seqAlgebra[E, V any] interface {
	// leaf processes in[lo:hi] of the piece in slot k; any goroutine.
	leaf(k int, in []E, lo, hi int) V
	// combine merges the values of two adjacent runs of a piece.
	combine(left, right V) V
	// slots is told the number of slots before any piece is published, and
	// prepare makes slot k's outputs ready for a piece of n elements before
	// it is published; caller only.
	slots(n int)
	prepare(k, n int)
	// emit hands the piece in slot k over, on the caller and in order, and
	// reports whether to go on.
	emit(k int, in []E, v V) bool
	// tail processes the last, partial piece on the caller, if the shape says
	// so, instead of as a piece (SumSeq: its tree is not that of a range).
	tail(in []E)
}

// seqShape is what the engine must know of an algebra beyond its methods:
// 12 bytes, which seqRun's flags round to two words.
type seqShape struct {
	// outBytes is the memory of the outputs per element, for the piece cap
	// (seqOutBytes).
	outBytes int32
	// fixed, when positive, is the length of every piece, and modes change
	// only at multiples of it (SumSeq: its tree must not depend on timing).
	fixed int32
	// tail: the last, partial piece goes to the algebra's tail.
	tail bool
}

// seqOutBytes returns the memory of an output R, for seqShape.outBytes: at
// most split.SeqPieceBytes, beyond which a piece holds one element anyway.
func seqOutBytes[R any]() int32 {
	var zero R
	return int32(min(unsafe.Sizeof(zero), split.SeqPieceBytes))
}

// seqRun is the state of one pass over a sequence. Its fields are the
// caller's unless said otherwise. A pass that stays alone allocates it and
// no more, so it holds only what a stint alone uses (136 bytes), the rest
// being in seqPool.
type seqRun[E, V any] struct {
	c   *config // shared by the passes of a call: read only
	alg seqAlgebra[E, V]

	// pos counts the elements published in pieces and those processed
	// alone before the current countdown; alone, the body processes left
	// more before it calls look. On the pool left is 0.
	pos  int
	left int
	// On the pool, buf is the buffer of the piece being filled, of which
	// n elements are filled (len(buf) <= size); here rather than with the
	// pool's state, which a pass reaches through one more load, as push
	// does for every element.
	buf []E
	n   int

	// Alone.
	step     int           // the length of the current countdown
	stint    time.Duration // when the current stint alone began (seqClock)
	stintLen time.Duration // how long it may last
	looked   time.Duration // the last look at the clock (seqClock)
	// costAlone is the time of an element alone, in nanoseconds, over the
	// countdowns of the last stint alone (split.SeqSample; 0: none yet).
	costAlone float64

	shape   seqShape
	stopped bool // the consumer stopped, or the pass is being torn down
	alone   bool
	// timed is set once the current stint alone has read the clock: its
	// first countdown runs before any read, and its first look begins it.
	timed bool

	// The state on the pool, allocated when the pass first tries it: a pass
	// that stays alone, as a short one does, allocates only the fields
	// above (BenchmarkSeqCheap's rows of 10 and 100 elements).
	*seqPool[E, V]
}

// seqPool is the part of a pass's state that only its stints on the pool
// use. Its fields are the caller's unless said otherwise.
type seqPool[E, V any] struct {
	pool *sched.Pool
	// wakeUp is the pool's wake-up as the last try began (split.Load.Wake),
	// which the longest stint alone follows (split.SeqMaxStint).
	wakeUp time.Duration
	// failAlone is the time alone when a dry piece or a window with a
	// worker last judged that the pool does not pay (0: never; see
	// split.SeqTry).
	failAlone float64
	// slows counts the windows in a row that ended a try although a worker
	// took part (split.SeqFailed).
	slows int

	workers int              // the most jobs the pass runs on the pool at once
	ring    []*seqSlot[E, V] // piece q lives in ring[q%len(ring)]
	head    int64            // the oldest piece not yet emitted
	tail    int64            // the piece being filled: pieces [head, tail) are published
	fill    *seqSlot[E, V]
	size    int // the length at which a piece is published
	minSize int
	capSize int       // what split.SeqPieceBytes allows; a longer piece (a grain, a minimum length) grows as it fills
	filling time.Time // when the caller began to fill
	leave   bool      // the pool does not pay: drain and go back to alone
	dry     bool      // the piece being filled is a dry piece (see judge)
	// dries counts the dry pieces of this stint, and dryCosts holds the
	// least costs they measured.
	dries    int
	dryCosts split.SeqCosts
	ramped   bool // a worker has handed a piece over in this stint
	// The window that judges the pool: begun at winStart, when emitted
	// elements had been handed over in this stint, of which judged pieces
	// were judged; helped is set when a worker handed one of them over.
	tryStart   time.Time // when the stint on the pool began
	winStart   time.Time
	winEmitted int
	emitted    int
	judged     int
	helped     bool
	// winStall is how much of the caller's own part in the window a stall
	// took (split.SeqStall), as measured against the least per element of
	// its filling, processing and handing over since a worker first handed
	// a piece over in this stint (leastFill, leastHere, leastEmit).
	winStall                        time.Duration
	leastFill, leastHere, leastEmit float64
	// pieceFill is the caller's time per element in filling the piece
	// published last.
	pieceFill float64
	// Costs in nanoseconds per element, smoothed over the pieces: of the
	// work, wherever it ran, and of the caller's part in filling and
	// emitting.
	costWork, costFill, costEmit float64

	// Shared with the workers, each on a cache line of its own.
	_ [64]byte
	// pub is the number of pieces published: written by the caller once
	// the piece's slot is ready, read by those who claim.
	pub atomic.Int64
	_   [56]byte
	// claimed is the number of pieces claimed, by anyone: a participant
	// that moves it from q to q+1 while q < pub processes piece q.
	claimed atomic.Int64
	_       [56]byte
	// active counts the pass's jobs injected in the pool and not yet
	// retired (see retire).
	active atomic.Int32
	// waiting is set while the caller waits for a piece (await), so that
	// the participant that finishes one sends on wake.
	waiting atomic.Bool
	wake    chan struct{} // cap 1
}

// seqEpoch is the origin of seqClock.
var seqEpoch = time.Now()

// seqClock returns the monotonic time since seqEpoch: one read of the
// clock, where time.Now takes two (the wall clock as well).
func seqClock() time.Duration { return time.Since(seqEpoch) }

// seqSlot holds one piece.
type seqSlot[E, V any] struct {
	k    int
	in   []E
	work split.Work[some[V]]
	// cancelled is set when the pass drops the piece's result: a piece
	// claimed but not yet started is skipped.
	cancelled atomic.Bool

	// Written by whoever processes the piece before done is set, read by the
	// caller after it sees done.
	v   V
	dur time.Duration
	p   *carry.Panic
	// here is set when the caller processed the piece; caller only.
	here bool

	// done is set by whoever processed the piece, after the writes above;
	// the caller clears it before it publishes the slot's next piece.
	done atomic.Bool
}

// seqJob is the task that the pass injects in the pool: it claims and
// processes pieces until none is left to claim.
type seqJob[E, V any] struct {
	r *seqRun[E, V]
}

func (j *seqJob[E, V]) Run(w *sched.Worker) {
	r := j.r
	if l := r.c.Labels; l != nil {
		defer w.Label(w.Label(l)) // the pieces are the call's work
	}
	var s *seqSlot[E, V] // the piece being processed
	defer func() {
		if s != nil { // f panicked or called runtime.Goexit
			s.p = carry.Recovered(recover())
			r.active.Add(-1)
			r.complete(s)
		}
	}()
	for {
		if s = r.claim(); s == nil {
			if !r.retire() {
				return
			}
			continue
		}
		s.process(w, &r.c.Config)
		done := s
		s = nil
		r.complete(done)
	}
}

// claim takes the oldest published piece that nobody has claimed, or
// returns nil if there is none. Any goroutine.
func (r *seqRun[E, V]) claim() *seqSlot[E, V] {
	for {
		q := r.claimed.Load()
		if q >= r.pub.Load() { // the caller's store of pub hands over the slot's piece
			return nil
		}
		if r.claimed.CompareAndSwap(q, q+1) {
			return r.ring[q%int64(len(r.ring))]
		}
	}
}

// retire ends a job that found nothing to claim, and reports false; or true,
// keeping the job on, if a piece was published meanwhile and the pass has
// not as many jobs as workers. The caller publishes, then loads active
// (inject); retire decrements active, then loads pub: one of the two sees
// the other's write, so a published piece never waits for a job that has
// just left. Any goroutine.
func (r *seqRun[E, V]) retire() bool {
	r.active.Add(-1)
	for r.claimed.Load() < r.pub.Load() {
		a := r.active.Load()
		if int(a) >= r.workers {
			return false
		}
		if r.active.CompareAndSwap(a, a+1) {
			return true
		}
	}
	return false
}

// complete marks s done and wakes the caller if it waits. Any goroutine
// that processed s; s must not be touched after.
func (r *seqRun[E, V]) complete(s *seqSlot[E, V]) {
	s.done.Store(true) // hands s.v, s.dur, s.p and the outputs to the caller
	if r.waiting.Load() {
		select {
		case r.wake <- struct{}{}:
		default: // a token is already there
		}
	}
}

// process runs the piece in s whole on w, a worker of the pool, or on the
// caller (w nil: a piece that is never cut needs no seat). It is the one
// place where the pass calls the engine.
func (s *seqSlot[E, V]) process(w *sched.Worker, cfg *engine.Config) {
	t0 := time.Now()
	s.v = engine.RunOn(w, cfg, len(s.in), s.work, split.Fixed(len(s.in))).v
	s.dur = time.Since(t0)
}

// seqNoOpts is the configuration of every call without options.
var seqNoOpts config

// seqConfigure resolves a call's options as configure does, for its passes
// to share: a pointer that MapSeq's result and each pass hold in a word,
// where the value takes 72 bytes of each.
func seqConfigure(opts []Option) *config {
	if len(opts) == 0 {
		return &seqNoOpts
	}
	c := configure(opts)
	return &c
}

// init prepares r for a pass of the call configured by c, with alg (in
// practice the structure that r is embedded in) and its shape.
func (r *seqRun[E, V]) init(c *config, alg seqAlgebra[E, V], shape seqShape) {
	r.c, r.alg, r.shape, r.stintLen = c, alg, shape, split.PrefixBudget
}

// run calls pull, which ranges over the sequence with a body of the shape
//
//	if m.left <= 0 && m.pooled() {
//		return m.push(e)
//	}
//	m.left--
//	// process e alone, as the plain loop would
//
// so that, alone, an element costs one load, one store and one branch more
// than in the plain loop, and the operation lives in the body rather than
// behind one more function value. When run returns, or panics, no piece of
// the pass is being processed or will be: pieces not started are dropped,
// and those running have finished.
func (r *seqRun[E, V]) run(pull func()) {
	normal := false
	defer func() {
		if !normal {
			r.cancel() // a panic is already on its way; later ones are dropped
		}
	}()
	if r.c.Grain > 0 {
		r.toPool()
	} else {
		r.toAlone()
	}
	pull()
	if !r.stopped {
		r.finish()
	}
	p := r.cancel()
	normal = true
	if p != nil {
		p.Repanic()
	}
}

// pooled is called by the body when its countdown has run out: it reports
// whether the element goes into a piece (on the pool) or is processed alone.
func (r *seqRun[E, V]) pooled() bool { return !r.alone || !r.look() }

// look is called alone when the countdown has run out: it looks at the
// clock, which may end the stint, and reports whether to go on alone.
func (r *seqRun[E, V]) look() bool {
	r.pos += r.step
	now := seqClock()
	if !r.timed && !seqFlip.Load() {
		// The stint begins here: its first countdown ran without a read of
		// the clock, which a pass of a few elements would pay for more than
		// for its elements.
		r.timed, r.stint, r.looked = true, now, now
		r.left = r.step
		return true
	}
	d := now - r.looked
	r.costAlone = split.SeqSample(r.costAlone, r.step, d)
	r.looked = now
	el := now - r.stint
	if el <= r.stintLen && !seqFlip.Load() {
		if r.shape.fixed == 0 {
			r.step = split.SeqStep(r.step, d, r.stintLen-el)
		}
		r.left = r.step
		return true
	}
	if r.seqPool != nil && !split.SeqTry(r.stintLen, r.costAlone, r.failAlone, r.wakeUp) && !seqFlip.Load() {
		// The pool did not pay at about this cost: a longer stint alone,
		// with no try. (A pass that has not tried the pool tries it.)
		r.stintLen = split.SeqNextStint(r.stintLen, r.wakeUp)
		r.stint, r.costAlone = now, 0
		r.left = r.step
		return true
	}
	r.toPool()
	return false
}

// stop records that the consumer stopped, and reports false.
func (r *seqRun[E, V]) stop() bool {
	r.stopped = true
	return false
}

// push puts one element in the piece being filled.
func (r *seqRun[E, V]) push(e E) bool {
	r.buf[r.n] = e
	r.n++
	if r.n < len(r.buf) {
		return true
	}
	return r.full()
}

// toAlone begins a stint alone, whose clock starts at its first look.
func (r *seqRun[E, V]) toAlone() {
	r.alone = true
	r.buf, r.n = nil, 0
	if r.seqPool != nil {
		r.fill = nil
	}
	r.step = max(1, int(r.shape.fixed))
	r.left = r.step
	r.timed, r.costAlone = false, 0
}

// toPool begins a stint on the pool.
func (r *seqRun[E, V]) toPool() {
	r.alone, r.left = false, 0
	first := r.seqPool == nil
	if first {
		r.seqPool = new(seqPool[E, V])
	}
	r.pool = r.c.poolNow()
	r.wakeUp = r.pool.Load().Wake
	now := time.Now()
	if first {
		// The caller is a participant that holds a processor of its own:
		// jobs beyond the other processors would only take turns with it,
		// and its pulling is what every participant waits on.
		r.workers = min(r.pool.Workers(), max(1, runtime.GOMAXPROCS(0)-1))
		r.ring = make([]*seqSlot[E, V], seqSlotsPer*(r.workers+1)+2)
		r.wake = make(chan struct{}, 1)
		r.alg.slots(len(r.ring))
		var zero E
		r.minSize = max(1, r.c.MinLen)
		r.capSize = max(1, split.SeqPieceBytes/max(1, int(unsafe.Sizeof(zero))+int(r.shape.outBytes)))
	}
	r.tryStart, r.winStart, r.winEmitted, r.emitted, r.judged = now, now, 0, 0, 0
	r.dry = r.c.Grain == 0 && !seqFlip.Load() && split.SeqNeedsDry(r.costAlone)
	r.ramped, r.helped = false, false
	r.dries, r.dryCosts = 0, split.SeqCosts{}
	r.leastFill, r.leastHere, r.leastEmit = 0, 0, 0
	r.costFill, r.costEmit, r.costWork = 0, 0, 0 // measured anew by this stint's pieces
	r.startFill()
}

// pieceLen returns the length of the next piece: split.SeqPieceTime's worth
// at the cost measured (a dry piece, LeafTarget's: a sample that the clock's
// reads do not swamp), or the length that the shape or the options fix.
func (r *seqRun[E, V]) pieceLen() int {
	switch {
	case r.shape.fixed > 0:
		return int(r.shape.fixed)
	case r.c.Grain > 0:
		return r.c.Grain
	case seqFlip.Load():
		return max(r.minSize, 1+int(r.tail*7919%300))
	}
	per := r.costWork
	if per == 0 {
		per = r.costAlone
	}
	n := r.capSize
	if per > 0 {
		d := split.SeqPieceTime(time.Since(r.tryStart), per, r.wakeUp)
		if r.dry {
			d = split.LeafTarget
		}
		n = int(min(float64(d)/per, float64(r.capSize)))
	}
	return max(n, r.minSize)
}

// startFill takes the slot of the next piece to fill.
func (r *seqRun[E, V]) startFill() {
	i := int(r.tail % int64(len(r.ring)))
	s := r.ring[i]
	if s == nil {
		s = &seqSlot[E, V]{k: i}
		s.work = split.Work[some[V]]{
			Leaf:    func(lo, hi int) some[V] { return some[V]{r.alg.leaf(s.k, s.in, lo, hi), true} },
			Merge:   func(a, b some[V]) some[V] { return a.then(b.v, r.alg.combine) },
			Settled: func(int) bool { return s.cancelled.Load() },
		}
		r.ring[i] = s
	}
	r.size = r.pieceLen()
	if n := min(r.size, r.capSize); cap(s.in) < n { // a longer piece grows as it fills
		s.in = make([]E, n)
	}
	r.fill = s
	r.buf = s.in[:min(r.size, cap(s.in))]
	r.n = 0
	r.filling = time.Now()
}

// full is called when buf is full: it grows buf up to size, or publishes the
// piece. It reports whether to go on.
func (r *seqRun[E, V]) full() bool {
	if r.n < r.size {
		b := make([]E, min(2*r.n, r.size))
		copy(b, r.buf)
		r.fill.in, r.buf = b, b
		return true
	}
	r.publish()
	return r.between()
}

// publish makes the piece being filled available to every participant.
func (r *seqRun[E, V]) publish() {
	s := r.fill
	s.in = r.buf[:r.n]
	r.pos += r.n
	d := time.Since(r.filling)
	r.pieceFill = float64(d) / float64(r.n)
	r.stall(&r.leastFill, d, r.n)
	r.costFill = smooth(r.costFill, r.pieceFill)
	r.alg.prepare(s.k, r.n)
	s.cancelled.Store(false)
	s.done.Store(false)
	s.here = false
	r.tail++
	r.pub.Store(r.tail) // hands the slot over to whoever claims it
	r.fill, r.buf, r.n = nil, nil, 0
	if !r.dry {
		r.inject()
	}
}

// inject starts a job on the pool if the pass has fewer running than there
// are pieces waiting to be claimed and workers to claim them.
func (r *seqRun[E, V]) inject() {
	a := int(r.active.Load()) // after the store of pub: see retire
	if a >= r.workers || int64(a) >= r.pub.Load()-r.claimed.Load() {
		return
	}
	if r.c.stale(r.pool) {
		r.pool = r.c.poolNow() // the default pool was replaced; OnPool's panics
	}
	r.active.Add(1)
	// A pool closed after the check may never run the job: the caller
	// claims whatever is left when it needs it.
	sched.Inject(r.pool, nil, seqJob[E, V]{r: r})
}

// between is the caller's turn between two pieces that it pulls: it hands
// over the pieces that are done and processes pieces while more are waiting
// than the workers need meanwhile, and waits for the oldest when every slot
// is taken. It reports whether to go on pulling.
func (r *seqRun[E, V]) between() bool {
	if r.dry && !r.drain() { // the dry piece: emit judges it
		return false
	}
	for {
		if !r.emitDone() {
			return false
		}
		free := r.tail-r.head < int64(len(r.ring))
		if r.leave {
			if !r.drain() {
				return false
			}
			r.leave = false
			r.stintLen = split.SeqNextStint(r.stintLen, r.wakeUp)
			r.toAlone()
			return true
		}
		if free && r.pub.Load()-r.claimed.Load() <= int64(r.workers) {
			break // pulling is due: the workers have enough to go on with
		}
		if s := r.claim(); s != nil {
			r.processHere(s)
			continue
		}
		if free {
			break
		}
		r.await(r.ring[r.head%int64(len(r.ring))])
	}
	r.startFill()
	return true
}

// processHere processes s on the caller.
func (r *seqRun[E, V]) processHere(s *seqSlot[E, V]) {
	defer s.done.Store(true) // also if f panics: cancel must not wait for it
	s.here = true
	s.process(nil, &r.c.Config)
	r.stall(&r.leastHere, s.dur, len(s.in))
}

// stall adds to the window what a stall took of a span of the caller's own,
// d for n elements, whose kind took least per element at the least; not
// before a worker has taken part in the stint, whose pieces are the
// measure, nor in a dry piece.
func (r *seqRun[E, V]) stall(least *float64, d time.Duration, n int) {
	if !r.ramped || r.dry || n == 0 {
		return
	}
	r.winStall += split.SeqStall(d, n, *least)
	if c := float64(d) / float64(n); *least == 0 || c < *least {
		*least = c
	}
}

// emitDone hands over, in order, the pieces that are done. It reports
// whether to go on.
func (r *seqRun[E, V]) emitDone() bool {
	for r.head < r.tail {
		s := r.ring[r.head%int64(len(r.ring))]
		if !s.done.Load() { // the processor's store hands over the piece
			return true
		}
		if !r.emit(s) {
			return false
		}
	}
	return true
}

// emit hands over s, the oldest piece, which is done, and judges the pool at
// the end of a window. It reports whether to go on.
func (r *seqRun[E, V]) emit(s *seqSlot[E, V]) bool {
	r.head++
	if p := s.p; p != nil {
		s.p = nil
		p.Repanic()
	}
	n := len(s.in)
	work := float64(s.dur) / float64(n)
	r.costWork = smooth(r.costWork, work)
	t0 := time.Now()
	if !r.alg.emit(s.k, s.in, s.v) {
		r.stopped = true
		return false
	}
	now := time.Now()
	emit := float64(now.Sub(t0)) / float64(n)
	r.stall(&r.leastEmit, now.Sub(t0), n)
	r.costEmit = smooth(r.costEmit, emit)
	r.emitted += n
	if r.c.Grain > 0 {
		return true
	}
	if seqFlip.Load() {
		r.leave = true
		return true
	}
	if r.dry {
		r.judgeDry(now, split.SeqCosts{Serial: r.pieceFill + emit, Work: work})
		return true
	}
	r.judge(now, s.here)
	return true
}

// timeAlone returns the time of an element alone, for the judges: the least
// of what the stint alone measured, the sum of the costs that pieces measure
// (a pull, f and a hand-over) and that of the try's dry pieces. The sums guard
// against a stint alone that ran slower than the pieces do the same steps: a
// stall, or a source that delivered slower then than now, as an inner
// MapSeq does before its own pass reaches the pool (a ReduceSeq over it
// would otherwise see its pieces pay at any cost of its own f); the dry
// pieces' sum also against pieces that its own jobs slowed.
func (r *seqRun[E, V]) timeAlone() float64 {
	a := r.costFill + r.costEmit + r.costWork
	if r.dries > 0 {
		a = min(a, r.dryCosts.Serial+r.dryCosts.Work)
	}
	if r.costAlone > 0 {
		a = min(a, r.costAlone)
	}
	return a
}

// judgeDry judges the pool by the dry piece just handed over, which
// measured c (split.SeqDry): the caller's part per element and the work, in
// its own cache, with no job woken.
func (r *seqRun[E, V]) judgeDry(now time.Time, c split.SeqCosts) {
	if r.dries++; r.dries == 1 {
		r.dryCosts = c
	} else {
		r.dryCosts.Serial = min(r.dryCosts.Serial, c.Serial)
		r.dryCosts.Work = min(r.dryCosts.Work, c.Work)
	}
	c = r.dryCosts
	c.Alone = r.timeAlone()
	pays, again := split.SeqDry(c, r.workers+1, r.dries)
	switch {
	case pays:
		r.dry = false
		r.newWindow(now)
	case !again:
		r.dry, r.leave, r.failAlone = false, true, c.Alone
	}
}

// judge judges the pool after a piece that was not dry is handed over,
// here if the caller processed it: at the end of each window, by the time
// per element of what the pool handed over in it (split.SeqKeep), which
// sees what the dry piece's bound does not (moving pieces between caches,
// wake-ups, workers busy elsewhere, a machine shared).
func (r *seqRun[E, V]) judge(now time.Time, here bool) {
	if !here {
		if !r.ramped {
			// The pool was waking up: the first window begins now.
			r.ramped = true
			r.newWindow(now)
			return
		}
		r.helped = true
	}
	r.judged++
	el := now.Sub(r.winStart)
	if !split.SeqWindowDone(el, r.judged) {
		return
	}
	alone := r.timeAlone()
	keep, slow := split.SeqKeep(split.SeqWindow{El: el, Elements: r.emitted - r.winEmitted, Stalled: r.winStall, Helped: r.helped}, alone)
	r.leave = !keep
	switch {
	case keep:
		r.slows = 0
	case slow:
		if r.slows++; split.SeqFailed(r.slows) {
			r.failAlone = alone
		}
	}
	r.newWindow(now)
}

// newWindow begins a window of the pool's judge at now.
func (r *seqRun[E, V]) newWindow(now time.Time) {
	r.winStart, r.winEmitted, r.judged, r.helped, r.winStall = now, r.emitted, 0, false, 0
}

// smooth folds sample x into the running figure avg.
func smooth(avg, x float64) float64 {
	if avg == 0 {
		return x
	}
	return (avg + x) / 2
}

// await returns once s is done.
func (r *seqRun[E, V]) await(s *seqSlot[E, V]) {
	for i := 0; !s.done.Load(); i++ {
		if i < seqSpins {
			runtime.Gosched()
			continue
		}
		r.waiting.Store(true) // before the look below: complete sends if it comes after
		if !s.done.Load() {
			<-r.wake
		}
		r.waiting.Store(false)
	}
}

// drain processes and hands over every piece published. It reports whether
// to go on.
func (r *seqRun[E, V]) drain() bool {
	for r.head < r.tail {
		if !r.emitDone() {
			return false
		}
		if r.head == r.tail {
			break
		}
		if s := r.claim(); s != nil {
			r.processHere(s)
			continue
		}
		r.await(r.ring[r.head%int64(len(r.ring))])
	}
	return true
}

// finish processes what is left once the sequence has ended, and hands every
// piece over in order.
func (r *seqRun[E, V]) finish() {
	if r.alone {
		r.pos += r.step - r.left
		r.step, r.left = 0, 0
		return
	}
	last := r.buf[:r.n]
	if len(last) > 0 && !r.shape.tail {
		r.publish()
	}
	if !r.drain() {
		return
	}
	if len(last) > 0 && r.shape.tail {
		r.alg.tail(last)
	}
}

// cancel ends the pass: it drops the pieces that nobody has claimed, waits
// for those being processed, and returns the first panic among them.
func (r *seqRun[E, V]) cancel() *carry.Panic {
	r.stopped = true
	if r.seqPool == nil {
		return nil
	}
	var q int64 // the first piece dropped
	for {
		q = r.claimed.Load()
		if r.claimed.CompareAndSwap(q, r.tail) { // pub is tail: nothing more can be claimed
			break
		}
	}
	var first *carry.Panic
	for ; r.head < q; r.head++ {
		s := r.ring[r.head%int64(len(r.ring))]
		s.cancelled.Store(true) // its result is dropped: a piece not started is skipped
		r.await(s)
		if first == nil {
			first = s.p
		}
		s.p = nil
	}
	r.head = r.tail
	return first
}

// poolNow returns the pool to queue on: the call's, or the current default
// pool, which may be a new one if GOMAXPROCS has changed. It panics with
// an error that wraps ErrClosed if the call's pool is closed.
func (c *config) poolNow() *sched.Pool {
	if c.pool != nil && c.pool.closed.Load() {
		panic(closedError("OnPool, closed during the pass"))
	}
	return c.Current()
}

// stale reports whether p, the pool a pass queues its jobs on, takes them
// no longer: the call's own pool closed, or the default pool replaced. One
// atomic load.
func (c *config) stale(p *sched.Pool) bool {
	if c.pool != nil {
		return c.pool.closed.Load()
	}
	return engine.Retired(p)
}
