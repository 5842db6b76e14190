package sim

import (
	"time"

	"github.com/weftgo/weft/split"
)

// The engine's glue, as internal/engine runs a call (start.go, reduce.go),
// on simulated participants: the timed prefix that split.Prefix plans, the
// cut of the rest by split.ForRange's Splitter (TrySplit), the forks, and
// the leaves that run in the steps of FirstStep and NextStep and
// give half of what they have left to a hungry participant (CanHalve,
// WorthHalving). Every decision is split's own function, called with the
// simulated signals: the virtual clock's readings, the deque's length, the
// pool's hunger. What internal/engine does between split's rules (a site's
// record, the pool's counts as a split.Load) is in adapter.go.

// run is what a participant carries from one step of a run to the next,
// as the engine's run: where its last step ended and that step's pace.
type run struct {
	live bool
	end  int
	n    int
	d    time.Duration
	at   time.Time
}

func (r *run) adjacent(lo int) bool { return r.live && r.end == lo && r.d > 0 }

// merge is the engine's merge of two adjacent runs: right's end, no pace.
func merge(left, right run) run {
	if !right.live {
		return left
	}
	right.d = 0
	return right
}

// call is one call over a load.
type call struct {
	s      *Sim
	id     int
	load   Load
	minLen int
	site   *site
	caller *part

	folded int      // elements folded
	short  bool     // its prefix handed over a short rest (split.Prefix.Long)
	forks  int      // cuts pushed
	spans  [][2]int // what was folded, when the simulation checks it
	start  int64
	end    int64
}

// fold charges the elements [lo, hi) and a step's cost to w.
func (c *call) fold(w *part, r *run, lo, hi int) {
	if hi <= lo {
		return
	}
	w.noteWork()
	w.advance(c.load.cost(lo, hi) + int64(c.s.m.Step))
	w.last = c.s.now
	r.live, r.end = true, hi
	c.folded += hi - lo
	w.runs++
	if c.s.check {
		c.spans = append(c.spans, [2]int{lo, hi})
	}
}

// read is a read of the clock: it costs Clock.
func (w *part) read() time.Time {
	w.advance(int64(w.s.m.Clock))
	return w.s.time()
}

// run is the engine's start: the prefix alone, then the rest on the pool.
func (c *call) run(w *part) {
	s := c.s
	c.start = s.now
	c.caller = w
	w.callID = c.id
	w.advance(int64(s.m.Call))
	r, hi, pf := c.prefix(w)
	if hi < c.load.N {
		c.short = !pf.Long()
		c.parallel(w, hi, c.load.N, split.SplitPace(pf.Pace(), pf.Expected()), r)
	}
	c.end = s.now
}

// prefix is the engine's prefix: chunks that split.Prefix plans, timed by
// the virtual clock, until Next says the rest goes to the pool and alone
// does not keep it on the caller.
func (c *call) prefix(w *part) (r run, hi int, pf split.Prefix) {
	s := c.s
	n := c.load.N
	if n < 2*max(1, c.minLen) {
		c.fold(w, &r, 0, n)
		return r, n, pf
	}
	expect, pf, short := plan(c.site, n, c.minLen)
	if short {
		timed := s.draw.Uint32()%split.TimedOneIn == 0
		var t0 time.Time
		if timed {
			t0 = w.read()
		}
		c.fold(w, &r, 0, n)
		if timed {
			c.site.learn(split.Pace{N: n, D: w.read().Sub(t0)}, true)
		}
		return r, n, pf
	}
	_ = expect
	pf.Begin(w.read())
	if pf.End() < n {
		s.early++
		defer func() { s.early-- }()
		pf.Meet(s.load())
	}
	c.fold(w, &r, 0, pf.End())
	hi = pf.End()
	for {
		if hi == n {
			c.site.learn(pf.Measured(w.read()), true)
			return r, hi, pf
		}
		now := w.read()
		if !pf.Next(now) {
			if !pf.Alone(s.load()) {
				c.site.learn(pf.Measured(now), false)
				lc := pf.LastChunk(now)
				r.n, r.d, r.at = lc.N, lc.D, now
				return r, hi, pf
			}
			pf.Stay(now)
		}
		c.fold(w, &r, hi, pf.End())
		hi = pf.End()
	}
}

// parallel runs [lo, hi) on the pool from w's seat, cut as split.ForRange
// (or, for whole leaves, split.ForWhole) says for the pool's workers and
// the caller and the pool's wake-up.
func (c *call) parallel(w *part, lo, hi int, pace split.Pace, r run) run {
	s := c.s
	w.advance(int64(s.m.Seat))
	s.calls++
	defer func() { s.calls-- }()
	wake := s.load().Wake
	sp := split.ForRange(s.workers+1, hi-lo, c.minLen, 0, pace, wake)
	if c.load.Whole {
		sp = split.ForWhole(s.workers+1, hi-lo, c.minLen, 0, pace, wake)
	}
	return c.reduce(w, lo, hi, sp, false, r)
}

// reduce is the engine's: cut while sp allows, else a leaf.
func (c *call) reduce(w *part, lo, hi int, sp split.Splitter, stolen bool, r run) run {
	if !sp.TrySplit(hi-lo, stolen) {
		if !c.load.Whole && sp.Step(hi-lo) < hi-lo {
			return c.leaf(w, lo, hi, sp, r)
		}
		c.fold(w, &r, lo, hi)
		return r
	}
	return c.fork(w, lo, lo+(hi-lo)/2, hi, sp, r) // never crowded (split.RecordDepth)
}

// fork pushes [mid, hi) and folds [lo, mid), then takes the half back or
// waits for its thief.
func (c *call) fork(w *part, lo, mid, hi int, sp split.Splitter, r run) run {
	j := &job{lo: mid, hi: hi, sp: sp, c: c, short: c.short}
	w.advance(int64(c.s.m.Fork))
	c.forks++
	w.push(j)
	r = c.reduce(w, lo, mid, sp, false, r)
	if w.finish(j) {
		return c.reduce(w, mid, hi, sp, false, r)
	}
	return merge(r, j.res)
}

// leaf is the engine's: steps that split sizes, a look for hunger between
// two steps, and half of the rest forked for a hungry participant.
func (c *call) leaf(w *part, lo, hi int, sp split.Splitter, r run) run {
	s := c.s
	var before split.Pace
	var t time.Time
	if r.adjacent(lo) {
		before = split.Pace{N: r.n, D: r.d}
		t = r.at
	} else {
		t = w.read()
	}
	step := sp.FirstStep(hi-lo, before)
	c.fold(w, &r, lo, lo+step)
	cur := lo + step
	for {
		now := w.read()
		el := now.Sub(t)
		if el > 0 {
			r.n, r.d, r.at = step, el, now
		}
		if cur >= hi {
			return r
		}
		last := step
		step = sp.NextStep(step, el, hi-cur)
		t = now
		if w.unstolen() == 0 && s.hungry() && sp.CanHalve(hi-cur) && sp.WorthHalving(hi-cur, last, el) {
			return c.fork(w, cur, cur+(hi-cur)/2, hi, sp, r)
		}
		c.fold(w, &r, cur, cur+step)
		cur += step
	}
}
