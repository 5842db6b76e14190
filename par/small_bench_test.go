package par_test

import (
	"fmt"
	"testing"

	"github.com/weftgo/weft/par"
)

var smallSink []int

func double(x int) int { return x * 2 }

// BenchmarkSmallMap is W8's Map part: x*2 over 1,000 ints, a call too small
// to split, against the plain loop the compiler inlines and against the same
// loop calling x*2 through a function value, as Map must. Map reports the
// halves of forks that ran a call (halves/op): the collector, which runs
// through most of these calls, stalls some of them, and a stalled call must
// not leave its site a pace that sends the next ones to the pool.
func BenchmarkSmallMap(b *testing.B) {
	in := make([]int, 1000)
	for i := range in {
		in[i] = i
	}
	b.Run("impl=loop", func(b *testing.B) {
		for b.Loop() {
			out := make([]int, len(in))
			for i, x := range in {
				out[i] = x * 2
			}
			smallSink = out
		}
	})
	b.Run("impl=funcvalue", func(b *testing.B) { // the floor for any library that takes f
		for b.Loop() {
			smallSink = mapByValue(in, double)
		}
	})
	b.Run("impl=ForRange", func(b *testing.B) { // the loop in the body, where x*2 inlines
		for b.Loop() {
			out := make([]int, len(in))
			par.ForRange(len(in), func(lo, hi int) {
				for i, x := range in[lo:hi] {
					out[lo+i] = x * 2
				}
			})
			smallSink = out
		}
	})
	b.Run("impl=Map", func(b *testing.B) {
		before := par.DefaultStats().Total()
		for b.Loop() {
			smallSink = par.Map(in, double)
		}
		after := par.DefaultStats().Total()
		b.ReportMetric(float64(after.Tasks+after.Inline-before.Tasks-before.Inline)/float64(b.N), "halves/op")
	})
}

// mapByValue is the plain loop with f called through a function value that
// the compiler cannot inline.
//
//go:noinline
func mapByValue(in []int, f func(int) int) []int {
	out := make([]int, len(in))
	for i, x := range in {
		out[i] = f(x)
	}
	return out
}

// BenchmarkSmallCall is the fixed cost of a call that ends within its timed
// prefix: ForRange over one element, and over 100 (a call that its site's
// pace says is short, and runs untimed in seven calls of eight), against the
// same body called directly.
func BenchmarkSmallCall(b *testing.B) {
	out := make([]int, 100)
	body := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = i * 2
		}
	}
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("n=%d/impl=direct", n), func(b *testing.B) {
			for b.Loop() {
				body(0, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=ForRange", n), func(b *testing.B) {
			for b.Loop() {
				par.ForRange(n, body)
			}
		})
	}
	smallSink = out
}
