//go:build !linux

package sched

// osYield does nothing where the operating system's yield is not wired in.
func osYield() {}
