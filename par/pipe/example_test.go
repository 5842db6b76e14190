package pipe_test

import (
	"fmt"

	"github.com/weftgo/weft/par/pipe"
)

// Map, then Filter, then Sum, fused into one parallel pass over the slice:
// no intermediate slice is made.
func Example() {
	xs := make([]int, 1_000_000)
	for i := range xs {
		xs[i] = i
	}
	squares := pipe.Map(pipe.From(xs), func(x int) int { return x * x })
	evenSquares := squares.Filter(func(x int) bool { return x%2 == 0 })
	fmt.Println(pipe.Sum(evenSquares))
	fmt.Println(evenSquares.Count())
	// Output:
	// 166666166667000000
	// 500000
}

func ExampleRange() {
	words := pipe.Map(pipe.Range(1, 6), func(i int) string { return fmt.Sprint(i * i) })
	fmt.Println(words.Collect())
	// Output: [1 4 9 16 25]
}

func ExamplePipe_Find() {
	first, ok := pipe.Range(0, 1_000_000).Find(func(x int) bool { return x*x > 5000 })
	fmt.Println(first, ok)
	// Output: 71 true
}
