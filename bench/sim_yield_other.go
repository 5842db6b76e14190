//go:build !linux

package main

import "runtime"

// simYield is a participant's yield as internal/sched makes it where it has
// no thread's yield: the processor's.
func simYield() { runtime.Gosched() }
