package par_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
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
	booms map[int]*torture.Boom // elements that panic; read-only during the call
	nests map[int]uint64        // elements that run a nested case, by its seed
	spin  int                   // busy work per callback, so that cheap inputs go parallel too

	mu     sync.Mutex
	fired  []*torture.Boom
	active atomic.Int64 // callbacks running
	calls  atomic.Int64 // callbacks started
}

func (c *callCase) errorf(format string, args ...any) {
	c.e.Errorf(c.seed, c.name+": "+format, args...)
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
	torture.Keep(x)
	if s, ok := c.nests[i]; ok {
		tortureNested(c.e, s, c.depth+1)
	}
	if b := c.booms[i]; b != nil {
		c.fire(b)
	}
}

// fire records b and panics with it: directly, or from inside a call nested
// on a random pool.
func (c *callCase) fire(b *torture.Boom) {
	c.mu.Lock()
	c.fired = append(c.fired, b)
	c.mu.Unlock()
	r := newRand(torture.Mix(c.seed, uint64(len(b.Where))))
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
func (c *callCase) firedSet() []*torture.Boom {
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
	b, ok := got.(*torture.Boom)
	if !ok || !slices.Contains(fired, b) {
		c.errorf("panicked with %v (%T); the values that fired: %v", got, got, fired)
	}
	return false
}

// call runs f, the call under test, and checks how it ended; check, the
// comparison with the model, runs only if it returned normally.
func (c *callCase) call(f func(), check func()) {
	got, panicked := torture.Catch(f)
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
	c := &callCase{e: e, seed: seed, depth: depth, r: r, name: name, booms: map[int]*torture.Boom{}, nests: map[int]uint64{}}
	c.xs = make([]tel, n)
	for i := range c.xs {
		c.xs[i] = tel{i, r.IntN(1000)}
	}
	if n > 0 && r.IntN(3) == 0 {
		for k := range 1 + r.IntN(3) {
			i := r.IntN(n)
			c.booms[i] = &torture.Boom{Seed: seed, Where: fmt.Sprintf("%s element %d (%d)", name, i, k)}
		}
	}
	if n > 0 && depth < 2 && r.IntN(8) == 0 {
		c.nests[r.IntN(n)] = torture.Mix(seed, 77)
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

// callKind is a kind of call case: body makes the call of a fresh case with
// the options opts and checks it; then the case checks that nothing of it
// runs any more.
func callKind(name string, body func(c *callCase, opts []par.Option)) tortureKind {
	return tortureKind{name, func(e *tortureEnv, seed uint64, depth int) {
		c := newCallCase(e, seed, depth, name)
		opts := e.opts(c.r)
		body(c, opts)
		c.finish(opts)
	}}
}

// each makes g the function of a call of case c: every call counts itself,
// does what the case injected at its element, and returns g(x).
func each[R any](c *callCase, g func(tel) R) func(tel) R {
	return func(x tel) R {
		defer c.enter()()
		c.at(x.i)
		return g(x)
	}
}

// affModel is the composition of the elements of xs in order: what Reduce of
// their affOf must give.
func affModel(xs []tel, bad *atomic.Bool) aff {
	want := affID
	for _, x := range xs {
		want = affOp(want, affOf(x), bad)
	}
	return want
}

var callKinds = []tortureKind{
	callKind("Map", func(c *callCase, opts []par.Option) {
		var out []int
		c.call(func() { out = par.Map(c.xs, each(c, mapped), opts...) }, func() {
			for i, x := range c.xs {
				if out[i] != mapped(x) {
					c.errorf("out[%d] = %d, want %d", i, out[i], mapped(x))
					return
				}
			}
		})
	}),
	callKind("For/ForEach/ForRange", func(c *callCase, opts []par.Option) {
		seen := make(counts, len(c.xs))
		how := c.r.IntN(3)
		c.name = []string{"For", "ForEach", "ForRange"}[how]
		one := func(i int) {
			seen[i].Add(1)
			c.at(i)
		}
		c.call(func() {
			switch how {
			case 0:
				par.For(len(c.xs), func(i int) {
					defer c.enter()()
					one(i)
				}, opts...)
			case 1:
				par.ForEach(c.xs, func(x tel) {
					defer c.enter()()
					one(x.i)
				}, opts...)
			case 2:
				par.ForRange(len(c.xs), func(lo, hi int) {
					defer c.enter()()
					if lo >= hi || lo < 0 || hi > len(c.xs) {
						c.errorf("piece [%d, %d) of %d", lo, hi, len(c.xs))
						return
					}
					for i := lo; i < hi; i++ {
						one(i)
					}
				}, opts...)
			}
		}, func() { requireOnceE(c, seen) })
		for i := range seen { // even after a panic, no element runs twice
			if v := seen[i].Load(); v > 1 {
				c.errorf("element %d: %d calls after a panic", i, v)
				break
			}
		}
	}),
	callKind("Filter", func(c *callCase, opts []par.Option) {
		var out []tel
		c.call(func() { out = par.Filter(c.xs, each(c, keepIt), opts...) }, func() {
			want := slices.DeleteFunc(slices.Clone(c.xs), func(x tel) bool { return !keepIt(x) })
			if !slices.Equal(out, want) {
				c.errorf("kept %d elements, want %d (or not in order)", len(out), len(want))
			}
		})
	}),
	callKind("Reduce/MapReduce", func(c *callCase, opts []par.Option) {
		var bad atomic.Bool
		var got aff
		useMap := c.r.IntN(2) == 0
		if useMap {
			c.name = "MapReduce"
		} else {
			c.name = "Reduce"
		}
		op := func(l, r aff) aff { return affOp(l, r, &bad) }
		c.call(func() {
			if useMap {
				got = par.MapReduce(c.xs, each(c, affOf), affID, op, opts...)
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
				return op(l, r)
			}, opts...)
		}, func() {
			if want := affModel(c.xs, &bad); got != want {
				c.errorf("got %+v, want %+v", got, want)
			}
		})
		if bad.Load() { // whether or not the call panicked: op sees only what identity, f and op made
			c.errorf("op combined pieces that are not neighbours in order")
		}
	}),
	callKind("Count/Sum/Min/Max", func(c *callCase, opts []par.Option) {
		c.name = "Count"
		var n int
		c.call(func() { n = par.Count(c.xs, each(c, keepIt), opts...) }, func() {
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
	}),
	callKind("MinFunc/MaxFunc", func(c *callCase, opts []par.Option) {
		if len(c.xs) == 0 {
			return
		}
		isMin := c.r.IntN(2) == 0
		c.name = map[bool]string{true: "MinFunc", false: "MaxFunc"}[isMin]
		plain := func(a, b tel) int { return a.v/10 - b.v/10 } // many equal: the first of equals must win
		cmpV := func(a, b tel) int {
			defer c.enter()()
			c.at(a.i)
			c.at(b.i)
			return plain(a, b)
		}
		call, model := par.MinFunc[[]tel, tel], slices.MinFunc[[]tel, tel]
		if !isMin {
			call, model = par.MaxFunc[[]tel, tel], slices.MaxFunc[[]tel, tel]
		}
		var got tel
		c.call(func() { got = call(c.xs, cmpV, opts...) }, func() {
			if want := model(c.xs, plain); got != want {
				c.errorf("got %+v, want %+v", got, want)
			}
		})
	}),
	callKind("Find/FindIndex/Any/All", func(c *callCase, opts []par.Option) {
		// A few matches, or none.
		match := map[int]bool{}
		if len(c.xs) > 0 {
			for range c.r.IntN(9) {
				match[c.r.IntN(len(c.xs))] = true
			}
		}
		pred := each(c, func(x tel) bool { return match[x.i] })
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
	}),
	callKind("Sort", sortCase),
	callKind("Seq", seqCase),
	callKind("Err", errCase),
	callKind("pipe", pipeCase),
}

// sortCase sorts int64 (the radix sort: no function of the case), strings
// (the quicksort), or tels with SortFunc or SortStableFunc, whose comparison
// may panic.
func sortCase(c *callCase, opts []par.Option) {
	if c.r.IntN(3) == 0 { // the parallel paths start above a few thousand
		opts = append(opts, par.WithGrain(1+c.r.IntN(64)))
	}
	switch c.r.IntN(4) {
	case 0: // radix sort: no function of the case
		s := make([]int64, len(c.xs))
		for i, x := range c.xs {
			s[i] = int64(x.v-500) * int64(c.r.Uint64()>>40)
		}
		requireSortedLike(c, s, opts, "Sort of int64")
	case 1: // quicksort of strings
		s := make([]string, len(c.xs))
		for i, x := range c.xs {
			s[i] = fmt.Sprint(x.v * 7919 % 1000)
		}
		requireSortedLike(c, s, opts, "Sort of strings")
	case 2, 3:
		stable := c.r.IntN(2) == 0
		c.name = map[bool]string{false: "SortFunc", true: "SortStableFunc"}[stable]
		key := func(x tel) int { return x.v / 50 }
		s := slices.Clone(c.xs)
		cmpV := func(a, b tel) int {
			defer c.enter()()
			c.at(a.i)
			return key(a) - key(b)
		}
		c.call(func() {
			if stable {
				par.SortStableFunc(s, cmpV, opts...)
			} else {
				par.SortFunc(s, cmpV, opts...)
			}
		}, func() {
			want := slices.Clone(c.xs)
			slices.SortStableFunc(want, func(a, b tel) int { return key(a) - key(b) })
			if stable {
				if !slices.Equal(s, want) {
					c.errorf("differs from slices.SortStableFunc")
				}
				return
			}
			keys := func(s []tel) []int {
				k := make([]int, len(s))
				for i, x := range s {
					k[i] = key(x)
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
}

// requireSortedLike sorts s with par.Sort and compares it with slices.Sort.
func requireSortedLike[E cmp.Ordered](c *callCase, s []E, opts []par.Option, what string) {
	want := slices.Clone(s)
	slices.Sort(want)
	par.Sort(s, opts...)
	if !slices.Equal(s, want) {
		c.errorf("%s differs from slices.Sort", what)
	}
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

// requireOnceE reports an element whose counter is not exactly one.
func requireOnceE(c *callCase, seen counts) {
	for i := range seen {
		if v := seen[i].Load(); v != 1 {
			c.errorf("element %d: %d calls, want 1", i, v)
			return
		}
	}
}
