package par_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"

	"github.com/weftgo/weft/par"
)

// Random fork-join trees. A node forks its children with one of the library's
// fork-join forms, may panic on entry (pre) or after its children returned
// (post), and adds its weight to the sum it returns. Every node counts its
// entries and exits and records how it exited, so that after the top-level
// call the test can check, node by node, what the contract promises:
//
//   - no node runs twice;
//   - when the top-level call returns, every node that started has finished;
//   - a node that exits normally returns the sum of its subtree, and every
//     node it waits for ran exactly once;
//   - a node that exits by a panic does so with the value the rules choose:
//     for Join, the node's own pre panic, else its first child's, else its
//     second child's (which may have been skipped), else its post panic; for
//     a scope, one of the panics of the body and its tasks, which all ran or
//     were skipped;
//   - the top-level call panics with the root's value;
//   - nothing of the tree runs after the top-level call has returned.

// tortureSink keeps busy loops from being optimized away.
var tortureSink atomic.Uint64

// keep stores x where the compiler must assume someone reads it, rarely
// enough to cost nothing.
func keep(x uint64) {
	if x == 0x9E3779B97F4A7C15 {
		tortureSink.Store(x)
	}
}

type treeKind uint8

const (
	nodeLeaf      treeKind = iota
	nodeJoin               // Worker.Join of two children
	nodeJoin2              // par.Join2 of two children
	nodeParJoin            // par.Join of two children, each run by par.Do on a random pool
	nodeDo                 // one child run by par.Do on a random pool: a call inside a task
	nodeScope              // par.Scope that spawns every child, with Spawn or Go
	nodeSpawnInto          // spawns its children into the nearest enclosing scope and returns
	nodeKinds
)

var nodeNames = [...]string{"leaf", "Join", "Join2", "par.Join", "Do", "Scope", "SpawnInto"}

type tnode struct {
	id     int
	kind   treeKind
	kids   []*tnode
	pre    *tortureBoom // panics on entry
	post   *tortureBoom // panics after the children returned
	pool   []int        // indices into the pools: per child for nodeParJoin and nodeDo, the scope's for nodeScope
	useGo  []bool       // nodeScope, nodeSpawnInto: spawn the child with Go rather than Spawn
	guard  int          // the node whose normal exit promises that this one ran: its parent, or the enclosing scope
	scope  int          // the nearest enclosing nodeScope, or -1
	work   int          // leaf: iterations of busy work
	nest   bool         // leaf: runs a nested case of its own
	weight uint64
	sum    uint64 // the model: weight plus the sums of the children it waits for
}

// ttree is a random tree and the record of one run of it.
type ttree struct {
	e     *tortureEnv
	seed  uint64
	depth int
	nodes []*tnode

	entered  []atomic.Int32
	exited   []atomic.Int32
	normal   []atomic.Bool
	postHit  []atomic.Bool
	exitVal  []atomic.Pointer[tortureBoom]
	foreign  atomic.Value // a panic value that is not a *tortureBoom, if any
	sums     []atomic.Uint64
	anyPanic bool
}

// genTree makes a random tree of at most budget nodes. Panics are injected
// in about half of the trees.
func genTree(r *rand.Rand, seed uint64, budget int) *ttree {
	t := &ttree{seed: seed}
	withPanics := r.IntN(2) == 0
	panicP := 0.0
	if withPanics {
		panicP = 0.5 / float64(budget)
		if r.IntN(3) == 0 {
			panicP = 4 / float64(budget)
		}
	}
	var gen func(guard, scope, depth int) *tnode
	gen = func(guard, scope, depth int) *tnode {
		n := &tnode{id: len(t.nodes), guard: guard, scope: scope, weight: r.Uint64() >> 8}
		t.nodes = append(t.nodes, n)
		if r.Float64() < panicP {
			n.pre = &tortureBoom{seed: seed, where: fmt.Sprintf("node %d pre", n.id)}
			t.anyPanic = true
		}
		if r.Float64() < panicP {
			n.post = &tortureBoom{seed: seed, where: fmt.Sprintf("node %d post", n.id)}
			t.anyPanic = true
		}
		left := budget - len(t.nodes)
		if depth > 14 || left < 3 || r.IntN(10) < 2 {
			n.kind, n.work = nodeLeaf, r.IntN(2000)
			n.nest = r.IntN(200) == 0
			return n
		}
		n.kind = treeKind(1 + r.IntN(int(nodeKinds)-1))
		if n.kind == nodeSpawnInto && scope < 0 {
			n.kind = nodeJoin
		}
		nk := 2
		switch n.kind {
		case nodeDo:
			nk = 1
		case nodeScope, nodeSpawnInto:
			nk = 1 + r.IntN(5)
		}
		kidScope, kidGuard := scope, n.id
		switch n.kind {
		case nodeScope:
			kidScope = n.id
			n.pool = []int{r.IntN(6)}
		case nodeSpawnInto:
			kidGuard = scope // the enclosing scope waits for them, not this node
		}
		for range nk {
			if n.kind == nodeParJoin || n.kind == nodeDo {
				n.pool = append(n.pool, r.IntN(6))
			}
			n.useGo = append(n.useGo, r.IntN(4) == 0)
			n.kids = append(n.kids, gen(kidGuard, kidScope, depth+1))
		}
		return n
	}
	gen(-1, -1, 0)
	// The model sums, bottom up: ids grow from parent to child.
	for i := len(t.nodes) - 1; i >= 0; i-- {
		n := t.nodes[i]
		n.sum = n.weight
		if n.kind != nodeSpawnInto && n.kind != nodeScope {
			for _, k := range n.kids {
				n.sum += k.sum
			}
		}
	}
	k := len(t.nodes)
	t.entered, t.exited = make([]atomic.Int32, k), make([]atomic.Int32, k)
	t.normal, t.postHit = make([]atomic.Bool, k), make([]atomic.Bool, k)
	t.exitVal, t.sums = make([]atomic.Pointer[tortureBoom], k), make([]atomic.Uint64, k)
	return t
}

// spawnCtx is what a node needs to spawn into its enclosing scope: the scope,
// and whether the handle it holds may push onto it (it is a task of the scope
// or a fork of one, not a call nested inside one).
type spawnCtx struct {
	s     *par.Spawner
	local bool
}

// visit runs node n with handle w and returns its sum.
func (t *ttree) visit(w *par.Worker, n *tnode, sc spawnCtx) (sum uint64) {
	if t.entered[n.id].Add(1) != 1 {
		t.e.errorf(t.seed, "node %d (%s) entered twice", n.id, nodeNames[n.kind])
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
		if b, ok := v.(*tortureBoom); ok {
			t.exitVal[n.id].Store(b)
		} else {
			t.foreign.CompareAndSwap(nil, fmt.Sprintf("node %d: panic value %#v of type %T", n.id, v, v))
		}
		t.exited[n.id].Add(1)
		panic(v)
	}()
	if n.pre != nil {
		panic(n.pre)
	}
	sum = n.weight
	switch n.kind {
	case nodeLeaf:
		x := n.weight
		for i := range n.work {
			x = x*6364136223846793005 + uint64(i)
			if i%512 == 511 {
				runtime.Gosched()
			}
		}
		keep(x)
		if n.nest && t.depth < 2 {
			tortureNested(t.e, mix(t.seed, uint64(n.id)), t.depth+1)
		}
	case nodeJoin:
		var a, b uint64
		w.Join(
			func(w *par.Worker) { a = t.visit(w, n.kids[0], sc) },
			func(w *par.Worker) { b = t.visit(w, n.kids[1], sc) },
		)
		sum += a + b
	case nodeJoin2:
		a, b := par.Join2(w, t.visitArg, targ{n.kids[0], sc}, t.visitArg, targ{n.kids[1], sc})
		sum += a + b
	case nodeParJoin:
		var a, b uint64
		par.Join(
			func() { a = t.top(n.kids[0], n.pool[0], sc) },
			func() { b = t.top(n.kids[1], n.pool[1], sc) },
			t.e.poolOpt(newRand(mix(t.seed, uint64(n.id))))...,
		)
		sum += a + b
	case nodeDo:
		sum += t.top(n.kids[0], n.pool[0], sc)
	case nodeScope:
		var opts []par.Option
		if p := t.e.pools[n.pool[0]]; p != nil {
			opts = append(opts, par.OnPool(p))
		}
		par.Scope(func(s *par.Spawner, w *par.Worker) {
			t.spawn(s, w, true, n)
		}, opts...)
	case nodeSpawnInto:
		t.spawn(sc.s, w, sc.local, n)
	}
	if n.post != nil {
		t.postHit[n.id].Store(true)
		panic(n.post)
	}
	normal = true
	return sum
}

// spawn starts n's children as tasks of s: with Spawn on w when local says w
// may push onto s, else (and when the child says so) with Go.
func (t *ttree) spawn(s *par.Spawner, w *par.Worker, local bool, n *tnode) {
	for i, k := range n.kids {
		f := func(w *par.Worker) { t.visit(w, k, spawnCtx{s: s, local: true}) }
		if local && !n.useGo[i] {
			s.Spawn(w, f)
		} else {
			s.Go(f)
		}
	}
}

type targ struct {
	n  *tnode
	sc spawnCtx
}

func (t *ttree) visitArg(w *par.Worker, a targ) uint64 { return t.visit(w, a.n, a.sc) }

// top runs n as the root of a call of its own, par.Do on pool pi. A task of an
// enclosing scope reached through it holds another handle, so it spawns with Go.
func (t *ttree) top(n *tnode, pi int, sc spawnCtx) (sum uint64) {
	var opts []par.Option
	if p := t.e.pools[pi]; p != nil {
		opts = []par.Option{par.OnPool(p)}
	}
	par.Do(func(w *par.Worker) { sum = t.visit(w, n, spawnCtx{s: sc.s}) }, opts...)
	return sum
}

// check compares the record of a run with the rules; got is what the
// top-level call panicked with, if it did.
func (t *ttree) check(got any, panicked bool) {
	e, seed := t.e, t.seed
	if f := t.foreign.Load(); f != nil {
		e.errorf(seed, "foreign panic value: %v", f)
	}
	// Everything that started has finished.
	for _, n := range t.nodes {
		en, ex := t.entered[n.id].Load(), t.exited[n.id].Load()
		if en != ex {
			e.errorf(seed, "node %d (%s): entered %d times, exited %d times when the call returned", n.id, nodeNames[n.kind], en, ex)
			return
		}
	}
	ran := func(n *tnode) bool { return t.entered[n.id].Load() == 1 }
	val := func(n *tnode) *tortureBoom { return t.exitVal[n.id].Load() }
	root := t.nodes[0]
	if !ran(root) {
		e.errorf(seed, "the root never ran")
		return
	}
	if !panicked {
		if !t.normal[0].Load() {
			e.errorf(seed, "the call returned but the root exited by a panic")
		}
	} else if b, _ := got.(*tortureBoom); b == nil || b != val(root) {
		e.errorf(seed, "the call panicked with %v, the root exited with %v", got, val(root))
	}
	if !t.anyPanic && panicked {
		e.errorf(seed, "panic %v with nothing injected", got)
	}
	// The tasks of each scope, for the scope rule.
	tasks := map[int][]*tnode{}
	for _, n := range t.nodes {
		if n.guard >= 0 && (t.nodes[n.guard].kind == nodeScope) {
			tasks[n.guard] = append(tasks[n.guard], n)
		}
	}
	for _, n := range t.nodes {
		if !ran(n) {
			if n.guard >= 0 && t.normal[n.guard].Load() {
				e.errorf(seed, "node %d (%s) never ran, yet node %d (%s), which waits for it, returned normally", n.id, nodeNames[n.kind], n.guard, nodeNames[t.nodes[n.guard].kind])
				return
			}
			continue
		}
		if t.normal[n.id].Load() {
			if got := t.sums[n.id].Load(); got != n.sum {
				e.errorf(seed, "node %d (%s): sum %d, want %d", n.id, nodeNames[n.kind], got, n.sum)
				return
			}
		}
		// The value the node must exit with.
		var want *tortureBoom
		exact := true
		switch {
		case n.pre != nil:
			want = n.pre
		case n.kind == nodeJoin || n.kind == nodeJoin2 || n.kind == nodeParJoin || n.kind == nodeDo:
			a := n.kids[0]
			if !ran(a) {
				e.errorf(seed, "node %d (%s): its first child %d never ran", n.id, nodeNames[n.kind], a.id)
				return
			}
			want = val(a)
			if want == nil && len(n.kids) > 1 {
				b := n.kids[1]
				if !ran(b) {
					e.errorf(seed, "node %d (%s): its first child returned, its second %d never ran", n.id, nodeNames[n.kind], b.id)
					return
				}
				want = val(b)
			}
		case n.kind == nodeScope:
			// Scope panics with the first panic of a task, which one
			// depending on timing; the node's post panic comes after.
			exact = false
			allowed := map[*tortureBoom]bool{}
			for _, k := range tasks[n.id] {
				if v := val(k); v != nil {
					allowed[v] = true
				}
			}
			got := val(n)
			switch {
			case got == nil && (len(allowed) > 0 || n.post != nil):
				e.errorf(seed, "scope node %d returned normally, yet a task or its post panicked", n.id)
				return
			case got != nil && t.postHit[n.id].Load() && (got != n.post || len(allowed) > 0):
				e.errorf(seed, "scope node %d reached its post panic with %d task panics, and exited with %v", n.id, len(allowed), got)
				return
			case got != nil && !t.postHit[n.id].Load() && !allowed[got]:
				e.errorf(seed, "scope node %d panicked with %v, not with the panic of one of its %d tasks", n.id, got, len(tasks[n.id]))
				return
			}
		}
		if want == nil && n.post != nil && t.postHit[n.id].Load() {
			want = n.post
		}
		if want == nil && n.post != nil && !t.postHit[n.id].Load() && n.kind != nodeScope {
			e.errorf(seed, "node %d (%s): its children returned, but it never reached its post panic", n.id, nodeNames[n.kind])
			return
		}
		if exact && val(n) != want {
			e.errorf(seed, "node %d (%s): exited with %v, want %v", n.id, nodeNames[n.kind], val(n), want)
			return
		}
	}
}

// entries is how many node entries the run has made so far.
func (t *ttree) entries() int64 {
	var s int64
	for i := range t.entered {
		s += int64(t.entered[i].Load())
	}
	return s
}

// treeCase runs a random tree as one call on a random pool, checks it, and
// checks that the pool still works.
func treeCase(e *tortureEnv, seed uint64, depth int) {
	r := newRand(seed)
	budget := 1 + r.IntN(300)
	if r.IntN(4) == 0 {
		budget = 1 + r.IntN(3000)
	}
	if !full() {
		budget = 1 + budget/3
	}
	if depth > 0 {
		budget = 1 + budget/10
	}
	t := genTree(r, seed, budget)
	t.e, t.depth = e, depth
	opts := e.poolOpt(r)
	got, panicked := catch(func() {
		par.Do(func(w *par.Worker) {
			sum := t.visit(w, t.nodes[0], spawnCtx{})
			if sum != t.nodes[0].sum {
				e.errorf(seed, "tree sum %d, want %d", sum, t.nodes[0].sum)
			}
		}, opts...)
	})
	t.check(got, panicked)
	if panicked {
		e.panics.Add(1)
	}
	before := t.entries()
	// The pool stays usable, and nothing of the tree runs any more.
	var f int
	par.Do(func(w *par.Worker) { f = fib(w, 12) }, opts...)
	if f != 144 {
		e.errorf(seed, "fib(12) after the tree: %d", f)
	}
	if after := t.entries(); after != before {
		e.errorf(seed, "%d node entries after the call returned", after-before)
	}
}

var treeKinds = []tortureKind{{"tree", treeCase}}
