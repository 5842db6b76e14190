package par

import (
	"fmt"
	"strings"

	"github.com/weftgo/weft/internal/accum"
	"github.com/weftgo/weft/split"
)

// foldRange folds [0, n) with an accumulator per run of adjacent pieces
// (split.Work): init makes one at the start of the call and where a stolen
// piece begins, fold continues it over the run's steps and on to the piece
// its participant goes on with, and merge joins two adjacent runs' where
// their pieces were joined, in a tree of the call's forks.
func foldRange[A any](name string, c *config, key uintptr, n int, init func() A, fold func(acc A, lo, hi int) A, merge func(left, right A) A) A {
	if n == 0 {
		return init()
	}
	// An init that hands out one accumulator gives merge it on both sides,
	// which double counts: panic, naming init.
	fn := strings.TrimPrefix(name, "par.")
	checked := func(left, right A) A { accum.Distinct("par", fn, left, right); return merge(left, right) }
	return run(c, n, split.Work[A]{Name: name, Key: key, Init: init, Fold: fold, Merge: checked})
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
// is called where the pieces of two runs are joined, in the tree of the
// call's forks, on the goroutine that waited for the right one, so merges
// of different parts of the range run in parallel.
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
	return foldRange("par.FoldRange", &c, siteKey(fold), n, init, fold, merge)
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
	return foldRange("par.Fold", &c, siteKey(fold), len(s), init, func(acc A, lo, hi int) A {
		for _, e := range s[lo:hi] {
			acc = fold(acc, e)
		}
		return acc
	}, merge)
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
