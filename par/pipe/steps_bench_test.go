package pipe_test

import (
	"fmt"
	"testing"

	"github.com/weftgo/weft/par/pipe"
)

// BenchmarkPipeline runs Map then Filter into each terminal over 1,000,000
// ints, with the plain loop for a ratio. The par bridge calls a leaf
// function several times per leaf (its steps); -benchmem shows what each
// call of a terminal's leaf function pays to open the pipe (its stages'
// batch buffers and closures).
//
//	go test ./par/pipe -run '^$' -bench 'Pipeline' -benchmem -count 6
func BenchmarkPipeline(b *testing.B) {
	const n = 1_000_000
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	sq := func(x int) int { return x * x % 1_000_003 }
	even := func(x int) bool { return x%2 == 0 }
	p := pipe.Map(pipe.From(xs), sq).Filter(even)
	b.Run(fmt.Sprintf("n=%d/op=loop", n), func(b *testing.B) {
		for b.Loop() {
			s := 0
			for _, x := range xs {
				if y := sq(x); even(y) {
					s += y
				}
			}
			sinkInt = s
		}
	})
	b.Run(fmt.Sprintf("n=%d/op=sum", n), func(b *testing.B) {
		for b.Loop() {
			sinkInt = pipe.Sum(p)
		}
	})
	b.Run(fmt.Sprintf("n=%d/op=reduce", n), func(b *testing.B) {
		for b.Loop() {
			sinkInt = p.Reduce(0, func(a, b int) int { return a + b })
		}
	})
	b.Run(fmt.Sprintf("n=%d/op=count", n), func(b *testing.B) {
		for b.Loop() {
			sinkInt = p.Count()
		}
	})
	b.Run(fmt.Sprintf("n=%d/op=max", n), func(b *testing.B) {
		for b.Loop() {
			sinkInt, _ = pipe.Max(p)
		}
	})
	b.Run(fmt.Sprintf("n=%d/op=collect", n), func(b *testing.B) {
		for b.Loop() {
			sinkInt = len(p.Collect())
		}
	})
	b.Run(fmt.Sprintf("n=%d/op=foreach", n), func(b *testing.B) {
		for b.Loop() {
			p.ForEach(func(int) {})
		}
	})
	b.Run(fmt.Sprintf("n=%d/op=any", n), func(b *testing.B) {
		for b.Loop() {
			if p.Any(func(x int) bool { return x < 0 }) {
				b.Fatal("no item is negative")
			}
		}
	})
}
