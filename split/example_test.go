package split_test

import (
	"fmt"
	"slices"
	"time"

	"github.com/weftgo/weft/internal/fakeclock"
	"github.com/weftgo/weft/split"
)

// A call over 10M cheap elements (W1 of `go run ./bench`, x*x summed) on a
// pool of one worker, whose caller works too: the pieces it is cut into, and
// how each runs, when nobody steals. Its prefix runs just after a collection,
// at about 1 ns an element; warm, an element takes about a third of that.
func Example() {
	const n = 10_000_000
	c := fakeclock.New()
	pf, chunks := runPrefix(n, 1, c, fakeclock.Uniform(time.Nanosecond))
	fmt.Printf("prefix: chunks %v, %d elements alone in %v\n", chunks, pf.End(), c.Elapsed())

	sp := split.ForRange(2, n-pf.End(), 1, 0, pf.Pace())
	ls := leaves(sp, n-pf.End(), func(int) bool { return false })
	fmt.Printf("cut: %d leaves of %d to %d elements\n", len(ls), slices.Min(ls), slices.Max(ls))

	warm := split.Pace{N: 3000, D: time.Microsecond}
	third := func(i int) time.Duration { return time.Duration(i % 3 / 2) } // 1 ns every third element
	leaf := slices.Max(ls)
	fmt.Printf("a leaf after its left sibling: first step %d elements\n", sp.FirstStep(leaf, warm))
	c = fakeclock.New()
	steps := runLeaf(sp, leaf, split.Pace{}, c, third)
	fmt.Printf("any other leaf: %d steps (", len(steps))
	for k, s := range steps {
		if k > 0 {
			fmt.Print(", ")
		}
		fmt.Print(s.n)
	}
	fmt.Printf(" elements), %v in all\n", c.Elapsed())
	// Output:
	// prefix: chunks [[0 1] [1 9] [9 73] [73 585] [585 4681]], 4681 elements alone in 4.681µs
	// cut: 64 leaves of 156176 to 156177 elements
	// a leaf after its left sibling: first step 78089 elements
	// any other leaf: 2 steps (78089, 78088 elements), 52.059µs in all
}
