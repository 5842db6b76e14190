package pipe_test

import (
	"fmt"
	"strings"

	"github.com/weftgo/weft/par/pipe"
)

func ExampleSplit() {
	fields := pipe.Split("name,,age,", ',').Collect()
	fmt.Printf("%q\n", fields)
	// Output:
	// ["name" "" "age" ""]
}

// The lines of an in-memory file, cut in parallel: here the longest line.
func ExampleLines() {
	file := []byte("first line\nthe second line\n\nlast, with no newline")
	longest := pipe.Fold(pipe.Lines(file), func() string { return "" }, func(acc string, l []byte) string {
		if len(l) > len(acc) {
			return string(l)
		}
		return acc
	}, func(a, b string) string {
		if len(b) > len(a) {
			return b
		}
		return a
	})
	fmt.Println(pipe.Lines(file).Count())
	fmt.Println(longest)
	// Output:
	// 4
	// last, with no newline
}

func ExampleFields() {
	words := pipe.Fields("  the quick\tbrown\n\nfox ").Collect()
	fmt.Printf("%q\n", words)
	// Output:
	// ["the" "quick" "brown" "fox"]
}

// A word count in one fused pass: the text is cut into words and counted in
// parallel, with no list of the words.
func ExampleCountBy() {
	text := "the cat and the dog\nand the bird\n"
	counts := pipe.CountBy(pipe.Fields(text), strings.ToUpper)
	fmt.Println(counts)
	// Output:
	// map[AND:2 BIRD:1 CAT:1 DOG:1 THE:3]
}

func ExampleGroupBy() {
	lines := pipe.Lines("apple\nbean\navocado\nbeet\ncherry\n")
	byInitial := pipe.GroupBy(lines, func(l string) byte { return l[0] })
	fmt.Println(byInitial['a'], byInitial['b'], byInitial['c'])
	// Output:
	// [apple avocado] [bean beet] [cherry]
}
