package pipe_test

import (
	"fmt"
	"iter"
	"sync"
	"testing"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// The dot product of issue 13: 50,000,000 float64 pairs (800 MB read), and
// smaller sizes, by Dot and Sum(Zip(xs, ys, mul)) against the plain loop
// and the loop split in two goroutines. The bytes per second (b.SetBytes:
// both slices) show how close each comes to the machine's bandwidth; the
// plain loop waits on its one accumulator's additions, not on the memory.
//
//	go test ./par/pipe -run '^$' -bench 'Dot/^n=50000000$/' -benchmem -count 6 -benchtime 10x -cpu 2
//
// Medians of 6 at n=50,000,000 on 2 cores (-benchtime 10x -cpu 2, this
// project's 2-core machine): loop 33.4 ms, goroutines2 22.8 ms, reducerange
// 20.3 ms, dot 19.7 ms, pipe (Sum of Zip, mul called per pair) 64.2 ms,
// funcvalue 182 ms; Dot and pipe make about 60 allocations a call.

var dotSink float64

// mulVar keeps the compiler from inlining mul into the funcvalue loop.
var mulVar = mul

func dotSizes(b *testing.B) []int {
	if testing.Short() {
		return []int{1_000, 100_000}
	}
	return []int{1_000, 100_000, 1_000_000, 10_000_000, 50_000_000}
}

func BenchmarkDot(b *testing.B) {
	for _, n := range dotSizes(b) {
		xs, ys := make([]float64, n), make([]float64, n)
		for i := range xs {
			xs[i] = float64(i%1000) * 0.001
			ys[i] = float64(i%777) * 0.5
		}
		b.Run(fmt.Sprintf("n=%d/impl=loop", n), func(b *testing.B) {
			b.SetBytes(int64(16 * n))
			for b.Loop() {
				dotSink = dotLoop(xs, ys)
			}
		})
		// The loop calling mul through a function value, as every pipe stage
		// must call its callback: the fair baseline for a per-element cost
		// (see W8m in docs/DESIGN.md).
		b.Run(fmt.Sprintf("n=%d/impl=funcvalue", n), func(b *testing.B) {
			b.SetBytes(int64(16 * n))
			f := mulVar
			for b.Loop() {
				s := 0.0
				for i := range xs {
					s += f(xs[i], ys[i])
				}
				dotSink = s
			}
		})
		// The loop written inside par.ReduceRange's leaf, inlined: what two
		// cores reach when no callback is called per element.
		b.Run(fmt.Sprintf("n=%d/impl=reducerange", n), func(b *testing.B) {
			b.SetBytes(int64(16 * n))
			for b.Loop() {
				dotSink = par.ReduceRange(n, 0.0, func(lo, hi int) float64 { return dotLoop(xs[lo:hi], ys[lo:hi]) },
					func(a, b float64) float64 { return a + b })
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=goroutines2", n), func(b *testing.B) {
			b.SetBytes(int64(16 * n))
			for b.Loop() {
				var wg sync.WaitGroup
				var left float64
				h := n / 2
				wg.Add(1)
				go func() {
					defer wg.Done()
					left = dotLoop(xs[:h], ys[:h])
				}()
				right := dotLoop(xs[h:], ys[h:])
				wg.Wait()
				dotSink = left + right
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=pipe", n), func(b *testing.B) {
			b.SetBytes(int64(16 * n))
			for b.Loop() {
				dotSink = pipe.Sum(pipe.Zip(xs, ys, mul))
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=dot", n), func(b *testing.B) {
			b.SetBytes(int64(16 * n))
			for b.Loop() {
				dotSink = pipe.Dot(xs, ys)
			}
		})
	}
}

// dotLoop is the plain loop, as a user writes it.
func dotLoop(xs, ys []float64) float64 {
	s := 0.0
	ys = ys[:len(xs)]
	for i := range xs {
		s += xs[i] * ys[i]
	}
	return s
}

// BenchmarkFlatMapShapes measures the callback shapes FlatMap could have
// taken, on the same machinery: append into a handed buffer (the one
// chosen), a yield callback, and an iter.Seq per item. Each of 1,000,000
// items makes x%4 items, summed by pipe.Sum, on the default pool and on one
// worker's worth of parallelism (the loop below Sum's cut-off runs
// sequentially at n=10,000).
//
//	go test ./par/pipe -run '^$' -bench 'FlatMapShapes' -benchmem -count 3
func BenchmarkFlatMapShapes(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		src := pipe.From(xs)
		b.Run(fmt.Sprintf("n=%d/shape=loop", n), func(b *testing.B) {
			for b.Loop() {
				var buf []int
				s := 0
				for _, x := range xs {
					buf = buf[:0]
					for j := range x % 4 {
						buf = append(buf, x+j)
					}
					for _, y := range buf {
						s += y
					}
				}
				sinkInt = s
			}
		})
		b.Run(fmt.Sprintf("n=%d/shape=append", n), func(b *testing.B) {
			p := pipe.FlatMap(src, func(x int, out []int) []int {
				for j := range x % 4 {
					out = append(out, x+j)
				}
				return out
			})
			for b.Loop() {
				sinkInt = pipe.Sum(p)
			}
		})
		b.Run(fmt.Sprintf("n=%d/shape=yield", n), func(b *testing.B) {
			p := pipe.FlatMapYield(src, func(x int, yield func(int)) {
				for j := range x % 4 {
					yield(x + j)
				}
			})
			for b.Loop() {
				sinkInt = pipe.Sum(p)
			}
		})
		b.Run(fmt.Sprintf("n=%d/shape=seq", n), func(b *testing.B) {
			p := pipe.FlatMapSeq(src, func(x int) iter.Seq[int] {
				return func(yield func(int) bool) {
					for j := range x % 4 {
						if !yield(x + j) {
							return
						}
					}
				}
			})
			for b.Loop() {
				sinkInt = pipe.Sum(p)
			}
		})
	}
}

var sinkInt int
