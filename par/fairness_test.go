package par_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Fairness: a small call made while a large call holds every worker is not
// queued behind the large call, and a caller waiting for its own call never
// runs a task of another goroutine's call.

// fairnessWatchdog bounds how long the fairness tests wait for the small
// calls. It only tells a hang from progress: the small calls take
// microseconds, and a scheduler that queued them behind the large call would
// never run them at all, since the large call waits for them.
const fairnessWatchdog = 30 * time.Second

// smallCall is one kind of small call that the fairness test makes from other
// goroutines while a large call holds every worker; it returns an error if its
// result is wrong.
type smallCall struct {
	name string
	run  func(opts []par.Option) error
}

func smallCalls() []smallCall {
	xs := indices(10_000)
	want := 10_000 * 9_999 / 2
	check := func(what string, got, want int) error {
		if got != want {
			return fmt.Errorf("%s: got %d, want %d", what, got, want)
		}
		return nil
	}
	with := func(opts []par.Option, more ...par.Option) []par.Option {
		return append(slices.Clip(opts), more...)
	}
	return []smallCall{
		{"Sum", func(o []par.Option) error { return check("Sum", par.Sum(xs, o...), want) }},
		{"Sum/grain", func(o []par.Option) error {
			// A fixed grain sends the call to the pool at once.
			return check("Sum/grain", par.Sum(xs, with(o, par.WithGrain(1024))...), want)
		}},
		{"Map/grain", func(o []par.Option) error {
			ys := par.Map(xs[:1000], func(x int) int { return 2 * x }, with(o, par.WithGrain(64))...)
			for i, y := range ys {
				if y != 2*i {
					return fmt.Errorf("Map/grain: [%d] = %d", i, y)
				}
			}
			return check("Map/grain length", len(ys), 1000)
		}},
		{"Reduce/grain", func(o []par.Option) error {
			return check("Reduce/grain", par.Reduce(xs, 0, func(a, b int) int { return a + b }, with(o, par.WithGrain(500))...), want)
		}},
		{"Find/grain", func(o []par.Option) error {
			got := par.FindIndex(xs, func(x int) bool { return x%977 == 976 }, with(o, par.WithGrain(256))...)
			return check("Find/grain", got, 976)
		}},
		{"Do/Join2", func(o []par.Option) error {
			var r int
			par.Do(func(w *par.Worker) { r = fib(w, 15) }, o...)
			return check("fib(15)", r, 610)
		}},
		{"Join", func(o []par.Option) error {
			var a, b int
			par.Join(func() { a = par.Sum(xs[:5000], o...) }, func() { b = par.Sum(xs[5000:], o...) }, o...)
			return check("Join of two Sums", a+b, want)
		}},
		{"Scope/Spawn", func(o []par.Option) error {
			var n atomic.Int64
			par.Scope(func(s *par.Spawner, w *par.Worker) {
				for range 16 {
					s.Spawn(w, func(*par.Worker) { n.Add(1) })
				}
			}, o...)
			return check("Scope tasks", int(n.Load()), 16)
		}},
		{"MapErr/grain", func(o []par.Option) error {
			out, err := par.MapErr(context.Background(), xs[:1000], func(_ context.Context, x int) (int, error) {
				return x + 1, nil
			}, with(o, par.WithGrain(100))...)
			if err != nil {
				return err
			}
			return check("MapErr last", out[999], 1000)
		}},
		{"Sort/grain", func(o []par.Option) error {
			s := slices.Clone(xs[:4096])
			slices.Reverse(s)
			par.Sort(s, with(o, par.WithGrain(256))...)
			if !slices.Equal(s, xs[:4096]) {
				return fmt.Errorf("Sort/grain: not sorted")
			}
			return nil
		}},
	}
}

// TestSmallCallsDoNotQueueBehindLargeCall: while one goroutine's call keeps
// every worker of the pool busy, calls made from other goroutines complete on
// their own callers. The large call's tasks all wait on a gate that opens
// only once every small call has returned, so small calls that waited for a
// worker of the pool, or for the large call, would never return: the test
// fails then by its watchdog, not by a measured time.
func TestSmallCallsDoNotQueueBehindLargeCall(t *testing.T) {
	perCaller := 20
	if short() {
		perCaller = 5
	}
	for _, tc := range []struct {
		name    string
		workers int // 0: the default pool
	}{{"1", 1}, {"2", 2}, {"8", 8}, {"default", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []par.Option
			workers := par.DefaultWorkers()
			if tc.workers > 0 {
				p := par.NewPool(par.Workers(tc.workers))
				defer p.Close()
				opts = []par.Option{par.OnPool(p)}
				workers = tc.workers
			}
			runFairness(t, opts, workers, perCaller, smallCalls())
		})
	}
}

// runFairness makes the small calls from other goroutines while a large call
// on the same pool holds its workers, and checks that they all complete and
// give the right results.
func runFairness(t *testing.T, opts []par.Option, workers, perCaller int, calls []smallCall) {
	// The large call: more tasks than the pool's workers and its caller,
	// each waiting on the gate, so that every worker holds one and some are
	// left over in the deques.
	gate := make(chan struct{})
	openGate := sync.OnceFunc(func() { close(gate) })
	defer openGate() // a failing test lets the large call finish
	bigN := 4 * (workers + 1)
	var waiting, ran atomic.Int64
	bigDone := make(chan struct{})
	go func() {
		defer close(bigDone)
		par.For(bigN, func(int) {
			waiting.Add(1)
			<-gate
			ran.Add(1)
		}, append(slices.Clip(opts), par.WithGrain(1))...)
	}()
	// Every worker and the large call's own goroutine hold a task; a pool
	// that never woke its workers fails here rather than hanging.
	for deadline := time.Now().Add(fairnessWatchdog); waiting.Load() < int64(workers+1); {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d participants took a task of the large call", waiting.Load(), workers+1)
		}
		time.Sleep(10 * time.Microsecond)
	}

	const callers = 4
	var wg sync.WaitGroup
	errs := make(chan error, callers*perCaller*len(calls))
	var completed atomic.Int64
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range perCaller * len(calls) {
				sc := calls[(c+k)%len(calls)]
				if err := sc.run(opts); err != nil {
					errs <- fmt.Errorf("%s: %w", sc.name, err)
				}
				completed.Add(1)
			}
		}()
	}
	smallDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(smallDone)
	}()
	select {
	case <-smallDone:
	case <-time.After(fairnessWatchdog):
		n := completed.Load()
		// Let the small calls finish before the pool is closed under them.
		openGate()
		select {
		case <-smallDone:
		case <-time.After(fairnessWatchdog):
		}
		t.Fatalf("%d of %d small calls completed while the large call held the %d workers: the rest wait behind it",
			n, callers*perCaller*len(calls), workers)
	}
	require.EqualValues(t, int64(workers+1), waiting.Load(), "the large call started more tasks than it had participants: a worker was free after all")
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}

	openGate()
	select {
	case <-bigDone:
	case <-time.After(fairnessWatchdog):
		t.Fatal("the large call did not finish after its gate opened")
	}
	require.EqualValues(t, bigN, ran.Load(), "tasks of the large call that ran")
}

// TestSmallCallDoesNotRunLargeCallTasks: a caller that waits for a piece of
// its own call that a worker stole takes only work of its own call
// (sched.Worker.stealOwn), never a task of another goroutine's call, which it
// could not interrupt. The situation, step by step, on a pool of one worker:
// goroutine S calls par.For(2, f, WithGrain(1)); f(0) runs on S and waits
// until the worker has taken f(1), which waits in turn. Goroutine B then
// calls par.For(2, g, WithGrain(1)): g(0) runs on B and waits on a gate that
// opens after S's call, and g(1) waits in B's deque, since the only worker is
// busy. Then f(0) returns, and S waits for f(1): it must never run g(1).
// Once caught (`go run ./bench -fair`): S ran g(1) while it waited, so small calls lasted as long as the large call's tasks.
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

// TestSmallScopeGoDoesNotQueueBehindLargeCall: the same through the shared
// queue, where it needs no special timing: a Scope whose tasks are started
// with Spawner.Go, and whose task another caller's goroutine took first,
// waits without taking a task of the large call. On a pool of one worker, a
// large par.For whose tasks wait on a gate that opens once the small calls
// have returned; 4 goroutines each make 2,000 Scopes of 4 tasks started with
// Go, and all must complete, as every kind of call in
// TestSmallCallsDoNotQueueBehindLargeCall does.
// Once caught: a small call's goroutine ran a task of the large call, waited on its gate, and the watchdog fired.
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
