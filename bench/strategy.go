package main

import (
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// A strategy is one way other than weft to run the workloads in parallel: a
// hand-written pattern or a library, each in its idiomatic use for a parallel
// map, for-each or reduce over a slice. An operation it cannot express is nil,
// and why[op] says why, so that the report can say so instead of dropping it.
type strategy struct {
	name  string
	kind  kind
	about string // how it is used, one line for the report
	// perElement: it starts a goroutine, a task or a call per element, so on
	// large inputs it is first timed on a smaller one and skipped if the
	// projected time is over the cap.
	perElement bool

	sumU   func(e *env, n int, leaf func(lo, hi int) uint64, elem func(i int) uint64) uint64
	sumF   func(e *env, n int, leaf func(lo, hi int) float64, elem func(i int) float64) float64
	filter func(e *env, in []int, keep func(int) bool) []int
	mapS   func(e *env, in []int, f func(int) string) []string
	mapI   func(e *env, in []int, f func(int) int) []int
	fib    func(e *env, n, cutoff int) uint64 // cutoff 0: fork at every level
	sort   func(e *env, s []uint64)
	// fibPerCall: fib starts a goroutine per call, so it is probed like a
	// per-element strategy when there is no cutoff.
	fibPerCall bool

	why map[op]string
}

// op names an operation of a strategy, for the reasons it cannot do one.
type op string

const (
	opSum    op = "sum"
	opFilter op = "filter"
	opMap    op = "map"
	opFib    op = "fib"
	opSort   op = "sort"
)

type kind string

const (
	kindSeq  kind = "sequential"
	kindWeft kind = "weft"
	kindHand kind = "hand-written"
	kindLib  kind = "library"
)

const (
	notSort     = "not a sort"
	notRecurse  = "a pool of bounded size deadlocks when tasks wait for tasks they submit (fork-join recursion); no fork-join API"
	noForkJoin  = "no fork-join API"
	notLoopOnly = "a loop strategy: fib has no range to cut"
)

// number is the element type of the sums.
type number interface{ ~uint64 | ~float64 }

func fold[T number](s []T) T {
	var t T
	for _, x := range s {
		t += x
	}
	return t
}

// gather returns the elements of in whose flag is set, in order.
func gather(in []int, keep []bool) []int {
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, in[i])
		}
	}
	return out
}

func concat(parts [][]int) []int {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]int, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// filterLeaf keeps the elements of in[lo:hi] that pass keep.
func filterLeaf(in []int, lo, hi int, keep func(int) bool) []int {
	var out []int
	for _, x := range in[lo:hi] {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// chunked is a strategy that cuts [0, n) into numbered ranges and runs
// body on each, in parallel.
type chunked func(e *env, n int) (chunks int, each func(body func(c, lo, hi int)))

// fromChunks makes the operations of a range strategy.
func fromChunks(s *strategy, ch chunked) *strategy {
	s.sumU = func(e *env, n int, leaf func(lo, hi int) uint64, _ func(int) uint64) uint64 {
		return chunkSum(e, ch, n, leaf)
	}
	s.sumF = func(e *env, n int, leaf func(lo, hi int) float64, _ func(int) float64) float64 {
		return chunkSum(e, ch, n, leaf)
	}
	s.filter = func(e *env, in []int, keep func(int) bool) []int {
		k, each := ch(e, len(in))
		parts := make([][]int, k)
		each(func(c, lo, hi int) { parts[c] = filterLeaf(in, lo, hi, keep) })
		return concat(parts)
	}
	s.mapS = func(e *env, in []int, f func(int) string) []string { return chunkMap(e, ch, in, f) }
	s.mapI = func(e *env, in []int, f func(int) int) []int { return chunkMap(e, ch, in, f) }
	return s
}

func chunkSum[T number](e *env, ch chunked, n int, leaf func(lo, hi int) T) T {
	k, each := ch(e, n)
	parts := make([]T, k)
	each(func(c, lo, hi int) { parts[c] = leaf(lo, hi) })
	return fold(parts)
}

func chunkMap[R any](e *env, ch chunked, in []int, f func(int) R) []R {
	out := make([]R, len(in))
	_, each := ch(e, len(in))
	each(func(_, lo, hi int) {
		for i, x := range in[lo:hi] {
			out[lo+i] = f(x)
		}
	})
	return out
}

// static cuts [0, n) into one equal chunk per worker, each on a goroutine.
func static(e *env, n int) (int, func(func(c, lo, hi int))) {
	k := min(e.workers, max(n, 1))
	return k, func(body func(c, lo, hi int)) {
		var wg sync.WaitGroup
		wg.Add(k)
		for c := range k {
			go func() {
				defer wg.Done()
				body(c, c*n/k, (c+1)*n/k)
			}()
		}
		wg.Wait()
	}
}

// dynamicBlocksPerWorker is how many blocks the dynamic strategy cuts per
// worker: enough that the last blocks even out an uneven load.
const dynamicBlocksPerWorker = 64

// dynamic cuts [0, n) into blocks that one goroutine per worker takes in
// turn from an atomic counter.
func dynamic(e *env, n int) (int, func(func(c, lo, hi int))) {
	size := max(1, n/(e.workers*dynamicBlocksPerWorker))
	k := (n + size - 1) / size
	return k, func(body func(c, lo, hi int)) {
		var next atomic.Int64
		var wg sync.WaitGroup
		g := min(e.workers, k)
		wg.Add(g)
		for range g {
			go func() {
				defer wg.Done()
				for {
					c := int(next.Add(1) - 1)
					if c >= k {
						return
					}
					body(c, c*size, min(n, (c+1)*size))
				}
			}()
		}
		wg.Wait()
	}
}

// eachFunc runs body(i) for every i in [0, n), in parallel, one goroutine or
// task per element.
type eachFunc func(e *env, n int, body func(i int))

// fromEach makes the operations of a per-element strategy: a map writes its
// slot, a reduce maps and then folds, a filter maps to flags and gathers.
func fromEach(s *strategy, each eachFunc) *strategy {
	s.perElement = true
	s.sumU = func(e *env, n int, _ func(lo, hi int) uint64, elem func(int) uint64) uint64 {
		return fold(eachMap(e, each, e.idx[:n], elem))
	}
	s.sumF = func(e *env, n int, _ func(lo, hi int) float64, elem func(int) float64) float64 {
		return fold(eachMap(e, each, e.idx[:n], elem))
	}
	s.filter = func(e *env, in []int, keep func(int) bool) []int {
		return gather(in, eachMap(e, each, in, keep))
	}
	s.mapS = func(e *env, in []int, f func(int) string) []string { return eachMap(e, each, in, f) }
	s.mapI = func(e *env, in []int, f func(int) int) []int { return eachMap(e, each, in, f) }
	return s
}

func eachMap[R any](e *env, each eachFunc, in []int, f func(int) R) []R {
	out := make([]R, len(in))
	each(e, len(in), func(i int) { out[i] = f(in[i]) })
	return out
}

func goEach(_ *env, n int, body func(i int)) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			body(i)
		}()
	}
	wg.Wait()
}

func errgroupEach(e *env, n int, body func(i int)) {
	var g errgroup.Group
	g.SetLimit(e.workers)
	for i := range n {
		g.Go(func() error {
			body(i)
			return nil
		})
	}
	_ = g.Wait() // the bodies return no error
}

// goFib forks with a goroutine and a WaitGroup at every call above cutoff.
func goFib(_ *env, n, cutoff int) uint64 {
	var rec func(n int) uint64
	rec = func(n int) uint64 {
		if n < 2 || n <= cutoff {
			return fib(n)
		}
		var a uint64
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			a = rec(n - 1)
		}()
		b := rec(n - 2)
		wg.Wait()
		return a + b
	}
	return rec(n)
}

// errgroupFib forks with a group of its own at every call above cutoff. A
// shared group with SetLimit would deadlock: a parent waits for children that
// cannot start while parents hold every slot.
func errgroupFib(_ *env, n, cutoff int) uint64 {
	var rec func(n int) uint64
	rec = func(n int) uint64 {
		if n < 2 || n <= cutoff {
			return fib(n)
		}
		var a uint64
		var g errgroup.Group
		g.Go(func() error {
			a = rec(n - 1)
			return nil
		})
		b := rec(n - 2)
		_ = g.Wait()
		return a + b
	}
	return rec(n)
}

// handStrategies are the patterns a Go programmer writes without a library.
func handStrategies() []*strategy {
	gor := fromEach(&strategy{
		name: "goroutines", kind: kindHand,
		about: "one goroutine per element (per call for fib), sync.WaitGroup",
		fib:   goFib, fibPerCall: true,
		why: map[op]string{opSort: notSort},
	}, goEach)
	st := fromChunks(&strategy{
		name: "static", kind: kindHand,
		about: "one equal chunk per worker, a goroutine each",
		why:   map[op]string{opFib: notLoopOnly, opSort: notSort},
	}, static)
	dyn := fromChunks(&strategy{
		name: "dynamic", kind: kindHand,
		about: "one goroutine per worker taking blocks of n/(64*workers) from an atomic counter",
		why:   map[op]string{opFib: notLoopOnly, opSort: notSort},
	}, dynamic)
	eg := fromEach(&strategy{
		name: "errgroup", kind: kindHand,
		about: "golang.org/x/sync/errgroup: g.Go per element with SetLimit(workers); fib: a group per call, no limit",
		fib:   errgroupFib, fibPerCall: true,
		why: map[op]string{opSort: notSort},
	}, errgroupEach)
	return []*strategy{gor, st, dyn, eg}
}
