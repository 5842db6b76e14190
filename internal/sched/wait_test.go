package sched_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// TestWaiterLooksAtItsLatchWithinARound: a participant waiting for a stolen
// half looks at its latch within a round of stealing, every
// split.LookEvery victims, not only once the round is over, so that on a
// pool of many workers it takes up its own work as soon as its half is
// done instead of taking another job first; where the pool has more
// processors than the machine has CPUs, only after the round. A job lies
// on one seat of 33; with the latch set, a round that comes to that seat
// only after a look returns nothing, and with it unset every round takes
// the job.
func TestWaiterLooksAtItsLatchWithinARound(t *testing.T) {
	for _, over := range []bool{false, true} {
		p := sched.New(1)
		cpus := runtime.GOMAXPROCS(0)
		if over {
			cpus--
		}
		p.SetCPUs(cpus)
		release, held := make(chan struct{}), make(chan struct{})
		task := p.Spawn(func(*sched.Worker) { close(held); <-release }) // the pool's worker steals nothing meanwhile
		<-held

		const seats = 4 * split.LookEvery
		var ws []*sched.Worker
		var nest func()
		nest = func() {
			p.Run(func(w *sched.Worker) {
				if ws = append(ws, w); len(ws) < seats {
					nest()
					return
				}
				waiter, victim := ws[0], ws[seats/2]
				var set, unset, j sched.Job
				set.Init(nil, func(*sched.Worker, *sched.Job) {})
				waiter.Execute(&set) // sets its latch
				j.Init(nil, func(*sched.Worker, *sched.Job) {})
				victim.Push(&j)
				early := 0
				for range 64 {
					if x := waiter.StealFor(&set); x == nil {
						early++
					} else {
						require.Same(t, &j, x)
						victim.Push(&j)
					}
					require.Same(t, &j, waiter.StealFor(&unset), "a round that sees no latch set takes the job")
					victim.Push(&j)
				}
				require.Same(t, &j, waiter.StealFor(&unset))
				if over {
					require.Zero(t, early, "processors outnumber CPUs: a round stopped at the latch")
					return
				}
				require.NotZero(t, early, "no round stopped at the latch before it reached the job")
				require.Less(t, early, 64, "a round stopped at the latch before its first victim")
			})
		}
		nest()
		close(release)
		task.Wait()
		p.Close()
	}
}
