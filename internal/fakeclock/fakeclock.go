// Package fakeclock is a clock for tests of timing decisions: the code under
// test reads it, and the test's elements advance it by what each is said to
// cost, so that a rule about time is checked without timing anything. It is
// imported only by tests (split's and par's).
package fakeclock

import "time"

// Clock is a fake clock; its zero value is not ready, use New.
type Clock struct {
	Now   time.Time
	Reads int // how many times Read was called
}

// Epoch is the time a new Clock shows.
var Epoch = time.Unix(0, 0)

// New returns a clock at Epoch.
func New() *Clock { return &Clock{Now: Epoch} }

// Read returns the time and counts the read; pass it where the code under test
// takes a clock (func() time.Time).
func (c *Clock) Read() time.Time { c.Reads++; return c.Now }

// Elapsed returns the time since Epoch.
func (c *Clock) Elapsed() time.Duration { return c.Now.Sub(Epoch) }

// Charge advances the clock by the cost of the elements of [lo, hi).
func (c *Clock) Charge(lo, hi int, cost func(i int) time.Duration) {
	for i := lo; i < hi; i++ {
		c.Now = c.Now.Add(cost(i))
	}
}

// Uniform is a cost of d for every element.
func Uniform(d time.Duration) func(int) time.Duration {
	return func(int) time.Duration { return d }
}

// W3 is the cost shape of W3 of `go run ./bench` over n elements: 3 ns a
// step, 1 + 4000*i*i/(n*n) steps for element i, climbing to about 12 µs at
// the end.
func W3(n int) func(i int) time.Duration {
	return func(i int) time.Duration {
		u, m := int64(i), int64(n)
		return time.Duration(3 * (1 + u*u*4000/(m*m)))
	}
}
