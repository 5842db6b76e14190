// Command tree builds a random binary tree and walks it to find the number of
// its nodes, the sum of their values and its height, forking at every node
// with par.Join2; it prints the results and how long the walk took with plain
// recursion, with a fork at every node, and with forks only above a cutoff.
//
// The shape of the tree is random but fixed by a seed: the left subtree of a
// node of n nodes gets a uniformly random share of the other n-1, so the tree
// has the shape of a binary search tree built from a random permutation, with
// a height of a few times log2(n) and subtrees of very different sizes. The
// node values are the nodes' positions in order, so the sum is n(n-1)/2 and
// an in-order walk counts 0, 1, 2, ...
//
//	go run ./examples/tree
//	go run ./examples/tree -n 10000000 -seed 7
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/weftgo/weft/par"
)

func main() {
	n := flag.Int("n", 1_000_000, "build a tree of `n` nodes")
	seed := flag.Uint64("seed", 1, "the `seed` that fixes the shape of the tree")
	runs := flag.Int("runs", 5, "time the median of `k` walks of each version")
	flag.Parse()
	if _, err := run(os.Stdout, *n, *seed, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "tree:", err)
		os.Exit(1)
	}
}

type node struct {
	left, right *node
	value       int64
	size        int // the number of nodes in the subtree, this one included
}

// span describes a subtree to build: n nodes whose in-order positions start
// at lo, with a shape drawn from seed.
type span struct {
	lo, n int
	seed  uint64
}

// build builds the subtree of s, the two subtrees of a node in parallel
// down to cutoff nodes. The shape depends only on s, never on which worker
// builds what.
func build(w *par.Worker, s span) *node {
	if s.n <= cutoff {
		return buildSeq(s)
	}
	t, l, r := root(s)
	t.left, t.right = par.Join2(w, build, l, build, r)
	return t
}

func buildSeq(s span) *node {
	if s.n == 0 {
		return nil
	}
	t, l, r := root(s)
	t.left, t.right = buildSeq(l), buildSeq(r)
	return t
}

// root returns the root of the subtree of s, and the spans of its left and
// right subtrees.
func root(s span) (*node, span, span) {
	h := mix(s.seed)
	k := int(h % uint64(s.n)) // the size of the left subtree
	return &node{value: int64(s.lo + k), size: s.n},
		span{lo: s.lo, n: k, seed: mix(h ^ 1)},
		span{lo: s.lo + k + 1, n: s.n - 1 - k, seed: mix(h ^ 2)}
}

// mix is the finalizer of splitmix64: a cheap hash whose outputs look random.
func mix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

// stats is what a walk finds in a subtree.
type stats struct {
	nodes  int
	sum    int64
	height int // the number of nodes on the longest path from the root down
}

func (l stats) with(t *node, r stats) stats {
	return stats{
		nodes:  l.nodes + 1 + r.nodes,
		sum:    l.sum + t.value + r.sum,
		height: 1 + max(l.height, r.height),
	}
}

// walk is the plain recursion.
func walk(t *node) stats {
	if t == nil {
		return stats{}
	}
	return walk(t.left).with(t, walk(t.right))
}

// walkAll forks at every node: the cost of a fork, a push and a pop on the
// worker's deque when nobody steals, is paid once per node.
func walkAll(w *par.Worker, t *node) stats {
	if t == nil {
		return stats{}
	}
	l, r := par.Join2(w, walkAll, t.left, walkAll, t.right)
	return l.with(t, r)
}

// cutoff is the size below which build and walkCut recurse sequentially: a
// subtree of a few thousand nodes takes microseconds, two orders of
// magnitude more than a fork costs.
const cutoff = 4096

// walkCut forks only at nodes whose subtree is larger than cutoff.
func walkCut(w *par.Worker, t *node) stats {
	if t == nil || t.size <= cutoff {
		return walk(t)
	}
	l, r := par.Join2(w, walkCut, t.left, walkCut, t.right)
	return l.with(t, r)
}

// run builds the tree of n nodes drawn from seed, walks it three ways,
// checks that they agree, and prints the results and the median times of
// runs walks of each.
func run(out io.Writer, n int, seed uint64, runs int) (stats, error) {
	if n < 0 || runs < 1 {
		return stats{}, fmt.Errorf("need n >= 0 and runs >= 1, got %d and %d", n, runs)
	}
	var root *node
	start := time.Now()
	par.Do(func(w *par.Worker) { root = build(w, span{n: n, seed: seed}) })
	tBuild := time.Since(start)

	var seq, all, cut stats
	tSeq := median(runs, func() { seq = walk(root) })
	tAll := median(runs, func() { par.Do(func(w *par.Worker) { all = walkAll(w, root) }) })
	tCut := median(runs, func() { par.Do(func(w *par.Worker) { cut = walkCut(w, root) }) })
	if all != seq || cut != seq {
		return stats{}, errors.New("the parallel walks disagree with the plain recursion")
	}

	fmt.Fprintf(out, "tree of %d nodes (seed %d): sum %d, height %d\n", seq.nodes, seed, seq.sum, seq.height)
	fmt.Fprintf(out, "built with par.Join2 in %v\n", tBuild.Round(time.Microsecond))
	fmt.Fprintf(out, "walk, plain recursion:          %v (median of %d)\n", tSeq.Round(time.Microsecond), runs)
	fmt.Fprintf(out, "walk, par.Join2 at every node:  %v (%.2fx)\n", tAll.Round(time.Microsecond), float64(tSeq)/float64(tAll))
	fmt.Fprintf(out, "walk, par.Join2 above %d nodes: %v (%.2fx)\n", cutoff, tCut.Round(time.Microsecond), float64(tSeq)/float64(tCut))
	return seq, nil
}

// median returns the median time of runs calls of f.
func median(runs int, f func()) time.Duration {
	ts := make([]time.Duration, runs)
	for i := range ts {
		start := time.Now()
		f()
		ts[i] = time.Since(start)
	}
	slices.Sort(ts)
	return ts[runs/2]
}
