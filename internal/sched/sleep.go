package sched

import (
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/split"
)

// The sleep protocol: how workers park and are woken without losing a wake-up.
// README.md beside this file gives the argument in full.
//
// Pool.idle packs two counts: searching workers (low 32 bits) and parked pool
// workers (high 32 bits). Only the pool's own workers are counted; a seat waits
// for its own call alone.

// wakeReason is the token an unparked worker receives.
type wakeReason uint8

const (
	// wakeNone: the worker saw a reason to stay up before it parked.
	wakeNone wakeReason = iota
	// wakeWork: new work was pushed while nobody searched; the waker counted
	// the woken worker as searching, and the worker must stop searching later.
	wakeWork
	// wakeLatch: the job the worker waits for has finished.
	wakeLatch
	// wakeClose: the pool is closing.
	wakeClose
	// wakeLook: a job of the seat's call was pushed (see push).
	wakeLook
)

const sleeperOne = 1 << 32

// parkHook, when set by a test, runs just before a worker marks itself asleep
// (marked false) and between the mark and its last look for work (marked
// true): the two windows where a wake-up could be lost.
var parkHook atomic.Pointer[func(w *Worker, marked bool)]

// park marks w asleep, gives recheck a last look, and blocks until unparked.
// recheck must look at everything whose change comes with an unpark of w (new
// work for pool workers, the awaited job's latch): because w is marked asleep
// before recheck loads, a change made after recheck loads sees the mark and
// unparks w. Owner only.
func (w *Worker) park(recheck func() bool) wakeReason {
	p := w.pool
	h := parkHook.Load() // tests only
	if h != nil {
		(*h)(w, false)
	}
	w.asleep.Store(true) // before recheck: the other half of every unpark's load
	if w.isPool {
		p.idle.Add(sleeperOne) // before recheck, so a pusher that misses our recheck sees us
		w.local.parks++
	}
	if h != nil {
		(*h)(w, true)
	}
	if recheck() || (w.isPool && p.exiting()) {
		if w.asleep.CompareAndSwap(true, false) { // nobody unparked us: take the mark back
			if w.isPool {
				p.idle.Add(-sleeperOne)
			}
			return wakeNone
		}
		// An unpark won the mark and its token is on the way.
	}
	return <-w.wake
}

// unpark wakes w if it is parked or about to park, and reports whether it did.
// Any goroutine.
func (w *Worker) unpark(r wakeReason) bool {
	if !w.asleep.Load() || !w.asleep.CompareAndSwap(true, false) { // the winner owns the token
		return false
	}
	if w.isPool {
		d := int64(-sleeperOne)
		if r == wakeWork {
			d++ // count it as searching now, so that other pushers do not wake a second one
		}
		w.pool.idle.Add(d)
	}
	if r == wakeWork {
		w.wokeAt = w.pool.clock()
	}
	w.wake <- r // buffered: never blocks, there is one token per mark
	if r == wakeWork || r == wakeLook {
		nudge() // the waker goes on working
	}
	return true
}

// nudge moves the goroutine that the calling one has just readied from the
// calling goroutine's processor's next slot to its ordinary run queue.
//
// A channel send readies its receiver into the sender's next slot (runnext),
// which the runtime lets the sender's processor keep: another processor takes
// a goroutine from there only after a pause (runqgrab's usleep(3), which
// Linux's timer slack stretches to some 50 µs), on the bet that the sender
// is about to block. A waker that goes on working never blocks, and while a
// collection starts, the other processor may run a mark worker first and
// find the woken worker only later. A goroutine started now takes the next
// slot and pushes the woken one to the run queue, from which an idle
// processor steals at once; it does nothing, and runs when the waker's
// processor next schedules. This is what a hand-written loop that starts a
// goroutine per core gets for free: each go statement pushes the one before
// out of the next slot. Any goroutine.
func nudge() { go func() {}() }

// notify wakes one parked worker if some are parked and the rule of
// split.Wakes says so: none search, or, for a job of a long rest (long),
// fewer than the jobs in the injection queue and the deques (a wake per
// job, which brings a parked pool up in about log2(P) wake-up times).
// Called after every push; its fast path is one load. Any goroutine.
func (p *Pool) notify(long bool) {
	s := p.idle.Load() // after the push's store of bottom: a searcher that stops after this load rescans
	if s>>32 != 0 && p.short(int(uint32(s)), long) {
		p.wakeOne()
	}
}

// short reports whether a push of a job, of a long rest or not (long),
// wakes a parked worker while searchers, that many pool workers, search
// (split.Wakes): the jobs waiting are counted only while some search and
// the job's rest is long. Any goroutine.
func (p *Pool) short(searchers int, long bool) bool {
	q := 0
	if searchers > 0 && long {
		q = p.queued(searchers)
	}
	return split.Wakes(searchers, q, long)
}

// queued returns how many jobs wait in the injection queue and the deques
// of the pool's workers and seats, counting no further once the count
// exceeds limit: a bound on the loads, one or two a participant. A snapshot
// of hints that orders nothing; the wake-up that no push may lose rests on
// the case of no searcher, which needs no count. Any goroutine.
func (p *Pool) queued(limit int) int {
	n := int(p.inject.len())
	for _, v := range *p.table.Load() { // every seat published so far (see acquire)
		if n > limit {
			break
		}
		n += v.dq.Len()
	}
	return n
}

// wakeOne unparks one parked pool worker, if any. Any goroutine.
func (p *Pool) wakeOne() {
	ws := p.workers
	n := len(ws)
	start := int(p.wakeCursor.Add(1) % uint32(n)) // spreads wake-ups; orders nothing
	for i := 0; i < n; i++ {
		k := start + i
		if k >= n {
			k -= n
		}
		if ws[k].unpark(wakeWork) {
			return
		}
	}
}

// sleeping returns how many pool workers are parked, or about to park. One
// load. Any goroutine.
func (p *Pool) sleeping() int { return int(p.idle.Load() >> 32) } // a snapshot; orders nothing

// Load returns what the planner weighs a hand-over against (split.Load):
// the calls in progress (those with a seat, and the callers Arrive
// counts), the processors the pool runs on (GOMAXPROCS when it started), the
// workers searching for work (a job pushed now is taken within one round of
// a search, with no wake-up) and those parked, whether the pool is
// contended (see contend.go) and its measured wake-up (see wokeUp). Five
// loads, and a read of the clock while a contention mark is set or has just
// lapsed: a snapshot that orders nothing. Any goroutine.
func (p *Pool) Load() split.Load {
	idle := p.idle.Load()
	return split.Load{
		Calls:     int(p.calls.Load() + p.early.Load()),
		Procs:     int(p.procs),
		Searching: int(uint32(idle)),
		Parked:    int(idle >> 32),
		Contended: p.isContended(),
		Wake:      time.Duration(p.wakeUp.Load()),
	}
}

// Arrive adds n to the callers that work on a call of p without a seat
// (the engine's timed prefix), which Load counts among the calls in
// progress: 1 as such a caller begins, and -1 as it ends. A call made inside
// another counts again, though the two share a goroutine. Any goroutine.
func (p *Pool) Arrive(n int) { p.early.Add(int64(n)) }

// startSearching counts the calling worker as a searcher unless half the
// workers already search (the rule of the Go scheduler's spinning threads),
// and reports whether it did.
func (p *Pool) startSearching() bool {
	for {
		s := p.idle.Load() // a snapshot for the CAS below; orders nothing by itself
		if n := int(uint32(s)); n > 0 && 2*n >= p.n {
			return false
		}
		if p.idle.CompareAndSwap(s, s+1) { // before our first steal: a pusher that loads idle after it sees a searcher and need not wake one
			return true
		}
	}
}

// stopSearching uncounts a searcher. A searcher that found work wakes
// another if fewer workers still search than jobs wait (see notify): pushers
// that saw it searching counted on it for one job, and the job it took may
// have company.
func (p *Pool) stopSearching(found bool) {
	s := p.idle.Add(-1) // after our last steal attempt: a pusher that saw us searching relied on it
	if found && s>>32 != 0 && p.short(int(uint32(s)), true) {
		p.wakeOne()
	}
}

// hasWork reports whether any job is in sight: in the injection queue or in any
// worker's or seat's deque. Any goroutine.
func (p *Pool) hasWork() bool {
	if p.inject.len() > 0 {
		return true
	}
	for _, v := range *p.table.Load() { // every seat published so far (see acquire)
		if !v.stl.IsEmpty() {
			return true
		}
	}
	return false
}

// wokeUp adds one wake-up's time, from the unpark for work to the woken
// worker's return from its park, to the pool's running mean (a weight of an
// eighth). The woken worker only.
func (p *Pool) wokeUp(ns int64) {
	if ns <= 0 {
		return
	}
	old := p.wakeUp.Load() // orders nothing: a mean, read by Load
	if old == 0 {
		p.wakeUp.Store(ns) // orders nothing
		return
	}
	p.wakeUp.Store(old + (ns-old)/8) // orders nothing; woken workers racing here may lose a sample, which a mean can spare
}
