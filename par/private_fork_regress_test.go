package par_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestForkWhileBusyIsStolenLater checks a fixed bug: of the lazy publication of forks
// (internal/sched, Worker.Push): a fork made while no pool worker is idle goes
// on the forker's private stack, and it is published only at the forker's next
// push or pop. If the forker then runs a long first half that forks nothing,
// the second half cannot be stolen however many workers fall idle meanwhile,
// and Join runs its halves one after the other. Join's documentation says it
// runs them "in parallel when a worker is free to take b".
//
// It matters beyond this test: For, Map and the rest cut their range into
// about two pieces per worker before running a leaf, so a call made while the
// pool is busy with another call keeps most of its range private until its
// caller's first leaf, up to 1/(2P) of the range, is done.
//
// The steps, on a pool of one worker W:
//  1. G1: Join(a1, b1); W takes b1, which blocks: W is busy, and G1 is busy
//     in a1, so nobody is idle.
//  2. G2: Join(a2, b2); b2 goes private. a2 waits for b2 to start.
//  3. b1 and a1 are released, and W becomes idle. Expected: W takes b2 while
//     a2 waits. Got: b2 does not start until a2 gives up (after 10 s), then
//     runs on G2 after a2.
func TestForkWhileBusyIsStolenLater(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	t.Cleanup(p.Close)
	b1Started, release1 := make(chan struct{}), make(chan struct{})
	g1Done := make(chan struct{})
	go func() {
		defer close(g1Done)
		par.Do(func(w *par.Worker) {
			w.Join(func(w *par.Worker) {
				spinUntil(w, b1Started) // publish b1 once W is idle, then stay busy
				await(release1)
			}, func(*par.Worker) {
				close(b1Started)
				await(release1)
			})
		}, par.OnPool(p))
	}()
	require.True(t, await(b1Started), "setup: b1 was not stolen")

	a2Started, b2Started := make(chan struct{}), make(chan struct{})
	var b2DuringA2 bool
	g2Done := make(chan struct{})
	go func() {
		defer close(g2Done)
		par.Join(func() {
			close(a2Started)
			b2DuringA2 = await(b2Started)
		}, func() {
			close(b2Started)
		}, par.OnPool(p))
	}()
	require.True(t, await(a2Started))
	close(release1) // W and G1 become free while a2 waits for b2
	require.True(t, await(g1Done))
	<-g2Done // a2's wait is bounded
	require.True(t, b2DuringA2, "b2 was not stolen while a2 ran, though the pool's worker was idle")
}
