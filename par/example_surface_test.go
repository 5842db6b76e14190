package par_test

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/weftgo/weft/par"
)

func ExampleMapIndex() {
	names := []string{"oak", "elm", "ash"}
	// for i, n := range names { out[i] = ... }
	ranked := par.MapIndex(names, func(i int, n string) string { return fmt.Sprintf("%d. %s", i+1, n) })
	fmt.Println(strings.Join(ranked, ", "))
	// Output: 1. oak, 2. elm, 3. ash
}

func ExampleForEachIndex() {
	xs := []int{3, 1, 4, 1, 5, 9, 2, 6}
	// Each call writes only its own index of diffs: no lock is needed.
	diffs := make([]int, len(xs))
	par.ForEachIndex(xs, func(i, x int) {
		if i > 0 {
			diffs[i] = x - xs[i-1]
		}
	})
	fmt.Println(diffs)
	// Output: [0 -2 3 -3 4 4 -7 4]
}

func ExampleFilterIndex() {
	readings := []float64{20.1, 20.3, 25.0, 20.2, 20.2, 19.0}
	// Keep the readings that differ from the one before by more than 1.
	jumps := par.FilterIndex(readings, func(i int, r float64) bool {
		return i > 0 && (r-readings[i-1] > 1 || readings[i-1]-r > 1)
	})
	fmt.Println(jumps)
	// Output: [25 20.2 19]
}

func ExamplePartition() {
	words := strings.Fields("alpha 42 beta 7 gamma 1000")
	numbers, others := par.Partition(words, func(w string) bool {
		_, err := strconv.Atoi(w)
		return err == nil
	})
	fmt.Println(numbers, others)
	// Output: [42 7 1000] [alpha beta gamma]
}

func ExampleUnzip() {
	pairs := []string{"a=1", "b=2", "c=3"}
	keys, values := par.Unzip(pairs, func(p string) (string, int) {
		k, v, _ := strings.Cut(p, "=")
		n, _ := strconv.Atoi(v)
		return k, n
	})
	fmt.Println(keys, values)
	// Output: [a b c] [1 2 3]
}

// A scratch buffer per worker instead of one per element: init runs about
// once per goroutine that works on the call, whatever the length of the
// input.
func ExampleMapInit() {
	ids := make([]int, 10_000)
	for i := range ids {
		ids[i] = i
	}
	var inits atomic.Int32
	newBuf := func() *bytes.Buffer { inits.Add(1); return new(bytes.Buffer) }
	keys := par.MapInit(ids, newBuf, func(buf *bytes.Buffer, id int) string {
		buf.Reset()
		fmt.Fprintf(buf, "user:%06d", id)
		return buf.String()
	})
	fmt.Println(keys[0], keys[9999])
	fmt.Println(inits.Load() < 100)
	// Output:
	// user:000000 user:009999
	// true
}

func ExampleForEachInit() {
	lines := []string{"a b c", "d e", "f", "g h i j"}
	var words atomic.Int64
	par.ForEachInit(lines, func() []string { return make([]string, 0, 8) }, func(scratch []string, line string) {
		// scratch is reused from element to element of a worker: its
		// contents are overwritten, never shared with another goroutine.
		scratch = append(scratch[:0], strings.Fields(line)...)
		words.Add(int64(len(scratch)))
	})
	fmt.Println(words.Load())
	// Output: 10
}

func ExampleFindLast() {
	log := []string{"start", "error: disk", "ok", "error: net", "ok"}
	last, ok := par.FindLast(log, func(l string) bool { return strings.HasPrefix(l, "error") })
	fmt.Println(last, ok)
	// Output: error: net true
}

func ExampleFindLastIndex() {
	xs := []int{4, 8, 15, 16, 23, 42}
	fmt.Println(par.FindLastIndex(xs, func(x int) bool { return x%2 == 1 }))
	fmt.Println(par.FindLastIndex(xs, func(x int) bool { return x > 100 }))
	// Output:
	// 4
	// -1
}

// FindAny returns whichever match is found first, which depends on timing:
// use it when any match will do.
func ExampleFindAny() {
	xs := make([]int, 100_000)
	for i := range xs {
		xs[i] = i
	}
	x, ok := par.FindAny(xs, func(x int) bool { return x%1000 == 999 })
	fmt.Println(ok, x%1000)
	// Output: true 999
}

func ExampleFindAnyIndex() {
	grid := []string{"....", "..#.", "....", "#..."}
	i := par.FindAnyIndex(grid, func(row string) bool { return strings.Contains(row, "#") })
	fmt.Println(i == 1 || i == 3)
	// Output: true
}

func ExamplePositions() {
	text := []byte("one two  three")
	fmt.Println(par.Positions(text, func(b byte) bool { return b == ' ' }))
	// Output: [3 7 8]
}

// A float product gives the same bits on every run and for every number of
// workers, like Sum.
func ExampleProduct() {
	fmt.Println(par.Product([]int{1, 2, 3, 4, 5}))
	fmt.Println(par.Product([]float64{0.5, 4, 1.5}))
	fmt.Println(par.Product([]int{}))
	// Output:
	// 120
	// 3
	// 1
}

func ExampleMapSeq2() {
	prices := map[string]float64{"apple": 0.5, "pear": 0.75, "plum": 0.25}
	// maps.All yields in no fixed order; MapSeq2 keeps that order.
	labels := slices.Sorted(par.MapSeq2(maps.All(prices), func(name string, p float64) string {
		return fmt.Sprintf("%s:%.2f", name, p)
	}))
	fmt.Println(labels)
	// Output: [apple:0.50 pear:0.75 plum:0.25]
}

func ExampleForEachSeq2() {
	stock := map[string]int{"apple": 3, "pear": 0, "plum": 7}
	var total atomic.Int64
	par.ForEachSeq2(maps.All(stock), func(_ string, n int) { total.Add(int64(n)) })
	fmt.Println(total.Load())
	// Output: 10
}
