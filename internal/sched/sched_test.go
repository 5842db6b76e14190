package sched_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
)

// scale shrinks stress sizes under -short and under the race detector's cost.
func scale(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

func newPool(t *testing.T, n int) *sched.Pool {
	p := sched.New(n)
	t.Cleanup(p.Close)
	return p
}

// waitFor polls cond a bounded number of times, yielding in between; it fails
// the test if cond never holds. It bounds a wait for liveness, it does not time
// anything.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 20000; i++ {
		if cond() {
			return
		}
		time.Sleep(100 * time.Microsecond)
	}
	t.Fatalf("gave up waiting for %s", what)
}

// tree is a random fork-join tree; run forks its children pairwise with Join
// and counts every visit.
type tree struct {
	kids []*tree
	id   int
}

func randomTree(r *rand.Rand, depth int, next *int) *tree {
	t := &tree{id: *next}
	*next++
	if depth == 0 {
		return t
	}
	n := r.IntN(4)
	for i := 0; i < n; i++ {
		t.kids = append(t.kids, randomTree(r, depth-1, next))
	}
	return t
}

func visitAll(w *sched.Worker, ts []*tree, seen []atomic.Int32) {
	switch len(ts) {
	case 0:
	case 1:
		seen[ts[0].id].Add(1)
		visitAll(w, ts[0].kids, seen)
	default:
		h := len(ts) / 2
		w.Join(
			func(w *sched.Worker) { visitAll(w, ts[:h], seen) },
			func(w *sched.Worker) { visitAll(w, ts[h:], seen) },
		)
	}
}

func TestRandomTreeEveryTaskOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			p := newPool(t, workers)
			r := rand.New(rand.NewPCG(uint64(workers), 7))
			for round := 0; round < scale(20, 4); round++ {
				n := 0
				root := randomTree(r, 12, &n)
				seen := make([]atomic.Int32, n)
				p.Run(func(w *sched.Worker) { visitAll(w, []*tree{root}, seen) })
				for id := range seen {
					require.EqualValues(t, 1, seen[id].Load(), "node %d of %d", id, n)
				}
			}
		})
	}
}

// fib forks at every level, the worst case for the cost of a join.
func fib(w *sched.Worker, n int) int {
	if n < 2 {
		return n
	}
	var a, b int
	w.Join(func(w *sched.Worker) { a = fib(w, n-1) }, func(w *sched.Worker) { b = fib(w, n-2) })
	return a + b
}

func TestNestedJoinDepth(t *testing.T) {
	p := newPool(t, 4)
	var depth func(w *sched.Worker, d int) int
	depth = func(w *sched.Worker, d int) int {
		if d == 0 {
			return 1
		}
		var a, b int
		w.Join(func(w *sched.Worker) { a = depth(w, d-1) }, func(w *sched.Worker) { b = 1 })
		return a + b
	}
	var got int
	p.Run(func(w *sched.Worker) { got = depth(w, 20) })
	require.Equal(t, 21, got)
	p.Run(func(w *sched.Worker) { got = fib(w, 20) })
	require.Equal(t, 6765, got)
}

func TestThousandCallers(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			p := newPool(t, workers)
			var wg sync.WaitGroup
			errs := make(chan error, 1000)
			for g := 0; g < 1000; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var got int
					p.Run(func(w *sched.Worker) { got = fib(w, 10+g%5) })
					want := []int{55, 89, 144, 233, 377}[g%5]
					if got != want {
						errs <- fmt.Errorf("caller %d: fib = %d, want %d", g, got, want)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

func TestCallsFromInsideTasks(t *testing.T) {
	p := newPool(t, 2)
	other := newPool(t, 3)
	var got atomic.Int64
	p.Run(func(w *sched.Worker) {
		w.Join(func(w *sched.Worker) {
			// A fresh top-level call on the same pool from inside a task: it
			// takes a seat of its own.
			p.Run(func(w2 *sched.Worker) { got.Add(int64(fib(w2, 15))) })
		}, func(w *sched.Worker) {
			// And one on another pool.
			other.Run(func(w2 *sched.Worker) { got.Add(int64(fib(w2, 15))) })
		})
	})
	require.EqualValues(t, 2*610, got.Load())
}

func TestNestedTopLevelCallsEveryWorker(t *testing.T) {
	// Every worker blocks in a nested call at once: with blocking callers this
	// deadlocks; with callers that work on their own calls it cannot.
	p := newPool(t, 2)
	var total atomic.Int64
	var nest func(d int)
	nest = func(d int) {
		p.Run(func(w *sched.Worker) {
			w.Join(func(*sched.Worker) {
				if d > 0 {
					nest(d - 1)
				}
				total.Add(1)
			}, func(*sched.Worker) {
				if d > 0 {
					nest(d - 1)
				}
				total.Add(1)
			})
		})
	}
	nest(8)
	require.EqualValues(t, 2*(1<<9-1), total.Load())
}

func TestGOMAXPROCS1(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	p := newPool(t, 1)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var got int
			p.Run(func(w *sched.Worker) { got = fib(w, 18) })
			assert.Equal(t, 2584, got)
		}()
	}
	wg.Wait()
}

func TestLostWakeup(t *testing.T) {
	// In the narrowest window, between a worker's asleep mark and its last
	// look, another goroutine pushes a task. Either the look sees it or the
	// push's notify sees the mark; the task must run, never wait forever.
	rounds := scale(300, 50)
	var p *sched.Pool
	var armed atomic.Bool
	pushed := make(chan *sched.Task, 1)
	sched.SetParkHook(func(w *sched.Worker, marked bool) {
		if marked && w.IsPool() && armed.CompareAndSwap(true, false) {
			done := make(chan struct{})
			go func() {
				pushed <- p.Spawn(func(*sched.Worker) {})
				close(done)
			}()
			<-done
		}
	})
	defer sched.SetParkHook(nil)
	p = sched.New(1)
	defer p.Close()
	for i := 0; i < rounds; i++ {
		waitFor(t, "the worker to park", func() bool { return p.Sleeping() == 1 })
		armed.Store(true)
		// Wake the worker with a first task; as it goes back to sleep the
		// hook pushes a second one.
		p.Spawn(func(*sched.Worker) {}).Wait()
		task := <-pushed
		select {
		case <-task.Finished():
		case <-time.After(30 * time.Second):
			t.Fatalf("round %d: a task pushed as the last worker parked never ran", i)
		}
	}
}

// TestLingerBound: a worker that runs out of work keeps searching while the
// pool's clock stays short of Linger after its last task, however many rounds
// it makes, and parks at its first look at the clock from then on; Close does
// not wait for a lingering worker's clock.
func TestLingerBound(t *testing.T) {
	var now, reads atomic.Int64
	p := sched.NewClocked(1, func() int64 { reads.Add(1); return now.Load() })
	defer p.Close()
	lingering := func(what string) {
		t.Helper()
		r := reads.Load()
		waitFor(t, what, func() bool { return reads.Load() > r+1000 }) // a thousand rounds past searchRounds
		require.Zero(t, p.Sleeping(), "the worker parked %s", what)
		require.Equal(t, 1, p.Load().Searching, "the worker stopped searching %s", what)
	}
	lingering("on a clock short of its first linger")
	now.Store(int64(sched.Linger))
	waitFor(t, "the worker to park once its first linger passed", func() bool { return p.Sleeping() == 1 })

	last := now.Load() // the task runs with the clock here
	p.Spawn(func(*sched.Worker) {}).Wait()
	lingering("right after its task")
	now.Store(last + int64(sched.Linger) - 1)
	lingering("a nanosecond short of Linger after its task")
	now.Store(last + int64(sched.Linger))
	waitFor(t, "the worker to park at Linger after its task", func() bool { return p.Sleeping() == 1 })

	p.Spawn(func(*sched.Worker) {}).Wait()
	lingering("before Close")
}

// TestInProgressCountsSeatsAndArrivals: the calls in progress that split's
// planner weighs against the processors are the seats and the callers
// that Arrive counts.
func TestInProgressCountsSeatsAndArrivals(t *testing.T) {
	p := sched.New(1)
	defer p.Close()
	require.Equal(t, runtime.GOMAXPROCS(0), p.Load().Procs)
	require.Zero(t, p.Load().Calls, "no call in progress")
	p.Run(func(*sched.Worker) {
		require.Equal(t, 1, p.Load().Calls, "the seat's call")
		p.Arrive(1)
		p.Arrive(1)
		require.Equal(t, 3, p.Load().Calls, "the seat's call and two arrivals")
		p.Arrive(-1)
		p.Arrive(-1)
		require.Equal(t, 1, p.Load().Calls, "the seat's call alone")
	})
	require.Zero(t, p.Load().Calls, "every call ended")
}

func TestParkedPoolSleeps(t *testing.T) {
	p := newPool(t, 4)
	p.Run(func(w *sched.Worker) { fib(w, 20) })
	waitFor(t, "every worker to park", func() bool { return p.Sleeping() == 4 })
	before := p.Stats()
	time.Sleep(50 * time.Millisecond)
	after := p.Stats()
	// Parked workers stay parked: no spurious wake-ups, no polling.
	for i := range after.Workers {
		require.Equal(t, before.Workers[i].Parks, after.Workers[i].Parks, "worker %d woke while idle", i)
		require.Equal(t, before.Workers[i].StealTries, after.Workers[i].StealTries, "worker %d searched while idle", i)
	}
}

type myErr struct{ code int }

func (e *myErr) Error() string { return fmt.Sprint("my error ", e.code) }

func TestPanicsReachCaller(t *testing.T) {
	p := newPool(t, 3)
	val := &myErr{code: 42}
	for depth := 0; depth < 12; depth += 3 {
		for _, side := range []string{"a", "b"} {
			t.Run(fmt.Sprintf("depth%d-%s", depth, side), func(t *testing.T) {
				var ran atomic.Int64
				var rec func(w *sched.Worker, d int)
				rec = func(w *sched.Worker, d int) {
					ran.Add(1)
					if d == 0 {
						panic(val)
					}
					spin := func(w *sched.Worker) {
						ran.Add(1)
						fib(w, 12)
					}
					if side == "a" {
						w.Join(func(w *sched.Worker) { rec(w, d-1) }, spin)
					} else {
						w.Join(spin, func(w *sched.Worker) { rec(w, d-1) })
					}
				}
				defer func() {
					r := recover()
					require.NotNil(t, r)
					err, ok := r.(error)
					require.True(t, ok, "panic value %v", r)
					require.True(t, errors.Is(err, val), "got %v", r)
				}()
				p.Run(func(w *sched.Worker) { rec(w, depth) })
				t.Fatal("no panic")
			})
		}
	}
	// The pool is still usable.
	var got int
	p.Run(func(w *sched.Worker) { got = fib(w, 20) })
	require.Equal(t, 6765, got)
}

func TestPanicWaitsForSibling(t *testing.T) {
	// When a panics, a stolen b must have finished before the panic leaves
	// Join: nothing outlives the fork.
	p := newPool(t, 2)
	for i := 0; i < scale(200, 20); i++ {
		var running atomic.Bool
		func() {
			defer func() {
				require.Equal(t, "a", recover())
				// b either never started or has finished: it cannot still run.
				require.False(t, running.Load(), "round %d: b outlived the fork", i)
			}()
			p.Run(func(w *sched.Worker) {
				w.Join(func(w *sched.Worker) {
					fib(w, 10)
					panic("a")
				}, func(w *sched.Worker) {
					running.Store(true)
					fib(w, 14)
					running.Store(false)
				})
			})
		}()
	}
}

func TestGoexitInStolenTask(t *testing.T) {
	p := newPool(t, 2)
	for i := 0; i < 10; i++ {
		exited := make(chan bool)
		go func() {
			normal := false
			defer func() { exited <- normal }()
			p.Run(func(w *sched.Worker) {
				w.Join(func(w *sched.Worker) { fib(w, 16) }, func(*sched.Worker) { runtime.Goexit() })
			})
			normal = true
		}()
		require.False(t, <-exited, "Goexit in a task must end the calling goroutine")
	}
	var got int
	p.Run(func(w *sched.Worker) { got = fib(w, 20) })
	require.Equal(t, 6765, got)
}

// A Goexit that reaches a caller while it waits for a stolen half, in a task
// it runs meanwhile, ends the caller's goroutine only once that half has
// finished: nothing of the call outlives it. Once caught: the fork gave up
// its record and returned at once, and the stolen half went on writing after
// the goroutine had ended.
func TestGoexitWaitsForStolenHalf(t *testing.T) {
	p := newPool(t, 1)
	for i := 0; i < scale(20, 5); i++ {
		var written atomic.Bool
		// The seat waits until b's own fork has pushed y2, so that y2 is in
		// the worker's deque when the seat starts to wait for b: a seat that
		// found nothing at first would park until b ended.
		pushed, yStarted, exited := make(chan struct{}), make(chan struct{}), make(chan struct{})
		go func() {
			defer close(exited)
			p.Run(func(seat *sched.Worker) {
				seat.Join(func(*sched.Worker) { <-pushed }, func(w *sched.Worker) { // b: on the pool's worker
					w.Join(func(*sched.Worker) {
						close(pushed)
						<-yStarted
						time.Sleep(5 * time.Millisecond) // long enough for the seat to unwind if it does not wait
						written.Store(true)
					}, func(*sched.Worker) { // run by the seat while it waits for b
						close(yStarted)
						runtime.Goexit()
					})
				})
			})
		}()
		<-exited
		require.True(t, written.Load(), "round %d: the caller's goroutine ended before the stolen half had", i)
	}
	var got int
	p.Run(func(w *sched.Worker) { got = fib(w, 20) })
	require.Equal(t, 6765, got)
}

func TestCloseLeavesNoGoroutine(t *testing.T) {
	base := runtime.NumGoroutine()
	for i := 0; i < 5; i++ {
		p := sched.New(8)
		p.Run(func(w *sched.Worker) { fib(w, 18) })
		p.Spawn(func(*sched.Worker) {}).Wait()
		p.Close()
		p.Close() // a second Close does nothing
	}
	waitFor(t, "goroutines to exit", func() bool { return runtime.NumGoroutine() <= base })
}

func TestUseAfterClose(t *testing.T) {
	p := sched.New(2)
	p.Close()
	ran := false
	require.False(t, p.Run(func(*sched.Worker) { ran = true }))
	require.False(t, ran, "Run on a closed pool calls nothing")
	require.PanicsWithValue(t, sched.ErrClosed, func() { p.Spawn(func(*sched.Worker) {}) })
}

func TestCallInProgressSurvivesClose(t *testing.T) {
	p := sched.New(2)
	started := make(chan struct{})
	done := make(chan int, 1)
	go func() {
		p.Run(func(w *sched.Worker) {
			close(started)
			done <- fib(w, 22)
		})
	}()
	<-started
	p.Close() // waits for the call in progress, whose workers stay to help
	require.Equal(t, 17711, <-done)
}

func TestSpawnFromOutside(t *testing.T) {
	p := newPool(t, 2)
	var n atomic.Int64
	tasks := make([]*sched.Task, 100)
	for i := range tasks {
		tasks[i] = p.Spawn(func(w *sched.Worker) { n.Add(int64(fib(w, 10))) })
	}
	for _, task := range tasks {
		task.Wait()
	}
	require.EqualValues(t, 100*55, n.Load())
	require.PanicsWithValue(t, "x", func() { p.Spawn(func(*sched.Worker) { panic("x") }).Wait() })
	waitFor(t, "stats to settle", func() bool { return p.Sleeping() == 2 })
	require.GreaterOrEqual(t, p.Stats().Submitted, uint64(101))
}

func TestStats(t *testing.T) {
	p := newPool(t, 4)
	p.Run(func(w *sched.Worker) { fib(w, 22) })
	waitFor(t, "every worker to park", func() bool { return p.Sleeping() == 4 })
	s := p.Stats()
	require.Len(t, s.Workers, 4)
	var tasks, inline, steals, tries uint64
	all := append([]sched.WorkerStats{s.Callers}, s.Workers...)
	for _, w := range all {
		tasks += w.Tasks
		inline += w.Inline
		steals += w.Steals
		tries += w.StealTries
		require.GreaterOrEqual(t, w.StealTries, w.Steals)
	}
	// fib(22) forks fib(23)-1 = 28656 times; each fork's second half is run
	// inline or as a stolen task, exactly once.
	require.EqualValues(t, 28656, tasks+inline)
	require.Equal(t, steals, tasks, "every task run here was stolen")
	require.Greater(t, s.Uptime, time.Duration(0))
}

func TestSpawnRacingClose(t *testing.T) {
	// A task that Spawn accepted runs even when Close races with it: the
	// workers of a closing pool stay until every submission is in.
	for i := 0; i < scale(2000, 200); i++ {
		p := sched.New(2)
		closed := make(chan struct{})
		go func() {
			p.Close()
			close(closed)
		}()
		var task *sched.Task
		func() {
			defer func() {
				if r := recover(); r != nil && r != sched.ErrClosed {
					panic(r)
				}
			}()
			task = p.Spawn(func(*sched.Worker) {})
		}()
		if task != nil {
			select {
			case <-task.Finished():
			case <-time.After(30 * time.Second):
				t.Fatalf("round %d: an accepted task never ran", i)
			}
		}
		<-closed
	}
}
