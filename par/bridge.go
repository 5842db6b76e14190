package par

import (
	"context"
	"runtime/trace"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// The bridge is the one place where the algebra of a call (what a leaf does
// with a piece of the range, and how two results combine) meets the scheduler
// and the splitter. Every range function describes a leaf and a combine and
// hands them to reduce.

// body is what a call does with its range: the leaf folds a piece, combine
// merges the results of two adjacent pieces, left then right.
type body[R any] struct {
	// name names the call's task in an execution trace (go tool trace).
	name string
	// obs is what observers of the call need (a trace task, profiler
	// labels), or nil when none is on: one word for the common call.
	obs     *callObs
	leaf    func(lo, hi int) R
	each    func(lo, hi int)      // instead of leaf when R carries nothing: spares a wrapper
	combine func(left, right R) R // nil when R carries nothing (For, ForEach)
	// fixedTree: the result must come from the same tree of combines whatever
	// the timing: the range is cut as split.Cut says, and the call does not
	// start with a timed prefix.
	fixedTree bool
	// minSeq: with a fixed tree, lengths up to this run on the caller alone.
	minSeq int
	// stop is set when a leaf panics, or by a leaf that settles the call's
	// result early, so that pieces not yet started are skipped and not cut.
	stop atomic.Bool
	// failed is set, before stop, when a leaf panics or the call's result is
	// otherwise dropped (a Seq pass cancelled): from then on no piece is
	// combined, since skipped pieces hold the zero R, which combine (the
	// user's op, for Reduce) must never see.
	failed atomic.Bool
	// settled, if set, reports that nothing at or after position lo can
	// change the result (an earlier match of a find-first), so that pieces
	// from lo on are skipped and not cut.
	settled func(lo int) bool
}

// callObs is what a call carries for observers; written before the first
// leaf runs, then only read.
type callObs struct {
	// trace is the call's trace task while tracing is on, else nil.
	trace context.Context
	// labels are the profiler labels of the call's work on pool workers (see
	// WithLabels), or nil.
	labels context.Context
}

// done reports whether the piece starting at lo can be skipped.
func (b *body[R]) done(lo int) bool {
	return b.stop.Load() || (b.settled != nil && b.settled(lo)) // stop: set by a leaf on any worker
}

// fold runs the leaf on [lo, hi) unless the piece can be skipped.
func (b *body[R]) fold(lo, hi int) (r R) {
	if b.done(lo) {
		return r
	}
	if b.obs != nil && b.obs.trace != nil {
		defer trace.StartRegion(b.obs.trace, "leaf").End()
	}
	ok := false
	defer func() {
		if !ok {
			b.failed.Store(true) // before stop: whoever skips a piece for stop sees it
			b.stop.Store(true)
		}
	}()
	if b.each != nil {
		b.each(lo, hi)
	} else {
		r = b.leaf(lo, hi)
	}
	ok = true
	return r
}

// rangeJob is the stealable right half of a cut.
type rangeJob[R any] struct {
	sched.Job
	lo, hi int
	sp     split.Splitter
	b      *body[R]
	res    R
}

func runRangeJob[R any](w *sched.Worker, j *sched.Job) {
	t := sched.Payload[rangeJob[R]](j)
	if o := t.b.obs; o != nil && o.labels != nil {
		runLabelled(w, o.labels, t, j)
		return
	}
	t.res = reduce(w, t.lo, t.hi, t.sp, w != j.Owner(), t.b)
}

// runLabelled is runRangeJob under the call's profiler labels.
func runLabelled[R any](w *sched.Worker, labels context.Context, t *rangeJob[R], j *sched.Job) {
	defer w.Label(w.Label(labels))
	t.res = reduce(w, t.lo, t.hi, t.sp, w != j.Owner(), t.b)
}

// reduce folds [lo, hi) with b, cutting it while sp allows. stolen says whether
// this piece runs on another worker than the one that cut it.
func reduce[R any](w *sched.Worker, lo, hi int, sp split.Splitter, stolen bool, b *body[R]) R {
	if b.done(lo) {
		var zero R
		return zero
	}
	if !sp.TrySplit(hi-lo, stolen) {
		if step := sp.Step(hi - lo); step < hi-lo {
			return leaf(w, lo, hi, step, sp, b, time.Now)
		}
		return b.fold(lo, hi)
	}
	mid := lo + (hi-lo)/2
	if b.fixedTree {
		mid = split.Cut(lo, hi) // a node of the canonical tree, whatever the schedule
	}
	var left, right R
	if w.Crowded() {
		// The cut stays, for the leaves and the tree; only the job is spared.
		// Left first, unlike a crowded Join (see sched.Worker.Crowded): both
		// pieces of a range cut again, so neither hides a long uncut stretch,
		// and a find-first settles sooner from the left.
		left = reduce(w, lo, mid, sp, false, b)
		w.RanInline()
		right = reduce(w, mid, hi, sp, false, b)
	} else {
		left, right = forkRange(w, lo, mid, hi, sp, b, false)
	}
	if b.combine == nil || b.failed.Load() { // after a panic the result is dropped anyway
		return left
	}
	return b.combine(left, right)
}

// join combines the results of two adjacent pieces, left then right.
func (b *body[R]) join(left, right R) R {
	if b.combine == nil || b.failed.Load() { // after a panic the result is dropped anyway
		return left
	}
	return b.combine(left, right)
}

// stepTarget is about how long a step of a running leaf takes: long enough
// that what a leaf pays at each call (a pipe's buffers, CountBy's map,
// MapInit's value) is paid rarely (W9 of `go run ./bench`, which opens a pipe
// per call, took 1.8 times as long with 16 fixed steps per leaf), short beside
// the 80 µs that waking a parked worker takes here (BenchmarkWake).
const stepTarget = 100 * time.Microsecond

// stepGrowth bounds how much longer a step may be than the one before it, so
// that a quick first step, or cost that climbs along the range, cannot make
// the next one run far past stepTarget.
const stepGrowth = 16

// leaf folds [lo, hi), a piece that sp declined to cut, in steps. The first
// is sized by the pace of the step before it on w, if that step was of the
// same range and ended at lo (the left half of a fork ran there, and this is
// the right half): about stepTarget's worth, or the whole leaf if it fits.
// Otherwise the first step is blind, of the given length, sp.Step(hi-lo), a
// small part of the piece. Each step after that is sized by the clock: all the
// rest if it should take no longer than stepTarget at the pace of the step
// before, else about stepTarget's worth, and never more than stepGrowth times
// the step before. So a uniform leaf takes one step, or three when it runs
// blind, and one that turns out far dearer than its first step promised is
// cut into steps of about stepTarget. The pace of the last step is left in w
// (sched.Pace) for the next leaf, which then takes the end of that step for
// the start of its own first one: a clock read costs some 60 ns here
// (BenchmarkClock), and reading it twice for each leaf of a call of a few
// milliseconds showed in BenchmarkRangeSumIdle. Whatever w did in between (a
// steal, a wait) is charged to that first step, which can only make the steps
// after it shorter. Between two steps it looks once whether another
// participant of the pool has nothing to do (sched.Worker.Hungry) and, if
// so and if no job of its own waits unstolen in its deque, cuts what it has
// left in two and forks the right part, as a cut of the splitter would: lazy
// binary splitting (Tzannes, Caragea, Barua and Vishkin, PPoPP 2010), the
// promotion step of heartbeat scheduling (Acar et al., PLDI 2018).
// The pieces cut before the costly end of a range was reached were sized by
// the cheap start, and without this the last of them ran to its end on one
// worker while the others waited. No step leaves a rest shorter than
// sp.Min(). Results combine in order. With a fixed tree the steps and the
// cut are nodes of the canonical tree (descend).
func leaf[R any](w *sched.Worker, lo, hi, step int, sp split.Splitter, b *body[R], clock func() time.Time) R {
	if b.fixedTree {
		return descend(w, lo, hi, max(step, (hi-lo)/treeSteps), sp, b)
	}
	pc, id := w.Pace(), uintptr(unsafe.Pointer(b))
	var t time.Time
	if pc.End == lo && pc.Body == id && pc.Call == w.Call() && pc.D > 0 {
		step = int(min(int64(hi-lo), int64(pc.N)*int64(stepTarget)/int64(pc.D)))
		t = pc.At // the step before ended where this one begins: one clock read a step
	} else {
		t = clock()
	}
	step = stepFit(step, hi-lo, sp.Min())
	acc := b.fold(lo, lo+step)
	cur := lo + step
	for {
		now := clock()
		el := now.Sub(t)
		if el > 0 {
			*pc = sched.Pace{Call: w.Call(), Body: id, End: cur, N: step, D: el, At: now}
		}
		if cur >= hi || b.done(cur) {
			return acc
		}
		// The steps follow the elements' cost: a leaf's every call pays its
		// setup (a pipe's buffers, a map, an init), and steps far shorter than
		// stepTarget would pay it too often, far longer ones answer late.
		if el <= 0 {
			step *= stepGrowth // a clock too coarse to tell
		} else if hi-cur <= step*stepGrowth && int64(hi-cur) <= int64(step)*int64(stepTarget)/int64(el) {
			step = hi - cur // the rest takes about a step at the last one's pace
		} else {
			// The next step takes about stepTarget at the last one's pace,
			// growing at most stepGrowth-fold.
			step = int(min(int64(step)*stepGrowth, int64(step)*int64(stepTarget)/int64(el)))
		}
		t = now
		if hi-cur >= 2*sp.Min() && w.Hungry() && w.Len() == 0 {
			left, right := forkRange(w, cur, cur+(hi-cur)/2, hi, sp, b, true)
			return b.join(b.join(acc, left), right)
		}
		step = stepFit(step, hi-cur, sp.Min())
		acc = b.join(acc, b.fold(cur, cur+step))
		cur += step
	}
}

// stepFit returns a step of a leaf with rest elements left, given the step
// wanted: at least minLen (and 1), and all the rest if what it would leave is
// shorter than minLen.
func stepFit(step, rest, minLen int) int {
	step = max(step, minLen, 1)
	if rest-step < minLen {
		return rest
	}
	return step
}

// treeSteps is about how many nodes of its canonical tree a fixed-tree leaf
// is walked in: it cannot follow the clock, since its nodes are fixed.
const treeSteps = 16

// descend is leaf for a fixed tree: it walks the canonical tree below [lo, hi)
// down to nodes no longer than step, and forks the right child of the node it
// enters while another participant is hungry. It gives away smaller pieces
// than leaf's halves of the rest, but only nodes of the tree.
func descend[R any](w *sched.Worker, lo, hi, step int, sp split.Splitter, b *body[R]) R {
	if hi-lo <= step || b.done(lo) {
		return b.fold(lo, hi)
	}
	mid := split.Cut(lo, hi)
	if hi-lo >= 2*sp.Min() && w.Hungry() && w.Len() == 0 {
		return b.join(forkRange(w, lo, mid, hi, sp, b, true))
	}
	left := descend(w, lo, mid, step, sp, b)
	return b.join(left, descend(w, mid, hi, step, sp, b))
}

// forkRange reduces [lo, mid) and [mid, hi) with the second piece stealable,
// and returns both results. hungry says the cut answers a participant with
// nothing to do (see leaf), which may be the call's own caller, parked while
// it waits: it is woken to look.
func forkRange[R any](w *sched.Worker, lo, mid, hi int, sp split.Splitter, b *body[R], hungry bool) (left, right R) {
	j := sched.Take[rangeJob[R]](w)
	j.lo, j.hi, j.sp, j.b = mid, hi, sp, b
	if !j.HasRun() { // fresh: a reused record is still set up for w (see sched.Take)
		j.Init(w, runRangeJob[R])
	}
	w.Begin(&j.Job)
	if hungry {
		w.WakeCaller()
	}
	defer func() {
		w.Done(&j.Job)
		var zero R
		j.b, j.res = nil, zero // drop references before the record is reused
		j.Put()
	}()
	left = reduce(w, lo, mid, sp, false, b)
	if w.Finish(&j.Job) {
		j.res = reduce(w, mid, hi, sp, false, b)
	}
	return left, j.res // read before the deferred call clears it
}

// seqBudget is how long a call works alone on a prefix of its range before
// it involves the pool. A call that finishes within it never touches the pool
// and costs what the plain loop costs; a longer one has done at most about
// this much work (plus one chunk) before the rest runs in parallel. It is meant
// as a few times the cost of waking a parked worker (a futex wake and a context
// switch), below which parallelism cannot pay; that cost is an estimate, not a
// measurement of this machine. W8 of `go run ./bench` shows the effect.
const seqBudget = 20 * time.Microsecond

// seqGrowth is the factor by which the prefix chunks grow at most: the clock
// is read once per chunk, so about log8(n) times while elements are cheap.
const seqGrowth = 8

// seqLong is how long the rest of a call must promise to take, at the pace
// of a prefix that has timed seqBudget/8 of work, for the prefix to end there
// and not spend the rest of its budget alone: the pool's help is then
// certain to pay, and every microsecond alone before the wake of a parked
// worker (BenchmarkWake) delays the second core.
const seqLong = 4 * seqBudget

// longRest reports whether rest elements take seqLong or more at the pace of
// done elements in el.
func longRest(el time.Duration, done, rest int) bool {
	return float64(el)*float64(rest) >= float64(seqLong)*float64(done)
}

// run reduces [0, n) for a call: first alone on a growing prefix while that
// stays within seqBudget, or until it shows the call to be long (seqLong),
// then on the call's pool. With a fixed grain, or for
// a body whose result must not depend on where the prefix ends (deterministic
// float sums), it goes to the pool at once when n exceeds minSeq. The prefix's
// chunks are never shorter than the call's minimum length.
func run[R any](c *config, n int, b *body[R]) R {
	if c.labels != nil {
		b.obs = &callObs{labels: c.labels}
	}
	if trace.IsEnabled() && (b.obs == nil || b.obs.trace == nil) { // one atomic load when tracing is off
		name := b.name
		if name == "" {
			name = "par"
		}
		ctx, task := trace.NewTask(context.Background(), name)
		defer task.End()
		if b.obs == nil {
			b.obs = &callObs{}
		}
		b.obs.trace = ctx
	}
	if c.grain > 0 || b.fixedTree {
		if n <= b.minSeq || n <= c.grain {
			return b.fold(0, n)
		}
		return parallel(c, 0, n, b, 0)
	}
	acc, hi, el := prefix(c, n, b, time.Now)
	if hi == n || b.done(hi) {
		return acc
	}
	rest := parallel(c, hi, n, b, paceOf(hi, el))
	if b.combine == nil {
		return acc
	}
	return b.combine(acc, rest)
}

// prefix folds [0, hi) alone, in chunks that grow while the time they took,
// el by clock, stays under seqBudget and the rest does not promise to take
// seqLong or more at their pace, and returns that fold. hi is n when the
// whole range was done, or the call was settled or stopped at hi.
func prefix[R any](c *config, n int, b *body[R], clock func() time.Time) (acc R, hi int, el time.Duration) {
	first := max(1, c.minLen)
	start := clock()
	hi = min(n, first)
	if n-hi < first {
		hi = n
	}
	acc = b.fold(0, hi)
	last, prev := hi, start // the last chunk's length, and when it began
	for hi < n && !b.done(hi) {
		now := clock()
		el = now.Sub(start)
		left := seqBudget - el
		if n-hi > first && (left < seqBudget/8 || el >= seqBudget/8 && longRest(el, hi, n-hi)) {
			break
		}
		// The next chunk grows by seqGrowth while the prefix is young, then
		// doubles, and never past what is left of the budget at the last
		// chunk's pace: cost that climbs along the range (W3 of `go run
		// ./bench`) made a chunk grown eightfold run for milliseconds while
		// the pool waited.
		k := last * seqGrowth
		if left < seqBudget*15/16 {
			k = last * 2
		}
		if d := now.Sub(prev); d > 0 {
			k = min(k, int(int64(last)*int64(left)/int64(d))+1)
		}
		prev = now
		lo := hi
		hi = min(n, lo+max(k, first))
		if n-hi < first {
			hi = n // no piece shorter than the minimum length at the end
		}
		last = hi - lo
		r := b.fold(lo, hi)
		if b.combine != nil {
			acc = b.combine(acc, r)
		}
	}
	return acc, hi, el
}

// leafTarget is about the longest a leaf of a long call should take, judged
// by the pace of its timed prefix. Demand-driven splitting alone leaves about
// two leaves per worker when nobody steals, and a core that turns slow in the
// middle of one (another process, a busy sibling hyperthread, a descheduled
// virtual CPU) then holds up the end of the call by up to a whole leaf. In
// the grain sweep of `go run ./bench -full` on this project's 2-core machine
// the default came within 5% of the best fixed grain in 3 of 7 runs without
// this bound and in 7 of 12 (W1) and 6 of 7 (W2, W3) with it. A fork per
// 50 µs leaf, about 50 ns (go test -bench JoinEmpty ./par), is 0.1%.
const leafTarget = 50 * time.Microsecond

// maxLeavesPerWorker bounds the leaves that leafTarget may ask for, per
// participant of the pool, for a prefix slower than the rest of the range.
const maxLeavesPerWorker = 128

// paceOf returns how many elements take about leafTarget at the pace of a
// prefix that did done elements in el.
func paceOf(done int, el time.Duration) int {
	return int(int64(done) * int64(leafTarget) / max(int64(el), 1))
}

// parallel reduces [lo, hi) on the call's pool, with leaves bounded by pace
// (see paceOf; 0: none) as config.splitter says.
func parallel[R any](c *config, lo, hi int, b *body[R], pace int) R {
	var r R
	c.run(func(w *sched.Worker) {
		r = reduce(w, lo, hi, c.splitter(w.Pool().Workers(), hi-lo, pace), false, b)
	})
	return r
}
