package sched

import (
	"runtime"
	"time"

	"github.com/weftgo/weft/split"
)

// Contention: whether goroutines outside the pool's calls want the
// processors. A pool counts the calls in progress (Load), but a
// goroutine between two calls, or one that never calls the pool, is not
// counted: four goroutines that call in turn
// on two processors, each yielding between calls as a handler waiting for
// its next request does, leave the pool seeing one or two calls where the
// processors have four goroutines to run. A job handed over then waits
// behind them for a processor, and a searching worker spins on one that a
// goroutine was waiting for.
//
// The Go scheduler tells it in one place: a yield of the processor
// (runtime.Gosched) returns at once when no other goroutine is runnable, and
// only after another has run when one is. A participant's yield also yields
// its thread to the operating system (osYield, sched_yield on Linux), which
// returns at once unless another thread waits for the same processor: in a
// virtual machine whose other processor was halted, the guest's scheduler
// places a worker woken by a call on the caller's own processor, and a
// worker that spun there through its linger held the caller off it (the
// first call after an idle spell, W2's body over 1,500 elements: 355 µs
// where the loop took 150; with the thread's yield, 160: go test ./par -run
// '^$' -bench CallAfterIdle). Such yields are held up as well, so a worker
// that shares its processor with a busy thread counts the pool contended,
// which it is (TestWorkerOnABusyProcessorYieldsIt). A searching pool worker
// yields every split.LookEvery fruitless rounds, and a participant waiting for a
// stolen half after every fruitless round; each times those yields (yield),
// and split's rules (split.Stalled, split.Marks, split.MarkLength) say when they mark the pool
// contended, and for how long. The count goes on from one search, or one
// wait, to the next, since a worker whose yields each wait behind other
// goroutines makes few of them before its linger is out. A searching worker
// that marks the pool parks at once instead of lingering. While the mark
// lasts, the engine runs a call's rest on its caller and counts no
// searching worker as spare (split.Load).

// yield yields the processor to other goroutines and the thread's to other
// threads, counts in w.stalls the yields in a row that were held up
// (split.Stalled), marks the pool contended when split.Mark says so, and
// reports whether it did. Owner only.
func (w *Worker) yield() bool {
	p := w.pool
	t := p.clock()
	runtime.Gosched()
	osYield()
	if !split.Stalled(time.Duration(p.clock()-t), time.Duration(p.wakeUp.Load())) { // the wake-up is a figure; orders nothing
		w.stalls = 0
		if p.contendRun.Load() != 0 { // a load first, so that the line stays shared while nothing changes; orders nothing
			p.contendRun.Store(0) // orders nothing: a count, read only to size the next mark
		}
		return false
	}
	if w.stalls++; !split.Marks(w.stalls, int(p.contendRun.Load())) { // orders nothing
		return false
	}
	w.stalls = 0
	k := int(p.contendRun.Add(1))                            // orders nothing
	d := split.MarkLength(k, time.Duration(p.wakeUp.Load())) // the wake-up is a figure; orders nothing
	p.contended.Store(p.clock() + int64(d))                  // read by isContended on any goroutine; orders nothing
	return true
}

// isContended reports whether the pool is marked contended: goroutines
// outside its calls were recently found waiting for a processor, so that a
// job handed over now waits behind them. One load while unmarked, and a
// read of the clock while a mark is set or has just lapsed. Any goroutine.
func (p *Pool) isContended() bool {
	d := p.contended.Load() // a snapshot; orders nothing
	if d == 0 {
		return false
	}
	if p.clock() < d {
		return true
	}
	p.contended.CompareAndSwap(d, 0) // lapsed: later calls pay one load again
	return false
}
