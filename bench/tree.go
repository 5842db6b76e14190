package main

import (
	"fmt"

	"github.com/weftgo/weft/par"
)

// W14, the tree sum of Spice and chili: a balanced binary tree of heap
// nodes, built once, summed by a recursion that forks at every node.

// treeNode is a node of W14's tree: the value 1 and two children.
type treeNode struct {
	v           uint64
	left, right *treeNode
}

// makeTree builds a balanced tree of the given layers (2^layers - 1 nodes),
// each node allocated after its children.
func makeTree(layers int) *treeNode {
	if layers == 0 {
		return nil
	}
	return &treeNode{v: 1, left: makeTree(layers - 1), right: makeTree(layers - 1)}
}

// treeSumLeft is the plain recursion, left first, as a user writes it.
func treeSumLeft(n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	return n.v + treeSumLeft(n.left) + treeSumLeft(n.right)
}

// treeSumRight is the plain recursion right first, in the order the fork
// runs its halves on its caller (Join2 runs fb first): the tree's layout in
// memory favours one order, so this is the yardstick of the fork's cost.
func treeSumRight(n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	r := treeSumRight(n.right)
	return n.v + treeSumRight(n.left) + r
}

// weftTreeSum forks at every node with Join2.
func weftTreeSum(w *par.Worker, n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	a, b := par.Join2(w, weftTreeSum, n.left, weftTreeSum, n.right)
	return n.v + a + b
}

// weftTreeSumForks is weftTreeSum in par.Worker.Forks' form: Join2 where a
// fork is wanted, and direct calls elsewhere, right first as Join2 runs
// its halves.
func weftTreeSumForks(w *par.Worker, n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	if w.Forks() {
		a, b := par.Join2(w, weftTreeSumForks, n.left, weftTreeSumForks, n.right)
		return n.v + a + b
	}
	b := weftTreeSumForks(w, n.right)
	return n.v + weftTreeSumForks(w, n.left) + b
}

// weftTreeSumJoin forks at every node with Worker.Join and closures.
func weftTreeSumJoin(w *par.Worker, n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	var a, b uint64
	w.Join(func(w *par.Worker) { a = weftTreeSumJoin(w, n.left) }, func(w *par.Worker) { b = weftTreeSumJoin(w, n.right) })
	return n.v + a + b
}

func (s *suite) treeImpls(layers int) []impl {
	root := makeTree(layers)
	do := func(f func(*par.Worker, *treeNode) uint64) func() uint64 {
		return func() uint64 {
			var r uint64
			par.Do(func(w *par.Worker) { r = f(w, root) }, s.opts...)
			return r
		}
	}
	return []impl{
		resultImpl("sequential", kindSeq, "plain recursion, left first", func() uint64 { return treeSumLeft(root) }, u64String),
		resultImpl("seq right-first", kindSeq, "plain recursion, right first: the order Join2 runs its halves in", func() uint64 { return treeSumRight(root) }, u64String),
		resultImpl("weft", kindWeft, "par.Do, par.Join2 at every node", do(weftTreeSum), u64String),
		resultImpl("weft Forks", kindWeft, "par.Do, par.Join2 where Worker.Forks, direct calls elsewhere", do(weftTreeSumForks), u64String),
		resultImpl("weft Worker.Join", kindWeft, "par.Do, Worker.Join with closures at every node", do(weftTreeSumJoin), u64String),
	}
}

func treeSize(layers int) string {
	return fmt.Sprintf("%d layers, %s nodes", layers, commas(1<<layers-1))
}
