package par_test

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

// w2Elem is W2's body for one element: x%100+1 steps of acc*31+7.
func w2Elem(x int) int {
	acc := x
	for k := 0; k <= x%100; k++ {
		acc = acc*31 + 7
	}
	return acc
}

// w2Range is W2's body summed over [lo, hi): ReduceRange's leaf.
func w2Range(lo, hi int) int {
	s := 0
	for i := lo; i < hi; i++ {
		s += w2Elem(i)
	}
	return s
}

var w2Sink int

// BenchmarkSmallCallW2 is W11's regime below 20 µs: W2's body over [0, n)
// in one call, the plain loop against ReduceRange and MapReduce. Each has a
// sequential floor beside it: impl=leaf calls ReduceRange's leaf once over
// [0, n) (the loop's index is known not to be negative, so its x%100 is
// three instructions shorter than the leaf's: go tool objdump), and
// impl=funcvalue is MapReduce's loop through function values.
func BenchmarkSmallCallW2(b *testing.B) {
	leaf := w2Range
	for _, n := range []int{100, 300, 700} {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		b.Run(fmt.Sprintf("n=%d/impl=loop", n), func(b *testing.B) {
			for b.Loop() {
				s := 0
				for i := range n {
					s += w2Elem(i)
				}
				w2Sink = s
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=leaf", n), func(b *testing.B) { // the floor for ReduceRange
			for b.Loop() {
				w2Sink = callLeaf(leaf, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=funcvalue", n), func(b *testing.B) { // the floor for MapReduce
			for b.Loop() {
				w2Sink = reduceByValue(xs, w2Elem, func(a, b int) int { return a + b })
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=ReduceRange", n), func(b *testing.B) {
			for b.Loop() {
				w2Sink = par.ReduceRange(n, 0, leaf, func(a, b int) int { return a + b })
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=MapReduce", n), func(b *testing.B) {
			for b.Loop() {
				w2Sink = par.MapReduce(xs, w2Elem, 0, func(a, b int) int { return a + b })
			}
		})
	}
}

// callLeaf calls leaf over [0, n) through a function value, as ReduceRange
// does.
//
//go:noinline
func callLeaf(leaf func(lo, hi int) int, n int) int { return leaf(0, n) }

// reduceByValue is the plain loop with f and op called through function
// values that the compiler cannot inline, as MapReduce must.
//
//go:noinline
func reduceByValue(xs []int, f func(int) int, op func(int, int) int) int {
	s := 0
	for _, x := range xs {
		s = op(s, f(x))
	}
	return s
}

// BenchmarkLookupWhileSearching is the cost of reading GOMAXPROCS (as the
// lookup of the default pool does) right after a call whose fork a worker
// took, while that worker searches for more: the read takes the Go
// scheduler's global lock, which the searcher takes whenever it yields its
// processor. Reports the median and the mean read over rounds of 50.
func BenchmarkLookupWhileSearching(b *testing.B) {
	var per []time.Duration
	for b.Loop() {
		w2Sink = par.ReduceRange(1000, 0, w2Range, func(a, b int) int { return a + b })
		t0 := time.Now()
		for range 50 {
			par.DefaultWorkers()
		}
		per = append(per, time.Since(t0)/50)
	}
	var sum time.Duration
	for _, d := range per {
		sum += d
	}
	slices.Sort(per)
	b.ReportMetric(float64(per[len(per)/2].Nanoseconds()), "p50-ns/read")
	b.ReportMetric(float64(sum.Nanoseconds())/float64(len(per)), "mean-ns/read")
}

// BenchmarkNestedShortCalls is W2's body over [0, n) in each of the two
// elements of a For, against the loop over both. The outer call runs its
// first element in its prefix, so the inner call there counts as a second
// call in progress though the two share a goroutine: on two processors it
// fills the pool (sched.Pool.Full), and runs a rest of PrefixBudget or less
// alone (split.Prefix.ShortRest) where a processor is in fact free.
func BenchmarkNestedShortCalls(b *testing.B) {
	leaf := w2Range
	add := func(a, b int) int { return a + b }
	for _, n := range []int{700, 1000, 1500, 3000} {
		b.Run(fmt.Sprintf("n=%d/impl=loop", n), func(b *testing.B) {
			for b.Loop() {
				w2Sink = callLeaf(leaf, n) + callLeaf(leaf, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=nested", n), func(b *testing.B) {
			var r [2]int
			for b.Loop() {
				par.For(2, func(i int) { r[i] = par.ReduceRange(n, 0, leaf, add) })
				w2Sink = r[0] + r[1]
			}
		})
	}
}

// BenchmarkCallAlone is W2's body over [0, n) by ReduceRange on a pool
// crowded with calls, one more than the processors with it, so that the
// call hands nothing over and runs alone in the chunks that
// split.Prefix.Stay plans, against the loop: what running alone costs a call
// over its loop, its looks at the clock and at the pool, and the ends of
// the body's runs between them.
func BenchmarkCallAlone(b *testing.B) {
	pool := par.NewPool(par.Workers(1))
	defer pool.Close()
	defer par.Crowd(pool, runtime.GOMAXPROCS(0))()
	leaf := w2Range
	add := func(a, b int) int { return a + b }
	for _, n := range []int{700, 3000, 10_000} {
		b.Run(fmt.Sprintf("n=%d/impl=loop", n), func(b *testing.B) {
			for b.Loop() {
				w2Sink = callLeaf(leaf, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=ReduceRange", n), func(b *testing.B) {
			for b.Loop() {
				w2Sink = par.ReduceRange(n, 0, leaf, add, par.OnPool(pool))
			}
		})
	}
}

// BenchmarkCallStream is W2's body over [0, n) by ReduceRange in calls made
// back to back, against the loop: past the first call, the pool's worker is
// still searching when each call begins, and takes its rest within a round,
// with no wake-up to wait for. W11 of go run ./bench runs each
// implementation for about 2 ms at a time between the others, so that its
// first call there waits for a parked worker.
func BenchmarkCallStream(b *testing.B) {
	leaf := w2Range
	add := func(a, b int) int { return a + b }
	for _, n := range []int{1500, 5000} {
		b.Run(fmt.Sprintf("n=%d/impl=loop", n), func(b *testing.B) {
			for b.Loop() {
				w2Sink = callLeaf(leaf, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=ReduceRange", n), func(b *testing.B) {
			for b.Loop() {
				w2Sink = par.ReduceRange(n, 0, leaf, add)
			}
		})
	}
}

// BenchmarkCallAfterIdle is W2's body over [0, n) by ReduceRange in a call
// made after a millisecond's sleep, once every worker of its pool has
// parked, as the first call after an idle spell is, against the loop after
// the same sleep: the call's rest waits for a worker's wake-up (go test
// -bench Wake ./internal/sched), which calls made back to back
// (BenchmarkCallStream) do not; impl=halves is the hand-written loop that
// starts a goroutine per core over static halves, whose second goroutine
// waits for an idle processor's thread the same way. It reports the median
// call (the sleep makes ns/op); the timer is left running, since stopping
// it reads the memory statistics, which stops the world.
func BenchmarkCallAfterIdle(b *testing.B) {
	pool := par.NewPool(par.Workers(1))
	defer pool.Close()
	leaf := w2Range
	leaf64 := func(lo, hi int) uint64 { return uint64(leaf(lo, hi)) }
	add := func(a, b int) int { return a + b }
	for _, n := range []int{1500, 5000} {
		for _, impl := range []string{"loop", "ReduceRange", "halves"} {
			b.Run(fmt.Sprintf("n=%d/impl=%s", n, impl), func(b *testing.B) {
				var calls []time.Duration
				for b.Loop() {
					time.Sleep(time.Millisecond)
					par.WaitParked(pool)
					t0 := time.Now()
					switch impl {
					case "loop":
						w2Sink = callLeaf(leaf, n)
					case "ReduceRange":
						w2Sink = par.ReduceRange(n, 0, leaf, add, par.OnPool(pool))
					default:
						w2Sink = int(halvesSum(n, leaf64))
					}
					calls = append(calls, time.Since(t0))
				}
				slices.Sort(calls)
				b.ReportMetric(float64(calls[len(calls)/2].Nanoseconds()), "ns/call")
			})
		}
	}
}
