package par

import (
	"fmt"
	"sync"
)

// MapInit returns a new slice holding f(t, e) for every element e of s, in
// order, where t is a value made by init and used by one goroutine at a time:
// a scratch buffer, a hasher, a random generator, anything that is costly to
// make per element and unsafe to share between goroutines.
//
// Each piece of the range that a goroutine runs at once (a leaf, or a step of
// one: a running leaf works in steps, to give half of what it has left to an
// idle worker) takes a value when it starts and gives it back when it ends;
// init runs only when no value is free. So init runs at most once per piece,
// and in practice about once per goroutine that works on the call at the same
// moment: at most the pool's workers plus the caller, unless f makes parallel
// calls itself (a worker that waits inside f runs other pieces meanwhile,
// which need values of their own). The count is small but not fixed, since
// it depends on timing: 0 for an empty s, at least 1 otherwise. On this
// project's 2-core machine, MapInit over 10^6 ints ran init 1 to 3 times on
// pools of 1 to 8 workers, where ForRange cut the same range into 186 to 2358
// pieces; with WithGrain(1), a piece per element, it ran init at most
// workers+1 times (TestInitCountSmall checks that bound). A value goes from
// one piece to the next through a mutex, so the writes made to it in one
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
// records, and locks a mutex twice per piece.
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
	st := &states[T]{init: init}
	forRange("par.MapInit", siteKey(f), len(s), func(lo, hi int) {
		t := st.get()
		src, dst := s[lo:hi], out[lo:hi] // locals, as in Map
		dst = dst[:len(src)]
		for i, e := range src {
			dst[i] = f(t, e)
		}
		st.put(t)
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
	st := &states[T]{init: init}
	forRange("par.ForEachInit", siteKey(f), len(s), func(lo, hi int) {
		t := st.get()
		for _, e := range s[lo:hi] {
			f(t, e)
		}
		st.put(t)
	}, opts)
	return st.free
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
	st := &states[T]{init: init}
	forRange("par.ForRangeInit", siteKey(f), n, func(lo, hi int) {
		t := st.get()
		f(t, lo, hi)
		st.put(t)
	}, opts)
	return st.free
}

// states holds the values of one MapInit, ForEachInit or ForRangeInit call
// that no leaf is using. Any goroutine.
type states[T any] struct {
	init func() T
	mu   sync.Mutex // hands a value, and the writes made to it, from leaf to leaf
	free []T
}

// get returns a free value, or a new one from init if there is none.
func (s *states[T]) get() T {
	s.mu.Lock()
	if n := len(s.free); n > 0 {
		t := s.free[n-1]
		s.free = s.free[:n-1]
		s.mu.Unlock()
		return t
	}
	s.mu.Unlock()
	return s.init() // outside the lock: init may be slow, or make parallel calls
}

// put gives back a value that a leaf is done with. A leaf that panics keeps
// its value: the call's result is dropped anyway.
func (s *states[T]) put(t T) {
	s.mu.Lock()
	s.free = append(s.free, t)
	s.mu.Unlock()
}
