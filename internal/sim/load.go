package sim

import "math"

// Load is the cost of a call's elements, named by its body (the site its
// calls share): element i takes Cum(i+1)-Cum(i)
// nanoseconds, run on its own. The simulator never runs the elements; it
// advances the clock by what a run of them costs.
type Load struct {
	Name string
	N    int
	cum  func(i int) float64
	max  float64 // the dearest element
	// Whole says that the calls' leaves run whole, as ReduceRange's leaf
	// does (a split.Work with a Leaf): the engine cuts them by
	// split.ForWhole and never runs one in steps.
	Whole bool
}

// Cum returns the time elements [0, i) take, run one after another.
func (l Load) Cum(i int) float64 { return l.cum(i) }

// T1 returns the time of the whole range run one element after another.
func (l Load) T1() float64 { return l.cum(l.N) }

// Max returns the cost of the dearest element.
func (l Load) Max() float64 { return l.max }

// cost returns the time of elements [lo, hi), in whole nanoseconds.
func (l Load) cost(lo, hi int) int64 { return int64(math.Round(l.cum(hi) - l.cum(lo))) }

// Uniform is W1's shape: n elements of perElem nanoseconds each.
func Uniform(name string, n int, perElem float64) Load {
	return Load{Name: name, N: n, max: perElem, cum: func(i int) float64 { return perElem * float64(i) }}
}

// Uneven is W2's shape: element x takes base + step*(x%100+1)
// nanoseconds.
func Uneven(name string, n int, base, step float64) Load {
	return Load{Name: name, N: n, max: base + float64(min(n, 100))*step, cum: func(i int) float64 {
		q, r := i/100, i%100
		steps := float64(q)*5050 + float64(r*(r+1)/2)
		return base*float64(i) + step*steps
	}}
}

// Climbing is W3's shape: element i of n takes base + step*(1 +
// i*i*4000/(n*n)) nanoseconds, the integer division of the definition.
func Climbing(name string, n int, base, step float64) Load {
	pre := make([]float64, n+1)
	m := uint64(n)
	for i := range n {
		u := uint64(i)
		pre[i+1] = pre[i] + base + step*float64(1+(u*u*4000)/(m*m))
	}
	return Load{Name: name, N: n, max: pre[n] - pre[n-1], cum: func(i int) float64 { return pre[i] }}
}

// Costs are the per-element figures that the loads of the suite are made
// from: W1's element, and the base and the step of W2's and W3's (an
// element of x%100+1 steps takes Base + Step*(x%100+1)).
type Costs struct {
	W1         float64 // ns an element of x*x
	Base, Step float64 // ns
	Fib        float64 // ns a call of the plain recursion fib
}

// DefaultCosts are this machine's figures at the time of writing (go run
// ./bench -sim measures them anew): W1's 10M elements in about 3 ms, W2's
// element about 30 ns.
var DefaultCosts = Costs{W1: 0.33, Base: 1.5, Step: 0.55, Fib: 2.2}

// W1 returns W1's load over n elements.
func (c Costs) W1Load(n int) Load { return Uniform("W1", n, c.W1) }

// W2Load returns W2's load over n elements (W11's W2 body too).
func (c Costs) W2Load(n int) Load { return Uneven("W2", n, c.Base, c.Step) }

// W3Load returns W3's load over n elements.
func (c Costs) W3Load(n int) Load { return Climbing("W3", n, c.Base, c.Step) }
