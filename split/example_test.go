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

	sp := split.ForRange(2, n-pf.End(), 1, 0, pf.Pace(), 0)
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

// The same call on 64 cores of bare metal, whose pool measures a wake-up of
// 4 µs (Meet): the prefix ends where it ended on 2 cores, since the rest
// promises far more than either pool's LongRest. A 64th of each of the 64
// participants' share, 2,440 elements, holds less than MinStep at the
// prefix's pace (4,000 elements), which takes its place: pieces of twice
// that or more are cut, down to leaves of 4,880 elements, 32 a participant,
// about 1.6 µs each warm, and where thieves take pieces the budget cuts
// them further, not below MinPiece of the wake-up, 1 µs. A leaf runs in one step, as a step
// holds at least MinStep at the pace of the one before.
func Example_manyCores() {
	const n = 10_000_000
	c := fakeclock.New()
	pf := split.NewPrefix(n, 1, c.Read())
	pf.Meet(split.Load{Procs: 64, Wake: 4 * time.Microsecond})
	c.Charge(0, pf.End(), fakeclock.Uniform(time.Nanosecond))
	for pf.End() < n {
		lo := pf.End()
		if !pf.Next(c.Read()) {
			break
		}
		c.Charge(lo, pf.End(), fakeclock.Uniform(time.Nanosecond))
	}
	fmt.Printf("prefix: %d elements alone in %v\n", pf.End(), c.Elapsed())

	sp := split.ForRange(64, n-pf.End(), 1, 0, pf.Pace(), 4*time.Microsecond)
	ls := leaves(sp, n-pf.End(), func(int) bool { return false })
	fmt.Printf("cut: %d leaves of %d to %d elements, %d a participant\n", len(ls), slices.Min(ls), slices.Max(ls), len(ls)/64)
	warm := split.Pace{N: 3000, D: time.Microsecond}
	fmt.Printf("a leaf after its left sibling: first step %d elements\n", sp.FirstStep(slices.Max(ls), warm))
	// Output:
	// prefix: 4681 elements alone in 4.681µs
	// cut: 2048 leaves of 4880 to 4881 elements, 32 a participant
	// a leaf after its left sibling: first step 4881 elements
}
