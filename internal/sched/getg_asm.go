//go:build amd64 || arm64 || 386

package sched

// getg returns the address of the calling goroutine's descriptor in the Go
// runtime: an identity that stays the same while the goroutine lives, read in
// one instruction (getg_*.s). A handle check compares it with its worker's
// holder (Worker.Mine); it is never dereferenced.
func getg() uintptr
