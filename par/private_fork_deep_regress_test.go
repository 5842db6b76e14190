package par_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestSecondForkHiddenBehindLongLeaf shows a fork that stays private (see
// internal/sched, Worker.Push) while a worker is idle, one level below the
// case that TestForkWhileBusyIsStolenLater covers. Push keeps only the
// oldest pending fork public; once a thief has taken it, the newer forks are
// published only at the forker's next push or pop. A forker that then runs a
// long leaf hides them for the whole leaf: For's and MapErr's other pieces
// wait, though workers are idle. It shows up with a leaf that blocks (a
// lookup under MapErr with WithGrain(1), as in examples/fetch: when the first
// lookup is slow, the next few wait for it however many workers the pool
// has) or one that computes for long (a fixed coarse grain).
//
// The steps, on a pool of one worker W:
//  1. G1: Join(a1, b1); W takes b1, which blocks: nobody is idle.
//  2. G2: For(4, f, WithGrain(1)) cuts [0, 4): [2, 4) goes public, [1, 2)
//     private, and G2 runs f(0), which waits for f(1) to start.
//  3. b1 and a1 are released. Expected: W, idle, runs [2, 4) and then
//     [1, 2) while f(0) waits. Got: W runs [2, 4) and parks; f(1) starts
//     only after f(0) gives up, on G2.
func TestSecondForkHiddenBehindLongLeaf(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	t.Cleanup(p.Close)
	b1Started, release1 := make(chan struct{}), make(chan struct{})
	g1Done := make(chan struct{})
	go func() {
		defer close(g1Done)
		par.Do(func(w *par.Worker) {
			w.Join(func(w *par.Worker) {
				spinUntil(w, b1Started)
				<-release1
			}, func(*par.Worker) {
				close(b1Started)
				<-release1
			})
		}, par.OnPool(p))
	}()
	require.True(t, await(b1Started), "setup: b1 was not stolen")

	f0Started, f1Started := make(chan struct{}), make(chan struct{})
	var f1DuringF0 bool
	g2Done := make(chan struct{})
	go func() {
		defer close(g2Done)
		par.For(4, func(i int) {
			switch i {
			case 0:
				close(f0Started)
				select { // bounded, so that the failing case ends
				case <-f1Started:
					f1DuringF0 = true
				case <-time.After(3 * time.Second):
				}
			case 1:
				close(f1Started)
			}
		}, par.OnPool(p), par.WithGrain(1))
	}()
	require.True(t, await(f0Started))
	close(release1) // W becomes free while f(0) waits for f(1)
	require.True(t, await(g1Done))
	require.True(t, await(g2Done))
	require.True(t, f1DuringF0, "f(1) did not start while f(0) ran, though the pool's worker was idle")
}
