package sched_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/leakcheck"
	"github.com/weftgo/weft/internal/sched"
)

// idleWorker is in the stack of a pool worker waiting for work, searching or
// parked, and of no other goroutine: not of a worker running a task, nor of a
// caller waiting for a piece. The default pool's workers live as long as the
// process, so the leak check ignores them when idle, and nothing else.
const idleWorker = "github.com/weftgo/weft/internal/sched.(*Worker).findWork"

func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m, leakcheck.IgnoreAnyFunction(idleWorker))
}

// TestCloseEndsRestartedWorkers: a worker whose goroutine a task ended with
// runtime.Goexit carries on as a new goroutine, which must exit on Close as
// the others do. Nothing is ignored: every worker of the pool must be gone.
func TestCloseEndsRestartedWorkers(t *testing.T) {
	before := leakcheck.IgnoreCurrent()
	p := sched.New(2)
	for range 10 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			p.Run(func(w *sched.Worker) {
				w.Join(func(w *sched.Worker) { fib(w, 16) }, func(*sched.Worker) { runtime.Goexit() })
			})
		}()
		<-done
	}
	var got int
	p.Run(func(w *sched.Worker) { got = fib(w, 20) })
	require.Equal(t, 6765, got)
	p.Close()
	leakcheck.VerifyNone(t, before)
}
