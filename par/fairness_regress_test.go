package par_test

import (
	"bytes"
	"errors"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// The fixed bug these tests check: a goroutine that makes a call takes part
// in it, and while it waited for a piece of its call that a worker stole, it
// ran any work of the pool (sched.Worker.Wait: its own deque, then the shared
// queue and any other deque). That work could belong to another goroutine's
// call, and a task cannot be interrupted: the small call returned only once
// the foreign task had finished, however long the task was. `go run ./bench
// -fair` measured it: small calls that took a piece of a large call took up
// to the large call's whole length. Now every job carries its top-level call,
// and a waiting caller takes only jobs of its own call (sched.Worker.stealOwn).

// goid returns the id of the calling goroutine, from the first line of its
// stack ("goroutine 18 [running]:").
func goid() uint64 {
	var b [64]byte
	f := bytes.Fields(b[:runtime.Stack(b[:], false)])
	if len(f) < 2 {
		return 0
	}
	id, _ := strconv.ParseUint(string(f[1]), 10, 64)
	return id
}

// TestSmallCallDoesNotRunLargeCallTasks builds the situation step by step.
//
// Input, on a pool of one worker: goroutine S calls par.For(2, f,
// WithGrain(1)); f(0) runs on S and waits until the worker has taken f(1),
// which waits in turn. Goroutine B then calls par.For(2, g, WithGrain(1)):
// g(0) runs on B and waits on a gate that opens after S's call, and g(1)
// waits in B's deque, since the only worker is busy. Then f(0) returns, and
// S waits for f(1).
//
// Expected: S's call waits for f(1) alone and never runs g(1), which belongs
// to B's call. Got: S steals g(1) and runs it on its own goroutine; had g(1)
// been long, S's small call would have lasted as long.
func TestSmallCallDoesNotRunLargeCallTasks(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	opts := []par.Option{par.OnPool(p), par.WithGrain(1)}

	smallStolen := make(chan struct{}) // f(1) runs on the worker
	bigWaiting := make(chan struct{})  // g(0) runs on B, g(1) waits in B's deque
	release := make(chan struct{})     // g(1) has run: f(1) may finish
	gate := make(chan struct{})        // S's call has returned: g(0) may finish
	var small atomic.Uint64            // S's goroutine id
	var ranOn atomic.Uint64            // the goroutine g(1) ran on

	smallDone := make(chan struct{})
	go func() {
		defer close(smallDone)
		small.Store(goid())
		par.For(2, func(i int) {
			if i == 0 {
				await(smallStolen)
				await(bigWaiting)
				return
			}
			close(smallStolen)
			// A scheduler that keeps S off g(1) runs g(1) only after f(1) or
			// after the gate: then f(1) goes on after a while by itself.
			select {
			case <-release:
			case <-time.After(time.Second):
			}
		}, opts...)
	}()
	require.True(t, await(smallStolen), "the worker never took f(1)")

	bigDone := make(chan struct{})
	go func() {
		defer close(bigDone)
		par.For(2, func(i int) {
			if i == 0 {
				close(bigWaiting)
				<-gate
				return
			}
			ranOn.Store(goid())
			close(release)
		}, opts...)
	}()

	require.True(t, await(smallDone), "the small call did not return")
	close(gate)
	require.True(t, await(bigDone), "the large call did not return")
	assert.NotEqual(t, small.Load(), ranOn.Load(),
		"the small call's goroutine ran a task of another goroutine's call while it waited for its own")
}

// TestSmallScopeGoDoesNotQueueBehindLargeCall shows the same through the
// shared queue, where it needs no special timing: a Scope whose tasks are
// started with Spawner.Go waits for them in sched.Worker.Wait, and when
// another caller's goroutine took its task first, it takes a task of the
// large call from a deque instead.
//
// Input, on a pool of one worker: a large par.For whose tasks wait on a gate
// that opens once the small calls have returned; 4 goroutines each making
// 2,000 Scopes of 4 tasks started with Go. Expected: the small calls complete, as every kind of call in
// TestSmallCallsDoNotQueueBehindLargeCall does. Got: a small call's goroutine
// runs a task of the large call and waits on its gate, and the watchdog
// fires.
func TestSmallScopeGoDoesNotQueueBehindLargeCall(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	scopeGo := smallCall{"Scope/Go", func(o []par.Option) error {
		var n atomic.Int64
		par.Scope(func(s *par.Spawner, w *par.Worker) {
			for range 4 {
				s.Go(func(*par.Worker) { n.Add(1) })
			}
		}, o...)
		if n.Load() != 4 {
			return errors.New("a task of the scope did not run")
		}
		return nil
	}}
	// One round passes about half the time (the shared queue must be empty
	// at the wrong moment); ten rounds almost never all pass.
	for range 10 {
		runFairness(t, []par.Option{par.OnPool(p)}, 1, 2000, []smallCall{scopeGo})
	}
}
