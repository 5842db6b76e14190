package sched

import (
	"bytes"
	"runtime"
	"testing"
)

var mineSink bool

// BenchmarkHandleCheck is the cost of the wrong-handle check that Spawn and
// Worker.Join make at every call (Mine), against the portable way to tell
// goroutines apart that Go offers, the id in runtime.Stack's header (which
// the panic carrier, internal/carry, reads once a panic): the check must stay within
// W4's noise, and only the assembly's one load does.
func BenchmarkHandleCheck(b *testing.B) {
	p := New(1)
	defer p.Close()
	p.Run(func(w *Worker) {
		b.Run("getg", func(b *testing.B) {
			for b.Loop() {
				mineSink = w.Mine()
			}
		})
		b.Run("runtime.Stack", func(b *testing.B) {
			id := stackHeader()
			for b.Loop() {
				mineSink = bytes.Equal(stackHeader(), id)
			}
		})
	})
}

// stackHeader returns the first line of the calling goroutine's stack
// trace, "goroutine 7 [running]:".
func stackHeader() []byte {
	var buf [64]byte
	st := buf[:runtime.Stack(buf[:], false)]
	if i := bytes.IndexByte(st, '\n'); i >= 0 {
		st = st[:i]
	}
	return st
}
