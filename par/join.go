package par

import (
	"unsafe"

	"github.com/weftgo/weft/internal/sched"
)

// Worker is the handle of the worker a task runs on. Functions that recurse in
// parallel take it as a parameter and pass it down, because Go has no
// goroutine-local storage from which the library could find it: with the
// handle, a fork is a push onto the worker's own deque, without it (Join) each
// call must first borrow a worker. A *Worker is valid only inside the function
// it was passed to, and only on the goroutine that called that function.
type Worker struct {
	w sched.Worker
}

func handle(w *sched.Worker) *Worker { return (*Worker)(unsafe.Pointer(w)) }

func (w *Worker) sched() *sched.Worker { return &w.w }

// Do calls f with a worker handle on the calling goroutine, for recursion with
// Worker.Join and Join2. The calling goroutine takes part in the work f forks:
// while it waits for a stolen half, it runs other tasks. A panic in f, or in any
// task it forks, reaches the caller of Do with its original value once every
// forked task has finished.
func Do(f func(w *Worker), opts ...Option) {
	if f == nil {
		panic("par: Do: f is nil")
	}
	c := configure(opts)
	c.run(func(w *sched.Worker) { f(handle(w)) })
}

// Join calls a and b, in parallel when a worker is free to take b, and returns
// when both have returned. Writes made by a and b happen before Join returns.
// If a or b panics, Join waits for the other to finish (or skips b if it had
// not started) and then panics with the original value; if both panic, a's
// panic wins.
//
// Join may be called from any goroutine, including from inside a or b: each call
// borrows a worker for its own length, which costs about as much as a
// channel send. Deep recursion should use Do and Worker.Join instead, whose
// forks cost a push and a pop on the worker's own deque.
func Join(a, b func(), opts ...Option) {
	if a == nil || b == nil {
		panic(nilJoinMessage("Join", a == nil, b == nil))
	}
	c := configure(opts)
	c.run(func(w *sched.Worker) {
		Join2(handle(w), func(*Worker, struct{}) struct{} { a(); return struct{}{} }, struct{}{},
			func(*Worker, struct{}) struct{} { b(); return struct{}{} }, struct{}{})
	})
}

// Join calls a and b with worker handles, in parallel when a worker is free to
// take b, and returns when both have returned. Writes made by a and b happen
// before Join returns; panics are handled as by the function Join. w must be the
// handle passed to the function that calls Join.
//
// A fork makes b stealable (a push on w's deque) and runs a. While w's deque
// already holds 4 forks that no thief has taken, a further fork is not worth
// a stealable job, since thieves take the oldest, largest work first: it runs
// b and then a as plain calls, which makes a recursion with a fork at every
// level cost about what the plain recursion costs below the first few levels.
// The order of a and b is not specified; neither may wait for the other.
func (w *Worker) Join(a, b func(w *Worker)) {
	if w == nil || a == nil || b == nil {
		if w == nil {
			panic("par: Worker.Join: w is nil")
		}
		panic(nilJoinMessage("Worker.Join", a == nil, b == nil))
	}
	Join2(w, func(w *Worker, _ struct{}) struct{} { a(w); return struct{}{} }, struct{}{},
		func(w *Worker, _ struct{}) struct{} { b(w); return struct{}{} }, struct{}{})
}

func nilJoinMessage(name string, aNil, bNil bool) string {
	return nilFuncMessage(name, "a", "b", aNil, bNil)
}

func nilFuncMessage(name, a, b string, aNil, bNil bool) string {
	switch {
	case aNil && bNil:
		return "par: " + name + ": " + a + " and " + b + " are nil"
	case aNil:
		return "par: " + name + ": " + a + " is nil"
	default:
		return "par: " + name + ": " + b + " is nil"
	}
}

// join2Job is the stealable half of Join2.
type join2Job[B, RB any] struct {
	sched.Job
	fb func(*Worker, B) RB
	b  B
	rb RB
}

func runJoin2[B, RB any](w *sched.Worker, j *sched.Job) {
	t := sched.Payload[join2Job[B, RB]](j)
	t.rb = t.fb(handle(w), t.b)
}

// Join2 returns fa(w, a) and fb(w, b), computed in parallel when a worker is
// free to take the second call. It is Worker.Join for functions that take an
// argument and return a result, and it is the cheapest fork weft offers: pass
// top-level functions (not closures) and nothing escapes to the heap, the task
// record comes from the worker's cache, and a fork costs a push and a pop;
// while the worker already has 4 forked calls waiting for thieves, it costs
// two plain calls (see Worker.Join). Panics are handled as by Join.
//
//	func fib(w *par.Worker, n int) int {
//		if n < 2 {
//			return n
//		}
//		x, y := par.Join2(w, fib, n-1, fib, n-2)
//		return x + y
//	}
func Join2[A, B, RA, RB any](w *Worker, fa func(*Worker, A) RA, a A, fb func(*Worker, B) RB, b B) (ra RA, rb RB) {
	if w == nil || fa == nil || fb == nil {
		panic(join2ArgsMessage(w == nil, fa == nil, fb == nil))
	}
	sw := w.sched()
	if !sw.Crowded() {
		return fork2(w, fa, a, fb, b)
	}
	// Thieves have older, larger work waiting: plain calls, fb first, and a
	// panic in fb held until fa has run (see sched.CrowdLen). The one
	// crowded fork of the library: Join and Worker.Join are Join2.
	sw.RanInline()
	fbDone := false
	defer func() {
		if fbDone {
			return
		}
		r := recover()
		if r == nil {
			return // runtime.Goexit: it unwinds on, and fa does not run
		}
		fa(w, a) // its panic, if any, replaces fb's
		panic(r)
	}()
	rb = fb(w, b)
	fbDone = true
	return fa(w, a), rb
}

func join2ArgsMessage(wNil, faNil, fbNil bool) string {
	if wNil {
		return "par: Join2: w is nil"
	}
	return nilFuncMessage("Join2", "fa", "fb", faNil, fbNil)
}

// fork2 is Join2 with a stealable second half.
func fork2[A, B, RA, RB any](w *Worker, fa func(*Worker, A) RA, a A, fb func(*Worker, B) RB, b B) (RA, RB) {
	sw := w.sched()
	j := sched.Take[join2Job[B, RB]](sw)
	j.fb, j.b = fb, b
	if !j.HasRun() { // fresh: a reused record is still set up for sw (see sched.Take)
		j.Init(sw, runJoin2[B, RB])
	}
	sw.Begin(&j.Job)
	defer func() {
		sw.Done(&j.Job)
		var zb B
		var zrb RB
		j.fb, j.b, j.rb = nil, zb, zrb // drop references before the record is reused
		j.Put()
	}()
	ra := fa(w, a)
	if sw.Finish(&j.Job) {
		j.rb = fb(w, b)
	}
	return ra, j.rb // read before the deferred call clears it
}
