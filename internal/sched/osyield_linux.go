//go:build linux

package sched

import "syscall"

// osYield gives the calling thread's processor to another thread of the
// operating system that waits for it, if one does (sched_yield(2)); it
// returns at once if none does. See yield.
func osYield() { syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
