package sim

import (
	"math/rand/v2"
	"time"

	"github.com/weftgo/weft/split"
)

// The pool: P participants, each with a deque, as internal/sched runs them.
// Pool workers look in their own deque, then steal the oldest job of a
// random victim, search for a while after their last task, and park; a
// push, or a searcher that finds work, wakes a parked worker as split.Wakes
// says (the sleep protocol of sched.Pool). A caller takes part in its own
// call as a seat, which steals only jobs of its call and parks after
// split.SearchRounds fruitless rounds while it waits for a stolen half.
// The mechanics here are the scheduler's, mirrored; the rules they follow
// (split.Wakes, split.SearchRounds, LookEvery, Linger) and what
// decides when to cut, hand over or stay alone are split's, called as the
// scheduler and the engine call them.

// The wait of a searching round that does not yield: the scheduler's spin.
const spinWait = 30 * time.Nanosecond

// wake reasons, as sched's.
const (
	wakeNone = iota
	wakeWork
	wakeLatch
	wakeLook
)

// what a blocked participant watches for: a job it may steal, pushed
// anywhere.
const (
	watchNone = iota
	watchAny  // a pool worker: any job
	watchOwn  // a seat: jobs of its call
)

// job is the stealable right half of a cut, or a recorded fork of a
// recursion (fib > 0).
type job struct {
	lo, hi int
	sp     split.Splitter
	c      *call
	owner  *part
	callID int
	done   bool
	res    run
	fib    int  // a recursion's piece: fib(n)
	pushed bool // a record that was promoted
	rec    *recursion
	short  bool // a piece of a call whose rest was short (split.Prefix.Long)
}

// part is one participant: a pool worker or a seat.
type part struct {
	s      *Sim
	p      *proc
	id     int
	pool   bool
	dq     []*job // bottom at the end
	rng    *rand.Rand
	callID int // the call a seat works on

	parked   bool
	reason   int
	watching int

	// per-call figures
	first  int64 // when it first ran work of the current scenario, or -1
	last   int64 // when its last fold ended
	wakes  int
	steals int
	runs   int // pieces run: leaves and steps folded
	busy   int64

	fk  forkState // the recursion running here (fork.go)
	ask bool      // the gate's ask (sched's GateAsk), set by askAll
}

// round is the time of one fruitless round of a searching pool worker over
// its victims, its yields spread over the rounds between them.
func (s *Sim) round() int64 { return int64(s.m.Round(len(s.parts))) }

// Round is the time of one fruitless round of a searching pool worker over
// the other participants of n, its yields spread over the rounds between
// them: a thief sees a job pushed during its search after a delay drawn
// uniformly over it.
func (m Machine) Round(n int) time.Duration {
	nv := time.Duration(max(n-1, 0))
	return nv*m.Try + (m.Yield+(split.LookEvery-1)*spinWait)/split.LookEvery
}

// waitRound is a round of a participant waiting for a stolen half, which
// yields after every fruitless round.
func (s *Sim) waitRound() int64 {
	return int64(len(s.parts)-1)*int64(s.m.Try) + int64(s.m.Yield)
}

// detect returns how long after a change a blocked participant sees it: a
// uniform draw over its round.
func (w *part) detect(round int64) int64 { return int64(w.rng.Float64() * float64(round)) }

// advance charges d of work to w.
func (w *part) advance(d int64) {
	w.busy += max(d, 0)
	w.p.advance(d)
}

// noteWork records the first time w runs work.
func (w *part) noteWork() {
	if w.first < 0 {
		w.first = w.s.now
	}
}

// push makes j stealable: the sleep protocol's notify, a pool worker's
// wake-up of a waiting seat of j's call, and the look of every blocked
// participant that may take it.
func (w *part) push(j *job) {
	s := w.s
	j.owner, j.callID = w, w.callID
	w.dq = append(w.dq, j)
	s.pushes++
	s.notify(!j.short)
	if w.pool && s.waiting > 0 {
		for _, x := range s.parts {
			if !x.pool && x.callID == j.callID && x.parked {
				x.unpark(wakeLook)
			}
		}
	}
	for _, x := range s.parts {
		if x == w || x.watching == watchNone || (x.watching == watchOwn && x.callID != j.callID) {
			continue
		}
		at := s.now + x.detect(s.round())
		if x.p.wakeAt < 0 || at < x.p.wakeAt {
			x.p.schedule(at)
		}
	}
	w.pay()
}

// pay charges w the unparks it made since it last paid (Machine.Unpark
// each): the waker goes on only once its unparks are done, as sched's
// does. Called by the participant that made them, before it blocks.
func (w *part) pay() {
	if d := w.s.owed; d > 0 {
		w.s.owed = 0
		w.advance(d)
	}
}

// pop takes back w's newest job, or nil.
func (w *part) pop() *job {
	n := len(w.dq)
	if n == 0 {
		return nil
	}
	j := w.dq[n-1]
	w.dq = w.dq[:n-1]
	return j
}

// unstolen returns how many jobs wait in w's deque.
func (w *part) unstolen() int { return len(w.dq) }

// hungry is sched.Worker.Hungry: a pool worker searching or parked, or a
// participant waiting with nothing to run.
func (s *Sim) hungry() bool { return s.searching+s.parked != 0 || s.waiting != 0 }

// steal takes the oldest job of the first victim, from a random one on,
// that has one w may take (own: only jobs of w's call, and only if such a
// job is the oldest there), and charges Steal on success; a miss costs
// nothing here (the watch that led here charged the looking).
func (w *part) steal(own bool) *job {
	j := w.take(own)
	if j != nil {
		w.advance(int64(w.s.m.Steal))
	}
	return j
}

// take is steal without its time: the job is w's from now.
func (w *part) take(own bool) *job {
	s := w.s
	n := len(s.parts)
	start := w.rng.IntN(n)
	for i := range n {
		v := s.parts[(start+i)%n]
		if v == w || len(v.dq) == 0 {
			continue
		}
		j := v.dq[0]
		if own && j.callID != w.callID {
			continue
		}
		v.dq = v.dq[1:]
		w.steals++
		s.steals++
		return j
	}
	return nil
}

// hasWork is sched's recheck before a pool worker parks.
func (s *Sim) hasWork() bool {
	for _, v := range s.parts {
		if len(v.dq) > 0 {
			return true
		}
	}
	return false
}

// watchUntil blocks w until deadline, or until a push it may take or the
// end of what it waits for resumes it sooner.
func (w *part) watchUntil(deadline int64, what int) {
	w.watching = what
	w.p.schedule(deadline)
	w.p.block()
	w.watching = watchNone
}

// park marks w asleep unless recheck finds a reason to stay up, and blocks
// until unparked; it returns the wake reason.
func (w *part) park(recheck func() bool) int {
	s := w.s
	w.parked = true
	if w.pool {
		s.parked++
	}
	if recheck() {
		w.parked = false
		if w.pool {
			s.parked--
		}
		w.advance(int64(s.m.Try))
		return wakeNone
	}
	w.p.unschedule()
	w.p.block()
	return w.reason
}

// unpark wakes w if it is parked: it runs Wake later. A pool worker woken
// for work is counted as searching from now, as sched's waker counts it.
func (w *part) unpark(reason int) bool {
	if !w.parked {
		return false
	}
	s := w.s
	w.parked = false
	if w.pool {
		s.parked--
		if reason == wakeWork {
			s.searching++
		}
	}
	w.reason = reason
	w.wakes++
	s.wakes++
	s.owed += int64(s.m.Unpark) // the waker's, paid before it blocks (pay)
	w.p.schedule(s.now + s.wakeLatency(reason))
	return true
}

// wakeLatency is how long an unparked participant takes to run. A wake-up
// for work (wakeWork, wakeLook) comes from a goroutine that goes on working,
// which moves the woken one to the run queue (sched's nudge) for an idle
// processor that the operating system must wake: Wake. A latch (wakeLatch)
// is set by a thief that has finished the job and goes on to search: the
// woken owner waits in that thief's processor's next slot and runs there
// at the thief's next yield, within split.LookEvery rounds.
func (s *Sim) wakeLatency(reason int) int64 {
	if reason == wakeLatch {
		return split.LookEvery*s.round() + int64(s.m.Yield)
	}
	return int64(s.m.Wake)
}

// notify is sched.Pool.notify: it wakes one parked pool worker if some are
// parked and none search, or, for a job of a long rest (long), fewer search
// than jobs wait.
func (s *Sim) notify(long bool) {
	if s.parked > 0 && s.short(long) {
		s.wakeOne()
	}
}

// short is sched.Pool.short, split.Wakes on the simulated counts: the
// searchers are too few for the jobs in sight, none searching or, for a
// job of a long rest (long), fewer than the jobs waiting in the deques
// (with Config.WakeIfNoneSearch, only none).
func (s *Sim) short(long bool) bool {
	if s.searching == 0 {
		return true
	}
	if s.wakeIfNoneSearch || !long {
		return false
	}
	queued := 0
	for _, v := range s.parts {
		queued += len(v.dq)
	}
	return split.Wakes(s.searching, queued, long)
}

// wakeOne unparks one parked pool worker, round robin.
func (s *Sim) wakeOne() {
	n := s.workers
	s.wakeCursor++
	for i := range n {
		if s.parts[(s.wakeCursor+i)%n].unpark(wakeWork) {
			return
		}
	}
}

// startSearching counts a searcher unless half the workers search already.
func (s *Sim) startSearching() bool {
	if n := s.searching; n > 0 && 2*n >= s.workers {
		return false
	}
	s.searching++
	return true
}

// stopSearching uncounts a searcher; one that found work wakes another
// while the searchers left are too few for the jobs in sight (short).
func (s *Sim) stopSearching(found bool) {
	s.searching--
	if found && s.parked > 0 && s.short(true) {
		s.wakeOne()
	}
}

// loop is a pool worker's goroutine: its own deque, then findWork.
func (w *part) loop() {
	searching := false
	for {
		j := w.pop()
		if j == nil {
			j, searching = w.findWork(searching)
		}
		w.execute(j)
	}
}

// findWork is sched's: search for split.Linger of the wake-up, and at least
// split.SearchRounds rounds, from the last task or the wake-up, then park.
func (w *part) findWork(searching bool) (*job, bool) {
	s := w.s
	for {
		if !searching {
			searching = s.startSearching()
		}
		if searching {
			deadline := s.now + max(int64(split.Linger(s.m.Wake)), split.SearchRounds*s.round())
			nextAsk := s.now + split.LookEvery*s.round()
			for {
				if j := w.steal(false); j != nil {
					s.stopSearching(true)
					w.pay()
					return j, false
				}
				if s.now >= deadline {
					break
				}
				w.watchUntil(s.askTimer(w, deadline, &nextAsk, split.LookEvery*s.round()), watchAny)
			}
			s.stopSearching(false)
			searching = false
		} else if j := w.steal(false); j != nil {
			return j, false
		}
		if w.park(s.hasWork) == wakeWork {
			searching = true
		}
	}
}

// execute runs j on w: a thief's run of its own, or a job w takes back
// while it waits.
func (w *part) execute(j *job) {
	w.noteWork()
	stolen := w != j.owner
	if w.pool {
		// A pool worker works for the call of the task it runs: its pushes
		// are that call's (sched.Worker.push).
		defer func(id int) { w.callID = id }(w.callID)
		w.callID = j.callID
	}
	if j.rec != nil {
		j.rec.runJob(w, j)
	} else {
		j.res = j.c.reduce(w, j.lo, j.hi, j.sp, stolen, run{})
	}
	j.done = true
	if stolen {
		j.owner.jobDone(j)
		w.pay()
	}
}

// jobDone tells w, the owner of j, that a thief finished it: a parked w
// is woken (Wake later), a watching one sees it within a round.
func (w *part) jobDone(j *job) {
	if w.unpark(wakeLatch) {
		return
	}
	if w.watching != watchNone {
		at := w.s.now + w.latchSeen()
		if w.p.wakeAt < 0 || at < w.p.wakeAt {
			w.p.schedule(at)
		}
	}
}

// latchSeen is how long after a thief sets the latch of a job its owner,
// waiting, sees it. sched's Wait looks at the latch after each round over
// every victim, before its yield, and while it steals, before every
// split.LookEvery-th victim of a round but the first (Config.LatchEvery
// weighs other spacings): a latch set while the owner tries victims is
// seen at its next look, one set while it yields at its first look of the
// next round. With looks only after the round the draw over a round is
// kept as it was (the same mean, half a round). The simulated machine has
// a CPU for each processor, where split.LooksAtLatch always looks.
func (w *part) latchSeen() int64 {
	s := w.s
	r := s.waitRound()
	u := w.detect(r)
	nv := int64(len(s.parts) - 1)
	k := int64(s.latchEvery)
	if k >= nv {
		return u
	}
	try := int64(s.m.Try)
	tries := nv * try
	if u < tries {
		return min((u/try/k+1)*k*try, tries) - u
	}
	return r + k*try - u
}

// finish is sched's (*Worker).finish: it takes j back and reports true, or
// waits for the thief that took it.
func (w *part) finish(j *job) bool {
	if n := len(w.dq); n > 0 && w.dq[n-1] == j {
		w.dq = w.dq[:n-1]
		return true
	}
	w.wait(j)
	return false
}

// wait is sched.Worker.wait: run other work until j is done, rounds of
// stealing (a seat only its call's jobs), then a park until j's thief or a
// push wakes w.
func (w *part) wait(j *job) {
	s := w.s
	searching, hungry := false, false
	defer func() {
		if searching {
			s.stopSearching(false)
		}
		if hungry {
			s.waiting--
		}
	}()
	what := watchOwn
	if w.pool {
		what = watchAny
	}
	for !j.done {
		deadline := s.now + split.SearchRounds*s.waitRound()
		nextAsk := s.now + s.waitRound()
		for !j.done {
			x := w.pop()
			if x == nil {
				x = w.steal(!w.pool)
			}
			if x != nil {
				if searching {
					s.stopSearching(true)
					w.pay()
					searching = false
				}
				if hungry {
					s.waiting--
					hungry = false
				}
				w.execute(x)
				deadline = s.now + split.SearchRounds*s.waitRound()
				nextAsk = s.now + s.waitRound()
				continue
			}
			if !hungry {
				s.waiting++
				hungry = true
			}
			if s.now >= deadline {
				break
			}
			w.watchUntil(s.askTimer(w, deadline, &nextAsk, s.waitRound()), what)
		}
		if j.done {
			return
		}
		if searching {
			s.stopSearching(false)
			searching = false
		}
		var found *job
		reason := w.park(func() bool {
			switch {
			case j.done:
				return true
			case w.pool:
				return s.hasWork()
			}
			found = w.take(true)
			return found != nil
		})
		if reason == wakeWork && w.pool {
			searching = true
		}
		if found != nil {
			if hungry {
				s.waiting--
				hungry = false
			}
			w.advance(int64(s.m.Steal))
			w.execute(found)
		}
	}
}

// askTimer is the asks of a searching or waiting participant w while a
// recursion runs on the pool (Config's recursions): sched's askAll, made
// every LookEvery rounds by a searching pool worker and after every
// fruitless round by a waiting participant. It asks if *next has come,
// moves *next on by every, and returns when w's watch next ends: at
// deadline, or at the next ask. With no recursion, it returns deadline.
func (s *Sim) askTimer(w *part, deadline int64, next *int64, every int64) int64 {
	if !s.recursions {
		return deadline
	}
	if s.now >= *next {
		s.askAll(w)
		*next = s.now + every
	}
	return min(deadline, *next)
}

// askAll is sched.Pool.askAll: it sets the ask of every participant but
// except whose recursion may be asked now.
func (s *Sim) askAll(except *part) {
	for _, x := range s.parts {
		if x != except && x.fk.notBefore > 0 && s.now >= x.fk.notBefore {
			x.ask = true
		}
	}
}
