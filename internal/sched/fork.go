package sched

import (
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/split"
)

// Forks of a recursion (package par's Join2) at the cost of a call: the
// heartbeat scheduling of Acar, Charguéraud and Rainey (PLDI 2018), in the
// form Go allows. A fork loads one word, the participant's gate, and while it
// is zero runs its two halves as plain calls. The gate opens for two reasons:
// the participant's recursion wants its fork recorded (the planner keeps the
// first few levels of each recursion recorded, its oldest and largest forks),
// or another participant asked for work (GateAsk). A fork that finds the gate
// open looks (Look), and package par asks the planner (split.Fork) what to
// do: record this fork (Record), promote the oldest recorded fork that is
// still pending (Promote: the one with the most work left), or neither.
//
// A record is private until promoted: it costs no fence and no wake-up, and
// no thief can see it, so a small call runs alone. Promotion pushes it on the
// deque, where thieves find it as they find any job. Asks come from hungry
// participants (a searching pool worker, a participant waiting for a stolen
// half) and, for the workers that are parked, from the pool's heartbeat, a
// timer that runs only while some participant is inside a recursion. A
// participant publishes when it may next be asked (notBefore); what it
// decides when asked is the planner's.

// Gate bits.
const (
	// GateRecord is the owner's: its next fork should record (Open).
	GateRecord uint32 = 1 << iota
	// GateAsk is set by a hungry participant or the heartbeat: promote.
	GateAsk
)

// forks is a participant's state of the recursion it runs. Owner only.
type forks struct {
	pend     []*Job // records whose fork runs its other half, oldest first
	promoted int    // pend[:promoted] were pushed
	depth    int    // records on the stack, run or not
	base     int    // of them, those made before the last promotion
	since    int64  // p.now() when the recursion began or last promoted
	open     bool   // GateRecord is set
	took     bool   // the recursion runs in a job taken from another (execute)
}

// heartbeat is a pool's timer that asks the participants inside a recursion
// for work on behalf of its parked workers, and the figures it runs by.
type heartbeat struct {
	timer      atomic.Pointer[time.Timer] // created by the first recursion; then reset
	beating    atomic.Bool                // the timer is set or running
	recursions atomic.Int32               // participants inside a recursion
	period     atomic.Int64               // ns: the last period the planner gave (Record)
	cost       atomic.Int64               // ns: a moving average of what a promotion costs its promoter
	promotions atomic.Uint64              // promotions made, for tests and benchmarks
}

// Gate returns the word a fork loads, with sync/atomic, to choose its path:
// zero means plain calls. The owner loads it; other goroutines set GateAsk.
func (w *Worker) Gate() *uint32 { return &w.gate }

// ForkLook is what a fork learns when it finds its gate open (Look).
type ForkLook struct {
	Depth   int           // records on the stack since the recursion began or last promoted
	Pending int           // of them, those not run yet and not promoted
	Asked   bool          // another participant or the heartbeat asked for work
	Age     time.Duration // since the recursion began or last promoted; only if Asked
	Cost    time.Duration // what a promotion costs its promoter on this pool
	Procs   int           // the pool's processors (GOMAXPROCS when it started)
}

// Look takes the gate's ask, if any, and returns the fork's signals. An ask
// found by the first fork of a recursion is stale: it was meant for the
// participant's previous work. A fork of a recursion that runs in a taken
// job counts as asked, with its age at least a period, while the planner
// says it spreads (split.Spreads). Owner only.
func (w *Worker) Look() ForkLook {
	f := &w.fk
	p := w.pool
	l := ForkLook{Depth: f.depth - f.base, Pending: len(f.pend) - f.promoted, Procs: int(p.procs),
		Cost: time.Duration(p.beat.cost.Load())} // a figure; orders nothing
	if atomic.LoadUint32(&w.gate)&GateAsk != 0 { // the asker's Or; orders nothing else
		atomic.AndUint32(&w.gate, ^GateAsk)
		if f.depth > 0 {
			l.Asked = true
			l.Age = time.Duration(p.now() - f.since)
		}
	}
	if f.depth > 0 && split.Spreads(f.took, p.Sleeping(), int(p.procs), p.cpus) {
		if !l.Asked {
			l.Asked = true
			l.Age = time.Duration(p.now() - f.since)
		}
		l.Age = max(l.Age, split.Period(l.Cost))
	}
	return l
}

// Open sets or clears GateRecord: whether the owner's next fork looks even
// if nobody asks. Owner only.
func (w *Worker) Open(on bool) {
	if on == w.fk.open {
		return
	}
	w.fk.open = on
	if on {
		atomic.OrUint32(&w.gate, GateRecord) // the owner's own bit; orders nothing
	} else {
		atomic.AndUint32(&w.gate, ^GateRecord)
	}
}

// Record makes j, the record of a fork whose other half is about to run,
// pending: private, until Promote pushes it. j is initialized with w as its
// owner (see Begin). period is the planner's time between promotions on this
// pool; the first record of a recursion starts the heartbeat with it. Owner
// only.
func (w *Worker) Record(j *Job, period time.Duration) {
	f := &w.fk
	if f.depth == 0 {
		w.beginRecursion(period)
	}
	f.depth++
	j.forking = true
	j.pushed = false // a reused record's fork may have ended in a re-raised panic
	f.pend = append(f.pend, j)
}

// beginRecursion notes the start of a recursion on w: its clock for the
// planner's age, its first moment to be asked, and the heartbeat.
func (w *Worker) beginRecursion(period time.Duration) {
	p := w.pool
	w.fk.since = p.now() - int64(split.StartAge(w.fk.took, period))
	w.notBefore.Store(w.fk.since + int64(period)) // read by askers; orders nothing
	p.beat.period.Store(int64(period))            // a figure for the timer; orders nothing
	p.beat.recursions.Add(1)                      // before the timer's check: see tick
	if !p.beat.beating.Load() && p.beat.beating.CompareAndSwap(false, true) {
		p.arm(period)
	}
}

// Promote pushes the oldest pending record, if any, for thieves, and
// reports whether it did. period is as for Record: w may be asked again a
// period from now. Owner only.
func (w *Worker) Promote(period time.Duration) bool {
	f := &w.fk
	if f.promoted == len(f.pend) {
		return false
	}
	p := w.pool
	t := p.now()
	j := f.pend[f.promoted]
	f.promoted++
	j.pushed = true
	w.Push(j)
	f.base = f.depth // the records below count anew (split.Fork's depth)
	f.since = p.now()
	d := f.since - t
	c := p.beat.cost.Load()
	p.beat.cost.Store(c + (d-c)/8) // a moving average; lossy between promoters, and orders nothing
	p.beat.promotions.Add(1)
	w.notBefore.Store(f.since + int64(period)) // read by askers; orders nothing
	return true
}

// Settle ends the half of j's fork that ran first, normally: it reports
// true if j is still w's to run (never promoted, or taken back unstolen), and
// the caller runs j's half itself; or it waits for the thief that took j
// and reports false, re-raising the thief's panic (see Finish). Owner only.
func (w *Worker) Settle(j *Job) bool {
	w.unpend(j)
	if !j.pushed {
		j.forking = false
		w.local.inline++
		return true
	}
	inline := w.Finish(j) // cut short by a Goexit, it leaves forking and pushed for Unrecord
	j.pushed = false
	return inline
}

// Unrecord is the deferred end of a recorded fork, on every exit of its
// frame: a fork cut short before Settle (a panic or runtime.Goexit in the
// half that ran first) takes j back or waits for its thief (see Done). The caller
// then clears j and gives it back (Put). It returns the records left on the
// stack since the recursion began or last promoted (split.Fork's depth).
// Owner only.
func (w *Worker) Unrecord(j *Job) int {
	if j.forking {
		w.unpend(j)
		if j.pushed {
			w.abandon(j)
			j.pushed = false
		}
		j.forking = false
	}
	f := &w.fk
	if f.depth--; f.depth == 0 {
		w.notBefore.Store(0)           // no longer to be asked; orders nothing
		w.pool.beat.recursions.Add(-1) // see tick
	}
	f.base = min(f.base, f.depth)
	return f.depth - f.base
}

// takeForks begins the forks of a job that w runs as a recursion of their
// own, whatever recursion w waits in (split's thief's recursion), took
// saying whether the job came from another (stolen or injected), and
// returns that one's state for dropForks. Owner only.
func (w *Worker) takeForks(took bool) (outer forks, notBefore int64) {
	outer = w.fk
	notBefore = w.notBefore.Load() // the owner's own store; orders nothing
	w.fk = forks{pend: outer.pend[len(outer.pend):], open: outer.open, took: took}
	w.Open(true)
	return outer, notBefore
}

// dropForks ends the recursion takeForks began, whose records are all
// settled, and resumes outer's. Owner only.
func (w *Worker) dropForks(outer forks, notBefore int64) {
	open := w.fk.open
	w.fk = outer
	w.fk.open = open
	w.Open(outer.open)
	if outer.depth > 0 {
		w.notBefore.Store(notBefore) // read by askers; orders nothing
	}
}

// unpend removes j, and any record above it whose frame ended without
// Unrecord (a deferred call cut short by runtime.Goexit), from the pending
// records, if j is there. Owner only.
func (w *Worker) unpend(j *Job) {
	f := &w.fk
	i := len(f.pend) - 1
	for i >= 0 && f.pend[i] != j {
		i--
	}
	if i < 0 {
		return // taken out already, by Settle
	}
	clear(f.pend[i:])
	f.pend = f.pend[:i]
	f.promoted = min(f.promoted, i)
}

// Promotions returns how many records the pool's participants promoted. Any
// goroutine.
func (p *Pool) Promotions() uint64 { return p.beat.promotions.Load() }

// arm starts the heartbeat's timer, beating set.
func (p *Pool) arm(period time.Duration) {
	t := p.beat.timer.Load() // stored before the timer first fired
	if t == nil {            // only the winner of beating creates it, once
		t = time.AfterFunc(time.Hour, p.tick)
		p.beat.timer.Store(t) // before the Reset below lets it fire: tick loads it
	}
	t.Reset(period)
}

// tick is the heartbeat: it asks every participant inside a recursion whose
// time has come, on behalf of the pool's parked workers, and beats again
// while some participant is inside a recursion. An idle pool has no timer
// set.
func (p *Pool) tick() {
	p.askAll(nil)
	d := time.Duration(p.beat.period.Load())
	t := p.beat.timer.Load()
	if p.beat.recursions.Load() > 0 {
		t.Reset(d)
		return
	}
	p.beat.beating.Store(false)
	// A recursion that began after the load above and saw beating set has
	// left it to us: look again after the store (sequential consistency).
	if p.beat.recursions.Load() > 0 && p.beat.beating.CompareAndSwap(false, true) {
		t.Reset(d)
	}
}

// askAll sets GateAsk on every participant but except that is inside a
// recursion and may be asked now. Any goroutine.
func (p *Pool) askAll(except *Worker) {
	if p.beat.recursions.Load() == 0 { // nobody to ask: spare the clock
		return
	}
	now := p.now()
	for _, v := range *p.table.Load() {
		if v == except {
			continue
		}
		if nb := v.notBefore.Load(); nb == 0 || now < nb { // its owner's store; orders nothing
			continue
		}
		if atomic.LoadUint32(&v.gate)&GateAsk == 0 { // a load first keeps the line shared
			atomic.OrUint32(&v.gate, GateAsk) // the owner's next fork sees it
		}
	}
}

// Forking reports whether j's fork is in progress: recorded (or begun) and
// not yet settled. In the deferred end of a fork, true means that the half
// run first was cut short by a panic or runtime.Goexit. Owner only.
func (j *Job) Forking() bool { return j.forking }
