package par_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/weftgo/weft/par"
)

// A fold into a map: init makes a new map for each run of pieces, so no map
// is shared by two goroutines, and merge combines them.
func ExampleFold() {
	words := strings.Fields("to be or not to be that is the question")
	lengths := par.Fold(words, func() map[int]int { return map[int]int{} },
		func(m map[int]int, w string) map[int]int { m[len(w)]++; return m },
		func(a, b map[int]int) map[int]int {
			for k, v := range b {
				a[k] += v
			}
			return a
		})
	for _, k := range slices.Sorted(maps.Keys(lengths)) {
		fmt.Print(k, ":", lengths[k], " ")
	}
	fmt.Println()
	// Output: 2:6 3:2 4:1 8:1
}

// FoldRange folds whole pieces of [0, n): here the largest gap between
// consecutive multiples of 7 or 11 below 200, with the pieces' ends kept so
// that two adjacent pieces merge in order.
func ExampleFoldRange() {
	type acc struct{ first, last, gap int }
	hit := func(i int) bool { return i%7 == 0 || i%11 == 0 }
	none := acc{-1, -1, 0}
	r := par.FoldRange(200, func() acc { return none }, func(a acc, lo, hi int) acc {
		for i := lo; i < hi; i++ {
			if !hit(i) {
				continue
			}
			if a.first < 0 {
				a.first = i
			} else {
				a.gap = max(a.gap, i-a.last)
			}
			a.last = i
		}
		return a
	}, func(a, b acc) acc {
		switch {
		case a.first < 0:
			return b
		case b.first < 0:
			return a
		}
		return acc{a.first, b.last, max(a.gap, b.gap, b.first-a.last)}
	})
	fmt.Println(r.gap)
	// Output: 7
}

// The min, max and count per key, in one pass, as the One Billion Row
// Challenge computes them per station.
func ExampleReduceBy() {
	type stat struct{ lo, hi, n int }
	rows := []string{"oslo;-3", "lima;19", "oslo;4", "lima;22", "oslo;-7"}
	stats := par.ReduceBy(rows, func(row string) (string, stat) {
		name, t, _ := strings.Cut(row, ";")
		var v int
		fmt.Sscan(t, &v)
		return name, stat{v, v, 1}
	}, func(a, b stat) stat { return stat{min(a.lo, b.lo), max(a.hi, b.hi), a.n + b.n} })
	fmt.Println(stats["lima"], stats["oslo"])
	// Output: {19 22 2} {-7 4 3}
}

// ForRangeInit hands back the value of each participant: here a histogram
// each, merged by the caller.
func ExampleForRangeInit() {
	hists := par.ForRangeInit(1000, func() *[10]int { return new([10]int) }, func(h *[10]int, lo, hi int) {
		for i := lo; i < hi; i++ {
			h[i*i%10]++
		}
	})
	var total [10]int
	for _, h := range hists {
		for d, c := range h {
			total[d] += c
		}
	}
	fmt.Println(total)
	// Output: [100 200 0 0 200 100 200 0 0 200]
}
