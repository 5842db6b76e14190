package par_test

import (
	"testing"

	"github.com/weftgo/weft/par"
)

// spineWork is an element's work in BenchmarkSpine, about 3 µs here.
func spineWork(x uint64) uint64 {
	acc := x
	for range 4000 {
		acc = acc*31 + 7
	}
	return acc
}

type spineNode struct {
	x    uint64
	next *spineNode
}

// walkSpine walks a list by recursion, the rest first and the element's work
// second: the shape that hides every element's work behind the rest of the
// walk if a crowded fork runs its first half first.
func walkSpine(w *par.Worker, n *spineNode, out []uint64) {
	if n == nil {
		return
	}
	w.Join(func(w *par.Worker) { walkSpine(w, n.next, out) }, func(*par.Worker) { out[n.x] = spineWork(n.x) })
}

// BenchmarkSpine walks a list of 512 elements of about 3 µs each with a fork
// per element, against the plain loop: the speedup shows whether crowded forks
// (see Worker.Join) keep the thieves fed on a recursion whose forks are a
// chain rather than a tree.
func BenchmarkSpine(b *testing.B) {
	const n = 512
	var head *spineNode
	for i := n - 1; i >= 0; i-- {
		head = &spineNode{x: uint64(i), next: head}
	}
	out := make([]uint64, n)
	b.Run("impl=seq", func(b *testing.B) {
		for b.Loop() {
			for e := head; e != nil; e = e.next {
				out[e.x] = spineWork(e.x)
			}
		}
	})
	b.Run("impl=Join", func(b *testing.B) {
		for b.Loop() {
			par.Do(func(w *par.Worker) { walkSpine(w, head, out) })
		}
	})
}
