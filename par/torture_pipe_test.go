package par_test

import (
	"slices"
	"sync/atomic"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// The torture cases of package pipe (see torture_test.go).

// pipeCase runs a random chain of pipe stages and a random terminal, and
// compares it with the chain applied in a plain loop. Items are source
// indices at first, so that the first stage knows where it is.
func pipeCase(c *callCase, opts []par.Option) {
	n := len(c.xs)
	var p pipe.Pipe[int]
	lo := 0
	if c.r.IntN(2) == 0 {
		p = pipe.From(indices(n))
	} else {
		lo = c.r.IntN(100) - 50
		p = pipe.Range(lo, lo+n)
	}
	p = p.Inspect(func(x int) {
		defer c.enter()()
		c.at(x - lo)
	})
	// The model: the items in order after every stage.
	model := make([]int, n)
	for i := range model {
		model[i] = lo + i
	}
	for range c.r.IntN(4) {
		if c.r.IntN(2) == 0 {
			a, b := 2*c.r.IntN(50)+1, c.r.IntN(1000)
			p = pipe.Map(p, func(x int) int {
				defer c.enter()()
				return a*x + b
			})
			for i := range model {
				model[i] = a*model[i] + b
			}
		} else {
			m := 2 + c.r.IntN(5)
			r := c.r.IntN(m)
			p = p.Filter(func(x int) bool {
				defer c.enter()()
				return ((x%m)+m)%m != r
			})
			model = slices.DeleteFunc(model, func(x int) bool { return ((x%m)+m)%m == r })
		}
	}
	how := c.r.IntN(9)
	c.name = "pipe/" + []string{"Collect", "Count", "Reduce", "Sum", "Find", "Any", "All", "MinMax", "ForEach"}[how]
	q := 3 + c.r.IntN(40)
	pred := func(x int) bool { return ((x%q)+q)%q == 1 }
	c.call(func() {
		switch how {
		case 0:
			if got := p.Collect(opts...); !slices.Equal(got, model) {
				c.errorf("collected %d items, want %d (or they differ)", len(got), len(model))
			}
		case 1:
			if got := p.Count(opts...); got != len(model) {
				c.errorf("count %d, want %d", got, len(model))
			}
		case 2:
			var bad atomic.Bool
			tag := pipe.Map(p, func(x int) aff { return aff{uint64(x)*2 + 1, uint64(x), 0, 0} })
			got := tag.Reduce(aff{1, 0, -1, -1}, func(l, r aff) aff { return affOp(l, r, &bad) }, opts...)
			want := aff{1, 0, -1, -1}
			for _, x := range model {
				want = affOp(want, aff{uint64(x)*2 + 1, uint64(x), 0, 0}, &bad)
			}
			if got.a != want.a || got.b != want.b {
				c.errorf("reduce %+v, want %+v", got, want)
			}
		case 3:
			want := 0
			for _, x := range model {
				want += x
			}
			if got := pipe.Sum(p, opts...); got != want {
				c.errorf("sum %d, want %d", got, want)
			}
		case 4:
			i := slices.IndexFunc(model, pred)
			got, ok := p.Find(pred, opts...)
			if ok != (i >= 0) || (ok && got != model[i]) {
				c.errorf("found %d %v, want index %d of %d", got, ok, i, len(model))
			}
		case 5:
			if got, want := p.Any(pred, opts...), slices.ContainsFunc(model, pred); got != want {
				c.errorf("Any %v, want %v", got, want)
			}
		case 6:
			notPred := func(x int) bool { return !pred(x) }
			if got, want := p.All(notPred, opts...), !slices.ContainsFunc(model, pred); got != want {
				c.errorf("All %v, want %v", got, want)
			}
		case 7:
			mn, ok1 := pipe.Min(p, opts...)
			mx, ok2 := pipe.Max(p, opts...)
			if ok1 != (len(model) > 0) || ok2 != ok1 || (ok1 && (mn != slices.Min(model) || mx != slices.Max(model))) {
				c.errorf("min %d %v max %d %v of %d items", mn, ok1, mx, ok2, len(model))
			}
		case 8:
			var sum atomic.Int64
			p.ForEach(func(x int) { sum.Add(int64(x)) }, opts...)
			want := int64(0)
			for _, x := range model {
				want += int64(x)
			}
			if sum.Load() != want {
				c.errorf("ForEach sum %d, want %d", sum.Load(), want)
			}
		}
	}, func() {})
}
