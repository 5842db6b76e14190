// Package find is the engine of the calls that look for the first or the
// last match in order: par's FindIndex, Find, FindLastIndex and FindLast,
// pipe's Find, IndexFunc, LastIndexFunc and FindLast. Each leaf of such a
// call walks its piece in runs of Run positions, from the end nearest the
// start of the whole walk (the left end for a find-first, the right end for
// a find-last); before each run it looks at the Bound, the best match any
// leaf has found so far, and stops if that match is nearer the start than
// every position of the run, since nothing the run holds could win. A leaf
// that finds a match offers it to the Bound and stops. The pieces before the
// match (after it, for a find-last) still run, since one may hold a better
// one; the pieces after it are skipped at their first run, or before they
// start where the caller asks Settled.
//
// It is a package of its own, below par and par/pipe, because pipe reaches
// par only through par's public API, and this engine is nothing a user should
// see. How a call's range is cut and its leaves run stays with each caller;
// a find-last cuts its range from the end (par and pipe cut the mirrored
// range) so that the pieces that run first are those likely to settle it.
package find

import (
	"math"
	"sync/atomic"
)

// Run is how many positions a leaf examines between two looks at the Bound.
// Runs are aligned to multiples of Run, which is also pipe's batch, so that a
// pipe feeds each run as one batch.
const Run = 256

// Bound is the best match found so far by the leaves of one find-first or
// find-last call. Its methods may be called from any goroutine.
type Bound struct {
	// key is the best match as a key that only decreases: its position for
	// a find-first, the position negated for a find-last; math.MaxInt64
	// until a match is found. Every Offer happens before the caller's call
	// over the leaves returns, so Best read after it sees the final value.
	key  atomic.Int64
	last bool
}

// First returns the Bound of a find-first call.
func First() *Bound {
	b := &Bound{}
	b.key.Store(math.MaxInt64)
	return b
}

// Last returns the Bound of a find-last call.
func Last() *Bound {
	b := First()
	b.last = true
	return b
}

func (b *Bound) keyOf(i int) int64 {
	if b.last {
		return -int64(i)
	}
	return int64(i)
}

// Offer records a match at position i, unless a better one is known. (A
// caller that knows only the start of the run that holds its match may offer
// that start: it settles no run that could hold a better one.)
func (b *Bound) Offer(i int) {
	k := b.keyOf(i)
	for {
		cur := b.key.Load()
		if k >= cur || b.key.CompareAndSwap(cur, k) { // lowers the key; read by every leaf's Settled
			return
		}
	}
}

// Settled reports whether a match already known is better than every
// position of [lo, hi), so that the positions there cannot change the
// result. hi must be greater than lo.
func (b *Bound) Settled(lo, hi int) bool {
	k := b.key.Load() // an Offer of any leaf; a stale key only settles later
	if b.last {
		return b.keyOf(hi-1) > k
	}
	return b.keyOf(lo) > k
}

// Best returns the position of the best match offered, or -1. Called after
// every leaf has returned, it is the call's result.
func (b *Bound) Best() int {
	k := b.key.Load() // every Offer happened before the leaves' call returned
	switch {
	case k == math.MaxInt64:
		return -1
	case b.last:
		return int(-k)
	}
	return int(k)
}

// Scan is a leaf over the positions [lo, hi): it walks them in runs from the
// end nearest the start of the whole walk, and stops when the Bound settles
// the next run or when scan finds a match. scan(a, c) looks at the run
// [a, c) and returns the position of its match nearest the start of the walk
// (the first for a find-first, the last for a find-last), or -1. Scan offers
// that position and returns it, or returns -1.
func (b *Bound) Scan(lo, hi int, scan func(a, c int) int) int {
	for lo < hi {
		a, c := lo, hi // the next run
		switch {
		case b.last:
			a = max(lo, (hi-1)/Run*Run)
		case hi-lo > Run-lo%Run: // adds to lo only what fits before hi
			c = lo + Run - lo%Run
		}
		if b.Settled(a, c) {
			return -1
		}
		if i := scan(a, c); i >= 0 {
			b.Offer(i)
			return i
		}
		if b.last {
			hi = a
		} else {
			lo = c
		}
	}
	return -1
}
