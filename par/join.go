package par

import (
	"sync/atomic"
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
	c.run(func(w *sched.Worker) {
		normal := false
		defer func() {
			if !normal {
				if msg := nilFault(); msg != "" { // a nil w in f's first fork: no record below it
					recover()
					panic(msg)
				}
			}
		}()
		f(handle(w))
		normal = true
	})
}

// Join calls a and b, in parallel when a worker is free to take b, and returns
// when both have returned. Writes made by a and b happen before Join returns.
// If a or b panics, Join panics with the original value once the other half
// has finished, if it had started on another worker, or without running it,
// if it had not started; if both ran and panicked, a's panic wins.
//
// Join may be called from any goroutine, including from inside a or b: each call
// borrows a worker for its own length, which costs about as much as a
// channel send. Deep recursion should use Do and Worker.Join instead, whose
// forks cost about a function call.
func Join(a, b func(), opts ...Option) {
	if a == nil || b == nil {
		panic(nilJoinMessage("Join", a == nil, b == nil))
	}
	c := configure(opts)
	c.run(func(w *sched.Worker) { fork2(handle(w), callPlain, a, callPlain, b) })
}

func callPlain(_ *Worker, f func()) struct{} {
	f()
	return struct{}{}
}

// fork2 is a fork whose second half is stealable at once: Join's, whose call
// costs more than a push anyway, and whose halves may block (a recorded fork
// waits for its forker to fork again before a thief can have it).
func fork2[A, B, RA, RB any](w *Worker, fa func(*Worker, A) RA, a A, fb func(*Worker, B) RB, b B) (RA, RB) {
	sw := w.sched()
	j := sched.Fork(sw, join2Job[B, RB]{f: fb, x: b}, true)
	defer j.End(sw)
	ra := fa(w, a)
	if j.Join(sw) {
		j.V.r = fb(w, b)
	}
	return ra, j.V.r // read before the deferred call clears it
}

// Join calls a and b with worker handles, in parallel when a worker is free to
// take b, and returns when both have returned. Writes made by a and b happen
// before Join returns; panics are handled as by the function Join. w must be the
// handle passed to the function that calls Join.
//
// It is Join2 for closures, and costs what Join2 costs plus a call of each
// closure. The order of a and b is not specified; neither may wait for the
// other. A half that blocks holds the other from thieves until it returns
// (see Join2): use Join, or Scope, for halves that block.
func (w *Worker) Join(a, b func(w *Worker)) {
	if w == nil || a == nil || b == nil {
		if w == nil {
			panic("par: Worker.Join: w is nil")
		}
		panic(nilJoinMessage("Worker.Join", a == nil, b == nil))
	}
	if !w.sched().Mine() {
		panic(foreignMessage("Worker.Join", "w"))
	}
	Join2(w, callHalf, a, callHalf, b)
}

func callHalf(w *Worker, f func(w *Worker)) struct{} {
	f(w)
	return struct{}{}
}

// foreignMessage is the panic of a call given a handle that the calling
// goroutine does not own (see sched.Worker.Mine): a handle captured by a task
// or by a goroutine, or kept past its call.
func foreignMessage(name, param string) string {
	return "par: " + name + ": " + param + " is not the calling goroutine's handle: pass the handle given to the calling function (a task's own, not its caller's); a handle is valid only in that function, on its goroutine"
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

// join2Job is the stealable half of a fork: fb of Join's, fa of Join2's.
type join2Job[B, RB any] struct {
	f func(*Worker, B) RB
	x B
	r RB
}

// Run runs the half on a thief, or on its forker once a promotion took it
// back unstolen.
func (t *join2Job[B, RB]) Run(w *sched.Worker, _ bool) {
	normal := false
	defer func() {
		if !normal {
			if msg := nilFault(); msg != "" {
				recover() // as in join2Slow: a thief's recursion may record none
				panic(msg)
			}
		}
	}()
	t.r = t.f(handle(w), t.x)
	normal = true
}

// Join2 returns fa(w, a) and fb(w, b), computed in parallel when a worker is
// free to take the second call. It is Worker.Join for functions that take an
// argument and return a result, and it is the cheapest fork weft offers: a
// fork that nobody wants costs a load and two calls, and pass top-level
// functions (not closures) and nothing of it escapes to the heap. The two
// calls go through function values: Go makes such a call direct only by
// inlining its callee, and a recursive function is not inlined, so a
// recursion whose nodes cost a few nanoseconds runs at about 0.7 (fib) to
// 0.85 (a tree sum) of the plain recursion on one processor with Join2
// alone. For such a recursion, test Worker.Forks first and call the halves
// directly when it is false: that form schedules as Join2 alone and runs at
// about the plain recursion's speed. The calling
// goroutine runs fb first, and then fa unless a thief took it, so a panic
// in fb skips fa unless fa had started elsewhere; otherwise panics are
// handled as by Join. w must be the handle passed to the function that
// calls Join2. Join2 panics if fa or fb is nil.
//
//	func fib(w *par.Worker, n int) int {
//		if n < 2 {
//			return n
//		}
//		x, y := par.Join2(w, fib, n-1, fib, n-2)
//		return x + y
//	}
//
// A fork costs about a call because most forks are plain calls: a recursion
// records the fa of its first few levels of forks, privately, and promotes
// the oldest one still pending, the one with the most work left, for a thief when a
// participant of the pool is hungry or the pool's heartbeat asks on behalf
// of its parked workers, at most once a period the pool measures (see
// package split, Fork). So a recursion shorter than that period runs on its
// caller alone, and a long one hands halves, quarters, ... of itself to
// whoever has nothing to do. A recorded fork is promoted only by its forker,
// at a later fork: a first half that blocks (on a channel, a lock, I/O)
// holds the other from thieves until it returns. Halves that block belong
// in Join or Scope, whose forks are stealable at once.
//
// Join2 checks w only where its fork looks at the planner (the first
// levels of every recursion, and promotions): a handle used on a goroutine
// that does not own it panics there, naming Join2 and w, before it touches
// the worker; until then its forks are plain calls, which touch nothing of
// the worker. A nil w, fa or fb panics with a message naming Join2 and the
// parameter, whatever the depth of the fork.
func Join2[A, B, RA, RB any](w *Worker, fa func(*Worker, A) RA, a A, fb func(*Worker, B) RB, b B) (ra RA, rb RB) {
	// The fast path must stay small enough for the compiler to inline it into
	// the caller (TestJoin2Inlines): not inlined, fib(32) ran at 0.62-0.66
	// of the plain recursion. So the slow path reuses its calls: an open gate
	// replaces fb by a closure that makes the whole fork, and the closure
	// clears w so that fa is not called again. Nor is there room for nil
	// checks (they cost 6 of the 80): a nil w, fa or fb faults in the line
	// that uses it, and the recorded fork the fault unwinds through names it
	// (see nilFault).
	if atomic.LoadUint32((*uint32)(unsafe.Pointer(w))) != 0 { // the gate (sched.Worker's first word); set by the owner, and by askers on any goroutine
		f := fb
		fb = func(_ *Worker, b B) RB { return join2Slow(&w, fa, a, f, b, &ra) }
	}
	rb = fb(w, b)
	if w != nil {
		ra = fa(w, a)
	}
	return
}

// Forks reports whether a fork on w must go through Join2 (or Worker.Join):
// false while w's gate is closed, when Join2(w, fa, a, fb, b) would only
// call fb(w, b) and then fa(w, a), touching nothing of w. A recursion whose
// nodes cost a few nanoseconds tests it and, when it is false, calls itself
// directly, which the compiler cannot do through Join2's function values:
//
//	func sum(w *par.Worker, t *Node) int {
//		if t == nil {
//			return 0
//		}
//		if w.Forks() {
//			l, r := par.Join2(w, sum, t.L, sum, t.R)
//			return l + r + t.V
//		}
//		r := sum(w, t.R) // fb's half first, as Join2 runs them
//		return sum(w, t.L) + r + t.V
//	}
//
// Written so, with Join2 called at once when Forks is true and the two
// calls made in Join2's order when it is false, a recursion schedules as
// with Join2 alone: the same forks are recorded and promoted, at the same
// points, and panics take the same paths. (In the other order the rules are
// the same, and only the walk below a plain fork is mirrored.) Forks is true
// at the first levels of a recursion, which Join2 records, and when another
// participant or the pool's heartbeat asks for work; only w's owner, in
// Join2, closes the gate again, so a true Forks is still true when Join2
// loads it. An ask that arrives during the direct calls is seen by the next
// Forks below them, as the next Join2 would see it. On one processor fib(32)
// forked so ran at 0.88 to 0.94 of the plain recursion and the sum over a
// tree of 4,194,303 nodes at 0.99, against 0.69 to 0.73 and 0.80 to 0.87
// with Join2 alone; a tree of 1,023 nodes in one call took 1.08 times the
// plain recursion on one processor, 1.12 on two and 1.15 with GOMAXPROCS 8,
// against 1.36, 1.36 and 1.45 with Join2 alone (BenchmarkFib and
// BenchmarkTreeSum in paired rounds, a process per GOMAXPROCS).
//
// Forks costs one atomic load and is inlined. It only reads w, so it may be
// given a handle the calling goroutine does not own, as Join2's fast path
// may; a nil w panics with a message naming Forks.
func (w *Worker) Forks() bool {
	return atomic.LoadUint32((*uint32)(unsafe.Pointer(w))) != 0 // the gate, as Join2 loads it; set by the owner, and by askers on any goroutine
}

// joinEager is a fork for the sorts: it makes b stealable at once, as Join
// does, while w's deque holds fewer than split.RecordDepth unstolen forks, and
// past them runs b and then a as plain calls. A sort's leaves are coarse, so
// a push costs little beside them, and a comparison that blocks or takes
// long must not hold the other half from thieves (a recorded fork is
// promoted only at its forker's next fork). A panic in a crowded fork's b is
// held until a has run, so that a's panic wins, as when b is stolen.
func (w *Worker) joinEager(a, b func(w *Worker)) {
	if !w.sched().Crowded() { // counts the inline run if crowded
		fork2(w, callHalf, a, callHalf, b)
		return
	}
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

func join2ArgsMessage(faNil, fbNil bool) string {
	return nilFuncMessage("Join2", "fa", "fb", faNil, fbNil)
}

// join2Slow is Join2 with its gate open: sched.Record asks the planner, and
// join2Slow runs fb and then fa as plain calls, or fb with fa recorded for a
// promotion to hand to a thief (or, for a recursion's first fork on one
// processor, fb and fa with the gate closed until the fork ends). It clears
// *wp, and stores fa's result in *ra.
//
// The record holds fa, which the fast path never replaces: escape analysis
// follows a variable whatever it holds over time, and a record holding the
// variable that holds the closure would move w and ra to the heap at every
// fork.
func join2Slow[A, B, RA, RB any](wp **Worker, fa func(*Worker, A) RA, a A, fb func(*Worker, B) RB, b B, ra *RA) RB {
	w := *wp
	*wp = nil
	if fa == nil || fb == nil {
		panic(join2ArgsMessage(fa == nil, fb == nil))
	}
	sw := w.sched()
	j, step := sched.Record(sw, join2Job[A, RA]{f: fa, x: a})
	switch step {
	case sched.Foreign:
		panic(foreignMessage("Join2", "w"))
	case sched.Plain:
		rb := fb(w, b)
		*ra = fa(w, a)
		return rb
	}
	normal := false
	defer func() {
		j.End(sw)
		if !normal {
			if msg := nilFault(); msg != "" {
				recover() // the runtime's nil dereference, in Join2 at the line msg names
				panic(msg)
			}
		}
	}()
	rb := fb(w, b)
	if j.Join(sw) {
		j.V.r = fa(w, a)
	}
	*ra = j.V.r // read before the deferred call clears it
	normal = true
	return rb
}
