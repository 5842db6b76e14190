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
	fj := Alloc[funcJob](w)
	fj.f = b
	fj.Init(w, runFuncJob)
	if w.Fork(&fj.Job, a) {
		b(w)
	}
	fj.f = nil
	Free(w, fj)
}

// Fork pushes j, runs a, and then syncs with j: it reports true if j came
// back unrun, and the caller must then do j's work itself; false if a thief
// ran j, in which case j has finished and its panic, if any, is re-raised. If a
// panics, Fork takes j back or waits for its thief before the panic goes on.
// j must be initialized with w as its owner.
func (w *Worker) Fork(j *Job, a func(w *Worker)) (inline bool) {
	w.Push(j)
	ok := false
	defer func() {
		if !ok {
			w.Abandon(j)
		}
	}()
	a(w)
	ok = true // from here j is taken back or waited for by Sync itself
	return w.Sync(j)
}

// Sync is the end of a fork whose first half returned normally: it takes j
// back and reports true, and the caller runs j's work itself; or it waits for
// the thief that took j, re-raises j's panic if it had one, and reports false.
func (w *Worker) Sync(j *Job) bool {
	for {
		x := w.Pop()
		if x == j {
			w.local.inline++
			return true
		}
		if x == nil {
			break
		}
		// A task the first half left behind (a detached spawn): run it now.
		w.execute(x)
	}
	w.Wait(j)
	if j.panic != nil {
		j.panic.Repanic()
	}
	return false
}

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
}

// typeCache keeps a worker's finished jobs by type, for reuse without the
// allocator. Collisions simply allocate. Owner only.
type typeCache struct {
	keys  [16]unsafe.Pointer
	lists [16]freeList
}

// typeKey returns an identity of type T: the type word of an interface
// holding a *T.
func typeKey[T any]() unsafe.Pointer {
	var e any = (*T)(nil)
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&e))[0]
}

func slot(k unsafe.Pointer) int { return int((uintptr(k) >> 5) & 15) }

// Alloc returns a zeroed or reused *T from w's cache, for a job type T whose
// first field is Job. Owner only.
func Alloc[T any](w *Worker) *T {
	k := typeKey[T]()
	i := slot(k)
	if w.cache.keys[i] == k {
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
	k := typeKey[T]()
	i := slot(k)
	c := &w.cache
	if c.keys[i] != k {
		if c.lists[i].head != nil {
			return // slot taken by another type: let the collector have it
		}
		c.keys[i] = k
	}
	c.lists[i].push((*Job)(unsafe.Pointer(t)))
}
