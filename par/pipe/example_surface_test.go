package pipe_test

import (
	"fmt"
	"strings"

	"github.com/weftgo/weft/par/pipe"
)

// After a Filter, the index is still the position in the source slice.
func ExampleMapIndex() {
	words := []string{"apple", "", "cherry", "", "elderberry"}
	nonEmpty := pipe.From(words).Filter(func(w string) bool { return w != "" })
	tagged := pipe.MapIndex(nonEmpty, func(i int, w string) string { return fmt.Sprint(i, ":", w) })
	fmt.Println(tagged.Collect())
	// Output: [0:apple 2:cherry 4:elderberry]
}

func ExamplePipe_FilterIndex() {
	xs := []int{5, 5, 7, 7, 9, 9}
	evenPositions := pipe.From(xs).FilterIndex(func(i, x int) bool { return i%2 == 0 })
	fmt.Println(evenPositions.Collect())
	// Output: [5 7 9]
}

func ExamplePipe_ForEachIndex() {
	xs := []int{3, 1, 4, 1, 5}
	doubled := make([]int, len(xs))
	pipe.From(xs).ForEachIndex(func(i, x int) { doubled[i] = 2 * x })
	fmt.Println(doubled)
	// Output: [6 2 8 2 10]
}

func ExamplePipe_IndexFunc() {
	xs := []int{4, 8, 15, 16, 23, 42}
	odd := pipe.From(xs).Filter(func(x int) bool { return x%2 == 1 })
	fmt.Println(odd.IndexFunc(func(x int) bool { return x > 10 }))
	fmt.Println(odd.IndexFunc(func(x int) bool { return x > 100 }))
	// Output:
	// 2
	// -1
}

func ExamplePipe_LastIndexFunc() {
	xs := []int{4, 8, 15, 16, 23, 42}
	fmt.Println(pipe.From(xs).LastIndexFunc(func(x int) bool { return x%2 == 0 }))
	// Output: 5
}

func ExamplePipe_FindLast() {
	last, ok := pipe.Range(0, 1_000_000).FindLast(func(x int) bool { return x%7 == 3 })
	fmt.Println(last, ok)
	// Output: 999995 true
}

// A dot product: one pass over both slices, no slice of products.
func ExampleZip() {
	xs := []float64{1, 2, 3}
	ys := []float64{4, 5, 6}
	fmt.Println(pipe.Sum(pipe.Zip(xs, ys, func(x, y float64) float64 { return x * y })))
	// Output: 32
}

func ExampleZip3() {
	names := []string{"ant", "bee"}
	legs := []int{6, 6}
	wings := []int{0, 4}
	p := pipe.Zip3(names, legs, wings, func(n string, l, w int) string { return fmt.Sprint(n, " ", l, "/", w) })
	fmt.Println(p.Collect())
	// Output: [ant 6/0 bee 6/4]
}

func ExampleProduct() {
	fmt.Println(pipe.Product(pipe.Range(1, 11)))
	fmt.Println(pipe.Product(pipe.From([]float64{0.5, 4, 1.5})))
	// Output:
	// 3628800
	// 3
}

// Each line gives its words, appended to the buffer FlatMap hands over.
func ExampleFlatMap() {
	lines := []string{"to be", "", "or not to be"}
	words := pipe.FlatMap(pipe.From(lines), func(line string, out []string) []string {
		for w := range strings.FieldsSeq(line) {
			out = append(out, w)
		}
		return out
	})
	fmt.Println(words.Collect(), words.Count())
	// Output: [to be or not to be] 6
}

func ExampleChunks() {
	xs := []int{1, 2, 3, 4, 5, 6, 7}
	sums := pipe.Map(pipe.Chunks(xs, 3), func(c []int) int {
		s := 0
		for _, x := range c {
			s += x
		}
		return s
	})
	fmt.Println(sums.Collect())
	// Output: [6 15 7]
}

func ExampleChunksExact() {
	xs := []int{1, 2, 3, 4, 5, 6, 7}
	pairs, rest := pipe.ChunksExact(xs, 2)
	fmt.Println(pairs.Collect(), rest)
	// Output: [[1 2] [3 4] [5 6]] [7]
}

// A moving average over windows of three.
func ExampleWindows() {
	xs := []float64{1, 2, 3, 4, 5}
	avg := pipe.Map(pipe.Windows(xs, 3), func(w []float64) float64 { return (w[0] + w[1] + w[2]) / 3 })
	fmt.Println(avg.Collect())
	// Output: [2 3 4]
}

func ExamplePipe_Take() {
	squares := pipe.Map(pipe.Range(0, 1_000_000), func(x int) int { return x * x })
	fmt.Println(squares.Take(5).Collect())
	// Output: [0 1 4 9 16]
}

func ExamplePipe_Skip() {
	fmt.Println(pipe.Range(0, 10).Skip(7).Collect())
	// Output: [7 8 9]
}

func ExamplePipe_StepBy() {
	fmt.Println(pipe.Range(0, 10).StepBy(4).Collect())
	// Output: [0 4 8]
}

func ExamplePipe_Rev() {
	fmt.Println(pipe.From([]string{"a", "b", "c"}).Rev().Collect())
	// Output: [c b a]
}

func ExamplePipe_TakeWhile() {
	xs := []int{2, 4, 6, 7, 8, 10}
	even := func(x int) bool { return x%2 == 0 }
	fmt.Println(pipe.From(xs).TakeWhile(even).Collect())
	// Output: [2 4 6]
}

func ExamplePipe_SkipWhile() {
	xs := []int{2, 4, 6, 7, 8, 10}
	even := func(x int) bool { return x%2 == 0 }
	fmt.Println(pipe.From(xs).SkipWhile(even).Collect())
	// Output: [7 8 10]
}
