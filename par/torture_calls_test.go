package par_test

import (
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// Random calls of the slice, range, sequence, error and pipeline functions.
// Every element is a tel that knows its index, so that a callback can tell
// where it is: there it may panic (directly, or inside a call nested on
// another pool, so that the panic crosses a pool on its way), run a nested
// case of its own, cancel the call's context or fail. A case checks:
//
//   - without a panic, the result against a sequential model of the seed;
//   - with one, that the value is one of the values that fired, by identity,
//     and that no callback was still running when the call returned;
//   - that no callback of the case runs after its call has returned.

type tel struct{ i, v int }

// callCase is the state of one call case.
type callCase struct {
	e     *tortureEnv
	seed  uint64
	depth int
	r     *rand.Rand
	name  string
	xs    []tel
	booms map[int]*tortureBoom // elements that panic; read-only during the call
	nests map[int]uint64       // elements that run a nested case, by its seed
	spin  int                  // busy work per callback, so that cheap inputs go parallel too

	mu     sync.Mutex
	fired  []*tortureBoom
	active atomic.Int64 // callbacks running
	calls  atomic.Int64 // callbacks started
}

func (c *callCase) errorf(format string, args ...any) {
	c.e.errorf(c.seed, c.name+": "+format, args...)
}

// enter counts a callback; the returned function counts its end. Use as
// defer c.enter()(), before anything that may panic.
func (c *callCase) enter() func() {
	c.active.Add(1)
	c.calls.Add(1)
	return c.leave
}

func (c *callCase) leave() { c.active.Add(-1) }

// at does what the case injected at element i: a nested case, a panic; and
// the case's busy work.
func (c *callCase) at(i int) {
	x := uint64(i)
	for range c.spin {
		x = x*6364136223846793005 + 1
	}
	keep(x)
	if s, ok := c.nests[i]; ok {
		tortureNested(c.e, s, c.depth+1)
	}
	if b := c.booms[i]; b != nil {
		c.fire(b)
	}
}

// fire records b and panics with it: directly, or from inside a call nested
// on a random pool.
func (c *callCase) fire(b *tortureBoom) {
	c.mu.Lock()
	c.fired = append(c.fired, b)
	c.mu.Unlock()
	r := newRand(mix(c.seed, uint64(len(b.where))))
	opts := c.e.poolOpt(r)
	switch r.IntN(4) {
	case 0:
		par.Join(func() {}, func() { panic(b) }, opts...)
	case 1:
		par.For(4, func(j int) {
			if j == 2 {
				panic(b)
			}
		}, append(opts, par.WithGrain(1))...)
	case 2:
		par.Do(func(w *par.Worker) {
			par.Join2(w, func(*par.Worker, int) int { return 0 }, 0, func(*par.Worker, int) int { panic(b) }, 0)
		}, opts...)
	}
	panic(b)
}

// firedSet returns the values that fired so far.
func (c *callCase) firedSet() []*tortureBoom {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.fired)
}

// settled checks what the call left behind: the panic, if any, is one that
// fired; no callback is running; a panic came only if one fired. It reports
// whether the call returned normally, so that its result is to be checked.
func (c *callCase) settled(got any, panicked bool) bool {
	if a := c.active.Load(); a != 0 {
		c.errorf("%d callbacks still running when the call returned (panicked: %v)", a, panicked)
	}
	fired := c.firedSet()
	if !panicked {
		if len(fired) > 0 {
			c.errorf("returned normally, yet %d callbacks panicked, the first with %v", len(fired), fired[0])
		}
		return len(fired) == 0
	}
	c.e.panics.Add(1)
	b, ok := got.(*tortureBoom)
	if !ok || !slices.Contains(fired, b) {
		c.errorf("panicked with %v (%T); the values that fired: %v", got, got, fired)
	}
	return false
}

// call runs f, the call under test, and checks how it ended; check, the
// comparison with the model, runs only if it returned normally.
func (c *callCase) call(f func(), check func()) {
	got, panicked := catch(f)
	if c.settled(got, panicked) {
		check()
	}
}

// tortureLen returns a random input length: mostly small, sometimes a few
// thousand, rarely large.
func tortureLen(r *rand.Rand, depth int) int {
	big := 20_000
	if full() {
		big = 200_000
	}
	if depth > 0 {
		big /= 20
	}
	switch k := r.IntN(20); {
	case k < 3:
		return r.IntN(4)
	case k < 12:
		return r.IntN(200)
	case k < 19:
		return r.IntN(5000)
	default:
		return r.IntN(big)
	}
}

func newCallCase(e *tortureEnv, seed uint64, depth int, name string) *callCase {
	r := newRand(seed)
	n := tortureLen(r, depth)
	c := &callCase{e: e, seed: seed, depth: depth, r: r, name: name, booms: map[int]*tortureBoom{}, nests: map[int]uint64{}}
	c.xs = make([]tel, n)
	for i := range c.xs {
		c.xs[i] = tel{i, r.IntN(1000)}
	}
	if n > 0 && r.IntN(3) == 0 {
		for k := range 1 + r.IntN(3) {
			i := r.IntN(n)
			c.booms[i] = &tortureBoom{seed: seed, where: fmt.Sprintf("%s element %d (%d)", name, i, k)}
		}
	}
	if n > 0 && depth < 2 && r.IntN(8) == 0 {
		c.nests[r.IntN(n)] = mix(seed, 77)
	}
	if r.IntN(3) == 0 {
		c.spin = r.IntN(300)
	}
	return c
}

// finish checks that nothing of the case runs once the call has returned:
// the count of callbacks stays put while the case's pool runs another call.
func (c *callCase) finish(opts []par.Option) {
	before := c.calls.Load()
	var calls counts = make(counts, 100)
	par.For(len(calls), func(i int) { calls[i].Add(1) }, append(opts, par.WithGrain(1))...)
	for i := range calls {
		if calls[i].Load() != 1 {
			c.errorf("the pool after the call ran For's f(%d) %d times", i, calls[i].Load())
			break
		}
	}
	if after := c.calls.Load(); after != before {
		c.errorf("%d callbacks started after the call returned", after-before)
	}
}

// aff is an affine map x -> a*x+b over the integers mod 2^64, tagged with the
// range of elements [lo, hi) it composes. Composition is associative and not
// commutative, and the tags catch any combine of pieces that are not
// neighbours in order.
type aff struct {
	a, b   uint64
	lo, hi int // lo == hi == -1: the identity
}

var affID = aff{1, 0, -1, -1}

func affOf(x tel) aff { return aff{uint64(x.v)*2 + 1, uint64(x.v) * 7, x.i, x.i + 1} }

// affOp applies l then r; bad is set on a combine of pieces out of order.
func affOp(l, r aff, bad *atomic.Bool) aff {
	if l.lo < 0 {
		return r
	}
	if r.lo < 0 {
		return l
	}
	if l.hi != r.lo {
		bad.Store(true)
	}
	return aff{r.a * l.a, r.a*l.b + r.b, l.lo, r.hi}
}

func mapped(x tel) int { return x.v*3 + 1 }

func keepIt(x tel) bool { return x.v%3 != 0 }

var callKinds = []tortureKind{
	{"Map", func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, "Map")
		opts := e.opts(c.r)
		var out []int
		c.call(func() {
			out = par.Map(c.xs, func(x tel) int {
				defer c.enter()()
				c.at(x.i)
				return mapped(x)
			}, opts...)
		}, func() {
			for i, x := range c.xs {
				if out[i] != mapped(x) {
					c.errorf("out[%d] = %d, want %d", i, out[i], mapped(x))
					return
				}
			}
		})
		c.finish(opts)
	}},
	{"For/ForEach/ForRange", func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, "For")
		opts := e.opts(c.r)
		seen := make(counts, len(c.xs))
		how := c.r.IntN(3)
		c.name = []string{"For", "ForEach", "ForRange"}[how]
		c.call(func() {
			switch how {
			case 0:
				par.For(len(c.xs), func(i int) {
					defer c.enter()()
					seen[i].Add(1)
					c.at(i)
				}, opts...)
			case 1:
				par.ForEach(c.xs, func(x tel) {
					defer c.enter()()
					seen[x.i].Add(1)
					c.at(x.i)
				}, opts...)
			case 2:
				par.ForRange(len(c.xs), func(lo, hi int) {
					defer c.enter()()
					if lo >= hi || lo < 0 || hi > len(c.xs) {
						c.errorf("piece [%d, %d) of %d", lo, hi, len(c.xs))
						return
					}
					for i := lo; i < hi; i++ {
						seen[i].Add(1)
						c.at(i)
					}
				}, opts...)
			}
		}, func() {
			for i := range seen {
				if v := seen[i].Load(); v != 1 {
					c.errorf("element %d: %d calls, want 1", i, v)
					return
				}
			}
		})
		for i := range seen { // even after a panic, no element runs twice
			if v := seen[i].Load(); v > 1 {
				c.errorf("element %d: %d calls after a panic", i, v)
				break
			}
		}
		c.finish(opts)
	}},
	{"Filter", func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, "Filter")
		opts := e.opts(c.r)
		var out []tel
		c.call(func() {
			out = par.Filter(c.xs, func(x tel) bool {
				defer c.enter()()
				c.at(x.i)
				return keepIt(x)
			}, opts...)
		}, func() {
			want := slices.DeleteFunc(slices.Clone(c.xs), func(x tel) bool { return !keepIt(x) })
			if !slices.Equal(out, want) {
				c.errorf("kept %d elements, want %d (or not in order)", len(out), len(want))
			}
		})
		c.finish(opts)
	}},
	{"Reduce/MapReduce", func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, "Reduce")
		opts := e.opts(c.r)
		var bad atomic.Bool
		var got aff
		useMap := c.r.IntN(2) == 0
		if useMap {
			c.name = "MapReduce"
		}
		c.call(func() {
			if useMap {
				got = par.MapReduce(c.xs, func(x tel) aff {
					defer c.enter()()
					c.at(x.i)
					return affOf(x)
				}, affID, func(l, r aff) aff { return affOp(l, r, &bad) }, opts...)
				return
			}
			in := make([]aff, len(c.xs))
			for i, x := range c.xs {
				in[i] = affOf(x)
			}
			got = par.Reduce(in, affID, func(l, r aff) aff {
				defer c.enter()()
				if r.hi == r.lo+1 { // r is an element: its last use in a leaf
					c.at(r.lo)
				}
				return affOp(l, r, &bad)
			}, opts...)
		}, func() {
			want := affID
			for _, x := range c.xs {
				want = affOp(want, affOf(x), &bad)
			}
			if got != want {
				c.errorf("got %+v, want %+v", got, want)
			}
		})
		if bad.Load() { // whether or not the call panicked: op sees only what identity, f and op made
			c.errorf("op combined pieces that are not neighbours in order")
		}
		c.finish(opts)
	}},
	{"Count/Sum/Min/Max", func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, "Count")
		opts := e.opts(c.r)
		var n int
		c.call(func() {
			n = par.Count(c.xs, func(x tel) bool {
				defer c.enter()()
				c.at(x.i)
				return keepIt(x)
			}, opts...)
		}, func() {
			want := 0
			for _, x := range c.xs {
				if keepIt(x) {
					want++
				}
			}
			if n != want {
				c.errorf("counted %d, want %d", n, want)
			}
		})
		// Sum, Min and Max run no function of the case, so they cannot
		// panic; they are checked on the same input.
		ints := make([]int, len(c.xs))
		floats := make([]float64, len(c.xs))
		want := 0
		for i, x := range c.xs {
			ints[i] = x.v*1_000_003 - 400_000_000
			floats[i] = float64(x.v - 500) // integers: the float sum is exact
			want += ints[i]
		}
		if got := par.Sum(ints, opts...); got != want {
			c.errorf("Sum %d, want %d", got, want)
		}
		if got, want := par.Sum(floats, opts...), sumFloats(floats); got != want {
			c.errorf("Sum of floats %v, want %v", got, want)
		}
		if len(ints) > 0 {
			if got, want := par.Min(ints, opts...), slices.Min(ints); got != want {
				c.errorf("Min %d, want %d", got, want)
			}
			if got, want := par.Max(ints, opts...), slices.Max(ints); got != want {
				c.errorf("Max %d, want %d", got, want)
			}
		}
		c.finish(opts)
	}},
	{"MinFunc/MaxFunc", func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, "MinFunc")
		if len(c.xs) == 0 {
			return
		}
		opts := e.opts(c.r)
		isMin := c.r.IntN(2) == 0
		if !isMin {
			c.name = "MaxFunc"
		}
		cmpV := func(a, b tel) int {
			defer c.enter()()
			c.at(a.i)
			c.at(b.i)
			return a.v/10 - b.v/10 // many equal: the first of equals must win
		}
		var got tel
		c.call(func() {
			if isMin {
				got = par.MinFunc(c.xs, cmpV, opts...)
			} else {
				got = par.MaxFunc(c.xs, cmpV, opts...)
			}
		}, func() {
			plain := func(a, b tel) int { return a.v/10 - b.v/10 }
			want := slices.MinFunc(c.xs, plain)
			if !isMin {
				want = slices.MaxFunc(c.xs, plain)
			}
			if got != want {
				c.errorf("got %+v, want %+v", got, want)
			}
		})
		c.finish(opts)
	}},
	{"Find/FindIndex/Any/All", func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, "Find")
		opts := e.opts(c.r)
		// A few matches, or none.
		match := map[int]bool{}
		if len(c.xs) > 0 {
			for range c.r.IntN(9) {
				match[c.r.IntN(len(c.xs))] = true
			}
		}
		pred := func(x tel) bool {
			defer c.enter()()
			c.at(x.i)
			return match[x.i]
		}
		first := -1
		for i := range c.xs {
			if match[i] {
				first = i
				break
			}
		}
		how := c.r.IntN(4)
		c.name = []string{"Find", "FindIndex", "Any", "All"}[how]
		c.call(func() {
			switch how {
			case 0:
				x, ok := par.Find(c.xs, pred, opts...)
				if ok != (first >= 0) || (ok && x != c.xs[first]) {
					c.errorf("found %+v %v, want index %d", x, ok, first)
				}
			case 1:
				if i := par.FindIndex(c.xs, pred, opts...); i != first {
					c.errorf("index %d, want %d", i, first)
				}
			case 2:
				if got := par.Any(c.xs, pred, opts...); got != (first >= 0) {
					c.errorf("Any %v, want %v", got, first >= 0)
				}
			case 3:
				all := func(x tel) bool { return !pred(x) }
				if got := par.All(c.xs, all, opts...); got != (first < 0) {
					c.errorf("All %v, want %v", got, first < 0)
				}
			}
		}, func() {})
		c.finish(opts)
	}},
	{"Sort", func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, "Sort")
		opts := e.opts(c.r)
		if c.r.IntN(3) == 0 { // the parallel paths start above a few thousand
			opts = append(opts, par.WithGrain(1+c.r.IntN(64)))
		}
		switch c.r.IntN(4) {
		case 0: // radix sort: no function of the case
			s := make([]int64, len(c.xs))
			for i, x := range c.xs {
				s[i] = int64(x.v-500) * int64(c.r.Uint64()>>40)
			}
			want := slices.Clone(s)
			slices.Sort(want)
			par.Sort(s, opts...)
			if !slices.Equal(s, want) {
				c.errorf("Sort of int64 differs from slices.Sort")
			}
		case 1: // quicksort of strings
			s := make([]string, len(c.xs))
			for i, x := range c.xs {
				s[i] = fmt.Sprint(x.v * 7919 % 1000)
			}
			want := slices.Clone(s)
			slices.Sort(want)
			par.Sort(s, opts...)
			if !slices.Equal(s, want) {
				c.errorf("Sort of strings differs from slices.Sort")
			}
		case 2, 3:
			stable := c.r.IntN(2) == 0
			c.name = "SortFunc"
			if stable {
				c.name = "SortStableFunc"
			}
			s := slices.Clone(c.xs)
			cmpV := func(a, b tel) int {
				defer c.enter()()
				c.at(a.i)
				return a.v/50 - b.v/50
			}
			c.call(func() {
				if stable {
					par.SortStableFunc(s, cmpV, opts...)
				} else {
					par.SortFunc(s, cmpV, opts...)
				}
			}, func() {
				want := slices.Clone(c.xs)
				slices.SortStableFunc(want, func(a, b tel) int { return a.v/50 - b.v/50 })
				if stable {
					if !slices.Equal(s, want) {
						c.errorf("differs from slices.SortStableFunc")
					}
					return
				}
				keys := func(s []tel) []int {
					k := make([]int, len(s))
					for i, x := range s {
						k[i] = x.v / 50
					}
					return k
				}
				if !slices.Equal(keys(s), keys(want)) {
					c.errorf("keys not sorted")
				}
				got := slices.Clone(s)
				slices.SortFunc(got, func(a, b tel) int { return a.i - b.i })
				if !slices.Equal(got, c.xs) {
					c.errorf("not a permutation of the input")
				}
			})
		}
		c.finish(opts)
	}},
	{"Seq", seqCase},
	{"Err", errCase},
	{"pipe", pipeCase},
}

// sumFloats adds integer-valued floats; every partial sum is exact, so any
// order gives it.
func sumFloats(s []float64) float64 {
	var t float64
	for _, x := range s {
		t += x
	}
	return t
}

// seqCase ranges over MapSeq or FilterSeq, maybe breaking early, with panics
// possible in f, in the loop body and in the sequence itself; or calls
// ReduceSeq, ForEachSeq or SumSeq.
func seqCase(e *tortureEnv, seed uint64, depth int) {
	c := newCallCase(e, seed, depth, "Seq")
	opts := e.opts(c.r)
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
				c.fire(&tortureBoom{seed: seed, where: fmt.Sprintf("seq at %d", i)})
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
			c.fire(&tortureBoom{seed: seed, where: fmt.Sprintf("loop body at %d", len(got))})
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
			for v := range par.MapSeq(iter.Seq[tel](seq), func(x tel) int {
				defer c.enter()()
				c.at(x.i)
				return mapped(x)
			}, opts...) {
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
			for x := range par.FilterSeq(iter.Seq[tel](seq), func(x tel) bool {
				defer c.enter()()
				c.at(x.i)
				return keepIt(x)
			}, opts...) {
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
			want := affID
			for _, x := range c.xs {
				want = affOp(want, affOf(x), &bad)
			}
			if got != want {
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
	c.finish(opts)
}

// requireOnceE reports an element whose counter is not exactly one.
func requireOnceE(c *callCase, seen counts) {
	for i := range seen {
		if v := seen[i].Load(); v != 1 {
			c.errorf("element %d: %d calls, want 1", i, v)
			return
		}
	}
}

// tortureErr is an injected error, compared by identity.
type tortureErr struct {
	seed uint64
	i    int
}

func (e *tortureErr) Error() string { return fmt.Sprintf("error %#x at %d", e.seed, e.i) }

// errCase calls MapErr or ForEachErr with errors at random elements, a
// context that may end before the call or from inside it, and maybe a
// callback that waits for the call to stop, as a callback that watches its
// context does.
func errCase(e *tortureEnv, seed uint64, depth int) {
	c := newCallCase(e, seed, depth, "MapErr")
	opts := e.opts(c.r)
	n := len(c.xs)
	errAt := map[int]error{}
	var slowErr time.Duration
	if n > 0 {
		if c.r.IntN(2) == 0 {
			// Near the start of evenly spaced regions, so that pieces running
			// at once fail each, in an order that timing decides.
			m := 2 + c.r.IntN(15)
			for k := c.r.IntN(2); k < m; k++ {
				i := min(n-1, k*n/m+c.r.IntN(1+n/(4*m)))
				errAt[i] = &tortureErr{seed, i}
			}
			// Failing slowly lets the others fail meanwhile.
			slowErr = time.Duration(c.r.IntN(300)) * time.Microsecond
			if c.spin == 0 {
				c.spin = c.r.IntN(500)
			}
		} else {
			for range c.r.IntN(4) {
				i := c.r.IntN(n)
				errAt[i] = &tortureErr{seed, i}
			}
		}
	}
	parent, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	cause := &tortureErr{seed, -1}
	cancelAt := -1
	cancelledBefore := false
	switch c.r.IntN(4) {
	case 0:
		cancel(cause)
		cancelledBefore = true
	case 1:
		if n > 0 {
			cancelAt = c.r.IntN(n)
		}
	}
	// A callback that blocks until the call stops: safe only after an
	// element that stops it for sure, whatever the order the elements run in.
	waitAt := -1
	stopper := n
	for i := range errAt {
		stopper = min(stopper, i)
	}
	for i := range c.booms {
		stopper = min(stopper, i)
	}
	if cancelAt >= 0 {
		stopper = min(stopper, cancelAt)
	}
	if stopper < n-1 && c.r.IntN(3) == 0 {
		waitAt = stopper + 1 + c.r.IntN(n-1-stopper)
		delete(errAt, waitAt)
		delete(c.booms, waitAt)
	}
	var (
		seenCtx   atomic.Pointer[context.Context]
		canceled  atomic.Bool
		errFired  = make([]atomic.Bool, n)
		stopTime  atomic.Int64 // when a callback failed or ended ctx: ctx' ends with it
		waitedOut atomic.Bool
	)
	f := func(cx context.Context, x tel) (int, error) {
		defer c.enter()()
		seenCtx.CompareAndSwap(nil, &cx)
		c.at(x.i)
		if x.i == cancelAt {
			cancel(cause)
			canceled.Store(true)
			stopTime.CompareAndSwap(0, time.Now().UnixNano())
		}
		if x.i == waitAt {
			waitStop(cx, &stopTime, &waitedOut)
		}
		if err := errAt[x.i]; err != nil {
			if slowErr > 0 {
				time.Sleep(slowErr)
			}
			errFired[x.i].Store(true)
			stopTime.CompareAndSwap(0, time.Now().UnixNano())
			return 0, err
		}
		return mapped(x), nil
	}
	useMap := c.r.IntN(2) == 0
	if !useMap {
		c.name = "ForEachErr"
	}
	var out []int
	var err error
	c.call(func() {
		if useMap {
			out, err = par.MapErr(parent, c.xs, f, opts...)
			return
		}
		err = par.ForEachErr(parent, c.xs, func(cx context.Context, x tel) error {
			_, err := f(cx, x)
			return err
		}, opts...)
	}, func() {
		if waitedOut.Load() {
			c.errorf("a callback waited minutes for ctx' to end after the call stopped")
		}
		var minErr error
		for i := range errFired {
			if errFired[i].Load() {
				minErr = errAt[i]
				break
			}
		}
		switch {
		case cancelledBefore:
			if err != cause || c.calls.Load() != 0 {
				c.errorf("ctx ended before the call: error %v, want %v; %d calls of f", err, cause, c.calls.Load())
			}
		case minErr != nil && canceled.Load():
			if err != minErr && err != cause {
				c.errorf("error %v, want %v or the cause %v", err, minErr, cause)
			}
		case minErr != nil:
			if err != minErr {
				c.errorf("error %v, want %v, the lowest failing index", err, minErr)
			}
		case canceled.Load():
			if err != cause && !(err == nil && c.calls.Load() == int64(n)) {
				c.errorf("error %v after ctx ended, want %v", err, cause)
			}
		default:
			if err != nil {
				c.errorf("error %v, want nil", err)
			}
		}
		if err == nil && c.calls.Load() != int64(n) {
			c.errorf("nil error after %d calls of f, want %d", c.calls.Load(), n)
		}
		if err != nil && out != nil {
			c.errorf("a result beside the error %v", err)
		}
		if err == nil && useMap {
			for i, x := range c.xs {
				if out[i] != mapped(x) {
					c.errorf("out[%d] = %d, want %d", i, out[i], mapped(x))
					break
				}
			}
		}
	})
	if p := seenCtx.Load(); p != nil && (*p).Err() == nil {
		c.errorf("ctx' not cancelled after the call returned")
	}
	c.finish(opts)
}

// waitStop blocks until ctx ends, as a callback that watches its context
// does. An error or the end of the parent cancels ctx at once, so if ctx is
// still live seconds after one (stopped says when), the stop was lost: out is
// set. A stop by a panic may come later, since the panic may cross nested
// calls first: the wait then gives up after a while without blaming anyone,
// so that two cases whose stops each wait behind the other's blocked callback
// cannot hang the test. The bounds only keep a broken stop from hanging it.
func waitStop(ctx context.Context, stopped *atomic.Int64, out *atomic.Bool) {
	giveUp := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if t := stopped.Load(); t != 0 && now.Sub(time.Unix(0, t)) > 10*time.Second {
				out.Store(true)
				return
			}
			if now.After(giveUp) {
				return
			}
		}
	}
}

// pipeCase runs a random chain of pipe stages and a random terminal, and
// compares it with the chain applied in a plain loop. Items are source
// indices at first, so that the first stage knows where it is.
func pipeCase(e *tortureEnv, seed uint64, depth int) {
	c := newCallCase(e, seed, depth, "pipe")
	opts := e.opts(c.r)
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
	c.finish(opts)
}

// tortureAll is every kind of case, for nested cases; set in init, since the
// cases refer to it.
var tortureAll []tortureKind

func init() {
	tortureAll = append(append([]tortureKind(nil), treeKinds...), callKinds...)
}

// tortureNested runs the case of seed as a nested case: it checks itself and
// catches its own panics, so the enclosing call sees none of them.
func tortureNested(e *tortureEnv, seed uint64, depth int) {
	tortureRunCase(e, tortureAll, seed, depth)
}
