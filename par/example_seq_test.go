package par_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/weftgo/weft/par"
)

func ExampleMapSeq() {
	words := strings.Fields("the quick brown fox jumps over the lazy dog")
	for n := range par.MapSeq(slices.Values(words), func(w string) int { return len(w) }) {
		fmt.Print(n, " ")
	}
	fmt.Println()
	// Output: 3 5 5 3 5 4 3 4 3
}

func ExampleFilterSeq() {
	// The first five multiples of 7 among the squares; the loop's break stops
	// the pulling of the (endless) sequence.
	squares := func(yield func(int) bool) {
		for i := 1; ; i++ {
			if !yield(i * i) {
				return
			}
		}
	}
	var got []int
	for x := range par.FilterSeq(squares, func(x int) bool { return x%7 == 0 }) {
		got = append(got, x)
		if len(got) == 5 {
			break
		}
	}
	fmt.Println(got)
	// Output: [49 196 441 784 1225]
}

func ExampleForEachSeq() {
	var total atomic.Int64
	par.ForEachSeq(maps.Values(map[string]int64{"a": 1, "b": 20, "c": 300}), func(v int64) { total.Add(v) })
	fmt.Println(total.Load()) // ForEachSeq's return hands over every call's writes
	// Output: 321
}

func ExampleReduceSeq() {
	// Concatenation is associative but not commutative: the order is kept.
	s := par.ReduceSeq(slices.Values([]string{"we", "ft", " ", "go"}), "", func(a, b string) string { return a + b })
	fmt.Println(s)
	// Output: weft go
}

func ExampleSumSeq() {
	tenths := func(yield func(float64) bool) {
		for i := 0; i < 1000; i++ {
			if !yield(0.1) {
				return
			}
		}
	}
	fmt.Println(par.SumSeq(tenths)) // a plain loop gives 99.9999999999986
	// Output: 100.00000000000006
}
