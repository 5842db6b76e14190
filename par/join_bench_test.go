package par_test

import (
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/split"
)

func fibSeq(n int) int {
	if n < 2 {
		return n
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

// fibCutoff forks down to n <= 20: W4 with cutoff.
func fibCutoff(w *par.Worker, n int) int {
	if n <= 20 {
		return fibSeq(n)
	}
	x, y := par.Join2(w, fibCutoff, n-1, fibCutoff, n-2)
	return x + y
}

// fibGo starts a goroutine per call, waiting with a WaitGroup.
func fibGo(n, cutoff int) int {
	if n <= cutoff || n < 2 {
		return fibSeq(n)
	}
	var x, y int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = fibGo(n-1, cutoff)
	}()
	y = fibGo(n-2, cutoff)
	wg.Wait()
	return x + y
}

var sink int

// BenchmarkFib is W4 of docs/DESIGN.md: fib(32) with a fork at every level and
// with a cutoff at n <= 20, against the sequential recursion and a goroutine
// per call. forks is join2 in Worker.Forks' form, with direct calls while no
// fork is wanted; the two report the steals a call saw, which should match.
func BenchmarkFib(b *testing.B) {
	const n = 32
	b.Run("seq", func(b *testing.B) {
		for b.Loop() {
			sink = fibSeq(n)
		}
	})
	b.Run("join2", func(b *testing.B) {
		doCounting(b, func(w *par.Worker) { sink = fib(w, n) })
	})
	b.Run("forks", func(b *testing.B) {
		doCounting(b, func(w *par.Worker) { sink = fibForks(w, n) })
	})
	b.Run("closure", func(b *testing.B) {
		for b.Loop() {
			par.Do(func(w *par.Worker) { sink = fibJoin(w, n) })
		}
	})
	b.Run("join2-cutoff20", func(b *testing.B) {
		for b.Loop() {
			par.Do(func(w *par.Worker) { sink = fibCutoff(w, n) })
		}
	})
	b.Run("goroutine-cutoff20", func(b *testing.B) {
		for b.Loop() {
			sink = fibGo(n, 20)
		}
	})
	b.Run("goroutine", func(b *testing.B) {
		for b.Loop() {
			sink = fibGo(n, 0)
		}
	})
}

// BenchmarkJoinEmpty is the cost of one fork of two empty functions, per
// pool size.
func BenchmarkJoinEmpty(b *testing.B) {
	empty := func(*par.Worker, int) int { return 0 }
	for _, workers := range []int{1, 2} {
		p := par.NewPool(par.Workers(workers))
		b.Run(fmt.Sprintf("join2/workers=%d", workers), func(b *testing.B) {
			par.Do(func(w *par.Worker) {
				for b.Loop() {
					par.Join2(w, empty, 0, empty, 0)
				}
			}, par.OnPool(p))
		})
		b.Run(fmt.Sprintf("worker.join/workers=%d", workers), func(b *testing.B) {
			nop := func(*par.Worker) {}
			par.Do(func(w *par.Worker) {
				for b.Loop() {
					w.Join(nop, nop)
				}
			}, par.OnPool(p))
		})
		b.Run(fmt.Sprintf("join/workers=%d", workers), func(b *testing.B) {
			nop := func() {}
			for b.Loop() {
				par.Join(nop, nop, par.OnPool(p))
			}
		})
		p.Close()
	}
}

// BenchmarkSplit is the cost of the library's own split of a range: a leaf
// per element, so every leaf but one costs a fork.
func BenchmarkSplit(b *testing.B) {
	const n = 1 << 16
	for _, workers := range []int{1, 2} {
		p := par.NewPool(par.Workers(workers))
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				par.ForRange(n, func(lo, hi int) {}, par.WithGrain(1), par.OnPool(p))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n-1), "ns/split")
		})
		p.Close()
	}
}

// BenchmarkForkCPU is the CPU time one fork adds to fib(27) with Join2 at
// every level (317,810 forks), over the sequential recursion, as the process's
// CPU time (getrusage) rather than wall time: run with -cpu 1 it is the cost of
// a fork that nobody steals, and it stays readable on a machine busy with
// other work, where wall times are not.
func BenchmarkForkCPU(b *testing.B) {
	const n, forks = 27, 317_810
	var seq, forked time.Duration
	for b.Loop() {
		c0 := cpuTime()
		sink = fibSeq(n)
		c1 := cpuTime()
		par.Do(func(w *par.Worker) { sink = fib(w, n) })
		c2 := cpuTime()
		seq += c1 - c0
		forked += c2 - c1
	}
	b.ReportMetric(float64((forked-seq).Nanoseconds())/float64(b.N)/forks, "cpu-ns/fork")
	b.ReportMetric(float64(forked)/float64(seq), "x-seq")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// minorFaults is the number of minor page faults the process has taken.
func minorFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return int64(ru.Minflt)
}

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

// treeNode is a node of W14's tree: a value and two children, each on the
// heap.
type treeNode struct {
	v           uint64
	left, right *treeNode
}

// makeTree builds W14's balanced tree of the given layers (2^layers-1 nodes).
func makeTree(layers int) *treeNode {
	if layers == 0 {
		return nil
	}
	return &treeNode{v: 1, left: makeTree(layers - 1), right: makeTree(layers - 1)}
}

func treeSumSeq(n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	return n.v + treeSumSeq(n.left) + treeSumSeq(n.right)
}

// treeSumSeqRight is the plain recursion right first, the order in which
// Join2 runs its halves on its caller: the tree's layout in memory favours
// one order, so this is the yardstick of the fork's cost.
func treeSumSeqRight(n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	r := treeSumSeqRight(n.right)
	return n.v + treeSumSeqRight(n.left) + r
}

func treeSumJoin2(w *par.Worker, n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	a, b := par.Join2(w, treeSumJoin2, n.left, treeSumJoin2, n.right)
	return n.v + a + b
}

func treeSumJoin(w *par.Worker, n *treeNode) uint64 {
	if n == nil {
		return 0
	}
	var a, b uint64
	w.Join(func(w *par.Worker) { a = treeSumJoin(w, n.left) }, func(w *par.Worker) { b = treeSumJoin(w, n.right) })
	return n.v + a + b
}

var sinkU uint64

// doCounting times par.Do(f) on the default pool and reports the steals a
// call saw.
func doCounting(b *testing.B, f func(w *par.Worker)) {
	s0 := par.DefaultStats().Total().Steals
	for b.Loop() {
		par.Do(f)
	}
	b.ReportMetric(float64(par.DefaultStats().Total().Steals-s0)/float64(b.N), "steals/op")
}

// BenchmarkTreeSum is W14 of docs/DESIGN.md: the sum over a balanced tree of
// 1,023 nodes (one call) and of 4,194,303, with a fork at every node, against
// the plain recursion, left first and right first; forks is join2 in
// Worker.Forks' form.
func BenchmarkTreeSum(b *testing.B) {
	for _, layers := range []int{10, 22} {
		root := makeTree(layers)
		nodes := 1<<layers - 1
		b.Run(fmt.Sprintf("nodes=%d/impl=seq", nodes), func(b *testing.B) {
			for b.Loop() {
				sinkU = treeSumSeq(root)
			}
		})
		b.Run(fmt.Sprintf("nodes=%d/impl=seq-right", nodes), func(b *testing.B) {
			for b.Loop() {
				sinkU = treeSumSeqRight(root)
			}
		})
		b.Run(fmt.Sprintf("nodes=%d/impl=join2", nodes), func(b *testing.B) {
			doCounting(b, func(w *par.Worker) { sinkU = treeSumJoin2(w, root) })
		})
		b.Run(fmt.Sprintf("nodes=%d/impl=forks", nodes), func(b *testing.B) {
			doCounting(b, func(w *par.Worker) { sinkU = treeSumForks(w, root) })
		})
		b.Run(fmt.Sprintf("nodes=%d/impl=worker.join", nodes), func(b *testing.B) {
			for b.Loop() {
				par.Do(func(w *par.Worker) { sinkU = treeSumJoin(w, root) })
			}
		})
	}
}

// BenchmarkDoEmpty is what par.Do costs around a function that forks
// nothing: the seat's acquire and release, on the default pool.
func BenchmarkDoEmpty(b *testing.B) {
	for b.Loop() {
		par.Do(func(*par.Worker) {})
	}
}

// BenchmarkForkRecords is what a short recursion's recorded forks cost: a
// tree sum of 15 nodes in Worker.Forks' form, run again and again inside
// one Do, so that every run is a recursion of its own whose forks are all
// recorded (split.RecordDepth levels). At GOMAXPROCS=1 nothing is
// recorded; the difference is the records' price, without the seat's.
func BenchmarkForkRecords(b *testing.B) {
	root := makeTree(split.RecordDepth)
	par.Do(func(w *par.Worker) {
		for b.Loop() {
			sinkU = treeSumForks(w, root)
		}
	})
}
