package par_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Stealing: a fork made while no worker is idle, which stays private to its
// forker for a while, is still stolen once a worker falls idle.

// busyPool returns a pool of one worker W that is busy, as is the goroutine
// G1 that keeps it so: G1 runs Join(a1, b1), W took b1, and both halves wait
// until release is closed; g1Done is closed when G1's call has returned.
func busyPool(t *testing.T) (p *par.Pool, release, g1Done chan struct{}) {
	t.Helper()
	p = par.NewPool(par.Workers(1))
	t.Cleanup(p.Close)
	b1Started := make(chan struct{})
	release, g1Done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(g1Done)
		// Join's second half is stealable at once, on any number of
		// processors (a recursion's forks, Join2's, are not stealable on
		// one), and its first waits until W has taken it.
		par.Join(func() {
			await(b1Started)
			await(release)
		}, func() {
			close(b1Started)
			await(release)
		}, par.OnPool(p))
	}()
	require.True(t, await(b1Started), "setup: b1 was not stolen")
	return p, release, g1Done
}

// TestForkWhileBusyIsStolenLater: a fork made while no worker is idle, which
// goes on the forker's private stack (internal/sched, Worker.Push), is still
// stolen once a worker falls idle while the forker runs a long first half:
// Join runs its halves "in parallel when a worker is free to take b". (For,
// Map and the rest cut their range into about two pieces per worker before
// running a leaf, so this holds for every call made while the pool is busy.)
//
// The steps, on a pool of one worker W:
//  1. G1: Join(a1, b1); W takes b1, which blocks: W is busy, and G1 is busy
//     in a1, so nobody is idle.
//  2. G2: Join(a2, b2); b2 goes private. a2 waits for b2 to start.
//  3. b1 and a1 are released, and W becomes idle: W must take b2 while a2
//     waits.
//
// Once caught: b2 started only when a2 gave up (after 10 s), then ran on G2 after a2.
func TestForkWhileBusyIsStolenLater(t *testing.T) {
	p, release1, g1Done := busyPool(t)

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

// TestSecondForkHiddenBehindLongLeaf: the newer forks behind the oldest one
// that a thief took (Push keeps only the oldest pending fork public) are
// stolen too while their forker runs a long leaf, one level below
// TestForkWhileBusyIsStolenLater. A leaf that blocks (a lookup under MapErr
// with WithGrain(1), as in examples/fetch) or computes for long (a fixed
// coarse grain) must not hold back the call's other pieces.
//
// The steps, on a pool of one worker W:
//  1. G1: Join(a1, b1); W takes b1, which blocks: nobody is idle.
//  2. G2: For(4, f, WithGrain(1)) cuts [0, 4): [2, 4) goes public, [1, 2)
//     private, and G2 runs f(0), which waits for f(1) to start.
//  3. b1 and a1 are released: W, idle, must run [2, 4) and then [1, 2)
//     while f(0) waits.
//
// Once caught: W ran [2, 4) and parked; f(1) started only after f(0) gave up, on G2.
func TestSecondForkHiddenBehindLongLeaf(t *testing.T) {
	p, release1, g1Done := busyPool(t)

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
