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
// The steps, on a pool of one worker W, with caller goroutines C and D:
//  1. C: Do(w.Join(aC, bC)). W steals bC, which forks w.Join(x, y); C, waiting
//     for bC, steals y, which blocks; x returns and W waits for y.
//  2. D: Join(aD, bD). W, waiting for y, steals bD, which calls Goexit.
//  3. y is released. D ends by Goexit, as it should. C ends by Goexit too,
//     though none of aC, bC, x or y called it. Expected: C's Do returns.
func TestGoexitEndsOtherCaller(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	t.Cleanup(p.Close)
	yPushed, yStarted, releaseY := make(chan struct{}), make(chan struct{}), make(chan struct{})
	bDStarted := make(chan struct{})
	cEnd := make(chan ending, 1)
	go func() {
		how, _ := runOn(func() {
			par.Do(func(w *par.Worker) {
				w.Join(func(*par.Worker) {
					await(yPushed) // aC: return once bC has been stolen and has forked y
				}, func(w *par.Worker) {
					w.Join(func(*par.Worker) {
						close(yPushed)
						await(yStarted) // x: keep W busy until C has stolen y
					}, func(*par.Worker) {
						close(yStarted)
						await(releaseY) // y, on C
					})
				})
			}, par.OnPool(p))
		})
		cEnd <- how
	}()
	require.True(t, await(yStarted), "setup: y was not stolen")

	how, _ := runOn(func() {
		par.Join(func() {
			await(bDStarted) // aD: return once W has taken bD
		}, func() {
			close(bDStarted)
			runtime.Goexit()
		}, par.OnPool(p))
	})
	require.Equal(t, goexited, how, "D's own callback called Goexit")

	close(releaseY)
	require.Equal(t, returned, <-cEnd, "C's callbacks never called Goexit, but C's goroutine ended")
}
