package engine

import (
	"context"
	"math/rand/v2"
	"runtime/trace"
	"time"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// Run folds [0, n) as work describes, on cfg's pool, and returns the
// accumulator of the whole range: Init's (or the zero A) for n == 0. A
// panic in work's functions reaches the caller with its original value
// once every piece in progress has finished; pieces not yet started are
// skipped. work is copied to the heap only if the call forks: a call that
// ends on its caller allocates nothing for itself.
func Run[A any](cfg *Config, n int, work split.Work[A]) A {
	if cfg.Covered != nil {
		work.Covered = cfg.Covered
	}
	c := call[A]{w: work}
	r, _ := start(cfg, n, &c)
	if !r.live && work.Init != nil {
		return work.Init()
	}
	return r.acc
}

// RunAll is Run for a Reuse call: it returns every accumulator made, in no
// particular order (none for n == 0).
func RunAll[A any](cfg *Config, n int, work split.Work[A]) []A {
	if cfg.Covered != nil {
		work.Covered = cfg.Covered
	}
	c := call[A]{w: work}
	r, h := start(cfg, n, &c)
	if h == nil || h.spare == nil {
		if r.live {
			return []A{r.acc}
		}
		return nil
	}
	return h.spare.all(r)
}

// start runs the call: first alone on the timed prefix that split.Prefix
// plans, then on the call's pool. With a fixed grain, or for a Tree call,
// it goes to the pool at once when n exceeds the grain or MinSeq. It
// returns the caller's run and the call's heap copy if it made one.
func start[A any](cfg *Config, n int, c *call[A]) (run[A], *call[A]) {
	var r run[A]
	if n <= 0 {
		return r, nil
	}
	tracing := trace.IsEnabled() // one atomic load when tracing is off
	if cfg.Labels != nil {
		c.obs = &callObs{labels: cfg.Labels}
	}
	if tracing {
		name := c.w.Name
		if name == "" {
			name = "weft"
		}
		ctx, task := trace.NewTask(context.Background(), name)
		defer task.End()
		if c.obs == nil {
			c.obs = &callObs{}
		}
		c.obs.trace = ctx
	}
	if cfg.Grain > 0 || c.w.Tree {
		if n <= c.w.MinSeq || n <= cfg.Grain {
			if c.w.Tree {
				return run[A]{acc: c.node(nil, 0, n), live: true}, nil
			}
			c.fold(&r, nil, 0, n)
			return r, nil
		}
		h := c.heap()
		return parallel(cfg, 0, n, h, split.Pace{}, r), h
	}
	var pf split.Prefix
	var hi int
	r, hi, pf = prefix(cfg, n, c, monotonic)
	if hi == n || c.done(hi) {
		return r, nil
	}
	c.short = !pf.Long()
	h := c.heap()
	return parallel(cfg, hi, n, h, split.SplitPace(pf.Pace(), pf.Expected()), r), h
}

// clockBase is the origin of monotonic.
var clockBase = time.Now()

// monotonic is the engine's clock: time.Since reads the monotonic clock
// alone, one read of the system's clock where time.Now costs two (go test
// -bench Clock ./par).
func monotonic() time.Time { return clockBase.Add(time.Since(clockBase)) }

// drawTimed is the draw of split.TimedOneIn: random bits from a generator of the
// calling thread (math/rand/v2's top-level functions share no state between
// callers). Tests set it.
var drawTimed = rand.Uint32

// prefix folds [0, hi) alone into the caller's run, in the chunks that
// split.Prefix plans, reading clock once a chunk and once at the end (or
// not at all, for most calls planned as one chunk: split.TimedOneIn), and returns
// that run and the prefix's plan. hi is n when the whole range was done,
// or the call was settled or stopped at hi. The first chunk is sized by the
// pace that the call's site measured before (site.go), and the pace this
// prefix measures is left there for the next call. The prefix is warm
// (split.Prefix.Warm) when a worker of the call's pool is spare as the call
// begins (split.Load.Spare), and goes on alone past its end
// (split.Prefix.Stay) while the pool has no processor to share its rest
// with (alone). A chunk that ends where the work done has covered a
// stretch takes it in (call.cover, split.Prefix.Cover).
func prefix[A any](cfg *Config, n int, c *call[A], clock func() time.Time) (r run[A], hi int, pf split.Prefix) {
	if n < 2*max(1, cfg.MinLen) {
		c.fold(&r, nil, 0, n) // one chunk whatever the pace: nothing to time or learn
		return r, n, pf
	}
	st := siteOf(c.siteKey())
	expect, pf, short := plan(cfg, st, n)
	if short {
		// Known to be short: one chunk, timed only if drawn (One).
		one := drawOne(st, clock)
		c.fold(&r, nil, 0, n)
		hi = c.cover(&r, nil, n, n)
		one.end(hi, clock)
		return r, hi, pf
	}
	var pool *sched.Pool
	if expect.D == 0 {
		// Before the clock starts: with no pace, the first chunk is one
		// element, and the lookup of the default pool is not the body's time.
		pool = cfg.Lookup()
	}
	pf.Begin(clock())
	if pf.End() < n {
		// A call that may outlast its first chunk counts among its pool's
		// calls in progress (split.Load.Spare), hands over a rest long
		// enough to hide that pool's wake-up, and is warm if the pool has a
		// spare searcher (split.Prefix.Meet). With a pace, the lookup counts in the first
		// chunk's time. A warm first chunk is planned to time an eighth of
		// the warm look, and the first elements of a range may be cheaper than
		// the rest (W2's are): looked up before the clock started, such a
		// chunk timed short of its eighth and took a second one before the
		// hand-over (W2's body over 1,000 elements from one caller, W11 of
		// go run ./bench: 1.40 of the loop's speed, then 1.25-1.34).
		if pool == nil {
			pool = cfg.Lookup()
		}
		pool.Arrive(1)
		defer pool.Arrive(-1)
		pf.Meet(pool.Load())
	}
	c.fold(&r, nil, 0, pf.End())
	hi = c.cover(&r, nil, pf.End(), n)
	pf.Cover(hi)
	for {
		if hi == n || c.done(hi) {
			if st.slot != nil {
				st.learn(pf.Measured(clock()), true)
			}
			return r, hi, pf
		}
		now := clock()
		if !pf.Next(now) {
			if pool == nil || !pf.Alone(pool.Load()) {
				st.learn(pf.Measured(now), false)
				lc := pf.LastChunk(now)
				r.n, r.d, r.at = lc.N, lc.D, now
				return r, hi, pf
			}
			pf.Stay(now)
		}
		lo := hi
		c.fold(&r, nil, lo, pf.End())
		hi = c.cover(&r, nil, pf.End(), n)
		pf.Cover(hi)
	}
}

// plan returns the pace of st and the prefix that this pace plans for a
// call of n elements before the clock starts (split.Prefix.Expect), and
// whether that prefix is the whole call; a call that st's settled record
// says is short is told so at once (site.short), with no plan.
func plan(cfg *Config, st site, n int) (expect split.Pace, pf split.Prefix, short bool) {
	if st.short(n) {
		return expect, pf, true
	}
	expect = st.pace()
	pf = split.NewPrefix(n, cfg.MinLen, time.Time{})
	pf.Expect(expect)
	return expect, pf, pf.End() == n
}

// OneChunk is a call that runs on its caller as one chunk (One), timed if
// its draw chose it: its site then learns the call's pace.
type OneChunk struct {
	st    site // the call's site if the call is timed, or the zero site
	start time.Time
}

// drawOne draws whether a call of site st that its plan says is short times
// itself: one call in split.TimedOneIn does, from clock's reading now.
func drawOne(st site, clock func() time.Time) OneChunk {
	if drawTimed()%split.TimedOneIn != 0 {
		return OneChunk{}
	}
	return OneChunk{st: st, start: clock()}
}

// End tells the call's site, if the call is timed, that its n elements are
// done.
func (o *OneChunk) End(n int) { o.end(n, monotonic) }

func (o *OneChunk) end(hi int, clock func() time.Time) {
	if o.st.slot != nil {
		o.st.learn(split.Pace{N: hi, D: clock().Sub(o.start)}, true)
	}
}

// Settled reports whether a call of n elements is decided without its
// site (decided), and if so whether it runs on the caller as one chunk
// untimed (one): a call observed by labels or a trace, or whose work done
// covers stretches (Config.Covered), never is, one with a grain is if n is
// no longer, and one too short to cut always is. The
// site's key, a call through reflect (some 4 ns), is then never read.
func Settled(cfg *Config, n int) (decided, one bool) {
	switch {
	case cfg.Labels != nil || cfg.Covered != nil || trace.IsEnabled():
		return true, false
	case cfg.Grain > 0:
		return true, n <= cfg.Grain
	}
	return n < 2*max(1, cfg.MinLen), true
}

// One reports whether a call of n elements whose site is key, and that
// Settled left undecided, runs on the caller as one chunk with nothing to
// observe, as Run would run it, and returns that chunk, timed or not as Run
// would draw it. It decides before the call builds its work, so that a
// function whose fold wraps the user's function in a closure (par's For,
// Map, ForEach, MapReduce, Reduce, Count) runs its loop without making one:
// the closure, which a fork's heap copy of the call keeps, costs an
// allocation, and a timed call that built it paid twice what timing costs
// (MapReduce of W2's body over 100 elements, BenchmarkSmallCallW2 with
// TimedOneIn = 1: 6% behind its floor, and 3% without the closure;
// untimed, 1%).
func One(cfg *Config, key uintptr, n int) (OneChunk, bool) {
	st := siteOf(key)
	if _, _, short := plan(cfg, st, n); !short {
		return OneChunk{}, false
	}
	return drawOne(st, monotonic), true
}

// siteKey returns the key of the call's site (see site.go), or 0 for a call
// whose covered stretches make a pace per element meaningless.
func (c *call[A]) siteKey() uintptr {
	if c.w.Covered != nil {
		return 0
	}
	switch {
	case c.w.Key != 0:
		return c.w.Key
	case c.w.Leaf != nil:
		return SiteKey(c.w.Leaf)
	}
	return SiteKey(c.w.Fold)
}

// parallel folds [lo, hi) into r on the call's pool, cut as split.ForRange
// says for a range that the pool's workers and the caller work on, with
// leaves bounded by the prefix's pace (the zero Pace: none) and pieces by
// the pool's wake-up, and returns the caller's run.
func parallel[A any](cfg *Config, lo, hi int, c *call[A], pace split.Pace, r run[A]) run[A] {
	cfg.Run(func(w *sched.Worker) {
		pool := w.Pool()
		workers, wake := pool.Workers(), pool.Load().Wake
		if c.w.Reuse {
			c.spare = newSpares[A](workers)
		}
		sp := split.ForRange(workers+1, hi-lo, cfg.MinLen, cfg.Grain, pace, wake)
		if c.w.Leaf != nil {
			sp = split.ForWhole(workers+1, hi-lo, cfg.MinLen, cfg.Grain, pace, wake)
		}
		if c.w.Tree {
			r = run[A]{acc: c.tree(w, lo, hi, sp, false), live: true}
			return
		}
		r = c.reduce(w, lo, hi, sp, false, r)
	})
	return r
}

// RunOn folds [0, n) as work describes on w, a participant of cfg's pool
// that already holds a worker (a pool worker running a batch of a
// sequence), cut as sp says, and returns the accumulator of the range, or
// Init's (or the zero A) if nothing was folded.
func RunOn[A any](w *sched.Worker, cfg *Config, n int, work split.Work[A], sp split.Splitter) A {
	c := &call[A]{w: work}
	if cfg.Labels != nil {
		c.obs = &callObs{labels: cfg.Labels}
	}
	if work.Reuse {
		c.spare = newSpares[A](w.Pool().Workers())
	}
	if work.Tree {
		return c.tree(w, 0, n, sp, false)
	}
	r := c.reduce(w, 0, n, sp, false, run[A]{})
	if !r.live && work.Init != nil {
		return work.Init()
	}
	return r.acc
}
