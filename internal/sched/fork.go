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
// open calls Record, which looks (look) and asks the planner (split.Fork)
// what to do: record this fork, promote the oldest recorded fork that is
// still pending (promote: the one with the most work left), or neither.
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
	// GateRecord is the owner's: its next fork should record (open).
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
	young    bool   // the recursion is w's own and has not promoted (split.Looks)

	plan   split.ForkPlan // look's, for record
	period time.Duration  // look's split.Period, for record
}

// heartbeat is a pool's timer that asks the participants inside a recursion
// for work on behalf of its parked workers, and the figures it runs by.
type heartbeat struct {
	timer      atomic.Pointer[time.Timer] // created by the first recursion; then reset
	beating    atomic.Bool                // the timer is set or running
	recursions atomic.Int32               // participants inside a recursion
	period     atomic.Int64               // ns: the last period the planner gave (Record)
	cost       atomic.Int64               // ns: a moving average of what a promotion costs its promoter
}

// ask asks w's participant for work, as a hungry participant or the
// heartbeat does: its gate stays open until its owner's next fork looks.
// Any goroutine.
func (w *Worker) ask() {
	if atomic.LoadUint32(&w.gate)&GateAsk == 0 { // a load first keeps the line shared
		atomic.OrUint32(&w.gate, GateAsk) // the owner's next fork sees it
	}
}

// Step is what a fork that found its gate open does (Record).
type Step uint8

const (
	// Recorded: the fork was recorded, or, as a recursion's first fork on
	// one processor, closed the gate to run alone; either way Record
	// returned its record, and the fork joins and ends it (Rec.Join,
	// Rec.End).
	Recorded Step = iota
	// Plain: the fork runs its halves as plain calls, the second first.
	Plain
	// Foreign: the calling goroutine does not own w (Worker.Mine), and
	// nothing of w was touched.
	Foreign
)

// look is the look of a fork that found its gate open: it checks that the
// calling goroutine owns w, takes the gate's ask, and asks the planner
// (split.Fork). A fork the planner does not record is done with here (its
// promotion and the gate as the plan says); one it records, or the first
// fork of a recursion that records nothing, leaves the plan for record.
// Owner only.
func (w *Worker) look() Step {
	if !w.Mine() { // before anything of w is touched: its records and deque are its owner's
		return Foreign
	}
	f := &w.fk
	p := w.pool
	// Only a fork that may promote needs the period and the ask: one that
	// begins a recursion (its start and first moment to be asked), one in
	// a taken piece (Spreads), and one whose gate holds an ask. Below a
	// recursion's first fork, with no ask, split.Fork reads neither.
	var period, age time.Duration
	asked := false
	if f.depth == 0 || f.took || atomic.LoadUint32(&w.gate)&GateAsk != 0 { // the owner's and askers' bits; orders nothing
		period = split.Period(time.Duration(p.beat.cost.Load()), time.Duration(p.wakeUp.Load())) // figures; order nothing
		asked, age = w.asked(period)
	}
	depth := f.depth - f.base
	plan := split.Fork(depth, len(f.pend)-f.promoted, asked, age, period, int(p.procs))
	if plan.Record || depth == 0 {
		f.plan, f.period = plan, period
		return Recorded
	}
	if plan.Promote {
		w.promote(period)
	}
	w.open(plan.Look)
	return Plain
}

// asked takes the gate's ask, if any, and reports whether the fork counts
// as asked and, if so, its recursion's age. An ask found by the first fork
// of a recursion is stale: it was meant for the participant's previous
// work. A fork of a recursion that runs in a taken job counts as asked,
// with its age at least period, while the planner says it spreads
// (split.Spreads). Owner only.
func (w *Worker) asked(period time.Duration) (asked bool, age time.Duration) {
	f := &w.fk
	p := w.pool
	if atomic.LoadUint32(&w.gate)&GateAsk != 0 { // the asker's Or; orders nothing else
		atomic.AndUint32(&w.gate, ^GateAsk)
		if f.depth > 0 {
			asked = true
			age = time.Duration(p.now() - f.since)
		}
	}
	if f.depth > 0 && f.took && split.Spreads(f.took, p.sleeping(), int(p.procs), p.cpus) { // took first: spares the load
		if !asked {
			asked = true
			age = time.Duration(p.now() - f.since)
		}
		age = max(age, period)
	}
	return asked, age
}

// open sets or clears GateRecord: whether the owner's next fork looks even
// if nobody asks. Owner only.
func (w *Worker) open(on bool) {
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

// record acts on the plan look left for j's fork, whose first half is about
// to run: it makes j pending, private until promote pushes it, promotes as
// the plan says, and sets the gate for the forks below; or, for a
// recursion's first fork that records nothing, it closes the gate until
// the fork ends. Owner only.
func (w *Worker) record(j *Job) {
	f := &w.fk
	if !f.plan.Record {
		j.kind = forkAlone
		w.open(false)
		return
	}
	j.kind = forkRecorded
	if f.depth == 0 {
		w.beginRecursion(f.period)
	}
	f.depth++
	j.forking = true
	j.pushed = false // a reused record's fork may have ended in a re-raised panic
	f.pend = append(f.pend, j)
	if f.plan.Promote {
		w.promote(f.period)
	}
	w.open(f.plan.Look)
}

// beginRecursion notes the start of a recursion on w: its clock for the
// planner's age, its first moment to be asked, and the heartbeat.
func (w *Worker) beginRecursion(period time.Duration) {
	p := w.pool
	w.fk.since = p.now() - int64(split.StartAge(w.fk.took, period))
	w.fk.young = !w.fk.took
	w.notBefore.Store(w.fk.since + int64(period)) // read by askers; orders nothing
	if p.beat.period.Load() != int64(period) {    // the store is a locked instruction, and the period seldom moves
		p.beat.period.Store(int64(period)) // a figure for the timer; orders nothing
	}
	p.beat.recursions.Add(1) // before the timer's check: see tick
	if !p.beat.beating.Load() && p.beat.beating.CompareAndSwap(false, true) {
		p.arm(period)
	}
}

// promote pushes the oldest pending record, if any, for thieves, and
// reports whether it did. period is the planner's time between promotions
// on this pool: w may be asked again a period from now. Owner only.
func (w *Worker) promote(period time.Duration) bool {
	f := &w.fk
	if f.promoted == len(f.pend) {
		return false
	}
	p := w.pool
	t := p.now()
	j := f.pend[f.promoted]
	f.promoted++
	j.pushed = true
	w.push(j, true)
	f.base = f.depth // the records below count anew (split.Fork's depth)
	f.young = false
	f.since = p.now()
	d := f.since - t
	c := p.beat.cost.Load()
	p.beat.cost.Store(c + (d-c)/8) // a moving average; lossy between promoters, and orders nothing
	w.promoted++
	w.notBefore.Store(f.since + int64(period)) // read by askers; orders nothing
	return true
}

// settle ends the half of j's recorded fork that ran first, normally: it
// reports true if j is still w's to run (never promoted, or taken back
// unstolen), and the caller runs j's half itself; or it waits for the thief
// that took j and reports false, re-raising the thief's panic (see finish).
// Owner only.
func (w *Worker) settle(j *Job) bool {
	w.unpend(j)
	if !j.pushed {
		j.forking = false
		w.local.inline++
		return true
	}
	inline := w.finish(j) // cut short by a Goexit, it leaves forking and pushed for unrecord
	j.pushed = false
	return inline
}

// unrecord is the end of a recorded fork, on every exit of its frame: a
// fork cut short before settle (a panic or runtime.Goexit in the half that
// ran first) takes j back or waits for its thief (see done). It returns the
// records left on the stack since the recursion began or last promoted
// (split.Fork's depth). Owner only.
func (w *Worker) unrecord(j *Job) int {
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
		f.young = false                // the gate opens for the next recursion
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
	w.open(true)
	return outer, notBefore
}

// dropForks ends the recursion takeForks began, whose records are all
// settled, and resumes outer's. Owner only.
func (w *Worker) dropForks(outer forks, notBefore int64) {
	open := w.fk.open
	w.fk = outer
	w.fk.open = open
	w.open(outer.open)
	if outer.depth > 0 {
		w.notBefore.Store(notBefore) // read by askers; orders nothing
	}
}

// unpend removes j, and any record above it whose frame ended without
// unrecord (a deferred call cut short by runtime.Goexit), from the pending
// records, if j is there. Owner only.
func (w *Worker) unpend(j *Job) {
	f := &w.fk
	i := len(f.pend) - 1
	for i >= 0 && f.pend[i] != j {
		i--
	}
	if i < 0 {
		return // taken out already, by settle
	}
	clear(f.pend[i:])
	f.pend = f.pend[:i]
	f.promoted = min(f.promoted, i)
}

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
		v.ask()
	}
}
