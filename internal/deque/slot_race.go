//go:build race

package deque

// put stores x in the slot of position i; atomic so that the race detector
// sees the edges described at ring.at.
func (r *ring[T]) put(i int64, x *T) { r.at(i).Store(x) }

// get loads the slot of position i; atomic for the same reason as put.
func (r *ring[T]) get(i int64) *T { return r.at(i).Load() }
