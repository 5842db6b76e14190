// Package deque implements the Chase-Lev work-stealing deque.
//
// One goroutine owns a deque and pushes and pops at its bottom, last in first out;
// any number of thieves take from its top, first in first out, with one
// compare-and-swap each. The circular buffer doubles when full, so a push never
// fails and never blocks.
//
// The algorithm is that of D. Chase and Y. Lev, "Dynamic Circular Work-Stealing
// Deque" (SPAA 2005), with the memory orderings of N. M. Lê, A. Pop, A. Cohen and
// F. Zappa Nardelli, "Correct and Efficient Work-Stealing for Weak Memory Models"
// (PPoPP 2013). Go's sync/atomic operations are sequentially consistent, which is
// at least as strong as every fence that paper places; the comment on each atomic
// access says which happens-before edge it provides.
//
// A replaced buffer is simply dropped: a thief that still reads it sees valid
// pointers, and the garbage collector frees it once no thief holds it, which is
// the reclamation that epoch schemes provide in languages without a collector.
//
// Ownership is in the types: [Worker] holds the owner's operations and must be
// used by one goroutine at a time; [Stealer] may be copied and used by any number
// of goroutines. The package knows nothing of what it stores.
package deque

import (
	"sync/atomic"
)

// minCap is the capacity of a new buffer; a power of two.
const minCap = 64

// cacheLine separates fields written by different goroutines.
const cacheLine = 64

// ring is a circular buffer indexed by the unbounded positions top and bottom.
type ring[T any] struct {
	mask  int64
	slots []slot[T] // slot_plain.go, slot_race.go
}

func newRing[T any](capacity int64) *ring[T] {
	return &ring[T]{mask: capacity - 1, slots: make([]slot[T], capacity)}
}

func (r *ring[T]) at(i int64) *slot[T] { return &r.slots[i&r.mask] }

// A slot is written only by the owner, before the atomic store of bottom that
// publishes it, and read by a thief only after its atomic load of bottom saw
// that store: the store synchronizes with the load, so every write of a slot
// happens before the reads that use it. The one read that can overlap a write
// is a thief's read of position t racing the owner, which took t back as the
// last element and pushed again at t; that thief then loses its CAS on top and
// drops what it read. The Go memory model defines such a read of a word (it
// returns a value some write stored), so without the race detector a slot is
// a plain pointer, loaded and stored as any variable (slot_plain.go), and a
// push pays for one atomic store, not two; under the detector it is an
// atomic.Pointer (slot_race.go), so that the detector sees no race at all.

// deque is the state a Worker and its Stealers share.
type deque[T any] struct {
	// top is the next position a thief takes. Only ever incremented, by a CAS
	// (thieves, and the owner when it takes the last element).
	top atomic.Int64
	_   [cacheLine - 8]byte
	// bottom is one past the last pushed position. Written by the owner only.
	bottom atomic.Int64
	// buf is the current buffer. Replaced by the owner only, when it grows.
	buf atomic.Pointer[ring[T]]
	_   [cacheLine - 16]byte
}

// Worker is the owner's end of a deque. Its methods must be called by one
// goroutine at a time.
type Worker[T any] struct {
	d *deque[T]
}

// Stealer is a thief's end of a deque. Any goroutine may use it, and it may be
// copied freely.
type Stealer[T any] struct {
	d *deque[T]
}

// New returns an empty deque's owner end.
func New[T any]() Worker[T] {
	return NewCap[T](minCap)
}

// NewCap returns an empty deque whose first buffer holds capacity elements,
// rounded up to a power of two (at least 2). Tests use a tiny capacity to make
// the buffer grow often.
func NewCap[T any](capacity int) Worker[T] {
	if int64(capacity) > 1<<40 { // int64: a constant of 1<<40 overflows int on 32-bit platforms
		panic("deque: NewCap: capacity too large")
	}
	c := int64(2)
	for c < int64(capacity) {
		c <<= 1
	}
	d := &deque[T]{}
	d.buf.Store(newRing[T](c)) // published before any Stealer exists
	return Worker[T]{d: d}
}

// Stealer returns a thief's end of w's deque.
func (w Worker[T]) Stealer() Stealer[T] { return Stealer[T](w) }

// Push adds x at the bottom. Owner only. x must not be nil.
func (w Worker[T]) Push(x *T) {
	d := w.d
	b := d.bottom.Load() // owner's own write; no other goroutine stores it
	t := d.top.Load()    // may be stale (too small), which only makes us grow early
	a := d.buf.Load()    // owner's own write
	if b-t >= a.mask {   // keep one slot free so a full ring is never mistaken for empty
		a = w.grow(a, t, b)
	}
	a.put(b, x) // the element is written before bottom publishes it...
	// ...so a thief whose load of bottom sees this store sees x. An exchange
	// on amd64, about 9 ns of a push that a plain store would save
	// (BenchmarkJoinEmpty/join2/workers=1), but only an atomic store is a
	// release in the Go memory model.
	d.bottom.Store(b + 1)
}

// grow copies the live range [t, b) into a buffer twice as large and publishes it.
// Owner only.
func (w Worker[T]) grow(old *ring[T], t, b int64) *ring[T] {
	a := newRing[T](2 * (old.mask + 1))
	for i := t; i < b; i++ {
		a.put(i, old.get(i)) // plain copy; the old ring stays readable by thieves
	}
	w.d.buf.Store(a) // the copies happen before a thief that loads the new ring reads them
	return a
}

// Pop removes and returns the element at the bottom, or nil if the deque is
// empty. Owner only.
func (w Worker[T]) Pop() *T {
	d := w.d
	b := d.bottom.Load() - 1
	a := d.buf.Load()
	// Reserve position b before looking at top: a thief that loads top after
	// this store sees bottom == b and will not take position b unless it wins
	// the CAS below. This store-then-load is the fence of Chase-Lev's pop.
	d.bottom.Store(b)
	t := d.top.Load() // ordered after the store above (sequential consistency)
	if t > b {
		// Empty: restore bottom.
		d.bottom.Store(b + 1)
		return nil
	}
	x := a.get(b) // written by our own Push
	if t < b {
		// More than one element: no thief can reach position b. The slot
		// keeps its pointer until overwritten, which saves a fence here;
		// callers that care about retention clear what the element holds.
		return x
	}
	// Last element: race the thieves for it through top.
	won := d.top.CompareAndSwap(t, t+1) // a winning thief and we cannot both move top from t
	d.bottom.Store(b + 1)               // empty again either way: top == bottom
	if !won {
		return nil
	}
	return x
}

// Len reports how many elements the deque holds; only a hint while thieves are
// active. Any goroutine.
func (w Worker[T]) Len() int {
	n := w.d.bottom.Load() - w.d.top.Load()
	if n < 0 {
		return 0
	}
	return int(n)
}

// Status is the outcome of a steal.
type Status uint8

const (
	// Empty means the deque held nothing when it was looked at.
	Empty Status = iota
	// Success means an element was taken.
	Success
	// Retry means the deque held an element but another goroutine took it
	// first; looking again, or at another victim, may succeed.
	Retry
)

// Steal takes the element at the top. Any goroutine.
func (s Stealer[T]) Steal() (*T, Status) { return s.StealIf(nil, 0) }

// StealIf is Steal that takes the element at the top only if want(x, key)
// reports true for it (want nil: any element), and otherwise reports Empty.
// want reads x before the element is claimed, so it may see an element that
// the CAS then loses to another goroutine, or one its owner has taken back
// and is reusing: it must read only what is safe to read racily (atomics),
// and its answer matters only if the CAS succeeds, which proves x was the
// element at the top. Any goroutine.
func (s Stealer[T]) StealIf(want func(x *T, key uint64) bool, key uint64) (*T, Status) {
	d := s.d
	t := d.top.Load()    // read before bottom: the pair brackets a consistent moment...
	b := d.bottom.Load() // ...with the owner's store of bottom in Pop (sequential consistency)
	if t >= b {
		return nil, Empty
	}
	a := d.buf.Load() // a ring holding position t: grow copies [t, b) before publishing
	x := a.get(t)     // the owner's store of x happened before its store of bottom we saw
	if x == nil {     // a stale read of a slot not yet copied by a growth: the CAS would fail
		return nil, Retry
	}
	if want != nil && !want(x, key) {
		return nil, Empty
	}
	if !d.top.CompareAndSwap(t, t+1) { // claims position t against the owner and other thieves
		return nil, Retry
	}
	return x, Success
}

// IsEmpty reports whether the deque looked empty. Any goroutine.
func (s Stealer[T]) IsEmpty() bool {
	return s.d.top.Load() >= s.d.bottom.Load() // a hint: both are read without a lock
}
