package sched

// Hunger: how a leaf that is already running learns that another participant
// has nothing to do, so that it can give away part of what it has left (lazy
// binary splitting: Tzannes, Caragea, Barua and Vishkin, "Lazy binary-splitting:
// a run-time adaptive work-stealing scheduler", PPoPP 2010; the promotion step
// of heartbeat scheduling, Acar et al., PLDI 2018, without the timer).
//
// Two counts say it: Pool.idle, which the sleep protocol keeps (pool workers
// searching or parked), and Pool.waiting, the participants inside wait whose
// last round over their own deque, the injection queue and the victims found
// nothing. A seat counts only in the second: it waits for its own call alone.

// seatBits is how many low bits of a call's id hold its seat's place in the
// table, plus one (0: not recorded), so that a running leaf can find the seat
// of its call and wake it (wakeCaller). Seats beyond it keep 0 there.
const seatBits = 24

// callID returns a fresh id for a call made on seat w: the seat's place
// and its own count of calls, or, for a seat beyond seatBits, the pool's.
// Owner of w only.
func (p *Pool) callID(w *Worker) uint64 {
	if w.index+1 < 1<<seatBits {
		w.calls++ // the seat's own count spares a locked add shared by every caller
		return w.calls<<seatBits | uint64(w.index+1)
	}
	return p.callIDs.Add(1) << seatBits // orders nothing
}

// Hungry reports whether some participant of w's pool has nothing to do (a
// pool worker searching or parked, or a participant waiting in wait with
// nothing to run) that w's deque does not answer already: a job w pushed
// earlier that still waits there answers it, and so does any older, larger
// one (Tzannes et al. split a running loop only when the worker's own
// deque is empty). Two loads, and the deque's length while some
// participant is hungry; cheap enough for a leaf to call between steps.
// Owner only.
func (w *Worker) Hungry() bool {
	p := w.pool
	return (p.idle.Load() != 0 || p.waiting.Load() != 0) && // both change only on the way into or out of idleness
		w.dq.Len() == 0
}

// wakeCaller unparks the seat of the call w is working on, if it is parked,
// after w has pushed a job of that call (see push). A seat that has moved on
// to another call wakes, finds nothing of its call, and parks again. Owner
// only.
func (w *Worker) wakeCaller() {
	k := int(w.call&(1<<seatBits-1)) - 1
	if k < 0 {
		return
	}
	t := *w.pool.table.Load() // the table only grows: the seat of a call made earlier is in it
	if k >= len(t) {
		return
	}
	if s := t[k]; s != w && !s.isPool {
		s.unpark(wakeLook)
	}
}

// Index returns w's place in its pool's table: 0 to Workers()-1 for the
// pool's own workers, and more for seats. Any goroutine.
func (w *Worker) Index() int { return w.index }
