package par_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/weftgo/weft/par"
)

func ExampleCountBy() {
	words := strings.Fields("the cat and the dog and the bird")
	counts := par.CountBy(words, func(w string) string { return w })
	fmt.Println(counts)
	// Output:
	// map[and:2 bird:1 cat:1 dog:1 the:3]
}

// Within a group the elements keep their order in the input, whatever the
// number of workers.
func ExampleGroupBy() {
	words := strings.Fields("apple bean avocado beet cherry artichoke")
	byInitial := par.GroupBy(words, func(w string) byte { return w[0] })
	for _, c := range []byte("abc") {
		fmt.Printf("%c: %v\n", c, byInitial[c])
	}
	// Output:
	// a: [apple avocado artichoke]
	// b: [bean beet]
	// c: [cherry]
}

func ExampleScan() {
	deposits := []int{5, 3, -2, 10, -4}
	balance := par.Scan(deposits, 0, func(a, b int) int { return a + b })
	fmt.Println(balance)
	highest := par.Scan(deposits, math.MinInt, func(a, b int) int { return max(a, b) })
	fmt.Println(highest)
	// Output:
	// [5 8 6 16 12]
	// [5 5 5 10 10]
}

// An exclusive scan of lengths gives each piece's offset in their
// concatenation.
func ExampleScanExclusive() {
	lengths := []int{3, 0, 4, 2}
	offsets := par.ScanExclusive(lengths, 0, func(a, b int) int { return a + b })
	fmt.Println(offsets)
	// Output:
	// [0 3 3 7]
}

func ExampleScanInPlace() {
	s := []string{"a", "b", "c", "d"}
	par.ScanInPlace(s, "", func(a, b string) string { return a + b })
	fmt.Println(s)
	// Output:
	// [a ab abc abcd]
}

func ExampleScanExclusiveInPlace() {
	s := []int{1, 2, 3, 4}
	par.ScanExclusiveInPlace(s, 1, func(a, b int) int { return a * b })
	fmt.Println(s)
	// Output:
	// [1 1 2 6]
}

func ExamplePrefixSum() {
	fmt.Println(par.PrefixSum([]float64{0.5, 0.25, 0.125, 0.125}))
	// Output:
	// [0.5 0.75 0.875 1]
}

func ExamplePrefixSumInPlace() {
	s := []int64{1, 1, 1, 1, 1}
	par.PrefixSumInPlace(s)
	fmt.Println(s)
	// Output:
	// [1 2 3 4 5]
}
