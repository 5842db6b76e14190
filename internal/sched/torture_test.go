package sched_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
)

// The scheduler's torture test: random fork-join trees run from many
// goroutines at once on pools of 1, 2, 4, 8 and 16 workers, with Join, Fork
// on job records of the test's own type (Alloc, Init, Free), a dynamic
// count of detached tasks behind a CountLatch, calls nested on other pools
// (Run inside a task), and tasks submitted from outside (Spawn); panics are
// injected at random nodes. Every node counts its entries and exits and
// records how it exited, and after each top-level call the record is checked
// against the rules of the fork protocol (join.go): no task runs twice; every
// task that started has finished when the call returns; a fork waits for
// both halves unless its first half panicked, and then either skips the
// second or waits for its thief; the panic that goes on is the first half's,
// else the second's; a latch waits for every task counted in it. At the end
// of each round the pools' counters must add up: every second half and every
// detached or submitted task that ran is one Tasks or one Inline count.
//
//	go test ./internal/sched -run Torture -torture.seed=N -torture.dur=5m
//	go test ./internal/sched -run Torture -torture.case=0x1234

var (
	tortureSeed = flag.Uint64("torture.seed", 0, "master seed of the torture test; 0 picks one from the clock")
	tortureDur  = flag.Duration("torture.dur", 0, "how long the torture test runs; 0 means a few seconds")
	tortureCase = flag.String("torture.case", "", "replay only the torture case of this seed (as printed by a failure)")
	tortureReps = flag.Int("torture.reps", 20, "how many times -torture.case runs its case")
)

func mix(seed, k uint64) uint64 {
	z := seed + 0x9E3779B97F4A7C15*(k+1)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// boom is an injected panic value, compared by identity.
type boom struct {
	seed  uint64
	where string
}

func (b *boom) String() string { return fmt.Sprintf("boom %#x %s", b.seed, b.where) }

// sink keeps busy loops from being optimized away.
var sink atomic.Uint64

type kind uint8

const (
	kLeaf  kind = iota
	kJoin       // Worker.Join
	kFork       // Worker.Fork of a job of the test's own type
	kLatch      // detached tasks counted by a CountLatch, spawning more into it
	kRun        // a call nested on another pool: Run inside a task
	kSpawn      // a task of the enclosing latch that adds its children to it
	kKinds
)

var kindNames = [...]string{"leaf", "Join", "Fork", "Latch", "Run", "Spawn"}

type node struct {
	id        int
	kind      kind
	kids      []*node
	pre, post *boom
	pool      int // kRun: the pool of the nested call
	guard     int // the node whose normal exit promises this one ran
	latch     int // the nearest enclosing kLatch, or -1
	work      int
	weight    uint64
	sum       uint64
}

// env is what the cases of a round share.
type env struct {
	pools  []*sched.Pool
	master uint64
	failed atomic.Bool
	mu     sync.Mutex
	errs   []string
	// What the pools' counters must add up to.
	halves, detached, spawned atomic.Int64
	cases, panics             atomic.Int64
}

func (e *env) errorf(seed uint64, format string, args ...any) {
	msg := fmt.Sprintf("case %#x (master seed %d): ", seed, e.master) + fmt.Sprintf(format, args...)
	e.mu.Lock()
	if len(e.errs) < 20 {
		e.errs = append(e.errs, msg)
	}
	e.mu.Unlock()
	e.failed.Store(true)
}

// run is one tree and the record of one run of it.
type run struct {
	e       *env
	seed    uint64
	nodes   []*node
	entered []atomic.Int32
	exited  []atomic.Int32
	normal  []atomic.Bool
	postHit []atomic.Bool
	exitVal []atomic.Pointer[boom]
	sums    []atomic.Uint64
	foreign atomic.Value
	// The tasks of the case that the pools' counters count.
	halves, detached atomic.Int64
	panics           bool
}

func genRun(r *rand.Rand, seed uint64, budget int) *run {
	t := &run{seed: seed}
	panicP := 0.0
	if r.IntN(2) == 0 {
		panicP = 0.5 / float64(budget)
		if r.IntN(3) == 0 {
			panicP = 4 / float64(budget)
		}
	}
	var gen func(guard, latch, depth int) *node
	gen = func(guard, latch, depth int) *node {
		n := &node{id: len(t.nodes), guard: guard, latch: latch, weight: r.Uint64() >> 8}
		t.nodes = append(t.nodes, n)
		if r.Float64() < panicP {
			n.pre, t.panics = &boom{seed, fmt.Sprintf("node %d pre", n.id)}, true
		}
		if r.Float64() < panicP {
			n.post, t.panics = &boom{seed, fmt.Sprintf("node %d post", n.id)}, true
		}
		if depth > 14 || budget-len(t.nodes) < 3 || r.IntN(10) < 2 {
			n.kind, n.work = kLeaf, r.IntN(2000)
			return n
		}
		n.kind = kind(1 + r.IntN(int(kKinds)-1))
		if n.kind == kSpawn && latch < 0 {
			n.kind = kFork
		}
		nk := 2
		kidGuard, kidLatch := n.id, latch
		switch n.kind {
		case kRun:
			nk, n.pool = 1, r.IntN(5)
		case kLatch:
			nk, kidLatch = 1+r.IntN(5), n.id
		case kSpawn:
			nk, kidGuard = 1+r.IntN(4), latch
		}
		for range nk {
			n.kids = append(n.kids, gen(kidGuard, kidLatch, depth+1))
		}
		return n
	}
	gen(-1, -1, 0)
	for i := len(t.nodes) - 1; i >= 0; i-- {
		n := t.nodes[i]
		n.sum = n.weight
		if n.kind != kLatch && n.kind != kSpawn {
			for _, k := range n.kids {
				n.sum += k.sum
			}
		}
	}
	k := len(t.nodes)
	t.entered, t.exited = make([]atomic.Int32, k), make([]atomic.Int32, k)
	t.normal, t.postHit = make([]atomic.Bool, k), make([]atomic.Bool, k)
	t.exitVal, t.sums = make([]atomic.Pointer[boom], k), make([]atomic.Uint64, k)
	return t
}

// latchScope is the test's own scope: a CountLatch, and the first failure.
type latchScope struct {
	l       sched.CountLatch
	failure atomic.Pointer[sched.Panic]
}

// task is a detached job of a latchScope.
type task struct {
	sched.Job
	t  *run
	s  *latchScope
	n  *node
	ok bool // the task ran its node (it was not skipped)
}

func runTask(w *sched.Worker, j *sched.Job) {
	k := sched.Payload[task](j)
	t, s, n := k.t, k.s, k.n
	t.detached.Add(1)
	normal := false
	defer func() {
		if !normal {
			r := recover()
			s.failure.CompareAndSwap(nil, &sched.Panic{Value: r})
		}
		k.t, k.s, k.n = nil, nil, nil
		sched.Free(w, k)
		s.l.Done(w)
	}()
	if s.failure.Load() == nil {
		t.visit(w, n, s)
	}
	normal = true
}

// push starts n as a task of s on w's deque.
func push(w *sched.Worker, t *run, s *latchScope, n *node) {
	k := sched.Alloc[task](w)
	k.t, k.s, k.n = t, s, n
	k.Init(nil, runTask)
	s.l.Add()
	w.Push(&k.Job)
}

// forkJob is the second half of a kFork node.
type forkJob struct {
	sched.Job
	t   *run
	n   *node
	s   *latchScope
	res uint64
}

func runFork(w *sched.Worker, j *sched.Job) {
	f := sched.Payload[forkJob](j)
	f.t.halves.Add(1)
	f.res = f.t.visit(w, f.n, f.s)
}

// visit runs node n on w; s is the enclosing latch scope, if any.
func (t *run) visit(w *sched.Worker, n *node, s *latchScope) (sum uint64) {
	if t.entered[n.id].Add(1) != 1 {
		t.e.errorf(t.seed, "node %d (%s) entered twice", n.id, kindNames[n.kind])
	}
	normal := false
	defer func() {
		if normal {
			t.sums[n.id].Store(sum)
			t.normal[n.id].Store(true)
			t.exited[n.id].Add(1)
			return
		}
		v := recover()
		if b, ok := v.(*boom); ok {
			t.exitVal[n.id].Store(b)
		} else {
			t.foreign.CompareAndSwap(nil, fmt.Sprintf("node %d: %#v (%T)", n.id, v, v))
		}
		t.exited[n.id].Add(1)
		panic(v)
	}()
	if n.pre != nil {
		panic(n.pre)
	}
	sum = n.weight
	switch n.kind {
	case kLeaf:
		x := n.weight
		for i := range n.work {
			x = x*6364136223846793005 + uint64(i)
			if i%512 == 511 {
				runtime.Gosched()
			}
		}
		if x == 0x9E3779B97F4A7C15 { // keeps the loop
			sink.Store(x)
		}
	case kJoin:
		var a, b uint64
		w.Join(
			func(w *sched.Worker) { a = t.visit(w, n.kids[0], s) },
			func(w *sched.Worker) { t.halves.Add(1); b = t.visit(w, n.kids[1], s) },
		)
		sum += a + b
	case kFork:
		j := sched.Alloc[forkJob](w)
		j.t, j.n, j.s = t, n.kids[1], s
		if !j.HasRun() {
			j.Init(w, runFork)
		} else {
			j.Init(w, nil)
		}
		var a uint64
		if w.Fork(&j.Job, func(w *sched.Worker) { a = t.visit(w, n.kids[0], s) }) {
			t.halves.Add(1)
			j.res = t.visit(w, j.n, s)
		}
		sum += a + j.res
		j.t, j.n, j.s, j.res = nil, nil, nil, 0
		sched.Free(w, j)
	case kLatch:
		ls := &latchScope{}
		ls.l.Init(w)
		func() {
			ok := false
			defer func() {
				if !ok {
					ls.failure.CompareAndSwap(nil, &sched.Panic{Value: recover()})
				}
				ls.l.Done(w)
			}()
			for _, k := range n.kids {
				push(w, t, ls, k)
			}
			ok = true
		}()
		w.Wait(&ls.l.Job)
		if p := ls.failure.Load(); p != nil {
			p.Repanic()
		}
	case kRun:
		// A nested call holds another handle: its tasks cannot push onto
		// the enclosing latch from there, so the subtree gets none.
		t.e.pools[n.pool].Run(func(w *sched.Worker) { sum += t.visit(w, n.kids[0], nil) })
	case kSpawn:
		if s == nil {
			break // under a nested call: see kRun; the kids are never run
		}
		for _, k := range n.kids {
			push(w, t, s, k)
		}
	}
	if n.post != nil {
		t.postHit[n.id].Store(true)
		panic(n.post)
	}
	normal = true
	return sum
}

// check compares the record with the rules after the top-level call.
func (t *run) check(got any, panicked bool) {
	e, seed := t.e, t.seed
	if f := t.foreign.Load(); f != nil {
		e.errorf(seed, "foreign panic value: %v", f)
	}
	for _, n := range t.nodes {
		if en, ex := t.entered[n.id].Load(), t.exited[n.id].Load(); en != ex {
			e.errorf(seed, "node %d (%s): entered %d times, exited %d times when the call returned", n.id, kindNames[n.kind], en, ex)
			return
		}
	}
	ran := func(n *node) bool { return t.entered[n.id].Load() == 1 }
	val := func(n *node) *boom { return t.exitVal[n.id].Load() }
	if !panicked && !t.normal[0].Load() {
		e.errorf(seed, "the call returned but the root exited by a panic")
	}
	if panicked {
		if b, _ := got.(*boom); b == nil || b != val(t.nodes[0]) {
			e.errorf(seed, "the call panicked with %v, the root exited with %v", got, val(t.nodes[0]))
		}
		if !t.panics {
			e.errorf(seed, "panic %v with nothing injected", got)
		}
	}
	// A kSpawn under a kRun has no latch to add to: its kids never run, and
	// their guard (the latch) returns normally all the same. They are left
	// out of the checks below, as are their descendants.
	orphan := make([]bool, len(t.nodes))
	for _, n := range t.nodes { // parents come before children
		for _, k := range n.kids {
			orphan[k.id] = orphan[n.id] || (n.kind == kSpawn && underRun(t, n))
		}
	}
	tasks := map[int][]*node{}
	for _, n := range t.nodes {
		if n.guard >= 0 && t.nodes[n.guard].kind == kLatch && !orphan[n.id] {
			tasks[n.guard] = append(tasks[n.guard], n)
		}
	}
	for _, n := range t.nodes {
		if orphan[n.id] {
			if ran(n) {
				e.errorf(seed, "node %d ran, yet nothing started it", n.id)
				return
			}
			continue
		}
		if !ran(n) {
			if n.guard >= 0 && t.normal[n.guard].Load() {
				e.errorf(seed, "node %d (%s) never ran, yet node %d (%s), which waits for it, returned normally", n.id, kindNames[n.kind], n.guard, kindNames[t.nodes[n.guard].kind])
				return
			}
			continue
		}
		if t.normal[n.id].Load() && t.sums[n.id].Load() != n.sum {
			e.errorf(seed, "node %d (%s): sum %d, want %d", n.id, kindNames[n.kind], t.sums[n.id].Load(), n.sum)
			return
		}
		var want *boom
		switch {
		case n.pre != nil:
			want = n.pre
		case n.kind == kJoin || n.kind == kFork || n.kind == kRun:
			if !ran(n.kids[0]) {
				e.errorf(seed, "node %d (%s): its first half never ran", n.id, kindNames[n.kind])
				return
			}
			want = val(n.kids[0])
			if want == nil && len(n.kids) > 1 {
				if !ran(n.kids[1]) {
					e.errorf(seed, "node %d (%s): its first half returned, its second never ran", n.id, kindNames[n.kind])
					return
				}
				want = val(n.kids[1])
			}
		case n.kind == kLatch:
			allowed := map[*boom]bool{}
			for _, k := range tasks[n.id] {
				if v := val(k); v != nil {
					allowed[v] = true
				}
			}
			got := val(n)
			switch {
			case got == nil && (len(allowed) > 0 || n.post != nil):
				e.errorf(seed, "latch node %d returned normally, yet a task or its post panicked", n.id)
			case got != nil && t.postHit[n.id].Load() && (got != n.post || len(allowed) > 0):
				e.errorf(seed, "latch node %d reached its post with %d task panics, exited with %v", n.id, len(allowed), got)
			case got != nil && !t.postHit[n.id].Load() && !allowed[got]:
				e.errorf(seed, "latch node %d panicked with %v, not a panic of its tasks", n.id, got)
			}
			continue
		}
		if want == nil && n.post != nil {
			if !t.postHit[n.id].Load() {
				e.errorf(seed, "node %d (%s): its halves returned, it never reached its post", n.id, kindNames[n.kind])
				return
			}
			want = n.post
		}
		if val(n) != want {
			e.errorf(seed, "node %d (%s): exited with %v, want %v", n.id, kindNames[n.kind], val(n), want)
			return
		}
	}
}

// underRun reports whether n runs under a kRun below its latch, where it
// has no latch to push onto.
func underRun(t *run, n *node) bool {
	// Walk up through parents: a parent map is built lazily.
	parent := t.parents()
	for p := parent[n.id]; p >= 0 && p != n.latch; p = parent[p] {
		if t.nodes[p].kind == kRun {
			return true
		}
	}
	return false
}

func (t *run) parents() []int {
	p := make([]int, len(t.nodes))
	p[0] = -1
	for _, n := range t.nodes {
		for _, k := range n.kids {
			p[k.id] = n.id
		}
	}
	return p
}

func (t *run) entries() int64 {
	var s int64
	for i := range t.entered {
		s += int64(t.entered[i].Load())
	}
	return s
}

// catch calls f and returns what it panicked with.
func catch(f func()) (v any, panicked bool) {
	normal := false
	defer func() {
		if !normal {
			panicked, v = true, recover()
		}
	}()
	f()
	normal = true
	return nil, false
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
	p := e.pools[r.IntN(len(e.pools))]
	spawned := r.IntN(4) == 0
	got, panicked := catch(func() {
		f := func(w *sched.Worker) {
			if sum := t.visit(w, t.nodes[0], nil); sum != t.nodes[0].sum {
				e.errorf(seed, "tree sum %d, want %d", sum, t.nodes[0].sum)
			}
		}
		if spawned {
			task := p.Spawn(func(w *sched.Worker) { e.spawned.Add(1); f(w) })
			task.Wait()
			return
		}
		p.Run(f)
	})
	t.check(got, panicked)
	if panicked {
		e.panics.Add(1)
	}
	e.halves.Add(t.halves.Load())
	e.detached.Add(t.detached.Load())
	before := t.entries()
	var f int
	p.Run(func(w *sched.Worker) { f = fib(w, 12) })
	e.halves.Add(fib13 - 1) // fib(12) forks fib(13)-1 times
	if f != 144 {
		e.errorf(seed, "fib(12) after the tree: %d", f)
	}
	if after := t.entries(); after != before {
		e.errorf(seed, "%d node entries after the call returned", after-before)
	}
}

const fib13 = 233

func tortureRound(t *testing.T, master, round uint64) (cases, panics int64) {
	t.Helper()
	before := runtime.NumGoroutine()
	rr := rand.New(rand.NewPCG(mix(master, round), 5))
	e := &env{master: master}
	for _, n := range []int{1, 2, 4, 8, 16} {
		e.pools = append(e.pools, sched.New(n))
	}
	maxG := 64
	if raceEnabled {
		maxG = 16
	}
	g, per := 8+rr.IntN(maxG-7), 2+rr.IntN(6)
	current := make([]atomic.Uint64, g)
	var wg sync.WaitGroup
	for i := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range per {
				if e.failed.Load() {
					return
				}
				seed := mix(mix(master, round), uint64(i*1000+j))
				current[i].Store(seed)
				treeCase(e, seed)
			}
			current[i].Store(0)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute): // only a hang gets here
		var s []string
		for i := range current {
			if c := current[i].Load(); c != 0 {
				s = append(s, fmt.Sprintf("%#x", c))
			}
		}
		buf := make([]byte, 1<<24)
		buf = buf[:runtime.Stack(buf, true)]
		fmt.Fprintf(os.Stderr, "torture: hang in master seed %d round %d, cases %s\n%s\n", master, round, strings.Join(s, " "), buf)
		t.FailNow()
	}
	for _, msg := range e.errs {
		t.Error(msg)
	}
	require.False(t, e.failed.Load(), "master seed %d round %d", master, round)
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
	for _, p := range e.pools {
		p.Close()
	}
	waitFor(t, "goroutines to exit", func() bool { return runtime.NumGoroutine() <= before })
	return e.cases.Load(), e.panics.Load()
}

func TestTorture(t *testing.T) {
	if *tortureCase != "" {
		seed, err := strconv.ParseUint(*tortureCase, 0, 64)
		require.NoError(t, err)
		e := &env{master: *tortureSeed}
		for _, n := range []int{1, 2, 4, 8, 16} {
			p := sched.New(n)
			defer p.Close()
			e.pools = append(e.pools, p)
		}
		for range *tortureReps {
			treeCase(e, seed)
		}
		for _, msg := range e.errs {
			t.Error(msg)
		}
		t.Logf("case %#x run %d times, %d ended by a panic", seed, *tortureReps, e.panics.Load())
		return
	}
	master := *tortureSeed
	if master == 0 {
		master = uint64(time.Now().UnixNano())
	}
	budget := *tortureDur
	if budget == 0 {
		budget = 3 * time.Second
		if testing.Short() || raceEnabled {
			budget = time.Second
		}
	}
	start := time.Now()
	round := uint64(0)
	var cases, panics int64
	for ; round == 0 || time.Since(start) < budget; round++ {
		c, p := tortureRound(t, master, round)
		cases, panics = cases+c, panics+p
		if t.Failed() {
			break
		}
	}
	t.Logf("master seed %d: %d rounds, %d cases (%d ended by a panic) in %v", master, round, cases, panics, time.Since(start).Round(time.Millisecond))
}
