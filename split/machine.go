package split

import (
	"runtime"
	"sync"

	"github.com/klauspost/cpuid/v2"
)

// Machine is what the default grain is derived from.
type Machine struct {
	Workers int // runtime.GOMAXPROCS(0) when probed
	L1D     int // bytes of level-1 data cache per core
	L2      int // bytes of level-2 cache per core
}

// fallback sizes for processors that do not report their caches.
const (
	fallbackL1D = 32 << 10
	fallbackL2  = 256 << 10
)

var probe = sync.OnceValue(func() Machine {
	m := Machine{L1D: cpuid.CPU.Cache.L1D, L2: cpuid.CPU.Cache.L2}
	if m.L1D <= 0 {
		m.L1D = fallbackL1D
	}
	if m.L2 <= 0 {
		m.L2 = fallbackL2
	}
	return m
})

// Probe returns the machine's figures; the caches are read once per process.
func Probe() Machine {
	m := probe()
	m.Workers = runtime.GOMAXPROCS(0)
	return m
}

// StreamLen returns the length below which a call that streams through its
// elements at memory speed (a sum, a count of a cheap predicate) should run
// on the caller alone: the elements that fill half of a core's level-2 cache.
// Such a pass takes a few microseconds (W8s of `go run ./bench`: 2,000 float64
// in about 1 µs), which is of the order of waking a parked worker, so
// splitting it cannot pay; above it, each half still gets a cache-sized piece
// of work.
func StreamLen(elemSize int) int {
	if elemSize < 1 {
		elemSize = 1
	}
	return max(1, Probe().L2/2/elemSize)
}
