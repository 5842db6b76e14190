package sched

import "github.com/weftgo/weft/split"

// The fork-join protocol. A fork pushes one half as a job and runs the other
// half at once; then it pops the job back and runs it inline, or, if a thief
// took it, it works on other tasks until the thief has finished (wait).
//
// Panic policy: a panic in the half run inline propagates as it is, with its
// original value and stack, but only after the other half is taken back (and
// then not run) or finished by its thief, so that no task outlives the fork
// that made it. A panic in a stolen half is recovered on the thief, carried in
// the job, and re-raised with its original value on the forking goroutine.
// runtime.Goexit is treated the same way.

// A fork is driven by one start and one end, whatever its kind: Fork (its
// second half pushed at once) or Record (the planner's recorded fork, taken
// by a fork that found its gate open) takes a record of the fork's type
// from w's cache and starts the fork; Rec.Join, after the first half
// returned normally, reports whether the second half came back unrun for
// the caller to run itself; a deferred Rec.End on every exit of the frame
// ends a fork cut short and gives the record back. Whether the fork is in
// progress stands in the record (Job.forking), not in the frame, so the
// deferred call captures nothing that must move to the heap.
//
//	j := sched.Fork(w, half{x: x}, true) // *half has Run(w, stolen)
//	defer j.End(w)
//	first(w)
//	if j.Join(w) {
//		j.V.r = second(w)
//	}

// Half is a fork's stealable half, of type T: a thief, or the forker if
// the half comes back unrun and the caller so chooses, calls Run with the
// worker it runs on and whether that is another worker than the forker's.
type Half[T any] interface {
	*T
	Run(w *Worker, stolen bool)
}

// Rec is the record of a fork whose stealable half is V. It is the first
// field's Job that the deque and the thieves see.
type Rec[T any] struct {
	Job
	V T
}

// Kinds of fork record (Job.kind).
const (
	forkPushed   uint8 = iota // Fork's: pushed at once
	forkRecorded              // Record's: pending until promoted
	forkAlone                 // Record's on one processor: never pushed; the gate closed until it ends
)

// Fork starts a fork on w whose second half, v, is stealable at once: it
// takes a record from w's cache and pushes it. long says whether v is of a
// call whose rest is long (split.Prefix.Long), whose push wakes a parked
// worker for each job that searchers leave waiting (split.Wakes). Owner
// only.
func Fork[T any, P Half[T]](w *Worker, v T, long bool) *Rec[T] {
	r := takeRec[T, P](w)
	r.V = v
	r.kind = forkPushed
	r.forking = true
	w.push(&r.Job, long)
	return r
}

// Record starts a fork on w whose gate the caller found open, its second
// half v: it looks at the planner (split.Fork), and returns the record of
// the fork, which is now recorded (private, until a later fork promotes
// it), or, for a recursion's first fork on one processor, runs with the
// gate closed; or it returns a nil record and Plain, for a fork that the
// planner does not record (any promotion it asked for is made), or
// Foreign, for a caller that does not own w, whose worker it left
// untouched. Owner only, which it checks.
func Record[T any, P Half[T]](w *Worker, v T) (*Rec[T], Step) {
	if s := w.look(); s != Recorded {
		return nil, s
	}
	r := takeRec[T, P](w)
	r.V = v
	w.record(&r.Job)
	return r, Recorded
}

// takeRec returns a record of type Rec[T] from w's cache (take), set up
// for w: a reused record still is.
func takeRec[T any, P Half[T]](w *Worker) *Rec[T] {
	r := take[Rec[T]](w)
	if r.run == nil { // fresh: naming runRec's instance makes a closure, which only a fresh record pays for
		r.run = runRec[T, P]
		r.owner = w
	}
	return r
}

func runRec[T any, P Half[T]](w *Worker, j *Job) {
	P(&payload[Rec[T]](j).V).Run(w, w != j.owner)
}

// Join ends the half of r's fork that ran first, normally: it reports true
// if r's half is still w's to run (taken back unstolen, never promoted, or
// a fork that runs alone), and the caller runs it itself; or it waits for
// the thief that took it and reports false, once the thief's writes to r.V
// happen before Join returns. A panic of the thief's is re-raised here,
// after the deferred End has given the record back, so that a panicking
// call leaves no record holding its data. Owner only.
func (r *Rec[T]) Join(w *Worker) bool {
	switch r.kind {
	case forkPushed:
		return w.finish(&r.Job)
	case forkRecorded:
		// settle's common case, inline: r on top of the pending records,
		// never promoted.
		f := &w.fk
		if n := len(f.pend) - 1; !r.pushed && n >= 0 && f.pend[n] == &r.Job {
			f.pend[n] = nil
			f.pend = f.pend[:n]
			f.promoted = min(f.promoted, n)
			r.forking = false
			w.local.inline++
			return true
		}
		return w.settle(&r.Job)
	}
	return true
}

// End is the deferred end of r's fork on every exit of its frame. A fork
// cut short before Join returned (its first half, or a task run while it
// waited, panicked or called runtime.Goexit) takes its half back unrun or
// waits for the thief that took it, so that no half of a fork outlives its
// frame, and a Goexit too ends the goroutine only once the other half has
// finished. Then it clears r.V, so that nothing it held outlives the fork,
// gives r back to w's cache, and sets the gate for w's next fork. Owner
// only.
func (r *Rec[T]) End(w *Worker) {
	switch r.kind {
	case forkPushed:
		w.done(&r.Job)
	case forkRecorded:
		d := 0
		if f := &w.fk; r.forking || f.depth == 1 { // cut short, or the recursion's last record
			d = w.unrecord(&r.Job)
		} else { // unrecord's common case, inline
			f.depth--
			f.base = min(f.base, f.depth)
			d = f.depth - f.base
		}
		w.open(split.Looks(d, w.fk.young))
	default:
		w.open(true) // for the next recursion on w
	}
	var zero T
	r.V = zero
	r.put()
}

// finish ends a fork whose first half returned normally: it takes j back
// and reports true, and the caller runs j's work itself; or it waits for the
// thief that took j and reports false, re-raising the thief's panic. Owner
// only.
func (w *Worker) finish(j *Job) bool {
	for {
		x := w.pop()
		if x == j {
			w.local.inline++
			j.forking = false
			return true
		}
		if x == nil {
			break
		}
		// A task the first half left behind (a detached spawn): run it now.
		w.execute(x)
	}
	w.wait(j)
	j.forking = false
	if p := j.panic; p != nil {
		j.panic = nil
		p.Repanic()
	}
	return false
}

// done is the end of a pushed fork on every exit of its frame: one cut
// short before finish returned takes j back unrun or waits for the thief
// that took it (abandon). Owner only.
func (w *Worker) done(j *Job) {
	if j.forking {
		w.abandon(j)
		j.forking = false
	}
}

// Crowded reports whether w's deque holds so many jobs that no thief has
// taken that a fork should run its halves as plain calls, the second half
// first (split.Crowded); if so, it counts the fork as one whose second half
// ran on w, as Join counts one it took back. Owner only.
//
// A crowded fork of package par (Join2, which every Join of par is) runs its
// second half first. Run the other way round, a fork whose first half is a
// long chain of forks (a list walked by recursion, rest first and the
// element's work second) would run the whole chain down while crowded, hiding
// every element's work until the chain unwound, when no fork is left to
// expose it: thieves would take the split.RecordDepth queued jobs and then idle.
// Second half first, each crowded level does its own work before it goes
// down, and the first fork made after a thief has taken a job pushes again
// (go test -bench Spine ./par, against the plain loop). A panic in the second
// half is held until the first has run, as a thief's would be, so that the
// first half's panic still wins. A range cut of package par never asks: its
// right piece, held on the stack, would be out of the thieves' reach for as
// long as the cut's left piece waits for a stolen piece below it.
func (w *Worker) Crowded() bool {
	if !split.Crowded(w.dq.Len()) {
		return false
	}
	w.local.inline++
	return true
}

// abandon is the end of a fork whose first half is panicking: it takes j back
// unrun, or waits for the thief that took it. j's own panic, if any, is dropped
// in favour of the one in flight.
func (w *Worker) abandon(j *Job) {
	for {
		x := w.pop()
		if x == j {
			return
		}
		if x == nil {
			break
		}
		w.execute(x)
	}
	w.wait(j)
	j.panic = nil // dropped for the panic in flight
}
