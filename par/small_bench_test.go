package par_test

import (
	"testing"

	"github.com/weftgo/weft/par"
)

var smallSink []int

func double(x int) int { return x * 2 }

// BenchmarkSmallMap is W8's Map part: x*2 over 1,000 ints, a call too small
// to split, against the plain loop the compiler inlines.
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
	b.Run("impl=Map", func(b *testing.B) {
		for b.Loop() {
			smallSink = par.Map(in, double)
		}
	})
}
