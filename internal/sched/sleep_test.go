package sched_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
)

// onOneProcessor runs f at GOMAXPROCS 1, where the workers that a push
// wakes cannot run, nor steal, until the pushing goroutine blocks: what the
// pushes decide is then seen before any woken worker changes the counts.
func onOneProcessor(f func()) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
}

// TestPushesWakeAWorkerPerJob: each of three jobs pushed into a seat's
// deque, and each of three tasks submitted, wakes a parked worker while
// fewer search than jobs wait, so three of four parked workers are up
// before any has run; waking only while none searched, the second and third
// push woke nobody (Sleeping 3), and the pool came up a wake-up at a time.
func TestPushesWakeAWorkerPerJob(t *testing.T) {
	p := sched.New(4)
	defer p.Close()
	for round := range scale(20, 5) {
		onOneProcessor(func() {
			waitFor(t, "every worker to park", func() bool { return p.Sleeping() == 4 })
			release := make(chan struct{})
			block := func(*sched.Worker) { <-release }
			sleeping := -1
			p.Run(func(w *sched.Worker) {
				w.Join(func(w *sched.Worker) {
					w.Join(func(w *sched.Worker) {
						w.Join(func(*sched.Worker) {
							sleeping = p.Sleeping()
							close(release)
						}, block)
					}, block)
				}, block)
			})
			require.Equal(t, 1, sleeping, "round %d: parked workers after three pushes from a seat", round)
		})
		onOneProcessor(func() {
			waitFor(t, "every worker to park", func() bool { return p.Sleeping() == 4 })
			release := make(chan struct{})
			var tasks []*sched.Task
			for range 3 {
				tasks = append(tasks, p.Spawn(func(*sched.Worker) { <-release }))
			}
			sleeping := p.Sleeping()
			close(release)
			for _, task := range tasks {
				task.Wait()
			}
			require.Equal(t, 1, sleeping, "round %d: parked workers after three submissions", round)
		})
	}
}

// TestPoolMeasuresWakeUp: a pool knows no wake-up before its first, and
// once a push has woken a parked worker for work, its Load holds how long
// that worker took to come up (what split.Load.Wake gives the planner).
func TestPoolMeasuresWakeUp(t *testing.T) {
	p := sched.New(1)
	defer p.Close()
	waitFor(t, "the worker to park", func() bool { return p.Sleeping() == 1 })
	require.Zero(t, p.Load().Wake, "wake-up before any")
	for range 20 {
		waitFor(t, "the worker to park", func() bool { return p.Sleeping() == 1 })
		release := make(chan struct{})
		p.Run(func(w *sched.Worker) {
			w.Join(func(*sched.Worker) {
				waitFor(t, "the worker to take the fork", func() bool { return p.Sleeping() == 0 })
				close(release)
			}, func(*sched.Worker) { <-release })
		})
		if p.Load().Wake > 0 {
			return
		}
	}
	t.Fatal("20 wake-ups for work, and the pool measured none")
}
