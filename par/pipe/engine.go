package pipe

import (
	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/split"
)

// Every terminal describes its work to the engine (package
// internal/engine) as a split.Work, as package par's functions do: how a
// run of adjacent positions folds into an accumulator, and how two runs
// merge. It resolves its options as par does (engine.Configure, which par
// sets), so a bad option panics the same way, naming the terminal.

// configure resolves a terminal's options as package par resolves its
// calls'. Every terminal runs it, whatever the pipe's length.
func configure(opts []par.Option) engine.Config {
	if len(opts) == 0 {
		return engine.Config{}
	}
	return engine.Configure(opts)
}

// runFor calls f on pieces [lo, hi) that cover [0, n) exactly once, as
// par.ForRange does: a call that the engine decides runs as one chunk on
// the caller calls f once, without building its work.
func runFor(name string, cfg *engine.Config, n int, f func(lo, hi int)) {
	if n == 0 {
		return
	}
	var key uintptr
	if decided, one := engine.Settled(cfg, n); decided {
		if one {
			f(0, n)
			return
		}
	} else {
		key = engine.SiteKey(f)
		if o, ok := engine.One(cfg, key, n); ok {
			f(0, n)
			o.End(n)
			return
		}
	}
	engine.Run(cfg, n, split.Work[struct{}]{Name: name, Key: key,
		Fold: func(_ struct{}, lo, hi int) struct{} { f(lo, hi); return struct{}{} }})
}

// runReduce folds [0, n) as par.ReduceRange does: leaf makes the result of
// a piece, op joins two adjacent ones; identity for n == 0.
func runReduce[R any](name string, cfg *engine.Config, n int, identity R, leaf func(lo, hi int) R, op func(left, right R) R) R {
	if n == 0 {
		return identity
	}
	return engine.Run(cfg, n, split.Work[R]{Name: name, Leaf: leaf, Merge: op})
}

// runFold folds [0, n) as par.FoldRange does: one accumulator that init
// makes per run of adjacent pieces, merged in order; init() for n == 0.
// merge is the caller's check of distinct accumulators and the user's
// merge.
func runFold[A any](name string, cfg *engine.Config, n int, init func() A, fold func(acc A, lo, hi int) A, merge func(left, right A) A) A {
	if n == 0 {
		return init()
	}
	return engine.Run(cfg, n, split.Work[A]{Name: name, Key: engine.SiteKey(fold), Init: init, Fold: fold, Merge: merge})
}

// runEach calls f over the pieces of [0, n) with a value per participant
// that init makes, as par.ForRangeInit does, and returns the values.
func runEach[T any](name string, cfg *engine.Config, n int, init func() T, f func(t T, lo, hi int)) []T {
	if n == 0 {
		return nil
	}
	return engine.RunAll(cfg, n, split.Work[T]{Name: name, Key: engine.SiteKey(f), Reuse: true, Init: init,
		Fold: func(t T, lo, hi int) T { f(t, lo, hi); return t }})
}
