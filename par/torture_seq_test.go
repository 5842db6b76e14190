package par_test

import (
	"fmt"
	"iter"
	"slices"
	"sync/atomic"

	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
)

// The torture cases of the functions over sequences (see torture_test.go).

// seqCase ranges over MapSeq or FilterSeq, maybe breaking early, with panics
// possible in f, in the loop body and in the sequence itself; or calls
// ReduceSeq, ForEachSeq or SumSeq.
func seqCase(c *callCase, opts []par.Option) {
	n := len(c.xs)
	seqBoom, bodyBoom := -1, -1
	if n > 0 && c.r.IntN(6) == 0 {
		seqBoom = c.r.IntN(n)
	}
	if n > 0 && c.r.IntN(6) == 0 {
		bodyBoom = c.r.IntN(n)
	}
	stopAt := n
	if c.r.IntN(2) == 0 {
		stopAt = c.r.IntN(n + 1)
	}
	pulled := atomic.Int64{}
	seq := func(yield func(tel) bool) {
		for i, x := range c.xs {
			pulled.Store(int64(i + 1))
			if i == seqBoom {
				c.fire(&torture.Boom{Seed: c.seed, Where: fmt.Sprintf("seq at %d", i)})
			}
			if !yield(x) {
				return
			}
		}
	}
	var got []int
	body := func(v int) bool {
		if len(got) == stopAt {
			return false
		}
		if len(got) == bodyBoom {
			c.fire(&torture.Boom{Seed: c.seed, Where: fmt.Sprintf("loop body at %d", len(got))})
		}
		got = append(got, v)
		return true
	}
	prefix := func(want []int) {
		want = want[:min(len(want), stopAt)]
		if !slices.Equal(got, want) {
			c.errorf("yielded %d values, want %d (or they differ)", len(got), len(want))
		}
	}
	switch how := c.r.IntN(5); how {
	case 0:
		c.name = "MapSeq"
		c.call(func() {
			for v := range par.MapSeq(iter.Seq[tel](seq), each(c, mapped), opts...) {
				if !body(v) {
					break
				}
			}
		}, func() {
			want := make([]int, n)
			for i, x := range c.xs {
				want[i] = mapped(x)
			}
			prefix(want)
		})
	case 1:
		c.name = "FilterSeq"
		c.call(func() {
			for x := range par.FilterSeq(iter.Seq[tel](seq), each(c, keepIt), opts...) {
				if !body(x.i) {
					break
				}
			}
		}, func() {
			var want []int
			for _, x := range c.xs {
				if keepIt(x) {
					want = append(want, x.i)
				}
			}
			prefix(want)
		})
	case 2:
		c.name = "ReduceSeq"
		var bad atomic.Bool
		var got aff
		affs := func(yield func(aff) bool) {
			for x := range seq {
				if !yield(affOf(x)) {
					return
				}
			}
		}
		c.call(func() {
			got = par.ReduceSeq(affs, affID, func(l, r aff) aff {
				defer c.enter()()
				if r.hi == r.lo+1 {
					c.at(r.lo)
				}
				return affOp(l, r, &bad)
			}, opts...)
		}, func() {
			if want := affModel(c.xs, &bad); got != want {
				c.errorf("got %+v, want %+v", got, want)
			}
		})
		if bad.Load() { // whether or not the call panicked
			c.errorf("op combined pieces out of order")
		}
	case 3:
		c.name = "ForEachSeq"
		seen := make(counts, n)
		c.call(func() {
			par.ForEachSeq(iter.Seq[tel](seq), func(x tel) {
				defer c.enter()()
				seen[x.i].Add(1)
				c.at(x.i)
			}, opts...)
		}, func() { requireOnceE(c, seen) })
	case 4:
		c.name = "SumSeq"
		var got int
		c.call(func() {
			got = par.SumSeq(func(yield func(int) bool) {
				for x := range seq {
					if !yield(x.v - 300) {
						return
					}
				}
			}, opts...)
		}, func() {
			want := 0
			for _, x := range c.xs {
				want += x.v - 300
			}
			if got != want {
				c.errorf("sum %d, want %d", got, want)
			}
		})
	}
}
