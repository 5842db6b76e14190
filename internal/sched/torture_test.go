package sched_test

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/carry"
	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/internal/torture"
)

// The scheduler's torture test: random fork-join trees run from many
// goroutines at once on pools of 1, 2, 4, 8 and 16 workers, with Join, Fork
// on job records of the test's own type (Alloc, Init, Free), a dynamic
// count of detached tasks behind a Scope (Spawn), calls nested on other
// pools (Run inside a task), and tasks submitted from outside (Pool.Spawn,
// a test's); panics are
// injected at random nodes. Every node counts its entries and exits and
// records how it exited, and after each top-level call the record is checked
// against the rules of the fork protocol (join.go; the rules are
// torture.Tree.Check's): no task runs twice; every task that started has
// finished when the call returns; a fork waits for both halves unless its
// first half panicked, and then either skips the second or waits for its
// thief; the panic that goes on is the first half's, else the second's; a
// latch waits for every task counted in it. At the end of each round the
// pools' counters must add up: every second half and every detached or
// submitted task that ran is one Tasks or one Inline count.
//
//	go test ./internal/sched -run Torture -torture.seed=N -torture.dur=5m
//	go test ./internal/sched -run Torture -torture.case=0x1234

const (
	kLeaf  uint8 = iota
	kJoin        // Worker.Join
	kFork        // Worker.Fork of a job of the test's own type
	kLatch       // detached tasks counted by a Scope, spawning more into it
	kRun         // a call nested on another pool: Run inside a task
	kSpawn       // a task of the enclosing latch that adds its children to it
	kKinds
)

var kindNames = []string{"leaf", "Join", "Fork", "Latch", "Run", "Spawn"}

// env is what the cases of a round share.
type env struct {
	torture.Log
	pools []*sched.Pool
	// What the pools' counters must add up to.
	halves, detached, spawned atomic.Int64
	cases, panics             atomic.Int64
}

// run is one tree, the pool of each kRun node, and what a run of it counted.
type run struct {
	*torture.Tree
	e    *env
	pool []int // by node id: the pool of a kRun node's nested call
	// The tasks of the case that the pools' counters count.
	halves, detached atomic.Int64
}

func genRun(r *rand.Rand, seed uint64, budget int) *run {
	t := &run{Tree: torture.NewTree(r, seed, budget, kindNames)}
	var gen func(guard, latch, depth int) *torture.Node
	gen = func(guard, latch, depth int) *torture.Node {
		n := t.Add(r, guard, latch)
		t.pool = append(t.pool, 0)
		if t.Leaf(r, n, depth) {
			n.Kind = kLeaf
			return n
		}
		n.Kind = uint8(1 + r.IntN(int(kKinds)-1))
		if n.Kind == kSpawn && latch < 0 {
			n.Kind = kFork
		}
		nk := 2
		kidGuard, kidLatch := n.ID, latch
		switch n.Kind {
		case kJoin, kFork:
			n.Rule = torture.Fork
		case kRun:
			n.Rule = torture.Fork
			nk, t.pool[n.ID] = 1, r.IntN(5)
		case kLatch:
			n.Rule = torture.Group
			nk, kidLatch = 1+r.IntN(5), n.ID
		case kSpawn:
			nk, kidGuard = 1+r.IntN(4), latch
		}
		for range nk {
			n.Kids = append(n.Kids, gen(kidGuard, kidLatch, depth+1))
		}
		return n
	}
	gen(-1, -1, 0)
	// A kSpawn under a kRun has no latch to add to: its kids never run, and
	// their guard (the latch) returns normally all the same.
	parent := t.Parents()
	t.Orphan(func(n *torture.Node) bool {
		if n.Kind != kSpawn {
			return false
		}
		for p := parent[n.ID]; p >= 0 && p != n.Group; p = parent[p] {
			if t.Nodes[p].Kind == kRun {
				return true
			}
		}
		return false
	})
	t.Seal()
	return t
}

// latchScope is the test's own scope: a sched.Scope, and the first failure.
type latchScope struct {
	l       sched.Scope
	failure atomic.Pointer[carry.Panic]
}

// task is a detached task of a latchScope.
type task struct {
	t *run
	s *latchScope
	n *torture.Node
}

func (k *task) Run(w *sched.Worker) {
	t, s, n := k.t, k.s, k.n
	t.detached.Add(1)
	normal := false
	defer func() {
		if !normal {
			r := recover()
			s.failure.CompareAndSwap(nil, &carry.Panic{Value: r})
		}
		s.l.Done(w)
	}()
	if s.failure.Load() == nil {
		t.visit(w, n, s)
	}
	normal = true
}

// push starts n as a task of s on w's deque.
func push(w *sched.Worker, t *run, s *latchScope, n *torture.Node) {
	sched.Spawn(w, &s.l, task{t: t, s: s, n: n})
}

// forkJob is the second half of a kFork node.
type forkJob struct {
	sched.Job
	t   *run
	n   *torture.Node
	s   *latchScope
	res uint64
}

func runFork(w *sched.Worker, j *sched.Job) {
	f := sched.Payload[forkJob](j)
	f.t.halves.Add(1)
	f.res = f.t.visit(w, f.n, f.s)
}

// visit runs node n on w; s is the enclosing latch scope, if any.
func (t *run) visit(w *sched.Worker, n *torture.Node, s *latchScope) uint64 {
	return t.Visit(n, func() (sum uint64) {
		switch n.Kind {
		case kLeaf:
			torture.Spin(n.Weight, n.Work)
		case kJoin:
			var a, b uint64
			w.Join(
				func(w *sched.Worker) { a = t.visit(w, n.Kids[0], s) },
				func(w *sched.Worker) { t.halves.Add(1); b = t.visit(w, n.Kids[1], s) },
			)
			sum += a + b
		case kFork:
			j := sched.Alloc[forkJob](w)
			j.t, j.n, j.s = t, n.Kids[1], s
			j.Init(w, runFork)
			var a uint64
			if w.ForkJob(&j.Job, func(w *sched.Worker) { a = t.visit(w, n.Kids[0], s) }) {
				t.halves.Add(1)
				j.res = t.visit(w, j.n, s)
			}
			sum += a + j.res
			j.t, j.n, j.s, j.res = nil, nil, nil, 0
			sched.Free(w, j)
		case kLatch:
			ls := &latchScope{}
			ls.l.Open(w)
			func() {
				ok := false
				defer func() {
					if !ok {
						ls.failure.CompareAndSwap(nil, &carry.Panic{Value: recover()})
					}
					ls.l.Done(w)
				}()
				for _, k := range n.Kids {
					push(w, t, ls, k)
				}
				ok = true
			}()
			ls.l.Wait(w)
			if p := ls.failure.Load(); p != nil {
				p.Repanic()
			}
		case kRun:
			// A nested call holds another handle: its tasks cannot push onto
			// the enclosing latch from there, so the subtree gets none.
			t.e.pools[t.pool[n.ID]].Run(func(w *sched.Worker) { sum += t.visit(w, n.Kids[0], nil) })
		case kSpawn:
			if s == nil {
				break // under a nested call: see kRun; the kids are never run
			}
			for _, k := range n.Kids {
				push(w, t, s, k)
			}
		}
		return sum
	})
}

// treeCase runs a tree as a top-level call (Run) or as a submitted task
// (Spawn, then Wait) on a random pool, and checks it.
func treeCase(e *env, seed uint64) {
	e.cases.Add(1)
	r := rand.New(rand.NewPCG(seed, 3))
	budget := 1 + r.IntN(300)
	if r.IntN(4) == 0 {
		budget = 1 + r.IntN(3000)
	}
	if testing.Short() || raceEnabled {
		budget = 1 + budget/3
	}
	t := genRun(r, seed, budget)
	t.e = e
	t.Errorf = func(format string, args ...any) { e.Errorf(seed, format, args...) }
	p := e.pools[r.IntN(len(e.pools))]
	spawned := r.IntN(4) == 0
	got, panicked := torture.Catch(func() {
		f := func(w *sched.Worker) {
			if sum := t.visit(w, t.Nodes[0], nil); sum != t.Nodes[0].Sum {
				e.Errorf(seed, "tree sum %d, want %d", sum, t.Nodes[0].Sum)
			}
		}
		if spawned {
			task := p.Spawn(func(w *sched.Worker) { e.spawned.Add(1); f(w) })
			task.Wait()
			return
		}
		p.Run(f)
	})
	t.Check(got, panicked)
	if panicked {
		e.panics.Add(1)
	}
	e.halves.Add(t.halves.Load())
	e.detached.Add(t.detached.Load())
	before := t.Entries()
	var f int
	p.Run(func(w *sched.Worker) { f = fib(w, 12) })
	e.halves.Add(fib13 - 1) // fib(12) forks fib(13)-1 times
	if f != 144 {
		e.Errorf(seed, "fib(12) after the tree: %d", f)
	}
	if after := t.Entries(); after != before {
		e.Errorf(seed, "%d node entries after the call returned", after-before)
	}
}

const fib13 = 233

// newEnv makes the pools of a round, of 1, 2, 4, 8 and 16 workers, whose
// waiters park after rounds fruitless rounds (0: split.SearchRounds).
func newEnv(master uint64, rounds int) *env {
	e := &env{Log: torture.Log{Master: master}}
	for _, n := range []int{1, 2, 4, 8, 16} {
		if rounds > 0 {
			e.pools = append(e.pools, sched.NewWaiting(n, rounds))
		} else {
			e.pools = append(e.pools, sched.New(n))
		}
	}
	return e
}

func (e *env) close() {
	for _, p := range e.pools {
		p.Close()
	}
}

func tortureRound(t *testing.T, master, round uint64, rounds int) (cases, panics int64) {
	t.Helper()
	before := runtime.NumGoroutine()
	rr := rand.New(rand.NewPCG(torture.Mix(master, round), 5))
	e := newEnv(master, rounds)
	maxG := 64
	if raceEnabled {
		maxG = 16
	}
	g, per := 8+rr.IntN(maxG-7), 2+rr.IntN(6)
	if !torture.Round(master, round, g, per, e.Failed, func(seed uint64) { treeCase(e, seed) }) {
		t.FailNow()
	}
	e.Report(t)
	require.False(t, e.Failed(), "master seed %d round %d", master, round)
	// Once every worker has parked, the counters are exact: each second half
	// and each detached or submitted task that ran was counted once, as a
	// task or as an inline run.
	for _, p := range e.pools {
		waitFor(t, "the workers to park", func() bool { return p.Sleeping() == p.Workers() })
	}
	var counted uint64
	for _, p := range e.pools {
		s := p.Stats()
		all := append([]sched.WorkerStats{s.Callers}, s.Workers...)
		for _, w := range all {
			counted += w.Tasks + w.Inline
			require.GreaterOrEqual(t, w.StealTries, w.Steals)
		}
	}
	want := uint64(e.halves.Load() + e.detached.Load() + e.spawned.Load())
	require.Equal(t, want, counted, "Tasks+Inline of every pool, master seed %d round %d", master, round)
	e.close()
	require.LessOrEqual(t, torture.WaitGoroutines(before), before, "goroutines left after round %d of master seed %d", round, master)
	return e.cases.Load(), e.panics.Load()
}

func TestTorture(t *testing.T) { tortureRounds(t, 0) }

// TestTortureWaitersParkAtOnce runs the torture's trees on pools whose
// waiters park after one fruitless round where they make
// split.SearchRounds, which puts nearly every wait through the sleep
// protocol that the rounds make rare. A waiter looks at its own deque again
// after each task it runs before it parks: the task may have left jobs
// there (a scope's), and no other participant's push wakes it for them.
// With the task's round counted as fruitless, a one-round waiter parked
// right after such a task and the round hung (the watchdog reports it).
func TestTortureWaitersParkAtOnce(t *testing.T) { tortureRounds(t, 1) }

// tortureRounds runs the torture's rounds on pools whose waiters park
// after rounds fruitless rounds (0: split.SearchRounds), or replays the
// case of -torture.case.
func tortureRounds(t *testing.T, rounds int) {
	seed, reps, replay, err := torture.Replay()
	require.NoError(t, err, "-torture.case")
	if replay {
		e := newEnv(torture.Seed(), rounds)
		defer e.close()
		for range reps {
			treeCase(e, seed)
		}
		e.Report(t)
		t.Logf("case %#x run %d times, %d ended by a panic", seed, reps, e.panics.Load())
		return
	}
	master := torture.Master()
	var cases, panics int64
	n, took := torture.Rounds(torture.Budget(3*time.Second, testing.Short() || raceEnabled), t.Failed, func(round uint64) {
		c, p := tortureRound(t, master, round, rounds)
		cases, panics = cases+c, panics+p
	})
	t.Logf("master seed %d: %d rounds, %d cases (%d ended by a panic) in %v", master, n, cases, panics, took)
}
