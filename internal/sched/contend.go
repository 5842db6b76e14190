package sched

import (
	"runtime"
	"time"
)

// Contention: whether goroutines outside the pool's calls want the
// processors. A pool counts the calls in progress (InProgress), but a goroutine between two calls, or one that
// never calls the pool, is not counted: four goroutines that call in turn
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
// yields every yieldRounds fruitless rounds, and a participant waiting for a
// stolen half after every fruitless round; each times those yields (yield).
// stallStreak yields in a row that each took yieldStall or longer mark the
// pool contended for
// contendedFor; a single one may be the host's preemption of the machine's
// processor, or the garbage collector's worker. The count goes on from one
// search, or one wait, to the next, since a worker whose yields each wait
// behind other goroutines makes few of them before its linger is out. A
// searching worker that marks the pool parks at once instead of lingering.
//
// While the mark lasts, package par runs a call's rest on its caller and
// counts no searching worker as spare (Contended). Once it has lapsed, the
// next call that hands work over wakes the worker, and that worker's first
// stalled yield marks the pool again, for twice as long as the mark before,
// up to contendedMax: under a lasting load the pool sends a call's work to a
// worker once every 16 ms or so, to look. A yield that returns at once
// resets both counts.
//
// With nothing else runnable, a yield takes 830 to 1,080 ns at the median
// here, most of it the thread's yield (a system call), and 10 µs or longer
// in 0.5% to 5% of yields, where the processor's yield alone took 160 to 200
// ns and 0.02% to 0.04% (go test ./internal/sched -run '^$' -bench Yield,
// 4 runs): three in a row come by chance once in 8,000 yields at worst, a
// false mark of contendedFor. On 2
// processors with 4 goroutines calling W2's body over 1,000 to 1,500
// elements in turn, weft ran at 0.93-0.96 of the loop's speed without the
// mark and 0.98 with it (W11 of go run ./bench, medians of 8 to 18 runs:
// docs/DESIGN.md).

// yieldStall is the shortest yield that counts as a stall: far above what a
// yield costs when nothing else is runnable, and under the shortest call that
// hands work over (split.ShortCall).
const yieldStall = 10 * time.Microsecond

// stallStreak is how many stalled yields in a row mark the pool contended.
const stallStreak = 3

// contendedFor is how long a first mark lasts; contendedMax bounds the
// doubling of marks made in a row.
const (
	contendedFor = time.Millisecond
	contendedMax = 16 * time.Millisecond
)

// yield yields the processor to other goroutines and the thread's to other
// threads, counts in w.stalls the yields in a row that took yieldStall or
// longer, marks the pool contended at stallStreak of them, and reports
// whether it did. Owner only.
func (w *Worker) yield() bool {
	p := w.pool
	t := p.clock()
	runtime.Gosched()
	osYield()
	if p.clock()-t < int64(yieldStall) {
		w.stalls = 0
		if p.contendRun.Load() != 0 { // a load first, so that the line stays shared while nothing changes; orders nothing
			p.contendRun.Store(0) // orders nothing: a count, read only to size the next mark
		}
		return false
	}
	if w.stalls++; w.stalls < stallStreak && p.contendRun.Load() == 0 { // orders nothing
		return false
	}
	w.stalls = 0
	k := min(int(p.contendRun.Add(1)), 16) // orders nothing
	d := min(contendedFor<<(k-1), contendedMax)
	p.contended.Store(p.clock() + int64(d)) // read by Contended on any goroutine; orders nothing
	return true
}

// Contended reports whether the pool is marked contended: goroutines
// outside its calls were recently found waiting for a processor, so that a
// job handed over now waits behind them. One load while unmarked, and a
// read of the clock while a mark is set or has just lapsed. Any goroutine.
func (p *Pool) Contended() bool {
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
