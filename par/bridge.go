package par

import (
	"sync/atomic"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// The bridge is the one place where the algebra of a call (what a leaf does
// with a piece of the range, and how two results combine) meets the scheduler
// and the splitter. Every range function describes a leaf and a combine and
// hands them to reduce.

// body is what a call does with its range: the leaf folds a piece, combine
// merges the results of two adjacent pieces, left then right.
type body[R any] struct {
	leaf    func(lo, hi int) R
	combine func(left, right R) R // nil when R carries nothing (For, ForEach)
	// stop is set when a leaf panics, so that leaves not yet started are
	// skipped while the panic travels to the caller.
	stop atomic.Bool
}

// fold runs the leaf on [lo, hi) unless the call is stopping.
func (b *body[R]) fold(lo, hi int) (r R) {
	if b.stop.Load() { // set by a panicking leaf on any worker
		return r
	}
	ok := false
	defer func() {
		if !ok {
			b.stop.Store(true)
		}
	}()
	r = b.leaf(lo, hi)
	ok = true
	return r
}

// rangeJob is the stealable right half of a cut.
type rangeJob[R any] struct {
	sched.Job
	lo, hi int
	sp     split.Splitter
	b      *body[R]
	res    R
}

func runRangeJob[R any](w *sched.Worker, j *sched.Job) {
	t := sched.Payload[rangeJob[R]](j)
	t.res = reduce(w, t.lo, t.hi, t.sp, w != j.Owner(), t.b)
}

// reduce folds [lo, hi) with b, cutting it while sp allows. stolen says whether
// this piece runs on another worker than the one that cut it.
func reduce[R any](w *sched.Worker, lo, hi int, sp split.Splitter, stolen bool, b *body[R]) R {
	if !sp.TrySplit(hi-lo, stolen) {
		return b.fold(lo, hi)
	}
	mid := lo + (hi-lo)/2
	j := sched.Alloc[rangeJob[R]](w)
	j.lo, j.hi, j.sp, j.b = mid, hi, sp, b
	j.Init(w, runRangeJob[R])
	var left R
	if w.Fork(&j.Job, func(w *sched.Worker) { left = reduce(w, lo, mid, sp, false, b) }) {
		j.res = reduce(w, mid, hi, sp, false, b)
	}
	right := j.res
	*j = rangeJob[R]{}
	sched.Free(w, j)
	if b.combine == nil {
		return left
	}
	return b.combine(left, right)
}

// run reduces [0, n) on the call's pool; the caller has handled the lengths not
// worth a task.
func run[R any](c *config, n int, b *body[R]) R {
	var r R
	c.run(func(w *sched.Worker) {
		r = reduce(w, 0, n, c.splitter(w.Pool().Workers()), false, b)
	})
	return r
}
