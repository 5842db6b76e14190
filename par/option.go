package par

import (
	"fmt"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// Option configures one call. Options are small values: passing them costs no
// allocation.
type Option struct {
	kind optKind
	n    int
	pool *Pool
}

type optKind uint8

const (
	optPool optKind = iota + 1
	optGrain
	optMinLen
)

// OnPool directs a call at p instead of the default pool.
func OnPool(p *Pool) Option {
	if p == nil {
		panic("par: OnPool(nil): pool is nil")
	}
	return Option{kind: optPool, pool: p}
}

// WithGrain fixes the size of the pieces a call cuts its range into: every
// piece longer than n is cut, and no other, whatever the load. Use it when the
// cost of an element is known and uniform; the adaptive default is usually as
// fast.
func WithGrain(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("par: WithGrain(%d): grain must be at least 1", n))
	}
	return Option{kind: optGrain, n: n}
}

// WithMinLen keeps adaptive splitting but never makes a piece shorter than n
// elements. Use it when an element costs so little that a task of fewer
// elements is not worth stealing.
func WithMinLen(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("par: WithMinLen(%d): minimum length must be at least 1", n))
	}
	return Option{kind: optMinLen, n: n}
}

// config is the resolved form of a call's options.
type config struct {
	pool   *Pool
	grain  int
	minLen int
}

func configure(opts []Option) config {
	var c config
	for _, o := range opts {
		switch o.kind {
		case optPool:
			if o.pool.p.Closed() {
				panic(sched.ErrClosed) // whether or not the call would reach the pool
			}
			c.pool = o.pool
		case optGrain:
			c.grain = o.n
		case optMinLen:
			c.minLen = o.n
		case 0:
			panic("par: zero Option: build options with OnPool, WithGrain or WithMinLen")
		}
	}
	return c
}

// splitter returns the splitting state of a whole range for a call on a pool
// with the given number of workers. The budget counts the caller too, which
// works on its call like a worker: with a pool of one worker and budget one, a
// call on two cores was cut into two pieces and the end of the call waited
// for the slower one.
func (c *config) splitter(workers int) split.Splitter {
	if c.grain > 0 {
		return split.Fixed(c.grain)
	}
	return split.New(workers+1, max(c.minLen, 1), 0)
}

// run calls f with a seat of the call's pool.
func (c *config) run(f func(w *sched.Worker)) {
	if c.pool != nil {
		c.pool.p.Run(f)
		return
	}
	sched.RunDefault(f)
}
