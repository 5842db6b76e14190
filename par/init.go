package par

import (
	"fmt"

	"github.com/weftgo/weft/split"
)

// MapInit returns a new slice holding f(t, e) for every element e of s, in
// order, where t is a value made by init and used by one goroutine at a time:
// a scratch buffer, a hasher, a random generator, anything that is costly to
// make per element and unsafe to share between goroutines.
//
// Each participant of the call (the pool's workers and the caller) keeps a
// value from one piece to the next, and takes one from init only when it
// has none free: at its first piece, and when it runs a piece while its
// own value is in use further up its stack (f made a parallel call, and a
// worker waiting inside it ran a piece of this call). So init runs about
// once per participant: at most the pool's workers plus the caller, unless
// f makes parallel calls itself. The count is small but not fixed, since it
// depends on timing: 0 for an empty s, at least 1 otherwise
// (TestInitCountSmall checks the bound on pools of 1 to 8 workers, with
// and without a piece per element). The writes made to a value by one
// piece happen before the next piece that takes it. The values are dropped
// when MapInit returns.
//
// The value is passed as T, not *T: the values such a body wants (a
// *bytes.Buffer, a *rand.Rand, a hash.Hash, a *[4096]byte) are pointers or
// interfaces already, and handing them on costs nothing, where a *T would make
// the library keep each T on the heap and the body dereference twice. When the
// body must replace its state (append to a []byte and keep the longer slice),
// choose a pointer type for T, such as *[]byte.
//
// init runs concurrently with itself and with f; f runs concurrently with
// itself on other elements, on the pool's workers and the calling goroutine,
// but never on one value t at once; writes made by them happen before MapInit
// returns. A panic in f or in init reaches the caller with its original value
// once the calls in progress have returned; pieces not yet started are
// skipped. Besides the result and the values, a call allocates a few small
// records.
func MapInit[S ~[]E, E, T, R any](s S, init func() T, f func(t T, e E) R, opts ...Option) []R {
	switch {
	case init == nil && f == nil:
		panic("par: MapInit: init and f are nil")
	case init == nil:
		panic("par: MapInit: init is nil")
	case f == nil:
		panic("par: MapInit: f is nil")
	}
	out := make([]R, len(s))
	eachValue("par.MapInit", siteKey(f), len(s), init, func(t T, lo, hi int) {
		src, dst := s[lo:hi], out[lo:hi] // locals, as in Map
		dst = dst[:len(src)]
		for i, e := range src {
			dst[i] = f(t, e)
		}
	}, opts)
	return out
}

// ForEachInit calls f(t, e) for every element e of s, in parallel, where t is
// a value made by init and used by one goroutine at a time, as for MapInit,
// which says how often init runs. It returns when every call has returned,
// with every value that init made, in no particular order (none for an empty
// s): Rayon's for_each_init, whose values can be handed back. A value per
// participant that counts or sums into a map, merged by the caller, is the
// goroutine-per-core program written as one call:
//
//	maps := par.ForEachInit(words, func() map[string]int { return map[string]int{} },
//		func(m map[string]int, w string) { m[w]++ })
//
// init runs concurrently with itself and with f; f runs concurrently with
// itself on other elements, on the pool's workers and the calling goroutine,
// but never on one value t at once. Writes made by f and init happen before
// ForEachInit returns. A panic in f or init reaches the caller as for
// MapInit, and the values are then lost.
func ForEachInit[S ~[]E, E, T any](s S, init func() T, f func(t T, e E), opts ...Option) []T {
	switch {
	case init == nil && f == nil:
		panic("par: ForEachInit: init and f are nil")
	case init == nil:
		panic("par: ForEachInit: init is nil")
	case f == nil:
		panic("par: ForEachInit: f is nil")
	}
	return eachValue("par.ForEachInit", siteKey(f), len(s), init, func(t T, lo, hi int) {
		for _, e := range s[lo:hi] {
			f(t, e)
		}
	}, opts)
}

// ForRangeInit calls f(t, lo, hi) on pieces [lo, hi) that together cover [0,
// n) exactly once, in parallel, where t is a value made by init and used by
// one goroutine at a time, as for MapInit, which says how often init runs:
// ForRange with a value per participant (Rayon's for_each_init over a range).
// It returns when every call has returned, with every value that init made,
// in no particular order (none for n == 0). init runs concurrently with
// itself and with f; f runs concurrently with itself on other pieces, on the
// pool's workers and the calling goroutine, but never on one value t at once.
// Writes made by f and init happen before ForRangeInit returns. A panic in f
// or init reaches the caller as for MapInit, and the values are then lost.
func ForRangeInit[T any](n int, init func() T, f func(t T, lo, hi int), opts ...Option) []T {
	switch {
	case init == nil && f == nil:
		panic("par: ForRangeInit: init and f are nil")
	case init == nil:
		panic("par: ForRangeInit: init is nil")
	case f == nil:
		panic("par: ForRangeInit: f is nil")
	}
	if n < 0 {
		panic(fmt.Sprintf("par: ForRangeInit: n = %d, want n >= 0", n))
	}
	return eachValue("par.ForRangeInit", siteKey(f), n, init, f, opts)
}

// eachValue runs f over the pieces of [0, n) with a value per participant
// that init makes (split.Work.Reuse), and returns the values.
func eachValue[T any](name string, key uintptr, n int, init func() T, f func(t T, lo, hi int), opts []Option) []T {
	c := configure(opts)
	if n == 0 {
		return nil
	}
	return runAll(&c, n, split.Work[T]{Name: name, Key: key, Reuse: true, Init: init,
		Fold: func(t T, lo, hi int) T { f(t, lo, hi); return t }})
}
