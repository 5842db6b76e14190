//go:build !amd64 || race

package deque

// publish stores bottom after a push, atomically: on weaker memory models
// than x86-64's the atomic store is the release the push needs, and under the
// race detector it is the edge the detector must see.
func (d *deque[T]) publish(b int64) { d.bottom.Store(b) }
