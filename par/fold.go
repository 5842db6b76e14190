package par

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/weftgo/weft/internal/accum"
	"github.com/weftgo/weft/internal/sched"
)

// A fold keeps an accumulator per run, not per piece. The bridge runs a
// range in pieces, and a piece that has started runs in steps of about
// 100 µs, each a call of the body; a body that began an accumulator at every
// call made one per step, so their number grew with the call's length and
// with the machine's slowness, not with its cores (a map per step doubled
// the CPU time of W12 of `go run ./bench`). But a step continues the one
// before it, and a participant that finishes a piece most often goes on with
// the piece after it (the other half of its own cut): the two are adjacent
// in the range, and folding the second into the first one's accumulator
// keeps the order. So a step takes the accumulator that the step ending
// where it begins gave back, and begins a new one only when there is none:
// at the first piece, and where a piece starts before the one on its left
// has finished, which takes a steal. The accumulators, each the fold of a
// run of adjacent pieces, are merged in range order once the call is done.

// runs holds the accumulators of one fold call. Any goroutine.
type runs[A any] struct {
	init func() A
	fn   string           // the function called, for messages: "Fold"
	mu   sync.Mutex       // hands a run, and the writes made to it, from step to step
	free map[int]*span[A] // guarded by mu: runs that no step is folding into, by where they end
	all  []*span[A]       // guarded by mu: every run begun
}

// span is the fold of the adjacent pieces [lo, hi). Whoever took it from
// runs.take owns it until runs.give.
type span[A any] struct {
	lo, hi int
	acc    A
}

func newRuns[A any](init func() A) *runs[A] {
	return &runs[A]{init: init, free: map[int]*span[A]{}}
}

// take returns the run that ends at lo, if a step gave one back, or a new
// run that begins at lo, whose accumulator init makes. Only one piece of a
// call begins at lo, so the run it takes is its own.
func (rs *runs[A]) take(lo int) *span[A] {
	rs.mu.Lock()
	if r, ok := rs.free[lo]; ok {
		delete(rs.free, lo)
		rs.mu.Unlock()
		return r
	}
	rs.mu.Unlock()
	r := &span[A]{lo: lo, hi: lo, acc: rs.init()} // outside the lock: init may be slow, or make parallel calls
	rs.mu.Lock()
	rs.all = append(rs.all, r)
	rs.mu.Unlock()
	return r
}

// give hands back a run that a step has folded up to r.hi. A step that
// panics gives nothing back: the call's result is dropped anyway.
func (rs *runs[A]) give(r *span[A]) {
	rs.mu.Lock()
	rs.free[r.hi] = r
	rs.mu.Unlock()
}

// step folds [lo, hi) into the run that ends at lo, with fold.
func (rs *runs[A]) step(lo, hi int, fold func(acc A, lo, hi int) A) {
	r := rs.take(lo)
	r.acc = fold(r.acc, lo, hi)
	r.hi = hi
	rs.give(r)
}

// merge returns the accumulators merged in range order, with merge: left
// then right, in a balanced tree whose halves merge in parallel on the
// call's pool when there are more than two. Only the calling goroutine,
// after every step of the call has returned (the call's end orders their
// writes before), and only once.
func (rs *runs[A]) merge(c *config, merge func(left, right A) A) A {
	all := rs.all
	if len(all) == 0 {
		return rs.init()
	}
	slices.SortFunc(all, func(a, b *span[A]) int { return a.lo - b.lo })
	if len(all) > 1 {
		// An init that hands out one accumulator gives merge it on both
		// sides, which double counts: panic, naming init.
		m := merge
		merge = func(left, right A) A { accum.Distinct("par", rs.fn, left, right); return m(left, right) }
	}
	if len(all) <= 2 {
		acc := all[0].acc
		for _, r := range all[1:] {
			acc = merge(acc, r.acc)
		}
		return acc
	}
	var acc A
	c.run(func(w *sched.Worker) { acc = mergeTree(handle(w), all, merge) })
	return acc
}

// mergeTree merges the accumulators of rs, in order, forking the right half.
func mergeTree[A any](w *Worker, rs []*span[A], merge func(left, right A) A) A {
	if len(rs) == 1 {
		return rs[0].acc
	}
	mid := len(rs) / 2
	f := func(w *Worker, rs []*span[A]) A { return mergeTree(w, rs, merge) }
	a, b := Join2(w, f, rs[:mid], f, rs[mid:])
	return merge(a, b)
}

// foldRange runs fold over [0, n) in runs, for a call named name, and
// returns the runs, whose accumulators the caller merges.
func foldRange[A any](name string, c *config, n int, init func() A, fold func(acc A, lo, hi int) A) *runs[A] {
	rs := newRuns(init)
	rs.fn = strings.TrimPrefix(name, "par.")
	if n > 0 {
		runLocal(c, n, &body[struct{}]{name: name, each: func(lo, hi int) { rs.step(lo, hi, fold) }})
	}
	return rs
}

// FoldRange folds [0, n) in parallel: fold(acc, lo, hi) folds the piece
// [lo, hi) into an accumulator that init made, and merge combines the
// accumulators of two adjacent parts of the range, left then right. It is
// Rayon's fold followed by reduce, over a range, with a whole piece at a
// time, as in ReduceRange; use it where the result is costly to make, such
// as a map: ReduceRange makes one per call of its leaf.
//
// One accumulator serves a run of adjacent pieces: the steps of a piece that
// is running, and the piece that a goroutine goes on with after it, which
// begins where it ended; a new one begins only where a piece starts before
// the piece on its left has finished, which takes a steal. So init runs at
// most once more than the call's steals: about once per participant, a few
// times more when pieces are stolen, and not with the length of the call.
// On this project's 2-core machine, calls of uniform elements from 0.1 to
// 100 ms made 1 to 8 with two participants (up to 12 under the race
// detector); TestFoldAccumulatorsPerParticipant requires at most the steals
// plus one, and 16 per participant. init runs once for n == 0, whose result
// is init(). An accumulator is used by one
// goroutine at a time, and the writes made to it in one call of fold happen
// before the next call that gets it.
//
// fold must agree with merge: folding [lo, mid) and then [mid, hi) into one
// accumulator gives what merging the folds of the two gives, and merge must
// be associative; with these, the result is that of one fold over [0, n)
// whatever the timing. The order of the range is kept, so merge need not be
// commutative. merge may modify and return its left or right argument; it
// is called once the range is done, in a tree, in parallel where more than
// two accumulators were made.
//
// init must return a new accumulator at each call. One that hands out a map,
// pointer, slice or channel it keeps would give merge that one accumulator as
// both left and right, which counts its contents twice; FoldRange panics
// instead, with a message naming init, before it calls merge on them. (A
// call that made one accumulator merges nothing, so small inputs do not show
// the mistake.)
//
// init, fold and merge run concurrently, on the pool's workers and the
// calling goroutine: init with itself and with fold, fold with itself on
// other pieces (never on one accumulator at once), and merge with itself on
// other accumulators once every fold has returned; writes made by them happen
// before FoldRange returns. A panic in any of them reaches the caller with
// its original value; pieces not yet started are skipped.
func FoldRange[A any](n int, init func() A, fold func(acc A, lo, hi int) A, merge func(left, right A) A, opts ...Option) A {
	checkFold("FoldRange", init == nil, fold == nil, merge == nil)
	if n < 0 {
		panic(fmt.Sprintf("par: FoldRange: n = %d, want n >= 0", n))
	}
	c := configure(opts)
	return foldRange("par.FoldRange", &c, n, init, fold).merge(&c, merge)
}

// Fold folds the elements of s in parallel: fold(acc, e) folds e into an
// accumulator that init made, and merge combines the accumulators of two
// adjacent parts of s, left then right. It is Rayon's fold(init, fold)
// followed by reduce, and what Java's Stream.collect(supplier, accumulator,
// combiner) does: init is a constructor, not a value, so that an accumulator
// that is a map, a slice or a pointer is never shared by two goroutines by
// mistake.
//
// init runs about once per participant of the call, as for FoldRange, which
// says when, how fold and merge must agree, and what runs concurrently with
// what; the result is that of the sequential fold of s, in order, whatever
// the timing. An empty s gives init(). init must return a new accumulator at
// each call: a call whose merge would get one accumulator as both left and
// right panics, naming init. A panic in init, fold or merge reaches the
// caller with its original value.
func Fold[S ~[]E, E, A any](s S, init func() A, fold func(acc A, e E) A, merge func(left, right A) A, opts ...Option) A {
	checkFold("Fold", init == nil, fold == nil, merge == nil)
	c := configure(opts)
	return foldRange("par.Fold", &c, len(s), init, func(acc A, lo, hi int) A {
		for _, e := range s[lo:hi] {
			acc = fold(acc, e)
		}
		return acc
	}).merge(&c, merge)
}

// checkFold panics with a message that names the nil functions of a fold.
func checkFold(name string, initNil, foldNil, mergeNil bool) {
	var nils []string
	for _, f := range []struct {
		name  string
		isNil bool
	}{{"init", initNil}, {"fold", foldNil}, {"merge", mergeNil}} {
		if f.isNil {
			nils = append(nils, f.name)
		}
	}
	switch len(nils) {
	case 0:
		return
	case 1:
		panic(fmt.Sprintf("par: %s: %s is nil", name, nils[0]))
	}
	panic(fmt.Sprintf("par: %s: %s are nil", name, joinNames(nils)))
}

// joinNames joins two or more names as "a and b" or "a, b and c".
func joinNames(names []string) string {
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
