package par

import (
	"context"
	"math/rand/v2"
	"runtime/trace"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/weftgo/weft/internal/cover"
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
	// key names the call's site (see site.go): the code of the user's
	// function, or 0 for that of leaf or each.
	key uintptr
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
	// covered, if not nil, tells how far from a position the work done
	// covers (see internal/cover and cover): set from the call's options.
	covered cover.Func
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

// cover folds into acc the stretch from pos that b.covered says the work done
// has covered, up to hi, as one step, and returns acc and where it reaches:
// pos when no stretch is covered. The positions of a long line that its
// first piece has read to its end cost nothing to fold; timed one by one, at
// the pace of that first piece, they would be cut into the most pieces the
// call allows.
func (b *body[R]) cover(acc R, pos, hi int) (R, int) {
	if b.covered == nil || pos >= hi {
		return acc, pos
	}
	e := min(hi, b.covered(pos))
	if e <= pos {
		return acc, pos
	}
	return b.join(acc, b.fold(pos, e)), e
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
		if sp.Step(hi-lo) < hi-lo {
			return leaf(w, lo, hi, sp, b, time.Now)
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
		// Left first, unlike a crowded Join2 (see sched.CrowdLen): both
		// pieces of a range cut again, so neither hides a long uncut stretch,
		// and a find-first settles sooner from the left.
		left = reduce(w, lo, mid, sp, false, b)
		w.RanInline()
		right = reduce(w, mid, hi, sp, false, b)
	} else {
		left, right = forkRange(w, lo, mid, hi, sp, b)
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

// leaf folds [lo, hi), a piece that sp declined to cut, in the steps that
// sp.FirstStep and sp.NextStep size (see package split, "Running leaves"),
// each at most half of what is left while w's deque holds no job of its own
// and no participant is hungry yet (sp.TailStep).
// The first step is sized by the pace of the step before it on w if that
// step was of the same call and range and ended at lo, and is then timed from
// that step's end (one clock read a step; whatever w did in between, a steal
// or a wait, is charged to it, which can only shorten the steps after it).
// The pace of each step is left in w (sched.Pace) for the next leaf. Between
// two steps the leaf looks once whether another participant of the pool has
// nothing to do (sched.Worker.Hungry) and, if so, if no job of its own
// waits unstolen in its deque, and if half of what it has left holds
// split.MinPiece of work at its last step's pace, cuts what it has left in
// two and forks the right part, as a cut of the splitter would. Results
// combine in order. A step that ends where the work done has covered a
// stretch (b.cover) takes that stretch in, and its pace counts it. With a
// fixed tree the steps and the cut are nodes of the canonical tree (descend).
func leaf[R any](w *sched.Worker, lo, hi int, sp split.Splitter, b *body[R], clock func() time.Time) R {
	if b.fixedTree {
		return descend(w, lo, hi, sp.TreeStep(hi-lo), sp, b)
	}
	pc, id := w.Pace(), uintptr(unsafe.Pointer(b))
	var before split.Pace
	var t time.Time
	if pc.End == lo && pc.Body == id && pc.Call == w.Call() && pc.D > 0 {
		before = split.Pace{N: pc.N, D: pc.D}
		t = pc.At
	} else {
		t = clock()
	}
	step := sp.FirstStep(hi-lo, before)
	if w.Len() == 0 && !w.Hungry() {
		step = sp.TailStep(step, before, hi-lo)
	}
	acc, cur := b.cover(b.fold(lo, lo+step), lo+step, hi)
	step = cur - lo
	for {
		now := clock()
		el := now.Sub(t)
		if el > 0 {
			*pc = sched.Pace{Call: w.Call(), Body: id, End: cur, N: step, D: el, At: now}
		}
		if cur >= hi || b.done(cur) {
			return acc
		}
		last := step
		step = sp.NextStep(step, el, hi-cur)
		t = now
		if w.Len() == 0 {
			if !w.Hungry() {
				step = sp.TailStep(step, split.Pace{N: last, D: el}, hi-cur)
			} else if sp.CanHalve(hi-cur) && sp.WorthHalving(hi-cur, last, el) {
				left, right := forkRange(w, cur, cur+(hi-cur)/2, hi, sp, b)
				return b.join(b.join(acc, left), right)
			}
		}
		var next int
		acc, next = b.cover(b.join(acc, b.fold(cur, cur+step)), cur+step, hi)
		step, cur = next-cur, next
	}
}

// descend is leaf for a fixed tree: it walks the canonical tree below [lo, hi)
// down to nodes no longer than step, and forks the right child of the node it
// enters while another participant is hungry. It gives away smaller pieces
// than leaf's halves of the rest, but only nodes of the tree.
func descend[R any](w *sched.Worker, lo, hi, step int, sp split.Splitter, b *body[R]) R {
	if hi-lo <= step || b.done(lo) {
		return b.fold(lo, hi)
	}
	mid := split.Cut(lo, hi)
	if sp.CanHalve(hi-lo) && w.Hungry() && w.Len() == 0 {
		return b.join(forkRange(w, lo, mid, hi, sp, b))
	}
	left := descend(w, lo, mid, step, sp, b)
	return b.join(left, descend(w, mid, hi, step, sp, b))
}

// forkRange reduces [lo, mid) and [mid, hi) with the second piece stealable,
// and returns both results. The push wakes the call's own caller if it is
// parked while it waits (sched.Worker.Push).
func forkRange[R any](w *sched.Worker, lo, mid, hi int, sp split.Splitter, b *body[R]) (left, right R) {
	j := sched.Take[rangeJob[R]](w)
	j.lo, j.hi, j.sp, j.b = mid, hi, sp, b
	if !j.HasRun() { // fresh: a reused record is still set up for w (see sched.Take)
		j.Init(w, runRangeJob[R])
	}
	w.Begin(&j.Job)
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

// run reduces [0, n) for a call: first alone on the timed prefix that
// split.Prefix plans, then on the call's pool. With a fixed grain, or for a
// body whose result must not depend on where the prefix ends (deterministic
// float sums), it goes to the pool at once when n exceeds minSeq.
func run[R any](c *config, n int, b *body[R]) R { return runOn(c, n, b, b) }

// runLocal is run for a body that nothing else refers to (a literal made for
// the call, which no closure of it names), so that it can stay on the
// caller's stack: the call's pool gets a copy on the heap (body.heap) only
// if the call forks, or is traced or labelled. A call that ends in its
// prefix, as calls of a few microseconds do, allocates nothing for its body.
// A body allocated on each call cost more than the allocation: ReduceRange
// with W2's leaf over 100 elements took 5.94-6.17 µs a call with it, and
// 5.51-5.89 µs without, where the leaf alone takes 5.35-5.48 (go test ./par
// -run '^$' -bench 'SmallCallW2/n=100/', 4 alternated runs); ForRange over
// one element, 78-88 ns and 23 ns (BenchmarkSmallCall).
func runLocal[R any](c *config, n int, b *body[R]) R { return runOn(c, n, b, nil) }

// runOn is run on b, with heap the body the pool's workers share: b itself
// for run, or nil for runLocal, whose copy is made when it is needed.
func runOn[R any](c *config, n int, b, heap *body[R]) R {
	tracing := trace.IsEnabled() // one atomic load when tracing is off
	if heap == nil && (c.labels != nil || tracing) {
		h := b.heap() // the observers' record is the shared body's
		return runOn(c, n, h, h)
	}
	if c.labels != nil {
		b.obs = &callObs{labels: c.labels}
	}
	b.covered = c.covered
	if tracing && (b.obs == nil || b.obs.trace == nil) {
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
		return parallel(c, 0, n, b.shared(heap), split.Pace{})
	}
	acc, hi, pf := prefix(c, n, b, monotonic)
	if hi == n || b.done(hi) {
		return acc
	}
	rest := parallel(c, hi, n, b.shared(heap), splitPace(pf.Pace(), pf.Expected()))
	if b.combine == nil {
		return acc
	}
	return b.combine(acc, rest)
}

// splitPace returns the pace by which the pool cuts the rest of a call whose
// prefix handed it over: m, the pace the prefix measured, or e, the pace its
// site recorded, if that is cheaper, and no pace at all (cut as the pool's
// demand says) if m is of fewer than minSample elements with no record to
// check it by. A prefix that the collector or the operating system
// stopped measures elements dearer than they are, a blind one over its first
// element alone, and the pool then cut its rest into pieces by that pace
// (Map of x*2 over 1,000 ints while the collector runs: 7 to 9 fork halves
// a call with the measured pace alone, go test ./par -run '^$' -bench
// SmallMap, halves/op); pieces cut too long are halved while they run, as
// soon as a participant is hungry (leaf).
func splitPace(m, e split.Pace) split.Pace {
	switch {
	case e.D > 0 && int64(e.D)*int64(m.N) < int64(m.D)*int64(e.N):
		return e
	case e.D <= 0 && m.N < minSample:
		return split.Pace{}
	}
	return m
}

// minSample is the fewest elements whose time splitPace trusts on its own,
// and that a prefix handing its rest over teaches its site, unless they took
// PrefixBudget or more: the time of a few cheap elements is the clock's and
// the pool lookup's as much as theirs, and a pace far too dear sent the
// next calls to the pool after their first element.
const minSample = 16

// shared returns heap, or, if it is nil, a copy of b on the heap.
func (b *body[R]) shared(heap *body[R]) *body[R] {
	if heap != nil {
		return heap
	}
	return b.heap()
}

// heap returns a copy of b on the heap, for the pool's workers to share: b's
// own call has not forked yet, so nothing else holds b, and its flags are
// those of a call that runs. TestShortCallAllocatesNothingForItsBody checks
// that the copy carries every field.
func (b *body[R]) heap() *body[R] {
	h := &body[R]{name: b.name, obs: b.obs, leaf: b.leaf, each: b.each, combine: b.combine,
		fixedTree: b.fixedTree, minSeq: b.minSeq, key: b.key, settled: b.settled, covered: b.covered}
	h.stop.Store(b.stop.Load())
	h.failed.Store(b.failed.Load())
	return h
}

// clockBase is the origin of monotonic.
var clockBase = time.Now()

// monotonic is the prefix's clock: time.Since reads the monotonic clock
// alone, one read of the system's clock where time.Now costs two (go test
// -bench Clock ./par).
func monotonic() time.Time { return clockBase.Add(time.Since(clockBase)) }

// timedOneIn: a call that its site's pace says ends within its first chunk
// (split.Prefix.Expect) reads the clock in one call of this many, drawn at
// random by drawTimed, and its site learns from those alone; the others run
// untimed. The two clock reads alone take 70 ns (go test ./par -run '^$'
// -bench Clock, impl=Since), 2% of a call of W2's body over 100 elements
// (3.5 µs, W11 of go run ./bench). A site whose elements become dearer
// learns it within a few calls, and each of those runs its one chunk alone,
// as a timed call would (split.FirstLook's bound).
const timedOneIn = 8

// drawTimed is the draw of timedOneIn: random bits from a generator of the
// calling thread (math/rand/v2's top-level functions share no state between
// callers). Tests set it.
var drawTimed = rand.Uint32

// prefix folds [0, hi) alone, in the chunks that split.Prefix plans, reading
// clock once a chunk and once at the end (or not at all, for most calls
// planned as one chunk: timedOneIn), and returns that fold and the prefix's
// plan. hi is n when the whole range was done, or the call was
// settled or stopped at hi. The first chunk is sized by the pace that the
// call's site measured before (site.go), and the pace this prefix measures
// is left there for the next call (unless it is of a few elements timed in
// less than the budget: minSample). The prefix is warm (split.Prefix.Warm)
// when a worker of the call's pool is spare as the call begins
// (sched.Pool.Spare), and goes on alone past its end (split.Prefix.Stay)
// while the pool has no processor to share its rest with (alone). A chunk
// that ends where the work done has covered a stretch takes it in (b.cover,
// split.Prefix.Cover).
func prefix[R any](c *config, n int, b *body[R], clock func() time.Time) (acc R, hi int, pf split.Prefix) {
	if n < 2*max(1, c.minLen) {
		return b.fold(0, n), n, pf // one chunk whatever the pace: nothing to time or learn
	}
	st := siteOf(b.siteKey())
	expect, pf, short := c.plan(st, n)
	if short {
		// Known to be short: one chunk, timed only if drawn (config.one).
		one := drawOne(st, clock)
		acc, hi = b.cover(b.fold(0, n), n, n)
		one.end(hi, clock)
		return acc, hi, pf
	}
	var pool *sched.Pool
	if expect.D == 0 {
		// Before the clock starts: with no pace, the first chunk is one
		// element, and the lookup of the default pool is not the body's time.
		pool = c.lookup()
	}
	pf.Begin(clock())
	if pf.End() < n {
		// A call that may outlast its first chunk counts among its pool's
		// calls in progress (sched.Pool.Spare), and is warm if that pool
		// has a spare searcher. With a pace, the lookup counts in the first
		// chunk's time. A warm first chunk is planned to time an eighth of
		// WarmLook, and the first elements of a range may be cheaper than
		// the rest (W2's are): looked up before the clock started, such a
		// chunk timed short of its eighth and took a second one before the
		// hand-over (W2's body over 1,000 elements from one caller, W11 of
		// go run ./bench: 1.40 of the loop's speed, then 1.25-1.34).
		if pool == nil {
			pool = c.lookup()
		}
		pool.Arrive()
		defer pool.Depart()
		if pool.Spare() > 0 {
			pf.Warm()
		}
	}
	acc, hi = b.cover(b.fold(0, pf.End()), pf.End(), n)
	pf.Cover(hi)
	for {
		if hi == n || b.done(hi) {
			if st.slot != nil {
				st.learn(pf.Measured(clock()), true)
			}
			return acc, hi, pf
		}
		now := clock()
		if !pf.Next(now) {
			if !alone(pool, &pf) {
				if m := pf.Measured(now); m.N >= minSample || m.D >= split.PrefixBudget {
					st.learn(m, false)
				}
				return acc, hi, pf
			}
			pf.Stay(now)
		}
		lo := hi
		hi = pf.End()
		r := b.fold(lo, hi)
		if b.combine != nil {
			acc = b.combine(acc, r)
		}
		acc, hi = b.cover(acc, hi, n)
		pf.Cover(hi)
	}
}

// plan returns the pace of st and the prefix that this pace plans for a
// call of n elements before the clock starts (split.Prefix.Expect), and
// whether that prefix is the whole call; a call that st's settled record
// says is short is told so at once (site.short), with no plan.
func (c *config) plan(st site, n int) (expect split.Pace, pf split.Prefix, short bool) {
	if st.short(n) {
		return expect, pf, true
	}
	expect = st.pace()
	pf = split.NewPrefix(n, c.minLen, time.Time{})
	pf.Expect(expect)
	return expect, pf, pf.End() == n
}

// oneChunk is a call that runs on its caller as one chunk (config.one),
// timed if its draw chose it: its site then learns the call's pace.
type oneChunk struct {
	st    site // the call's site if the call is timed, or the zero site
	start time.Time
}

// drawOne draws whether a call of site st that its plan says is short times
// itself: one call in timedOneIn does, from clock's reading now.
func drawOne(st site, clock func() time.Time) oneChunk {
	if drawTimed()%timedOneIn != 0 {
		return oneChunk{}
	}
	return oneChunk{st: st, start: clock()}
}

// end tells the call's site, if the call is timed, that its first hi
// elements took until clock's reading now.
func (o *oneChunk) end(hi int, clock func() time.Time) {
	if o.st.slot != nil {
		o.st.learn(split.Pace{N: hi, D: clock().Sub(o.start)}, true)
	}
}

// one reports whether a call of n elements, whose site is key, runs on the
// caller as one chunk with nothing to observe, as runOn and prefix would run
// it, and returns that chunk, timed or not as prefix would draw it. It
// decides before the call builds its body, so that a function whose leaf
// wraps the user's function in a closure (For, Map, ForEach, MapReduce,
// Reduce, Count) runs its loop without making one: the closure, which a fork's heap
// copy of the body keeps, costs an allocation, and a timed call that built
// it paid twice what timing costs (MapReduce of W2's body over 100 elements,
// BenchmarkSmallCallW2 with timedOneIn = 1: 6% behind its floor, and 3%
// without the closure; untimed, 1%).
func (c *config) one(key uintptr, n int) (oneChunk, bool) {
	if c.labels != nil || c.covered != nil || trace.IsEnabled() {
		return oneChunk{}, false
	}
	if c.grain > 0 {
		return oneChunk{}, n <= c.grain
	}
	if n < 2*max(1, c.minLen) {
		return oneChunk{}, true
	}
	st := siteOf(key)
	if _, _, short := c.plan(st, n); !short {
		return oneChunk{}, false
	}
	return drawOne(st, monotonic), true
}

// alone reports whether a prefix that Next ended goes on alone rather than
// hand its rest to pool (nil: not looked up, a call planned as one chunk):
// while more calls are in progress than processors, a fork only adds to what
// waits for one (sched.Pool.Oversubscribed), and so it does while goroutines
// outside the pool's calls wait for the processors (sched.Pool.Contended)
// unless the rest takes contendedRest or more; while as many calls as
// processors, a rest of PrefixBudget or less gains less from a processor
// that a call might free than its fork costs (split.Prefix.ShortRest).
func alone(pool *sched.Pool, pf *split.Prefix) bool {
	return pool != nil && (pool.Oversubscribed() ||
		pool.Contended() && !pf.RestAtLeast(contendedRest) ||
		pool.Full() && pf.ShortRest())
}

// contendedRest is the least rest that a call hands over while its pool is
// contended. The worker woken for it waits behind the goroutines that hold
// the processors, and the fork gains only where those goroutines leave a
// processor free before the rest is done, at the end of a burst of calls.
// 4 goroutines calling W2's body in turn on 2 processors (W11 of go run
// ./bench) ran 1,000 to 1,500 elements (45-65 µs) at 0.93-0.96 of the
// loop's speed handing rests over and at 0.98 alone; calls of 10,000
// elements (450 µs) and more, which hand theirs over, run at 1.00-1.05.
const contendedRest = 2 * split.LongCall

// siteKey returns the key of the call's site (see site.go), or 0 for a body
// whose covered stretches make a pace per element meaningless.
func (b *body[R]) siteKey() uintptr {
	switch {
	case b.covered != nil:
		return 0
	case b.key != 0:
		return b.key
	case b.each != nil:
		return siteKey(b.each)
	case b.leaf != nil:
		return siteKey(b.leaf)
	}
	return 0
}

// parallel reduces [lo, hi) on the call's pool, cut as split.ForRange says
// for a range that the pool's workers and the caller work on, with leaves
// bounded by the prefix's pace (the zero Pace: none).
func parallel[R any](c *config, lo, hi int, b *body[R], pace split.Pace) R {
	var r R
	c.run(func(w *sched.Worker) {
		sp := split.ForRange(w.Pool().Workers()+1, hi-lo, c.minLen, c.grain, pace)
		r = reduce(w, lo, hi, sp, false, b)
	})
	return r
}

// lookup returns the call's pool.
func (c *config) lookup() *sched.Pool {
	if c.pool != nil {
		return c.pool.p
	}
	return c.defaultPool()
}

// defaultPool returns the default pool, looked up once a call: the lookup
// reads GOMAXPROCS, which takes the Go scheduler's global lock.
func (c *config) defaultPool() *sched.Pool {
	if c.def == nil {
		c.def = sched.Default()
	}
	return c.def
}

// run calls f with a seat of the call's pool.
func (c *config) run(f func(w *sched.Worker)) {
	if c.pool != nil {
		if !c.pool.p.TryRun(f) { // closed since configure looked
			panic(closedError("OnPool: the pool was closed as the call began"))
		}
		return
	}
	c.def = sched.RunDefault(c.defaultPool(), f)
}
