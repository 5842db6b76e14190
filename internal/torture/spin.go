package torture

import (
	"runtime"
	"sync/atomic"
)

// sink is where Keep stores a value the compiler must assume someone reads.
var sink atomic.Uint64

// Keep stores x where the compiler must assume someone reads it, rarely
// enough to cost nothing: it keeps a busy loop from being optimized away.
func Keep(x uint64) {
	if x == 0x9E3779B97F4A7C15 {
		sink.Store(x)
	}
}

// Spin is n steps of busy work from x, the work of a tree's leaf. It yields
// the processor every 512 steps, so that a long leaf on an oversubscribed
// machine lets the other goroutines of the round run.
func Spin(x uint64, n int) {
	for i := range n {
		x = x*6364136223846793005 + uint64(i)
		if i%512 == 511 {
			runtime.Gosched()
		}
	}
	Keep(x)
}
