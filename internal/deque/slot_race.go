//go:build race

package deque

import "sync/atomic"

// slot is a position of a ring: atomic under the race detector, so that it
// sees the edges described at ring.at and no race at all.
type slot[T any] struct{ p atomic.Pointer[T] }

// put stores x in the slot of position i.
func (r *ring[T]) put(i int64, x *T) { r.at(i).p.Store(x) }

// get loads the slot of position i.
func (r *ring[T]) get(i int64) *T { return r.at(i).p.Load() }
