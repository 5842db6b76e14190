package par

import (
	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/split"
)

// ForRangePaced runs f over [0, n) as a call does after a timed prefix that
// found pace elements to take about split.MinStep (0: no pace known).
func ForRangePaced(n, pace int, f func(lo, hi int), opts ...Option) {
	c := configure(opts)
	engine.ProbeParallel(&c.Config, n, split.Pace{N: pace, D: split.MinStep}, f)
}
