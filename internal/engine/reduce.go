package engine

import (
	"context"
	"time"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// The recursion that runs a call on its pool: a piece is cut while the
// splitter allows, its right half pushed where a thief may take it (fork),
// and a piece the splitter will not cut is a leaf, folded in steps that
// look between them for a hungry participant to give half of the rest to
// (leaf). A run's accumulator goes down the left halves and on to a right
// half taken back unstolen; a stolen half begins a run of its own, merged
// in order when the fork joins.

// rangeJob is the stealable right half of a cut.
type rangeJob[A any] struct {
	lo, hi int
	sp     split.Splitter
	c      *call[A]
	res    run[A]
}

// Run runs the job's piece on w, a thief (or a worker the piece was handed
// to), as a run of its own, under the call's profiler labels if it has
// any.
func (t *rangeJob[A]) Run(w *sched.Worker, stolen bool) {
	if o := t.c.obs; o != nil && o.labels != nil {
		runLabelled(w, o.labels, t, stolen)
		return
	}
	t.run(w, stolen)
}

// runLabelled is Run under the call's profiler labels.
func runLabelled[A any](w *sched.Worker, labels context.Context, t *rangeJob[A], stolen bool) {
	defer w.Label(w.Label(labels))
	t.run(w, stolen)
}

// run runs the job's piece on w as a run of its own; stolen says whether
// w is another worker than the one that cut it.
func (t *rangeJob[A]) run(w *sched.Worker, stolen bool) {
	c := t.c
	if c.w.Tree {
		t.res = run[A]{acc: c.tree(w, t.lo, t.hi, t.sp, stolen), live: true}
		return
	}
	r := c.reduce(w, t.lo, t.hi, t.sp, stolen, run[A]{})
	if c.spare != nil && r.live {
		c.spare.give(w, r.acc) // Reuse: free for w's next run
		r = run[A]{}
	}
	t.res = r
}

// reduce folds [lo, hi) into r, which ends at lo if it has folded anything,
// cutting the piece while sp allows, and returns the run as it ends. stolen
// says whether this piece runs on another worker than the one that cut it.
func (c *call[A]) reduce(w *sched.Worker, lo, hi int, sp split.Splitter, stolen bool, r run[A]) run[A] {
	if c.done(lo) {
		return r
	}
	if !sp.TrySplit(hi-lo, stolen) {
		if c.w.Leaf == nil && sp.Step(hi-lo) < hi-lo {
			return c.leaf(w, lo, hi, sp, r, monotonic)
		}
		c.fold(&r, w, lo, hi)
		return r
	}
	// A cut always pushes its right piece, however many of w's jobs wait
	// unstolen (split.Crowded is for a recursion's forks): a piece held on
	// w's stack is out of the thieves' reach for as long as w waits for a
	// stolen piece below it and runs others' work meanwhile, and on 64
	// simulated participants W1's last twentieth came out only as the call
	// ended, in bursts a stack level apart (internal/sim, TestStepsAtScale).
	return c.fork(w, lo, lo+(hi-lo)/2, hi, sp, r)
}

// fork folds [lo, mid) into r and [mid, hi) after it, with the second piece
// stealable: taken back unstolen, it continues r; stolen, it is a run of its
// own, merged after r. The push wakes the call's own caller if it is
// parked while it waits (sched.Worker.push).
func (c *call[A]) fork(w *sched.Worker, lo, mid, hi int, sp split.Splitter, r run[A]) run[A] {
	j := sched.Fork(w, rangeJob[A]{lo: mid, hi: hi, sp: sp, c: c}, !c.short)
	defer j.End(w)
	r = c.reduce(w, lo, mid, sp, false, r)
	if c.spare != nil && r.live {
		// Reuse: the value is free while w waits, and a piece of the call
		// that w runs meanwhile takes it rather than make one; the run
		// takes one back when it goes on (begin).
		c.spare.give(w, r.acc)
		r.live = false
	}
	if j.Join(w) {
		return c.reduce(w, mid, hi, sp, false, r)
	}
	return c.merge(r, j.V.res) // read before the deferred call clears it
}

// leaf folds [lo, hi), a piece that sp declined to cut, into r in the steps
// that sp.FirstStep and sp.NextStep size (see package split, "Running
// leaves"). The first step is sized by the pace of r's last step if r ends at lo (the piece continues
// the run: the second half of a cut, once the first has run here), and is
// then timed from that step's end (one clock read a step; whatever w did in
// between, a steal or a wait, is charged to it, which can only shorten the
// steps after it). Between two steps the leaf looks once whether another
// participant of the pool has nothing to do (sched.Worker.Hungry) and, if
// so, if no job of its own waits unstolen in its deque, and if half of what
// it has left holds split.MinPiece of work at its last step's pace, cuts
// what it has left in two and forks the right part, as a cut of the
// splitter would. A step that ends where the work done has covered a
// stretch (Work.Covered) takes that stretch in, and its pace counts it.
func (c *call[A]) leaf(w *sched.Worker, lo, hi int, sp split.Splitter, r run[A], clock func() time.Time) run[A] {
	var before split.Pace
	var t time.Time
	if r.adjacent(lo) {
		before = split.Pace{N: r.n, D: r.d}
		t = r.at
	} else {
		t = clock()
	}
	step := sp.FirstStep(hi-lo, before)
	c.fold(&r, w, lo, lo+step)
	cur := c.cover(&r, w, lo+step, hi)
	step = cur - lo
	for {
		now := clock()
		el := now.Sub(t)
		if el > 0 {
			r.n, r.d, r.at = step, el, now
		}
		if cur >= hi || c.done(cur) {
			return r
		}
		last := step
		step = sp.NextStep(step, el, hi-cur)
		t = now
		if w.Hungry() && sp.CanHalve(hi-cur) && sp.WorthHalving(hi-cur, last, el) {
			return c.fork(w, cur, cur+(hi-cur)/2, hi, sp, r)
		}
		c.fold(&r, w, cur, cur+step)
		next := c.cover(&r, w, cur+step, hi)
		step, cur = next-cur, next
	}
}

// tree is reduce for a Tree call: it cuts [lo, hi) at the nodes of the
// canonical tree (split.Cut) and merges the nodes' folds as the tree says,
// whatever the timing.
func (c *call[A]) tree(w *sched.Worker, lo, hi int, sp split.Splitter, stolen bool) A {
	if c.done(lo) {
		var zero A
		return zero
	}
	if !sp.TrySplit(hi-lo, stolen) {
		if step := sp.Step(hi - lo); step < hi-lo {
			return c.descend(w, lo, hi, step, sp)
		}
		return c.node(w, lo, hi)
	}
	return c.forkTree(w, lo, split.Cut(lo, hi), hi, sp) // never crowded, as reduce
}

// node returns the fold of the node [lo, hi) of a Tree call, from Init.
func (c *call[A]) node(w *sched.Worker, lo, hi int) A {
	var r run[A]
	c.fold(&r, w, lo, hi)
	return r.acc
}

// mergeAcc merges the folds of two adjacent nodes of a Tree call.
func (c *call[A]) mergeAcc(left, right A) A {
	if c.w.Merge == nil || c.failed.Load() { // after a panic the result is dropped anyway
		return left
	}
	return c.w.Merge(left, right)
}

// forkTree is fork for a Tree call.
func (c *call[A]) forkTree(w *sched.Worker, lo, mid, hi int, sp split.Splitter) A {
	j := sched.Fork(w, rangeJob[A]{lo: mid, hi: hi, sp: sp, c: c}, !c.short)
	defer j.End(w)
	left := c.tree(w, lo, mid, sp, false)
	if j.Join(w) {
		return c.mergeAcc(left, c.tree(w, mid, hi, sp, false))
	}
	return c.mergeAcc(left, j.V.res.acc)
}

// descend is leaf for a Tree call: it walks the canonical tree below [lo,
// hi) down to nodes no longer than step, and forks the right child of the
// node it enters while another participant is hungry. It gives away
// smaller pieces than leaf's halves of the rest, but only nodes of the
// tree.
func (c *call[A]) descend(w *sched.Worker, lo, hi, step int, sp split.Splitter) A {
	if hi-lo <= step || c.done(lo) {
		return c.node(w, lo, hi)
	}
	mid := split.Cut(lo, hi)
	if sp.CanHalve(hi-lo) && w.Hungry() {
		return c.forkTree(w, lo, mid, hi, sp)
	}
	left := c.descend(w, lo, mid, step, sp)
	return c.mergeAcc(left, c.descend(w, mid, hi, step, sp))
}
