package torture

import "runtime"

// Allocated returns the bytes of heap that f allocated, from the runtime's
// count of all allocations (runtime.MemStats.TotalAlloc): a bound on memory,
// never a time. The pools' workers allocate nothing while idle, so what
// other goroutines allocate meanwhile is noise of a few records.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
