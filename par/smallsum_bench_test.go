package par_test

import (
	"testing"

	"github.com/weftgo/weft/par"
)

var smallSumSink float64

// BenchmarkSmallSum is W8s of go run ./bench: Sum of 2,000 float64, an
// input too small to share, against the loop that sums it in order.
func BenchmarkSmallSum(b *testing.B) {
	xs := make([]float64, 2000)
	for i := range xs {
		xs[i] = float64(i)
	}
	b.Run("impl=loop", func(b *testing.B) {
		for b.Loop() {
			s := 0.0
			for _, x := range xs {
				s += x
			}
			smallSumSink = s
		}
	})
	b.Run("impl=Sum", func(b *testing.B) {
		for b.Loop() {
			smallSumSink = par.Sum(xs)
		}
	})
}
