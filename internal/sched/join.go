package sched

import "github.com/weftgo/weft/split"

// The fork-join protocol. A fork pushes one half as a job and runs the other
// half at once; then it pops the job back and runs it inline, or, if a thief
// took it, it works on other tasks until the thief has finished (Wait).
//
// Panic policy: a panic in the half run inline propagates as it is, with its
// original value and stack, but only after the other half is taken back (and
// then not run) or finished by its thief, so that no task outlives the fork
// that made it. A panic in a stolen half is recovered on the thief, carried in
// the job, and re-raised with its original value on the forking goroutine.
// runtime.Goexit is treated the same way.

// Begin, Finish and Done are the fork protocol that par.Join2 and par's
// range cuts share, each with a record of its own type so that nothing
// escapes. The frame that forks pushes its record with Begin, runs the first
// half, and calls Finish, which reports whether the second half came back
// unrun for the frame to run itself; a deferred call of Done on every exit
// ends a fork cut short, after which the record is cleared and given back.
// Whether the fork is in progress stands in the record (Job.forking), not in
// the frame, so the deferred closure captures nothing that must move to the
// heap.
//
//	j := Take[myJob](w)
//	j.x = x
//	if !j.HasRun() { // fresh: a reused record is still set up for w
//		j.Init(w, runMyJob)
//	}
//	w.Begin(&j.Job)
//	defer func() {
//		w.Done(&j.Job)
//		j.x = nil // drop references before the record is reused
//		j.Put()
//	}()
//	first(w)
//	if w.Finish(&j.Job) {
//		second(w)
//	}

// Begin pushes j, the record of a fork, initialized by the caller if it was
// fresh (Init; a reused record is still set up for w: see Take). The caller
// does that itself because naming an instance of a generic run function makes
// a closure, which only a fresh record should pay for. Owner only.
func (w *Worker) Begin(j *Job) {
	j.forking = true
	w.Push(j)
}

// Finish ends a fork whose first half returned normally: it takes j back
// and reports true, and the caller runs j's work itself; or it waits for the
// thief that took j and reports false. A panic of the thief's is re-raised
// here, after the deferred Done has given the record back, so that a
// panicking call leaves no record holding its data. Owner only.
func (w *Worker) Finish(j *Job) bool {
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
	w.Wait(j)
	j.forking = false
	if p := j.panic; p != nil {
		j.panic = nil
		p.Repanic()
	}
	return false
}

// Done is the deferred end of a fork on every exit of its frame. A fork cut
// short before Finish returned (its first half, or a task run while it waited,
// panicked or called runtime.Goexit) takes j back unrun or waits for the thief
// that took it (abandon), so that no half of a fork outlives its frame, and a
// Goexit too ends the goroutine only once the other half has finished. Then
// the caller clears j and gives it back (Put). Owner only.
func (w *Worker) Done(j *Job) {
	if j.forking {
		w.abandon(j)
		j.forking = false
	}
}

// Crowded reports whether w's deque holds so many jobs that no thief has
// taken that a fork should run its halves as plain calls, the second half
// first (split.Crowded). Such a fork calls RanInline. Owner only.
//
// A crowded fork of package par (Join2, which every Join of par is) runs its
// second half first. Run the other way round, a fork whose first half is a
// long chain of forks (a list walked by recursion, rest first and the
// element's work second) would run the whole chain down while crowded, hiding
// every element's work until the chain unwound, when no fork is left to
// expose it: thieves would take the split.CrowdLen queued jobs and then idle.
// Second half first, each crowded level does its own work before it goes
// down, and the first fork made after a thief has taken a job pushes again
// (go test -bench Spine ./par, against the plain loop). A panic in the second
// half is held until the first has run, as a thief's would be, so that the
// first half's panic still wins. A range cut of package par never asks: its
// right piece, held on the stack, would be out of the thieves' reach for as
// long as the cut's left piece waits for a stolen piece below it.
func (w *Worker) Crowded() bool { return split.Crowded(w.dq.Len()) }

// RanInline counts a fork whose second half runs on w without having been
// pushed (Crowded), as Finish counts one it took back. Owner only.
func (w *Worker) RanInline() { w.local.inline++ }

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
	w.Wait(j)
	j.panic = nil // dropped for the panic in flight
}
