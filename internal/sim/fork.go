package sim

import (
	"math"
	"time"

	"github.com/weftgo/weft/split"
)

// W4: a recursion that forks at every level (par.Join2), as heartbeat
// scheduling runs it (internal/sched's fork.go, split.Fork). A fork whose
// participant is not asked and that lies below the recorded levels is a
// plain call; the first split.RecordDepth levels of a participant's
// recursion record their second half privately, and a participant that is
// asked (a hungry participant or the heartbeat, once split.Period has
// passed since it began or last promoted) lets split.Fork decide what to
// record and whether to push the oldest pending record for a thief. A
// thief runs what it took as a recursion of its own.
//
// The simulator runs the forks one by one down to subtrees of fibGrain of
// work, which it charges whole: an ask waits at most that long for the
// next fork to see it.

// fibGrain is the work below which a subtree, under the recorded levels,
// runs as one charge of the clock.
const fibGrain = 1000 // ns

// forkState is a participant's recursion: sched's forks.
type forkState struct {
	depth     int    // records on the stack
	pend      []*job // records whose first half runs, oldest first
	promoted  int    // pend[:promoted] were pushed
	since     int64  // when the recursion began or last promoted
	notBefore int64  // when it may next be asked; 0: no recursion runs
	base      int    // with Config.Rerecord: the depth of the last promotion
}

// recursion is fib's cost model: a call of the plain recursion costs
// perCall.
type recursion struct {
	s        *Sim
	perCall  float64
	period   int64
	rerecord bool
}

// calls returns the calls of fib(n)'s recursion: 2*fib(n+1)-1.
func calls(n int) float64 {
	a, b := 0.0, 1.0
	for range n + 1 {
		a, b = b, a+b
	}
	return 2*a - 1
}

// asked reports whether w's recursion is asked now: its time has come,
// and a participant is hungry or the heartbeat, which beats every period
// while a recursion runs, has beaten since.
func (rc *recursion) asked(w *part) bool {
	f := &w.fk
	now := rc.s.now
	return f.notBefore > 0 && f.depth > 0 && now >= f.notBefore && (rc.s.hungry() || now >= f.notBefore+rc.period)
}

// rec runs fib(n) on w.
func (rc *recursion) rec(w *part, n int) {
	f := &w.fk
	cost := calls(n) * rc.perCall
	depth := f.depth - f.base // the levels split.Fork counts
	if n < 2 || cost <= fibGrain && depth >= split.RecordDepth {
		w.advance(int64(math.Round(cost)))
		return
	}
	asked := rc.asked(w)
	if depth >= split.RecordDepth && !asked {
		w.advance(int64(math.Round(rc.perCall)))
		rc.rec(w, n-2)
		rc.rec(w, n-1)
		return
	}
	s := rc.s
	age := time.Duration(s.now - f.since)
	plan := split.Fork(depth, len(f.pend)-f.promoted, asked, age, time.Duration(rc.period), s.procs)
	var j *job
	if plan.Record {
		j = &job{fib: n - 1, rec: rc}
		if f.depth == 0 {
			f.since, f.notBefore = s.now, s.now+rc.period
		}
		f.depth++
		f.pend = append(f.pend, j)
	}
	if plan.Promote {
		rc.promote(w)
		if rc.rerecord {
			f.base = f.depth
		}
	}
	w.advance(int64(math.Round(rc.perCall)))
	rc.rec(w, n-2)
	if j == nil {
		rc.rec(w, n-1)
		return
	}
	rc.unpend(w, j)
	if !j.pushed || w.finish(j) {
		rc.rec(w, n-1)
	}
	if f.depth--; f.depth == 0 {
		f.notBefore = 0
	}
	f.base = min(f.base, f.depth)
}

// promote pushes w's oldest pending record for thieves.
func (rc *recursion) promote(w *part) {
	f := &w.fk
	if f.promoted == len(f.pend) {
		return
	}
	j := f.pend[f.promoted]
	f.promoted++
	j.pushed = true
	w.advance(int64(rc.s.m.Fork))
	w.push(j)
	f.since = rc.s.now
	f.notBefore = f.since + rc.period
}

// unpend removes j, and any record above it, from w's pending records.
func (rc *recursion) unpend(w *part, j *job) {
	f := &w.fk
	i := len(f.pend) - 1
	for i >= 0 && f.pend[i] != j {
		i--
	}
	if i < 0 {
		return
	}
	clear(f.pend[i:])
	f.pend = f.pend[:i]
	f.promoted = min(f.promoted, i)
}

// runJob runs a record that w took as a recursion of its own.
func (rc *recursion) runJob(w *part, j *job) { rc.rec(w, j.fib) }

// Fib simulates fib(n) with a fork at every level (W4) from one caller on
// a parked pool, a call of the plain recursion costing perCall
// nanoseconds, the fork that nobody asks the same. T1 is the plain
// recursion's time and Tinf its depth; Forks are the promotions.
func Fib(cfg Config, n int, perCall float64) Result {
	s := newSim(cfg, 1)
	ps := s.startWorkers()
	caller := s.parts[s.workers]
	period := split.Period(cfg.Machine.Fork)
	if cfg.ForkPeriod > 0 {
		period = cfg.ForkPeriod
	}
	rc := &recursion{s: s, perCall: perCall, period: int64(period), rerecord: cfg.Rerecord}
	var r Result
	caller.p = s.start(0, func() {
		s.nextID++
		caller.callID = s.nextID
		s.calls++
		caller.noteWork()
		rc.rec(caller, n)
		s.calls--
		r = Result{P: s.procs, T: time.Duration(s.now), T1: time.Duration(calls(n) * perCall),
			Tinf: time.Duration(float64(n) * perCall), Forks: s.pushes, Steals: s.steals, Wakes: s.wakes}
		for _, x := range s.parts {
			r.Busy += time.Duration(x.busy)
			if x.first >= 0 {
				r.Worked++
				r.Ramp = max(r.Ramp, time.Duration(x.first))
			}
		}
		s.done = true
	})
	s.run(append(ps, caller.p))
	return r
}
