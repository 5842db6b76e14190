package par_test

import (
	"math/rand/v2"

	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
)

// Random fork-join trees. A node forks its children with one of the library's
// fork-join forms, may panic on entry (pre) or after its children returned
// (post), and adds its weight to the sum it returns. Every node counts its
// entries and exits and records how it exited, so that after the top-level
// call the test can check, node by node, what the contract promises (the
// rules are torture.Tree.Check's):
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

const (
	nodeLeaf      uint8 = iota
	nodeJoin            // Worker.Join of two children
	nodeJoin2           // par.Join2 of two children
	nodeParJoin         // par.Join of two children, each run by par.Do on a random pool
	nodeDo              // one child run by par.Do on a random pool: a call inside a task
	nodeScope           // par.Scope that spawns every child, with Spawn or Go
	nodeSpawnInto       // spawns its children into the nearest enclosing scope and returns
	nodeKinds
)

var nodeNames = []string{"leaf", "Join", "Join2", "par.Join", "Do", "Scope", "SpawnInto"}

// ttree is a random tree, what par needs to run each node, and the record of
// one run of it.
type ttree struct {
	*torture.Tree
	e     *tortureEnv
	depth int
	pool  [][]int  // by node id: per child for nodeParJoin and nodeDo, the scope's for nodeScope
	useGo [][]bool // by node id, nodeScope and nodeSpawnInto: spawn the child with Go rather than Spawn
	nest  []bool   // by node id, a leaf: runs a nested case of its own
}

// genTree makes a random tree of at most budget nodes. Panics are injected
// in about half of the trees.
func genTree(r *rand.Rand, seed uint64, budget int) *ttree {
	t := &ttree{Tree: torture.NewTree(r, seed, budget, nodeNames)}
	var gen func(guard, scope, depth int) *torture.Node
	gen = func(guard, scope, depth int) *torture.Node {
		n := t.Add(r, guard, scope)
		t.pool, t.useGo, t.nest = append(t.pool, nil), append(t.useGo, nil), append(t.nest, false)
		if t.Leaf(r, n, depth) {
			n.Kind = nodeLeaf
			t.nest[n.ID] = r.IntN(200) == 0
			return n
		}
		n.Kind = uint8(1 + r.IntN(int(nodeKinds)-1))
		if n.Kind == nodeSpawnInto && scope < 0 {
			n.Kind = nodeJoin
		}
		nk := 2
		switch n.Kind {
		case nodeJoin, nodeJoin2, nodeParJoin:
			n.Rule = torture.Fork
		case nodeDo:
			n.Rule = torture.Fork
			nk = 1
		case nodeScope:
			n.Rule = torture.Group
			nk = 1 + r.IntN(5)
		case nodeSpawnInto:
			nk = 1 + r.IntN(5)
		}
		kidScope, kidGuard := scope, n.ID
		switch n.Kind {
		case nodeScope:
			kidScope = n.ID
			t.pool[n.ID] = []int{r.IntN(6)}
		case nodeSpawnInto:
			kidGuard = scope // the enclosing scope waits for them, not this node
		}
		for range nk {
			if n.Kind == nodeParJoin || n.Kind == nodeDo {
				t.pool[n.ID] = append(t.pool[n.ID], r.IntN(6))
			}
			t.useGo[n.ID] = append(t.useGo[n.ID], r.IntN(4) == 0)
			n.Kids = append(n.Kids, gen(kidGuard, kidScope, depth+1))
		}
		return n
	}
	gen(-1, -1, 0)
	t.Seal()
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
func (t *ttree) visit(w *par.Worker, n *torture.Node, sc spawnCtx) uint64 {
	return t.Visit(n, func() (sum uint64) {
		switch n.Kind {
		case nodeLeaf:
			torture.Spin(n.Weight, n.Work)
			if t.nest[n.ID] && t.depth < 2 {
				tortureNested(t.e, torture.Mix(t.Seed, uint64(n.ID)), t.depth+1)
			}
		case nodeJoin:
			// Worker.Join and Join2 run their second half first: it is the
			// node's first child, whose panic wins.
			var a, b uint64
			w.Join(
				func(w *par.Worker) { b = t.visit(w, n.Kids[1], sc) },
				func(w *par.Worker) { a = t.visit(w, n.Kids[0], sc) },
			)
			sum += a + b
		case nodeJoin2:
			b, a := par.Join2(w, t.visitArg, targ{n.Kids[1], sc}, t.visitArg, targ{n.Kids[0], sc})
			sum += a + b
		case nodeParJoin:
			var a, b uint64
			par.Join(
				func() { a = t.top(n.Kids[0], t.pool[n.ID][0], sc) },
				func() { b = t.top(n.Kids[1], t.pool[n.ID][1], sc) },
				t.e.poolOpt(newRand(torture.Mix(t.Seed, uint64(n.ID))))...,
			)
			sum += a + b
		case nodeDo:
			sum += t.top(n.Kids[0], t.pool[n.ID][0], sc)
		case nodeScope:
			var opts []par.Option
			if p := t.e.pools[t.pool[n.ID][0]]; p != nil {
				opts = append(opts, par.OnPool(p))
			}
			par.Scope(func(s *par.Spawner, w *par.Worker) {
				t.spawn(s, w, true, n)
			}, opts...)
		case nodeSpawnInto:
			t.spawn(sc.s, w, sc.local, n)
		}
		return sum
	})
}

// spawn starts n's children as tasks of s: with Spawn on w when local says w
// may push onto s, else (and when the child says so) with Go.
func (t *ttree) spawn(s *par.Spawner, w *par.Worker, local bool, n *torture.Node) {
	for i, k := range n.Kids {
		f := func(w *par.Worker) { t.visit(w, k, spawnCtx{s: s, local: true}) }
		if local && !t.useGo[n.ID][i] {
			s.Spawn(w, f)
		} else {
			s.Go(f)
		}
	}
}

type targ struct {
	n  *torture.Node
	sc spawnCtx
}

func (t *ttree) visitArg(w *par.Worker, a targ) uint64 { return t.visit(w, a.n, a.sc) }

// top runs n as the root of a call of its own, par.Do on pool pi. A task of an
// enclosing scope reached through it holds another handle, so it spawns with Go.
func (t *ttree) top(n *torture.Node, pi int, sc spawnCtx) (sum uint64) {
	var opts []par.Option
	if p := t.e.pools[pi]; p != nil {
		opts = []par.Option{par.OnPool(p)}
	}
	par.Do(func(w *par.Worker) { sum = t.visit(w, n, spawnCtx{s: sc.s}) }, opts...)
	return sum
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
	t.Errorf = func(format string, args ...any) { e.Errorf(seed, format, args...) }
	opts := e.poolOpt(r)
	got, panicked := torture.Catch(func() {
		par.Do(func(w *par.Worker) {
			sum := t.visit(w, t.Nodes[0], spawnCtx{})
			if sum != t.Nodes[0].Sum {
				e.Errorf(seed, "tree sum %d, want %d", sum, t.Nodes[0].Sum)
			}
		}, opts...)
	})
	t.Check(got, panicked)
	if panicked {
		e.panics.Add(1)
	}
	before := t.Entries()
	// The pool stays usable, and nothing of the tree runs any more.
	var f int
	par.Do(func(w *par.Worker) { f = fib(w, 12) }, opts...)
	if f != 144 {
		e.Errorf(seed, "fib(12) after the tree: %d", f)
	}
	if after := t.Entries(); after != before {
		e.Errorf(seed, "%d node entries after the call returned", after-before)
	}
}

var treeKinds = []tortureKind{{"tree", treeCase}}
