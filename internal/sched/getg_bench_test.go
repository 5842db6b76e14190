package sched

import "testing"

var mineSink bool

// BenchmarkHandleCheck is the cost of the wrong-handle check that Spawn and
// Worker.Join make at every call (Mine), against the portable way to tell
// goroutines apart that Go offers, the id in runtime.Stack's header (goid,
// which the panic carrier uses once a panic): the check must stay within
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
			id := goid()
			for b.Loop() {
				mineSink = goid() == id
			}
		})
	})
}
