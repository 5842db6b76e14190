package sim

import (
	"math"
	"time"

	"github.com/weftgo/weft/split"
)

// W4: a recursion that forks at every level (par.Join2), as heartbeat
// scheduling runs it (internal/sched's fork.go, split.Fork). A fork whose
// gate is closed is a plain call: below the recorded levels, and not asked.
// The first split.RecordDepth levels of a participant's recursion, counted
// from its last promotion, record their second half privately (the
// participant's own recursion before its first promotion, the first fork
// of each level alone: split.Looks), and a fork that looks (a recorded
// level, or an ask) takes the gate's ask and lets split.Fork decide what
// to record and whether to push the oldest pending record for a thief.
// Asks are sched's: a searching worker asks every split.LookEvery
// fruitless rounds, a waiting participant after every fruitless round, and
// the pool's heartbeat every period while a recursion runs (askAll), each
// only the participants whose period has passed since their recursion
// began or last promoted. A thief runs what it took as a recursion of its
// own, wherever it runs it, which begins split.StartAge old and spreads
// while workers are parked (split.Spreads). Config.OldForks weighs the
// rules before.
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
	base      int    // of them, those made before the last promotion
	pend      []*job // records whose first half runs, oldest first
	promoted  int    // pend[:promoted] were pushed
	since     int64  // when the recursion began or last promoted
	notBefore int64  // when it may next be asked; 0: no recursion runs
	took      bool   // the recursion runs in a piece taken from another
	young     bool   // the recursion is the participant's own and has not promoted
	shut      bool   // a recorded fork of the young recursion ended: the gate is closed (split.Looks)
}

// recursion is fib's cost model: a call of the plain recursion costs
// perCall.
type recursion struct {
	s       *Sim
	perCall float64
	fixed   int64 // Config.ForkPeriod, or 0
	cost    int64 // what a promotion costs its promoter, a moving average as sched's
	old     bool  // Config.OldForks
}

// period is split.Period of the promotions' cost and the machine's
// wake-up, as sched's fork look computes it, or Config.ForkPeriod.
func (rc *recursion) period() int64 {
	if rc.fixed > 0 {
		return rc.fixed
	}
	return int64(split.Period(time.Duration(rc.cost), rc.s.m.Wake))
}

// calls returns the calls of fib(n)'s recursion: 2*fib(n+1)-1.
func calls(n int) float64 {
	a, b := 0.0, 1.0
	for range n + 1 {
		a, b = b, a+b
	}
	return 2*a - 1
}

// rec runs fib(n) on w.
func (rc *recursion) rec(w *part, n int) {
	f := &w.fk
	cost := calls(n) * rc.perCall
	depth := f.depth - f.base // the levels split.Fork counts
	closed := (depth >= split.RecordDepth || f.shut) && !w.ask
	if n < 2 || cost <= fibGrain && closed {
		w.advance(int64(math.Round(cost)))
		return
	}
	if closed {
		w.advance(int64(math.Round(rc.perCall)))
		rc.rec(w, n-2)
		rc.rec(w, n-1)
		return
	}
	// As in sched's (*Worker).look, the ask is taken; one found by a recursion's first
	// fork is stale.
	s := rc.s
	period := time.Duration(rc.period())
	asked := w.ask && f.depth > 0
	w.ask = false
	f.shut = false // the look sets the gate as the plan says, by the depth
	age := time.Duration(s.now - f.since)
	if !rc.old && f.depth > 0 && split.Spreads(f.took, s.parked, s.procs, s.procs) {
		asked, age = true, max(age, period)
	}
	plan := split.Fork(depth, len(f.pend)-f.promoted, asked, age, period, s.procs)
	var j *job
	if plan.Record {
		j = &job{fib: n - 1, rec: rc}
		if f.depth == 0 {
			f.since = s.now
			if !rc.old {
				f.since -= int64(split.StartAge(f.took, period))
			}
			f.notBefore = f.since + int64(period)
			f.young = !f.took && !rc.old
		}
		f.depth++
		f.pend = append(f.pend, j)
	}
	if plan.Promote {
		rc.promote(w)
		if !rc.old {
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
		f.young = false
	}
	f.base = min(f.base, f.depth)
	f.shut = !split.Looks(f.depth-f.base, f.young) && f.depth-f.base < split.RecordDepth
}

// promote pushes w's oldest pending record for thieves, and times it with
// the unparks the push makes, as sched's promote does for split.Period.
func (rc *recursion) promote(w *part) {
	f := &w.fk
	if f.promoted == len(f.pend) {
		return
	}
	j := f.pend[f.promoted]
	f.promoted++
	j.pushed = true
	f.young = false
	t := rc.s.now
	w.advance(int64(rc.s.m.Fork))
	w.push(j)
	f.since = rc.s.now
	rc.cost += (f.since - t - rc.cost) / 8
	f.notBefore = f.since + rc.period()
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

// runJob runs a record that w took as a recursion of its own, wherever it
// runs (sched's takeForks); with Config.OldForks, inside a wait, as part of
// the recursion w waits in.
func (rc *recursion) runJob(w *part, j *job) {
	if rc.old {
		rc.rec(w, j.fib)
		return
	}
	outer := w.fk
	w.fk = forkState{took: j.owner != w, pend: outer.pend[len(outer.pend):]}
	rc.rec(w, j.fib)
	w.fk = outer
}

// Fib simulates fib(n) with a fork at every level (W4) from one caller on
// a parked pool, a call of the plain recursion costing perCall
// nanoseconds, the fork that nobody asks the same. T1 is the plain
// recursion's time and Tinf its depth; Forks are the promotions.
func Fib(cfg Config, n int, perCall float64) Result {
	s := newSim(cfg, 1)
	ps := s.startWorkers()
	caller := s.parts[s.workers]
	rc := &recursion{s: s, perCall: perCall, fixed: int64(cfg.ForkPeriod), old: cfg.OldForks}
	s.recursions = true
	// sched's heartbeat: every period while a recursion runs, it asks on
	// behalf of the parked workers.
	var beat *proc
	beat = s.start(rc.period(), func() {
		for {
			s.askAll(nil)
			beat.advance(rc.period())
		}
	})
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
				r.Start += time.Duration(x.first)
			} else if x.pool {
				r.Start += r.T
			}
		}
		s.done = true
	})
	s.run(append(ps, caller.p, beat))
	return r
}
