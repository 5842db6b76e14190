package sched

import "unsafe"

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

// funcJob is the job of Join: a closure.
type funcJob struct {
	Job
	f func(w *Worker)
}

func runFuncJob(w *Worker, j *Job) { Payload[funcJob](j).f(w) }

// Join runs a and b, in parallel if a thief takes b, and returns when both
// have returned. Writes made by a and b happen before Join returns.
func (w *Worker) Join(a, b func(w *Worker)) {
	if !w.Crowded() {
		w.fork(a, b)
		return
	}
	// b first, its panic held until a has run: see Crowded.
	w.RanInline()
	bDone := false
	defer func() {
		if bDone {
			return
		}
		r := recover()
		if r == nil {
			return // runtime.Goexit: it unwinds on, and a does not run
		}
		a(w) // its panic, if any, replaces b's
		panic(r)
	}()
	b(w)
	bDone = true
	a(w)
}

// fork is Join with b stealable.
func (w *Worker) fork(a, b func(w *Worker)) {
	fj := Take[funcJob](w)
	fj.f = b
	if !fj.HasRun() { // fresh: a reused record is still set up for w (see Take)
		fj.Init(w, runFuncJob)
	}
	w.Begin(&fj.Job)
	defer func() {
		w.Done(&fj.Job)
		fj.f = nil // drop the closure before the record is reused
		fj.Put()
	}()
	a(w)
	if w.Finish(&fj.Job) {
		b(w)
	}
}

// Begin, Finish and Done are the fork protocol that Join, par.Join2 and par's
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
		x := w.Pop()
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
// that took it (Abandon), so that no half of a fork outlives its frame, and a
// Goexit too ends the goroutine only once the other half has finished. Then
// the caller clears j and gives it back (Put). Owner only.
func (w *Worker) Done(j *Job) {
	if j.forking {
		w.Abandon(j)
		j.forking = false
	}
}

// CrowdLen is how many forked jobs a worker keeps in its deque before it
// runs further forks as plain calls. Thieves take the oldest job, which in a
// divide-and-conquer recursion is the largest piece left, so while CrowdLen
// wait there, a job pushed now would wait behind them and would most likely
// be popped back by its own fork: the record, the push and the pop (a fence)
// would be spent for nothing. This is the max-tasks cut-off of task runtimes
// (Duran, Corbalán and Ayguadé, "An adaptive cut-off for task parallelism",
// SC 2008), kept per worker, and a cheap relative of heartbeat scheduling
// (Acar et al., PLDI 2018): in a recursion with a fork at every level, only
// the forks made while fewer than CrowdLen wait unstolen push a job. The
// number bounds how many jobs a burst of thieves finds on one victim at once;
// each takes the largest left and cuts it in turn, and the victim pushes again
// at its first fork after a steal. 4 rather than 8: fib(32) with a fork at
// every level 16.2 ms against 20.3, a grain-1 range split 9.8 ns against 16.4
// (go test -bench 'Fib/|Split', 5 alternating runs, 2 cores).
//
// A crowded fork runs its second half first. Run the other way round, a fork
// whose first half is a long chain of forks (a list walked by recursion,
// rest first and the element's work second) would run the whole chain down
// while crowded, hiding every element's work until the chain unwound, when no
// fork is left to expose it: thieves would take the CrowdLen queued jobs and
// then idle. Second half first, each crowded level does its own work before it
// goes down, and the first fork made after a thief has taken a job pushes
// again. go test -bench Spine ./par (512 elements of about 3 µs, 2 cores):
// 1.19 ms second half first, against 1.87 ms for a build that ran the first
// half first, 1.15 ms for one with CrowdLen out of reach, and 1.71 ms for the
// plain loop. A panic in the second half is held
// until the first has run, as a thief's would be, so that the first half's
// panic still wins.
const CrowdLen = 4

// Crowded reports whether w's deque holds CrowdLen or more jobs that no thief
// has taken, so that a fork should run its halves as plain calls, the second
// half first (see CrowdLen). Such a fork calls RanInline. Owner only.
func (w *Worker) Crowded() bool { return w.dq.Len() >= CrowdLen }

// RanInline counts a fork whose second half runs on w without having been
// pushed (Crowded), as Finish counts one it took back. Owner only.
func (w *Worker) RanInline() { w.local.inline++ }

// Abandon is the end of a fork whose first half is panicking: it takes j back
// unrun, or waits for the thief that took it. j's own panic, if any, is dropped
// in favour of the one in flight.
func (w *Worker) Abandon(j *Job) {
	for {
		x := w.Pop()
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

// typeCache keeps a worker's job records by type, for reuse without the
// allocator: free lists for detached tasks (Alloc, Free), and stacks for
// forks (Take, Put). A slot belongs to one type at a time; a type whose slot
// another holds takes it over when none of the other's fork records is in
// use (Take and Alloc), else allocates. Slots were once kept by the first
// type to claim them: in a program that used more types of call than the
// cache has slots, a later type allocated at every fork for good (pipe's Max
// after the other terminals in BenchmarkPipeline: about 300 allocations a
// call against 33 alone; go test -bench Pipeline -benchmem ./par/pipe).
// Owner only.
type typeCache struct {
	keys   [16]unsafe.Pointer
	lists  [16]freeList
	stacks [16]Records
}

// typeKey returns an identity of type T: the type word of an interface
// holding a *T.
func typeKey[T any]() unsafe.Pointer {
	var e any = (*T)(nil)
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&e))[0]
}

// slot spreads type keys over the cache's 16 slots (Fibonacci hashing: type
// descriptors lie close together, and their low bits alone collide).
func slot(k unsafe.Pointer) int { return int(uint64(uintptr(k)) * 0x9E3779B97F4A7C15 >> 60) }

// claim returns the cache slot of key k, or -1. A free slot is taken; one
// another type holds is taken over if evict is set and none of its fork
// records is in use, its cached records dropped.
func (c *typeCache) claim(k unsafe.Pointer, evict bool) int {
	i := slot(k)
	if c.keys[i] != k {
		if c.keys[i] != nil {
			if !evict || c.stacks[i].top != 0 {
				return -1
			}
			c.stacks[i].drop(0, len(c.stacks[i].recs))
			c.stacks[i].recs = nil
			c.lists[i] = freeList{}
		}
		c.keys[i] = k
	}
	return i
}

// Alloc returns a zeroed or reused *T from w's cache, for a job type T whose
// first field is Job and whose record may end on another worker (Free). Owner
// only.
func Alloc[T any](w *Worker) *T {
	if i := w.cache.claim(typeKey[T](), true); i >= 0 {
		if j := w.cache.lists[i].pop(); j != nil {
			return Payload[T](j)
		}
	}
	return new(T)
}

// Free gives t back to w's cache once nobody can reach it: after its fork has
// synced or abandoned it. The caller clears t's references first so that they
// do not outlive it. Owner only.
func Free[T any](w *Worker, t *T) {
	if i := w.cache.claim(typeKey[T](), false); i >= 0 {
		w.cache.lists[i].push((*Job)(unsafe.Pointer(t)))
	}
}

// Records is a worker's stack of fork records of one type. The forks of one
// worker nest: a fork ends (Finish or Abandon) before the fork that was running
// when it began, whatever ran in between, since that ran on the same
// goroutine. So a record is taken from the top and given back to it by an
// index step each way, and stays in the stack between uses with its run
// function set; each record knows its stack and its place in it. Owner only.
//
// A fork whose deferred call is itself cut short (a task run while Done waits
// for a thief calls runtime.Goexit) never gives its record back; the next Put
// below it then finds the stack higher than its own place and drops what is
// above, so a record is reused only after a Put by the frame that took it.
type Records struct {
	recs []*Job // nil entries were dropped
	top  int    // recs[:top] are in use
}

// maxRecords bounds a stack: forks nested deeper than this allocate.
const maxRecords = 256

// Take returns a record of type T for a fork on w, whose first field is Job;
// the fork gives it back with Put (a record that is not cached ignores it). A reused record holds what its last user left: its owner is
// w, its panic was cleared when its fork ended (Finish, Abandon), and users
// clear their references before Put; so a user initializes only a fresh
// record (see Job.HasRun). Owner only.
func Take[T any](w *Worker) *T {
	i := w.cache.claim(typeKey[T](), true)
	if i < 0 {
		return new(T)
	}
	s := &w.cache.stacks[i]
	k := s.top
	if k < len(s.recs) {
		if j := s.recs[k]; j != nil {
			s.top++
			return Payload[T](j)
		}
	} else if k == maxRecords {
		return new(T)
	} else {
		s.recs = append(s.recs, nil)
	}
	t := new(T)
	j := (*Job)(unsafe.Pointer(t))
	j.stack, j.place = s, k
	s.recs[k] = j
	s.top++
	return t
}

// Put gives j back to its stack, once its fork has ended: nobody else can
// reach it then. Owner only.
func (j *Job) Put() {
	s := j.stack
	if s == nil {
		return
	}
	if s.top != j.place+1 {
		s.drop(j.place+1, s.top) // records above j were not given back: see Records
	}
	s.top = j.place
}

// drop forgets the records at [from, to) of s.
func (s *Records) drop(from, to int) {
	for i := from; i < to; i++ {
		if r := s.recs[i]; r != nil {
			r.stack = nil // a dropped record is nobody's to give back
			s.recs[i] = nil
		}
	}
}
