package par_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/weftgo/weft/par"
)

var w7Sink []string

// BenchmarkSmallCallW7 is W11's allocating body at the sizes where it trails
// the loop: strconv.Itoa over [0, n) into a new []string, the plain loop
// against ForRange, and ForRange with a grain that never cuts (impl=alone),
// its floor. ForRange reports the forks a call made (tasks/op) and the wakes
// of a parked worker (parks/op). The collector marks during most of these
// calls, and their times move by 10-20% from run to run on this project's
// 2-core machine: compare them only within one run, with -count 8 or more.
func BenchmarkSmallCallW7(b *testing.B) {
	for _, n := range []int{300, 1000} {
		b.Run(fmt.Sprintf("n=%d/impl=loop", n), func(b *testing.B) {
			for b.Loop() {
				out := make([]string, n)
				for i := range n {
					out[i] = strconv.Itoa(i)
				}
				w7Sink = out
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=alone", n), func(b *testing.B) {
			for b.Loop() {
				out := make([]string, n)
				par.ForRange(n, itoaInto(out), par.WithGrain(n))
				w7Sink = out
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=ForRange", n), func(b *testing.B) {
			before := par.DefaultStats().Total()
			for b.Loop() {
				out := make([]string, n)
				par.ForRange(n, itoaInto(out))
				w7Sink = out
			}
			after := par.DefaultStats().Total()
			b.ReportMetric(float64(after.Tasks-before.Tasks)/float64(b.N), "tasks/op")
			b.ReportMetric(float64(after.Parks-before.Parks)/float64(b.N), "parks/op")
		})
	}
}

// itoaInto is W7's body over [lo, hi), writing into out.
func itoaInto(out []string) func(lo, hi int) {
	return func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = strconv.Itoa(i)
		}
	}
}
