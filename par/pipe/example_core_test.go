package pipe_test

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/weftgo/weft/par/pipe"
)

func ExampleFrom() {
	fmt.Println(pipe.From([]string{"a", "b", "c"}).Collect())
	// Output: [a b c]
}

func ExampleMap() {
	lengths := pipe.Map(pipe.From([]string{"go", "weft", "rayon"}), func(s string) int { return len(s) })
	fmt.Println(lengths.Collect())
	// Output: [2 4 5]
}

func ExampleSum() {
	fmt.Println(pipe.Sum(pipe.Range(1, 101)))
	// Output: 5050
}

func ExampleMin() {
	m, ok := pipe.Min(pipe.From([]int{7, 3, 9, 3}))
	fmt.Println(m, ok)
	_, ok = pipe.Min(pipe.From([]int{}))
	fmt.Println(ok)
	// Output:
	// 3 true
	// false
}

func ExampleMax() {
	m, ok := pipe.Max(pipe.Map(pipe.From([]string{"go", "weft", "rayon"}), strings.ToUpper))
	fmt.Println(m, ok)
	// Output: WEFT true
}

// Fold keeps a running value per piece and merges the pieces in order: here
// the longest word and its length, in one pass.
func ExampleFold() {
	type best struct {
		word string
		n    int
	}
	longer := func(a, b best) best {
		if b.n > a.n {
			return b
		}
		return a
	}
	words := pipe.From(strings.Fields("the quick brown fox jumps over the lazy dog"))
	b := pipe.Fold(words, func() best { return best{} }, func(acc best, w string) best { return longer(acc, best{w, len(w)}) }, longer)
	fmt.Println(b.word, b.n)
	// Output: quick 5
}

func ExamplePipe_Collect() {
	odd := pipe.Range(0, 10).Filter(func(x int) bool { return x%2 == 1 })
	fmt.Println(odd.Collect())
	// Output: [1 3 5 7 9]
}

func ExamplePipe_Filter() {
	short := pipe.From([]string{"a", "bbb", "cc", "dddd"}).Filter(func(s string) bool { return len(s) < 3 })
	fmt.Println(short.Collect())
	// Output: [a cc]
}

func ExamplePipe_Count() {
	fmt.Println(pipe.Range(0, 1000).Filter(func(x int) bool { return x%7 == 0 }).Count())
	// Output: 143
}

func ExamplePipe_Reduce() {
	product := pipe.Range(1, 6).Reduce(1, func(a, b int) int { return a * b })
	fmt.Println(product)
	// Output: 120
}

func ExamplePipe_ForEach() {
	var total atomic.Int64
	pipe.Range(0, 100).ForEach(func(x int) { total.Add(int64(x)) })
	fmt.Println(total.Load())
	// Output: 4950
}

func ExamplePipe_Any() {
	fmt.Println(pipe.Range(0, 1_000_000).Any(func(x int) bool { return x == 123_456 }))
	// Output: true
}

func ExamplePipe_All() {
	fmt.Println(pipe.From([]int{2, 4, 6}).All(func(x int) bool { return x%2 == 0 }))
	// Output: true
}

// Inspect sees every item as it passes, without changing it: here it counts
// the items that reach the Filter.
func ExamplePipe_Inspect() {
	var seen atomic.Int64
	kept := pipe.Range(0, 100).Inspect(func(int) { seen.Add(1) }).Filter(func(x int) bool { return x < 10 })
	fmt.Println(kept.Count(), seen.Load())
	// Output: 10 100
}

// Len is the number of source positions: the item count without a Filter,
// an upper bound with one.
func ExamplePipe_Len() {
	p := pipe.Range(0, 100)
	fmt.Println(p.Len(), p.Filter(func(x int) bool { return x < 10 }).Len())
	// Output: 100 100
}
