package engine

import (
	"context"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// call is the state of one call: its work (split.Work, the shape's side of
// the protocol) and what its pieces share. A call that ends on its caller
// keeps it on the caller's stack; one that forks copies it to the heap for
// the pool's workers (heap).
type call[A any] struct {
	w split.Work[A]
	// obs is what observers of the call need (a trace task, profiler
	// labels), or nil when none is on: one word for the common call.
	obs *callObs
	// stop is set when a fold panics, or by a fold that settles the call's
	// result early, so that pieces not yet started are skipped and not cut.
	stop atomic.Bool
	// failed is set, before stop, when a fold panics or the call's result
	// is otherwise dropped: from then on nothing is merged, since the runs of
	// skipped pieces hold accumulators that Merge (the user's) must never
	// see.
	failed atomic.Bool
	// spare holds the accumulators of a Reuse call that no run folds into,
	// one per participant (see spares); nil until the call forks.
	spare *spares[A]
	// short is set, before the call forks, when its prefix handed over a
	// rest shorter than its pool's wake-up makes worth joining
	// (split.Prefix.Long): its cuts wake a parked worker only while none
	// searches (split.Wakes).
	short bool
}

// callObs is what a call carries for observers; written before the first
// fold runs, then only read.
type callObs struct {
	// trace is the call's trace task while tracing is on, else nil.
	trace context.Context
	// labels are the profiler labels of the call's work on pool workers, or
	// nil.
	labels context.Context
}

// run is what a participant carries from one step of a run to the next and
// on to the adjacent piece it goes on with: the run's accumulator, where
// its last step ended, and that step's pace, which sizes the next piece's
// first step instead of a blind one.
type run[A any] struct {
	acc  A
	live bool // acc was made (Init) and has folded something
	end  int  // where the last step ended
	n    int  // the last step's length,
	d    time.Duration
	at   time.Time // and when it ended
}

// adjacent reports whether r's last step ended at lo with a pace: a piece
// that begins there continues the run at that pace.
func (r *run[A]) adjacent(lo int) bool { return r.live && r.end == lo && r.d > 0 }

// done reports whether the piece starting at lo can be skipped.
func (c *call[A]) done(lo int) bool {
	return c.stop.Load() || (c.w.Settled != nil && c.w.Settled(lo)) // stop: set by a fold on any worker
}

// begin makes r's accumulator if r has none: Init's, or for a Reuse call
// the one w's participant last gave back. w is nil on the caller before
// the call forks.
func (c *call[A]) begin(r *run[A], w *sched.Worker) {
	if r.live {
		return
	}
	r.live = true
	if c.spare != nil && w != nil {
		if acc, ok := c.spare.take(w); ok {
			r.acc = acc
			return
		}
	}
	if c.w.Init != nil {
		r.acc = c.w.Init()
	}
}

// fold folds [lo, hi) into r unless the piece can be skipped, and records
// where it ended.
func (c *call[A]) fold(r *run[A], w *sched.Worker, lo, hi int) {
	if c.done(lo) {
		return
	}
	if c.obs != nil && c.obs.trace != nil {
		defer trace.StartRegion(c.obs.trace, "leaf").End()
	}
	ok := false
	defer func() {
		if !ok {
			c.failed.Store(true) // before stop: whoever skips a piece for stop sees it
			c.stop.Store(true)
		}
	}()
	if c.w.Leaf != nil {
		v := c.w.Leaf(lo, hi)
		if r.live && !c.failed.Load() {
			v = c.w.Merge(r.acc, v)
		}
		r.acc, r.live = v, true
	} else {
		c.begin(r, w)
		r.acc = c.w.Fold(r.acc, lo, hi)
	}
	r.end = hi
	ok = true
}

// cover folds into r the stretch from pos that the work says the work done
// has covered, up to hi, as one step, and returns where it reaches: pos
// when no stretch is covered.
func (c *call[A]) cover(r *run[A], w *sched.Worker, pos, hi int) int {
	if c.w.Covered == nil || pos >= hi {
		return pos
	}
	e := min(hi, c.w.Covered(pos))
	if e <= pos {
		return pos
	}
	c.fold(r, w, pos, e)
	return e
}

// merge returns the run of two adjacent runs, left then right. Its pace is
// unknown: right's was timed on another goroutine. A Reuse call's thieves
// give their runs back as they end (see rangeJob.run): nothing reaches
// here to merge.
func (c *call[A]) merge(left, right run[A]) run[A] {
	if !right.live {
		return left
	}
	if left.live {
		if c.w.Merge != nil && !c.failed.Load() { // after a panic the result is dropped anyway
			left.acc = c.w.Merge(left.acc, right.acc)
		}
		right.acc = left.acc
	}
	right.d = 0
	return right
}

// heap returns a copy of c on the heap, for the pool's workers to share:
// c's call has not forked yet, so nothing else holds c.
func (c *call[A]) heap() *call[A] {
	h := &call[A]{w: c.w, obs: c.obs, short: c.short}
	h.stop.Store(c.stop.Load())
	h.failed.Store(c.failed.Load())
	return h
}

// spares keeps the free accumulators of a Reuse call: one slot per pool
// worker and one for the call's own seat, each touched only by the
// goroutine that holds that participant, and a list, under a lock, for
// what finds its slot full (a participant whose fold made a nested call
// can have two values out at once).
type spares[A any] struct {
	workers int
	slots   []spare[A]
	nextra  atomic.Int32 // len(extra), read without the lock
	mu      sync.Mutex
	extra   []A
}

type spare[A any] struct {
	acc  A
	full bool
	_    [48]byte // a cache line each: participants write their own slots
}

func newSpares[A any](workers int) *spares[A] {
	return &spares[A]{workers: workers, slots: make([]spare[A], workers+1)}
}

// slot returns w's slot: a pool worker's own, or the seat's (the only seat
// that runs pieces of a call is its caller's). Owner of w only.
func (s *spares[A]) slot(w *sched.Worker) *spare[A] {
	return &s.slots[min(w.Index(), s.workers)]
}

// take returns the accumulator in w's slot, or one from the list, if any.
// Owner of w only.
func (s *spares[A]) take(w *sched.Worker) (A, bool) {
	var zero A
	if sl := s.slot(w); sl.full {
		acc := sl.acc
		sl.acc, sl.full = zero, false
		return acc, true
	}
	if s.nextra.Load() == 0 { // a hint: a value given back meanwhile waits for the next run
		return zero, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.extra); n > 0 {
		acc := s.extra[n-1]
		s.extra[n-1] = zero
		s.extra = s.extra[:n-1]
		s.nextra.Store(int32(n - 1))
		return acc, true
	}
	return zero, false
}

// give puts acc in w's slot, or in the list if the slot is full. Owner of
// w only.
func (s *spares[A]) give(w *sched.Worker, acc A) {
	if sl := s.slot(w); !sl.full {
		sl.acc, sl.full = acc, true
		return
	}
	s.mu.Lock()
	s.extra = append(s.extra, acc)
	s.nextra.Store(int32(len(s.extra)))
	s.mu.Unlock()
}

// all returns every accumulator given back and last's, after the call: its
// end orders every participant's writes before.
func (s *spares[A]) all(last run[A]) []A {
	out := s.extra
	for _, sl := range s.slots {
		if sl.full {
			out = append(out, sl.acc)
		}
	}
	if last.live {
		out = append(out, last.acc)
	}
	return out
}
