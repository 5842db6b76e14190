package par

import (
	"runtime"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// RunLeaf runs f over [0, n) as one leaf of the bridge on a seat of p: a
// piece that its splitter will not cut, which may give part of itself away
// while it runs. fixed makes it a leaf of a fixed tree (descend). It starts
// the leaf once some participant of p is hungry (a fresh pool's workers
// search, then park).
func RunLeaf(p *Pool, n int, fixed bool, f func(i int)) {
	p.p.Run(func(w *sched.Worker) {
		for !w.Hungry() {
			runtime.Gosched()
		}
		sp := split.New(1, 1, 0)
		sp.TrySplit(n, false) // spends the budget of one cut
		leaf(w, 0, n, sp.Step(n), sp, &body[struct{}]{fixedTree: fixed, each: func(lo, hi int) {
			for i := lo; i < hi; i++ {
				f(i)
			}
		}})
	})
}
