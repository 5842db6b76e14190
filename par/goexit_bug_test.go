package par_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestGoexitEndsOtherCaller shows a bug: runtime.Goexit in a callback of one
// call (what t.FailNow and require do) can end the goroutine of another,
// unrelated call on the same pool, whose callbacks never call Goexit.
//
// A participant that waits for a stolen half runs other tasks meanwhile, on
// its own stack. If such a task is another call's and it calls Goexit, the
// goroutine unwinds through the frames of the task it was waiting in: that
// task is recorded as having called Goexit, its remaining work is skipped,
// and its caller re-raises Goexit. Panics are recovered where the task runs,
// so they do not leak; Goexit cannot be stopped.
//
// The steps, on a pool of two workers, with caller goroutines C and D:
//  1. C: Do(w.Join(aC, bC)); aC keeps C busy until the end. A worker Wa
//     steals bC, which forks w.Join(x, y); the other worker Wb steals y,
//     which blocks; x returns and Wa waits for y, running other tasks.
//  2. D: Do(w.Join(aD, bD)). Wa, the only participant free to, steals bD,
//     which calls Goexit.
//  3. y and aC are released. D ends by Goexit, as it should. C ends by Goexit
//     too, though none of aC, bC, x or y called it. Expected: C's Do returns.
func TestGoexitEndsOtherCaller(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	t.Cleanup(p.Close)
	bCStarted, yStarted, releaseY, releaseC := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	bDStarted := make(chan struct{})
	cEnd := make(chan ending, 1)
	go func() {
		how, _ := runOn(func() {
			par.Do(func(w *par.Worker) {
				w.Join(func(w *par.Worker) { // aC, on C: busy, so C steals nothing
					spinUntil(w, bCStarted)
					await(releaseC)
				}, func(w *par.Worker) { // bC, on Wa
					close(bCStarted)
					w.Join(func(w *par.Worker) { // x
						spinUntil(w, yStarted)
					}, func(*par.Worker) { // y, on Wb
						close(yStarted)
						await(releaseY)
					})
				})
			}, par.OnPool(p))
		})
		cEnd <- how
	}()
	require.True(t, await(yStarted), "setup: y was not stolen")

	how, _ := runOn(func() {
		par.Do(func(w *par.Worker) {
			w.Join(func(w *par.Worker) {
				spinUntil(w, bDStarted) // aD: until Wa has taken bD
			}, func(*par.Worker) {
				close(bDStarted)
				runtime.Goexit()
			})
		}, par.OnPool(p))
	})
	require.Equal(t, goexited, how, "D's own callback called Goexit")

	close(releaseY)
	close(releaseC)
	require.Equal(t, returned, <-cEnd, "C's callbacks never called Goexit, but C's goroutine ended")
}
