//go:build amd64 && !race

package deque

import "unsafe"

// publish stores bottom after a push. A push needs only release order here:
// the slot's store before it, which x86-64 keeps for any two stores (total
// store order), and which the compiler keeps because it does not move stores
// past one another. A plain store spares the exchange (a locked instruction)
// that an atomic store is on amd64.
// Pop still stores bottom atomically: there the store must be ordered before
// the load of top that follows it, which only a fence or an exchange gives.
func (d *deque[T]) publish(b int64) { *(*int64)(unsafe.Pointer(&d.bottom)) = b }
