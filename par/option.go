package par

import (
	"context"
	"fmt"
	"runtime/pprof"

	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/sched"
)

// Option configures one call. Options are small values: passing them costs no
// allocation.
type Option struct {
	kind optKind
	n    int
	pool *Pool
	ctx  context.Context
}

type optKind uint8

const (
	optPool optKind = iota + 1
	optGrain
	optMinLen
	optLabels
	optLowestErr
)

func init() {
	engine.Configure = func(opts any) engine.Config {
		c := configure(opts.([]Option))
		return c.Config
	}
}

// OnPool directs a call at p instead of the default pool. It panics if p is
// nil or was not made by NewPool. A call given OnPool(p) after p's Close
// panics, whether or not it would have reached the pool.
func OnPool(p *Pool) Option {
	if p == nil {
		panic("par: OnPool(nil): pool is nil")
	}
	if p.p == nil {
		panic("par: OnPool: pool was not made by NewPool")
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

// WithLabels makes the work that the pool's workers do for a call carry the
// profiler labels of ctx (set with runtime/pprof.WithLabels or pprof.Do), so
// that a CPU profile puts it under the call that caused it rather than under
// anonymous workers: `go tool pprof -tagfocus=request=checkout cpu.prof`. The
// calling goroutine works on its own call too and keeps its own labels: make
// the call inside pprof.Do with the same labels to have its share counted as
// well. MapErr and ForEachErr take the labels of their ctx without this
// option. A call without labels pays nothing for them; a piece of a labelled
// call that a worker takes costs two pprof.SetGoroutineLabels
// (BenchmarkLabels). It panics if ctx is nil.
func WithLabels(ctx context.Context) Option {
	if ctx == nil {
		panic("par: WithLabels(nil): ctx is nil")
	}
	return Option{kind: optLabels, ctx: ctx}
}

// labelled returns ctx if it carries profiler labels, and nil otherwise, so
// that a call checks for labels once, not at every piece.
func labelled(ctx context.Context) context.Context {
	has := false
	pprof.ForLabels(ctx, func(string, string) bool { has = true; return false })
	if has {
		return ctx
	}
	return nil
}

// config is the resolved form of a call's options: the engine's, and what
// only package par reads.
type config struct {
	engine.Config
	pool *Pool
	// lowestErr: MapErr and ForEachErr return the error of the lowest
	// failing index (see LowestIndexError).
	lowestErr bool
}

// run calls f with a seat of the call's pool.
func (c *config) run(f func(w *sched.Worker)) { c.Config.Run(f) }

// configure resolves a call's options. Every call runs it, whatever the
// length of its input, so that a bad option panics the same way on an empty
// input as on a long one.
func configure(opts []Option) config {
	var c config
	for i, o := range opts {
		switch o.kind {
		case optPool:
			if o.pool.closed.Load() {
				panic(closedError(fmt.Sprintf("OnPool in opts[%d]", i))) // whether or not the call would reach the pool
			}
			c.pool, c.Pool = o.pool, o.pool.p
		case optGrain:
			c.Grain = o.n
		case optMinLen:
			c.MinLen = o.n
		case optLabels:
			c.Labels = labelled(o.ctx)
		case optLowestErr:
			c.lowestErr = true
		case 0:
			panic(fmt.Sprintf("%s: opts[%d] is a zero Option: build options with OnPool, WithGrain, WithMinLen or WithLabels", engine.CallName(), i))
		}
	}
	return c
}

// closedError is the panic value of a call directed at a closed pool: an
// error that names the call, says why, and wraps ErrClosed.
func closedError(why string) error { return engine.ClosedError(why) }
