package par_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/weftgo/weft/par"
)

// The loop that par replaces, and the call that replaces it: the result keeps
// the order of the input whatever the order in which the elements ran.
func Example() {
	words := strings.Fields("the quick brown fox jumps over the lazy dog")

	// for i, w := range words { lengths[i] = len(w) }
	lengths := par.Map(words, func(w string) int { return len(w) })
	fmt.Println(lengths)
	fmt.Println(par.Sum(lengths))
	// Output:
	// [3 5 5 3 5 4 3 4 3]
	// 35
}

func ExampleMap() {
	xs := []int{1, 2, 3, 4, 5}
	squares := par.Map(xs, func(x int) int { return x * x })
	labels := par.Map(xs, func(x int) string { return fmt.Sprintf("#%d", x) })
	fmt.Println(squares)
	fmt.Println(labels)
	// Output:
	// [1 4 9 16 25]
	// [#1 #2 #3 #4 #5]
}

func ExampleFilter() {
	isPrime := func(x int) bool {
		if x < 2 {
			return false
		}
		for d := 2; d*d <= x; d++ {
			if x%d == 0 {
				return false
			}
		}
		return true
	}
	candidates := make([]int, 50)
	for i := range candidates {
		candidates[i] = i
	}
	fmt.Println(par.Filter(candidates, isPrime))
	// Output: [2 3 5 7 11 13 17 19 23 29 31 37 41 43 47]
}

// Reduce keeps the order of the elements, so op needs to be associative but
// not commutative: string concatenation is fine.
func ExampleReduce() {
	parts := []string{"w", "e", "f", "t", "!"}
	fmt.Println(par.Reduce(parts, "", func(a, b string) string { return a + b }))

	xs := []int{3, 1, 4, 1, 5, 9, 2, 6}
	fmt.Println(par.Reduce(xs, 1, func(a, b int) int { return a * b }))
	// Output:
	// weft!
	// 6480
}

// MapReduce is Reduce of Map without the intermediate slice: here, the
// longest word and its length in one pass.
func ExampleMapReduce() {
	type longest struct {
		word string
		n    int
	}
	words := strings.Fields("a work-stealing pool splits calls in halves on demand")
	best := par.MapReduce(words,
		func(w string) longest { return longest{w, len(w)} },
		longest{},
		func(a, b longest) longest { // the first of the longest: keeps a on ties
			if b.n > a.n {
				return b
			}
			return a
		})
	fmt.Println(best.word, best.n)
	// Output: work-stealing 13
}

// Float sums are deterministic: the same input gives the same bits on every
// run and every number of workers.
func ExampleSum() {
	fmt.Println(par.Sum([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}))
	fmt.Println(par.Sum([]float64{1.5, 2.25, 3, 0.125}))

	xs := make([]float64, 1_000_000)
	for i := range xs {
		xs[i] = 0.1
	}
	a, b := par.Sum(xs), par.Sum(xs)
	fmt.Println(a == b, fmt.Sprintf("%.6f", a))
	// Output:
	// 55
	// 6.875
	// true 100000.000000
}

// ForEach suits side effects; the functions run concurrently, so what they
// share must be safe for concurrent use.
func ExampleForEach() {
	var bytes atomic.Int64
	var mu sync.Mutex
	seen := map[string]bool{}
	par.ForEach([]string{"alpha", "beta", "gamma", "beta"}, func(s string) {
		bytes.Add(int64(len(s)))
		mu.Lock()
		seen[s] = true
		mu.Unlock()
	})
	fmt.Println(bytes.Load(), len(seen))
	// Output: 18 3
}

// For writes each result to its own index, which needs no lock.
func ExampleFor() {
	out := make([]int, 10)
	par.For(len(out), func(i int) { out[i] = i * i })
	fmt.Println(out)
	// Output: [0 1 4 9 16 25 36 49 64 81]
}

// ForRange hands over whole pieces: state kept across a piece (here a local
// count) is touched once per piece instead of once per element.
func ExampleForRange() {
	text := []byte(strings.Repeat("to be or not to be, ", 1000))
	var spaces atomic.Int64
	par.ForRange(len(text), func(lo, hi int) {
		n := 0
		for _, c := range text[lo:hi] {
			if c == ' ' {
				n++
			}
		}
		spaces.Add(int64(n))
	})
	fmt.Println(spaces.Load())
	// Output: 6000
}

// ReduceRange folds a range without a slice: the sum of i*i for i below a
// million, with a plain loop in each piece.
func ExampleReduceRange() {
	sum := par.ReduceRange(1_000_000, 0,
		func(lo, hi int) int {
			s := 0
			for i := lo; i < hi; i++ {
				s += i * i
			}
			return s
		},
		func(a, b int) int { return a + b })
	fmt.Println(sum)
	// Output: 333332833333500000
}

func ExampleCount() {
	words := strings.Fields("it was the best of times it was the worst of times")
	fmt.Println(par.Count(words, func(w string) bool { return len(w) > 3 }))
	// Output: 4
}

func ExampleAny() {
	xs := []int{4, 8, 15, 16, 23, 42}
	fmt.Println(par.Any(xs, func(x int) bool { return x%2 == 1 }))
	fmt.Println(par.Any(xs, func(x int) bool { return x > 100 }))
	// Output:
	// true
	// false
}

func ExampleAll() {
	xs := []int{4, 8, 15, 16, 23, 42}
	fmt.Println(par.All(xs, func(x int) bool { return x > 0 }))
	fmt.Println(par.All(xs, func(x int) bool { return x%2 == 0 }))
	fmt.Println(par.All([]int{}, func(x int) bool { return false }))
	// Output:
	// true
	// false
	// true
}

// Find returns the first match in the order of the slice, even when a later
// one is found first; the pieces after a match stop early.
func ExampleFind() {
	xs := make([]int, 1_000_000)
	for i := range xs {
		xs[i] = i
	}
	x, ok := par.Find(xs, func(x int) bool { return x*x > 2_000_000 })
	fmt.Println(x, ok)
	_, ok = par.Find(xs, func(x int) bool { return x < 0 })
	fmt.Println(ok)
	// Output:
	// 1415 true
	// false
}

func ExampleFindIndex() {
	words := strings.Fields("one two three four five six")
	fmt.Println(par.FindIndex(words, func(w string) bool { return strings.HasPrefix(w, "f") }))
	fmt.Println(par.FindIndex(words, func(w string) bool { return w == "seven" }))
	// Output:
	// 3
	// -1
}

func ExampleMin() {
	fmt.Println(par.Min([]int{7, 3, 9, -2, 5}))
	fmt.Println(par.Min([]string{"pear", "apple", "fig"}))
	// Output:
	// -2
	// apple
}

func ExampleMax() {
	fmt.Println(par.Max([]float64{2.5, -1, 8.25, 3}))
	// Output: 8.25
}

type article struct {
	name  string
	price int
}

var articles = []article{{"pen", 3}, {"ink", 2}, {"pad", 2}, {"desk", 90}, {"lamp", 90}}

func byPrice(a, b article) int { return cmp.Compare(a.price, b.price) }

// MinFunc returns the first of the minimal elements, as slices.MinFunc does.
func ExampleMinFunc() {
	fmt.Println(par.MinFunc(articles, byPrice).name)
	// Output: ink
}

// MaxFunc returns the first of the maximal elements, as slices.MaxFunc does.
func ExampleMaxFunc() {
	fmt.Println(par.MaxFunc(articles, byPrice).name)
	// Output: desk
}

// The pieces that a call's range is cut into are its own business; a sorted
// list of them shows what a fixed grain does.
func ExampleWithGrain() {
	var mu sync.Mutex
	var pieces [][2]int
	par.ForRange(1000, func(lo, hi int) {
		mu.Lock()
		pieces = append(pieces, [2]int{lo, hi})
		mu.Unlock()
	}, par.WithGrain(250))
	slices.SortFunc(pieces, func(a, b [2]int) int { return a[0] - b[0] })
	fmt.Println(pieces)
	// Output: [[0 250] [250 500] [500 750] [750 1000]]
}

// WithMinLen keeps the adaptive cutting but never makes a piece shorter than
// its argument, whatever the load.
func ExampleWithMinLen() {
	var mu sync.Mutex
	shortest, total := 1000, 0
	par.ForRange(1000, func(lo, hi int) {
		mu.Lock()
		shortest = min(shortest, hi-lo)
		total += hi - lo
		mu.Unlock()
	}, par.WithMinLen(300))
	fmt.Println(shortest >= 300, total)
	// Output: true 1000
}
