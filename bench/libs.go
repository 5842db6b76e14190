package main

import (
	"slices"
	"sync"

	"github.com/alitto/pond/v2"
	"github.com/exascience/pargo/parallel"
	pargosort "github.com/exascience/pargo/sort"
	"github.com/jfcg/sorty/v2"
	"github.com/panjf2000/ants/v2"
	loparallel "github.com/samber/lo/parallel"
	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/iter"
	"github.com/twotwotwo/sorts"
	"github.com/twotwotwo/sorts/sortutil"
)

// The libraries, each through the API it offers for the job. Their pools
// are made once per process (see env), outside every timing, as a program
// would keep them.

func concMap[R any](e *env, in []int, f func(int) R) []R {
	return iter.Mapper[int, R]{MaxGoroutines: e.workers}.Map(in, func(x *int) R { return f(*x) })
}

func concFib(_ *env, n, cutoff int) uint64 {
	var rec func(n int) uint64
	rec = func(n int) uint64 {
		if n < 2 || n <= cutoff {
			return fib(n)
		}
		var a uint64
		var wg conc.WaitGroup
		wg.Go(func() { a = rec(n - 1) })
		b := rec(n - 2)
		wg.Wait()
		return a + b
	}
	return rec(n)
}

func loMap[R any](_ *env, in []int, f func(int) R) []R {
	return loparallel.Map(in, func(x int, _ int) R { return f(x) })
}

func pondEach(e *env, n int, body func(i int)) {
	g := e.pond.NewGroup()
	for i := range n {
		g.Submit(func() { body(i) })
	}
	_ = g.Wait() // the tasks return no error
}

func antsEach(e *env, n int, body func(i int)) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		err := e.ants.Submit(func() {
			defer wg.Done()
			body(i)
		})
		if err != nil {
			panic(err) // a blocking pool that is open takes every task
		}
	}
	wg.Wait()
}

// pargoBatches is the number of batches pargo cuts a range into: its default
// for GOMAXPROCS workers, here for the workers of the run.
func pargoBatches(e *env) int { return 2 * e.workers }

func pargoSumU(e *env, n int, leaf func(lo, hi int) uint64, _ func(int) uint64) uint64 {
	return parallel.RangeReduce(0, n, pargoBatches(e),
		func(lo, hi int) any { return leaf(lo, hi) },
		func(x, y any) any { return x.(uint64) + y.(uint64) },
	).(uint64)
}

func pargoSumF(e *env, n int, leaf func(lo, hi int) float64, _ func(int) float64) float64 {
	return parallel.RangeReduceFloat64Sum(0, n, pargoBatches(e), leaf)
}

func pargoFilter(e *env, in []int, keep func(int) bool) []int {
	r := parallel.RangeReduce(0, len(in), pargoBatches(e),
		func(lo, hi int) any { return filterLeaf(in, lo, hi, keep) },
		func(x, y any) any { return append(x.([]int), y.([]int)...) },
	)
	return r.([]int)
}

func pargoMap[R any](e *env, in []int, f func(int) R) []R {
	out := make([]R, len(in))
	parallel.Range(0, len(in), pargoBatches(e), func(lo, hi int) {
		for i, x := range in[lo:hi] {
			out[lo+i] = f(x)
		}
	})
	return out
}

func pargoFib(_ *env, n, cutoff int) uint64 {
	var rec func(n int) uint64
	rec = func(n int) uint64 {
		if n < 2 || n <= cutoff {
			return fib(n)
		}
		var a, b uint64
		parallel.Do(func() { a = rec(n - 1) }, func() { b = rec(n - 2) })
		return a + b
	}
	return rec(n)
}

// pargoU64 is the collection type pargo's sort takes.
type pargoU64 []uint64

func (s pargoU64) Len() int                { return len(s) }
func (s pargoU64) Less(i, j int) bool      { return s[i] < s[j] }
func (s pargoU64) Swap(i, j int)           { s[i], s[j] = s[j], s[i] }
func (s pargoU64) SequentialSort(i, j int) { slices.Sort(s[i:j]) }

const onlySort = "a sort library"

// libStrategies are the libraries other than weft.
func libStrategies() []*strategy {
	concS := &strategy{
		name: "conc", kind: kindLib,
		about:      "github.com/sourcegraph/conc: iter.Mapper{MaxGoroutines: workers}.Map (map, then fold or gather); fib: conc.WaitGroup per call",
		perElement: true,
		sumU: func(e *env, n int, _ func(lo, hi int) uint64, elem func(int) uint64) uint64 {
			return fold(concMap(e, e.idx[:n], elem))
		},
		sumF: func(e *env, n int, _ func(lo, hi int) float64, elem func(int) float64) float64 {
			return fold(concMap(e, e.idx[:n], elem))
		},
		filter: func(e *env, in []int, keep func(int) bool) []int { return gather(in, concMap(e, in, keep)) },
		mapS:   concMap[string],
		mapI:   concMap[int],
		fib:    concFib, fibPerCall: true,
		why: map[op]string{opSort: notSort},
	}
	loS := &strategy{
		name: "lo", kind: kindLib,
		about:      "github.com/samber/lo/parallel: Map, a goroutine per element with no limit (map, then fold or gather)",
		perElement: true,
		sumU: func(e *env, n int, _ func(lo, hi int) uint64, elem func(int) uint64) uint64 {
			return fold(loMap(e, e.idx[:n], elem))
		},
		sumF: func(e *env, n int, _ func(lo, hi int) float64, elem func(int) float64) float64 {
			return fold(loMap(e, e.idx[:n], elem))
		},
		filter: func(e *env, in []int, keep func(int) bool) []int { return gather(in, loMap(e, in, keep)) },
		mapS:   loMap[string],
		mapI:   loMap[int],
		why:    map[op]string{opFib: noForkJoin, opSort: notSort},
	}
	pondS := fromEach(&strategy{
		name: "pond", kind: kindLib,
		about: "github.com/alitto/pond/v2: a pool of workers goroutines, a task group, Submit per element",
		why:   map[op]string{opFib: notRecurse, opSort: notSort},
	}, pondEach)
	antsS := fromEach(&strategy{
		name: "ants", kind: kindLib,
		about: "github.com/panjf2000/ants/v2: a pool of workers goroutines, Submit per element, sync.WaitGroup",
		why:   map[op]string{opFib: notRecurse, opSort: notSort},
	}, antsEach)
	pargoS := &strategy{
		name: "pargo", kind: kindLib,
		about:  "github.com/exascience/pargo: parallel.RangeReduce / Range over 2*workers batches; fib: parallel.Do per call; sort: pargo/sort.Sort",
		sumU:   pargoSumU,
		sumF:   pargoSumF,
		filter: pargoFilter,
		mapS:   pargoMap[string],
		mapI:   pargoMap[int],
		fib:    pargoFib, fibPerCall: true,
		sort: func(_ *env, s []uint64) { pargosort.Sort(pargoU64(s)) },
	}
	sortyS := &strategy{
		name: "sorty", kind: kindLib,
		about: "github.com/jfcg/sorty/v2: SortSlice with MaxGor = workers",
		sort: func(e *env, s []uint64) {
			sorty.MaxGor = uint64(e.workers)
			sorty.SortSlice(s)
		},
		why: map[op]string{opSum: onlySort, opFilter: onlySort, opMap: onlySort, opFib: onlySort},
	}
	sortsS := &strategy{
		name: "sorts", kind: kindLib,
		about: "github.com/twotwotwo/sorts: ByUint64 (parallel radix sort) with MaxProcs = workers",
		sort: func(e *env, s []uint64) {
			sorts.MaxProcs = e.workers
			sorts.ByUint64(sortutil.Uint64Slice(s))
		},
		why: map[op]string{opSum: onlySort, opFilter: onlySort, opMap: onlySort, opFib: onlySort},
	}
	return []*strategy{concS, loS, pondS, antsS, pargoS, sortyS, sortsS}
}

// env is what the implementations share in one run of the suite.
type env struct {
	workers int
	idx     []int // [0, n) for the largest n, for APIs that want a slice
	pond    pond.Pool
	ants    *ants.Pool
}

func newEnv(workers, maxN int) *env {
	a, err := ants.NewPool(workers)
	if err != nil {
		panic(err)
	}
	return &env{workers: workers, idx: iota(maxN), pond: pond.NewPool(workers), ants: a}
}

func (e *env) close() {
	e.pond.StopAndWait()
	e.ants.Release()
}
