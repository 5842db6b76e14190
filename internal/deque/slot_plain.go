//go:build !race

package deque

import (
	"sync/atomic"
	"unsafe"
)

// put stores x in the slot of position i: a plain store, ordered before the
// store of bottom that follows it (see ring.at).
func (r *ring[T]) put(i int64, x *T) { *r.word(i) = x }

// get loads the slot of position i: a plain load, ordered after the load of
// bottom that precedes it (see ring.at).
func (r *ring[T]) get(i int64) *T { return *r.word(i) }

// word is the pointer an atomic.Pointer[T] holds, as a plain variable.
func (r *ring[T]) word(i int64) **T { return (**T)(unsafe.Pointer(r.at(i))) }

// An atomic.Pointer must be just its pointer for word to be right; this
// constant does not compile otherwise.
const _ = -(unsafe.Sizeof(atomic.Pointer[int]{}) - unsafe.Sizeof((*int)(nil)))
