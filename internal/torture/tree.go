package torture

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
)

// Rule is what a node of a tree promises about how it exits, by the kind of
// fork it makes.
type Rule uint8

const (
	// Plain nodes make no fork they wait for (a leaf, or a node that hands
	// its children to an enclosing group and returns): such a node exits with
	// its pre panic, else its post panic, else normally.
	Plain Rule = iota
	// Fork nodes run their first child and then, or meanwhile, their second
	// (a join, or a call nested on another pool with one child): they exit
	// with their pre panic, else the first child's, else the second's (the
	// second may have been skipped once the first panicked), else their post
	// panic, and return the sum of their subtree.
	Fork
	// Group nodes start their children as detached tasks and wait for every
	// task of the group (a latch or a scope; tasks may add tasks): they exit
	// with the panic of one of the group's tasks, which one depending on
	// timing, else their post panic.
	Group
)

// Node is one node of a random tree.
type Node struct {
	ID     int
	Kind   uint8 // the package's kind; Tree.Names names it in messages
	Rule   Rule
	Kids   []*Node
	Pre    *Boom  // panics on entry
	Post   *Boom  // panics after the children returned
	Guard  int    // the node whose normal exit promises that this one ran: its parent, or its group; -1 for the root
	Group  int    // the nearest enclosing Group node, or -1
	Work   int    // a leaf's steps of busy work
	Weight uint64 // what the node adds to the sum it returns
	Sum    uint64 // the model: Weight plus the sums of the children a Fork node waits for
	Orphan bool   // nothing ever starts it (see Tree.Orphan): it must not run
}

// Tree is a random fork-join tree and the record of one run of it. The
// package that runs it decides the kinds of its nodes; the record and the
// rules are the same for every package. A run records every node's entry and
// exit from the goroutine that runs the node (Visit); the top-level caller
// checks the record once the call has returned (Check).
type Tree struct {
	Seed     uint64
	Nodes    []*Node // parents before children: ids grow from parent to child
	Names    []string
	AnyPanic bool // some node has a pre or post panic

	// Errorf reports a broken rule of the case; Visit and Check call it, from
	// any goroutine. Set it before the run.
	Errorf func(format string, args ...any)

	panicP float64 // the probability that a node panics on entry, and after its children
	budget int

	// The record, by node id. Each entry is written by the goroutine that
	// runs the node (Visit) and read by Check once the top-level call has
	// returned: for a scheduler that keeps its promises the call's return
	// orders every write before the reads. The slots are atomics so that the
	// writes of one that does not (a node still running, or run after the
	// return) are counted, not lost, and so that -race sees them all.
	entered []atomic.Int32
	exited  []atomic.Int32
	normal  []atomic.Bool
	postHit []atomic.Bool
	exitVal []atomic.Pointer[Boom]
	sums    []atomic.Uint64
	foreign atomic.Value // a panic value that is not a *Boom, if any
}

// NewTree starts a tree of at most budget nodes whose kinds are named by
// names. Panics are injected in about half of the trees: about one node in
// two of those trees panics, or eight in a third of them.
func NewTree(r *rand.Rand, seed uint64, budget int, names []string) *Tree {
	t := &Tree{Seed: seed, Names: names, budget: budget}
	if r.IntN(2) == 0 {
		t.panicP = 0.5 / float64(budget)
		if r.IntN(3) == 0 {
			t.panicP = 4 / float64(budget)
		}
	}
	return t
}

// Add makes a node with the given guard and group, a random weight and maybe
// a pre and a post panic.
func (t *Tree) Add(r *rand.Rand, guard, group int) *Node {
	n := &Node{ID: len(t.Nodes), Guard: guard, Group: group, Weight: r.Uint64() >> 8}
	t.Nodes = append(t.Nodes, n)
	if r.Float64() < t.panicP {
		n.Pre, t.AnyPanic = &Boom{t.Seed, fmt.Sprintf("node %d pre", n.ID)}, true
	}
	if r.Float64() < t.panicP {
		n.Post, t.AnyPanic = &Boom{t.Seed, fmt.Sprintf("node %d post", n.ID)}, true
	}
	return n
}

// Leaf reports whether n, at the given depth, stays a leaf: deep, near the
// budget, or by chance; a leaf gets random busy work.
func (t *Tree) Leaf(r *rand.Rand, n *Node, depth int) bool {
	if depth > 14 || t.budget-len(t.Nodes) < 3 || r.IntN(10) < 2 {
		n.Work = r.IntN(2000)
		return true
	}
	return false
}

// Seal computes the model sums, bottom up, and makes the record. Call it once
// every node is added, before the run.
func (t *Tree) Seal() {
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := t.Nodes[i]
		n.Sum = n.Weight
		if n.Rule == Fork {
			for _, k := range n.Kids {
				n.Sum += k.Sum
			}
		}
	}
	k := len(t.Nodes)
	t.entered, t.exited = make([]atomic.Int32, k), make([]atomic.Int32, k)
	t.normal, t.postHit = make([]atomic.Bool, k), make([]atomic.Bool, k)
	t.exitVal, t.sums = make([]atomic.Pointer[Boom], k), make([]atomic.Uint64, k)
}

// Name is n's kind, for messages.
func (t *Tree) Name(n *Node) string { return t.Names[n.Kind] }

// Visit runs node n on the calling goroutine and records the run: the entry
// (a second entry is reported through Errorf), the pre panic, body, which
// runs the node's work and children and returns the sum of the children it
// waits for, the post panic, and how n exited. A panic goes on with its
// value once recorded.
func (t *Tree) Visit(n *Node, body func() uint64) (sum uint64) {
	if t.entered[n.ID].Add(1) != 1 {
		t.Errorf("node %d (%s) entered twice", n.ID, t.Name(n))
	}
	normal := false
	defer func() {
		if normal {
			t.sums[n.ID].Store(sum)
			t.normal[n.ID].Store(true)
			t.exited[n.ID].Add(1)
			return
		}
		v := recover()
		if b, ok := v.(*Boom); ok {
			t.exitVal[n.ID].Store(b)
		} else {
			t.foreign.CompareAndSwap(nil, fmt.Sprintf("node %d: panic value %#v of type %T", n.ID, v, v))
		}
		t.exited[n.ID].Add(1)
		panic(v)
	}()
	if n.Pre != nil {
		panic(n.Pre)
	}
	sum = n.Weight + body()
	if n.Post != nil {
		t.postHit[n.ID].Store(true)
		panic(n.Post)
	}
	normal = true
	return sum
}

// Entries is how many node entries the run has made so far: a count that
// grows after the top-level call has returned shows a node run too late.
func (t *Tree) Entries() int64 {
	var s int64
	for i := range t.entered {
		s += int64(t.entered[i].Load())
	}
	return s
}

// Orphan marks the descendants of every node for which under reports true:
// nodes that nothing starts (a node that would hand its children to a group
// it cannot reach). They are left out of the rules, and must never run.
func (t *Tree) Orphan(under func(n *Node) bool) {
	for _, n := range t.Nodes { // parents come before children
		for _, k := range n.Kids {
			k.Orphan = n.Orphan || under(n)
		}
	}
}

// Parents returns the parent of every node by id, -1 for the root.
func (t *Tree) Parents() []int {
	p := make([]int, len(t.Nodes))
	p[0] = -1
	for _, n := range t.Nodes {
		for _, k := range n.Kids {
			p[k.ID] = n.ID
		}
	}
	return p
}
