package par

import (
	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/split"
)

// Every function of par over a range describes its work to the engine
// (package internal/engine) as a split.Work: how a run of adjacent
// positions folds into an accumulator and how two runs merge. The engine
// cuts, steps and schedules; par keeps to the algebra.

// run folds [0, n) as w describes, on the call's pool (engine.Run).
func run[A any](c *config, n int, w split.Work[A]) A { return engine.Run(&c.Config, n, w) }

// runAll is run for a Reuse work: every accumulator made, in no order.
func runAll[A any](c *config, n int, w split.Work[A]) []A { return engine.RunAll(&c.Config, n, w) }

// oneChunk reports whether a call of n elements with f, whose site is key (0:
// f's code), runs on its caller as one chunk (engine.One), and returns that
// chunk and the key: a function whose fold wraps the user's function in a
// closure then runs its loop without making one.
func oneChunk[F any](c *config, f F, key uintptr, n int) (engine.OneChunk, uintptr, bool) {
	if decided, one := engine.Settled(&c.Config, n); decided {
		return engine.OneChunk{}, key, one
	}
	if key == 0 {
		key = siteKey(f)
	}
	one, ok := engine.One(&c.Config, key, n)
	return one, key, ok
}

// siteKey returns the key of the site of calls made with f (engine.SiteKey).
func siteKey[F any](f F) uintptr { return engine.SiteKey(f) }

// each adapts a loop over a piece to the Fold of a work that carries
// nothing.
func each(f func(lo, hi int)) func(struct{}, int, int) struct{} {
	return func(_ struct{}, lo, hi int) struct{} { f(lo, hi); return struct{}{} }
}
