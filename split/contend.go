package split

import "time"

// Contention is whether goroutines outside a pool's calls want its
// processors: the pool cannot count them, but its participants' yields of
// the processor feel them, since a yield returns at once when nothing else
// is runnable and only after another goroutine has run when one is. These
// rules turn the yields a participant times into the pool's contention mark
// (Load.Contended), which the pool keeps; the scheduler reports each yield.
//
// With nothing else runnable, a yield takes 830 to 1,080 ns at the median on
// the machine these figures come from, most of it the thread's yield (a
// system call), and 10 µs or longer in 0.5% to 5% of yields, where the
// processor's yield alone took 160 to 200 ns and 0.02% to 0.04% (go test
// ./internal/sched -run '^$' -bench Yield, 4 runs): two in a row come by
// chance once in 400 yields at worst, a false mark. On 2
// processors with 4 goroutines calling W2's body over 1,000 to 1,500
// elements in turn, weft ran at 0.93-0.96 of the loop's speed without the
// mark and 0.98 with it (W11 of go run ./bench).

// Stalled reports whether a yield that took d was held up by other
// goroutines, on a pool whose workers take wake from a wake-up to its work
// (Load.Wake; 0: not measured): if it took half the prefix's budget
// (Budget) or longer, far above what a yield costs when nothing else is
// runnable (0.8-1.1 µs on a small VM: go test ./internal/sched -run '^$'
// -bench Yield), and under the shortest call that hands work over
// (shortCall, 10.8 µs of PrefixBudget). Where a wake-up takes 47 µs or more
// (go test ./internal/sched -run '^$' -bench Wake) that is 10 µs; where it
// takes 4 µs, 8 µs.
func Stalled(d, wake time.Duration) bool { return d >= Budget(wake)/2 }

// Marks reports whether a participant whose last stalls yields in a row
// were held up marks its pool contended, given marks, the marks made in a
// row before (reset by a yield that returns at once): at two stalls, or at
// the first while the marks go on. The verdict is taken on two, as a pass's
// against the pool (SeqDry, SeqFailed): a single stall may be the host's
// preemption of the machine's processor, or the collector's worker.
func Marks(stalls, marks int) bool { return stalls >= 2 || marks > 0 }

// MarkLength returns how long the k-th mark in a row lasts (k >= 1) on a
// pool whose workers take wake from a wake-up to its work (Load.Wake; 0: not
// measured): eight lingers of its workers (Linger) for the first, twice as
// long for each mark in a row before it, up to 16 times as long. When a mark
// lapses, the next call hands work over to look: a worker searches, and
// parks at once if its yields stall, so a look costs the pool a linger at
// most, an eighth of the first mark; under a lasting load the pool looks
// once every 128 lingers. Where a wake-up takes 5 µs or more, 1.28 ms and
// 20.5 ms; on the simulator's bare metal (4 µs), 1.02 and 16.4 ms.
func MarkLength(k int, wake time.Duration) time.Duration {
	return 8 * Linger(wake) << min(max(k, 1)-1, 4)
}
