package sched_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
)

// within fails t if cond does not hold within a generous watchdog: these
// tests check that something happens at all, never how fast.
func within(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("watchdog: %s did not happen in 30 s", what)
		}
		runtime.Gosched()
	}
}

// A parked pool worker is hungry; a busy one is not.
func TestHungryWhileAWorkerIdles(t *testing.T) {
	p := sched.New(1)
	defer p.Close()
	within(t, "the worker parking", func() bool { return p.Sleeping() == 1 })
	p.Run(func(w *sched.Worker) { require.True(t, w.Hungry(), "a parked worker is hungry") })

	release, held := make(chan struct{}), make(chan struct{})
	task := p.Spawn(func(*sched.Worker) { close(held); <-release })
	<-held
	p.Run(func(w *sched.Worker) { require.False(t, w.Hungry(), "the only worker is busy, the seat is running") })
	close(release)
	task.Wait()
}

// A caller whose fork was stolen and which has nothing left to run counts as
// hungry while it waits, and its thief's push of a job of its call wakes it:
// the thief below waits for that job to run elsewhere, so without the wake-up
// the seat would sleep until the thief's task ended, which never happens.
func TestPushWakesAParkedSeat(t *testing.T) {
	p := sched.New(1)
	defer p.Close()
	p.Run(func(seat *sched.Worker) {
		var stolen, pushed atomic.Bool
		seat.Join(
			func(*sched.Worker) { within(t, "the thief taking b", stolen.Load) },
			func(w *sched.Worker) { // on the pool's worker
				stolen.Store(true)
				require.True(t, w.IsPool())
				within(t, "the seat parking as it waits", seat.Asleep)
				require.Equal(t, 1, p.Waiting(), "the parked seat counts as waiting")
				require.True(t, w.Hungry())
				var ran atomic.Bool
				w.Join(
					func(w *sched.Worker) {
						pushed.Store(true)
						within(t, "the seat running the pushed half", ran.Load)
					},
					func(x *sched.Worker) {
						require.Same(t, seat, x, "the woken seat runs the job of its call")
						ran.Store(true)
					},
				)
			},
		)
		require.True(t, pushed.Load())
	})
	require.Equal(t, 0, p.Waiting(), "a caller that returned waits no more")
}

// TestLostWakeupOfASeat: the thief pushes a job of the call as the seat
// parks, just before its asleep mark (even rounds) or between the mark and its
// last look (odd rounds), and then waits for the job to run elsewhere. Either
// the look takes the job or the push sees the mark; the seat must run it,
// never sleep on.
func TestLostWakeupOfASeat(t *testing.T) {
	p := sched.New(1)
	defer p.Close()
	var seat atomic.Pointer[sched.Worker]
	var armed atomic.Bool
	var afterMark bool
	var inWindow, pushed chan struct{}
	sched.SetParkHook(func(w *sched.Worker, marked bool) {
		if w == seat.Load() && marked == afterMark && armed.CompareAndSwap(true, false) {
			close(inWindow)
			<-pushed
		}
	})
	defer sched.SetParkHook(nil)
	for i := range scale(200, 30) {
		afterMark = i%2 == 1
		inWindow, pushed = make(chan struct{}), make(chan struct{})
		var ran atomic.Bool
		p.Run(func(s *sched.Worker) {
			seat.Store(s)
			var stolen atomic.Bool
			s.Join(
				func(*sched.Worker) {
					within(t, "the thief taking b", stolen.Load)
					armed.Store(true) // the seat's next park is its wait for b
				},
				func(w *sched.Worker) {
					stolen.Store(true)
					<-inWindow
					w.Join(
						func(*sched.Worker) {
							close(pushed) // after the push
							within(t, fmt.Sprintf("round %d: the seat running the job pushed as it parked", i), ran.Load)
						},
						func(x *sched.Worker) {
							require.Same(t, s, x)
							ran.Store(true)
						},
					)
				},
			)
		})
		seat.Store(nil)
		require.True(t, ran.Load())
	}
}
