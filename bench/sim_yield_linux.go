package main

import (
	"runtime"
	"syscall"
)

// simYield is a participant's yield as internal/sched makes it: the
// processor's, then the thread's (sched_yield).
func simYield() {
	runtime.Gosched()
	syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
}
