//go:build !race

package deque

// slot is a position of a ring: a plain pointer, since every read that uses
// its value is ordered after the write by the store and load of bottom (see
// ring.at), and the one racing read is of a word, which the Go memory model
// defines. A push then pays for no atomic exchange on the slot.
type slot[T any] struct{ p *T }

// put stores x in the slot of position i: a plain store, ordered before the
// store of bottom that follows it (see ring.at).
func (r *ring[T]) put(i int64, x *T) { r.at(i).p = x }

// get loads the slot of position i: a plain load, ordered after the load of
// bottom that precedes it (see ring.at).
func (r *ring[T]) get(i int64) *T { return r.at(i).p }
