package par

import (
	"cmp"
	"reflect"
	"slices"
	"unsafe"

	"github.com/weftgo/weft/internal/sched"
)

// Default lengths at or below which a sort is done by the slices function on
// the caller, where the other algorithm stops paying for itself: measured
// with BenchmarkSortCrossover on 2 cores (a radix sort of floats breaks even
// with pdqsort at about 1,000 elements, of 8-byte integers at about 150; the
// buffered merge sort beats slices.SortStableFunc from 64 elements on).
const (
	sortSeqRadix  = 1 << 10
	sortSeqCmp    = 1 << 13
	sortSeqStable = 1 << 5
)

// Sort sorts s in ascending order, in place, in parallel, with the result of
// slices.Sort: for floats, NaNs first, then the numbers in ascending order.
// The writes to s happen before Sort returns.
//
// Integer and floating-point element types, named ones included, are sorted
// by a parallel radix sort, strings by a parallel quicksort. slices.Sort
// holds all NaNs equal to one another and -0 equal to +0, and Sort does the
// same: every bit pattern of s is kept, but the order among equal elements
// may differ from the one slices.Sort leaves, which is not stable either.
//
// The radix sort allocates one scratch copy of s; the quicksort allocates
// nothing of the size of s. An s of at most 1,024 numbers or 8,192 strings,
// or one that is already sorted or in descending order, is sorted on the
// caller by slices.Sort or reversed. OnPool directs the call at a pool;
// WithMinLen(n) or WithGrain(n) sets the length at or below which s, or a
// piece of it, is sorted sequentially.
//
// Sort calls no function of the caller's, so nothing it runs can stop it
// half-way. One thing from outside can, as the package documentation says
// under Panics: a worker that waits for a piece of the sort runs tasks of
// other calls meanwhile, and if one of those calls runtime.Goexit, the sort
// ends by Goexit as well, and s is then unspecified (floats may be left as
// the radix sort's keys).
//
// Cost on 2 cores (median of 10, go test -bench 'Sort(W6|Float64|Int32)$'
// -count 10 ./par, on a machine shared with other jobs): W6, 10 million
// uint64, 177 ms against 1084 ms for slices.Sort (6.1x; 133 ms at best);
// 10 million float64, 146 ms against 1287 ms; 10 million int32, 62 ms
// against 973 ms. 1 million strings take 184 ms against 390 ms.
func Sort[S ~[]E, E cmp.Ordered](s S, opts ...Option) {
	c := configure(opts)
	n := len(s)
	if n <= c.seq(sortSeqRadix) || presorted(s, func(a, b E) bool { return cmp.Less(a, b) }, false) {
		slices.Sort(s)
		return
	}
	kind := reflect.TypeFor[E]().Kind()
	if kind == reflect.String {
		if n <= c.seq(sortSeqCmp) {
			slices.Sort(s)
			return
		}
		grain := c.seq(quickGrain)
		c.run(func(w *sched.Worker) { quickSortOrdered(handle(w), s, grain, quickBad) })
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
	var zero E
	switch kind {
	case reflect.Int8:
		countSort(&c, unsafe.Slice((*uint8)(p), n), 1<<7)
	case reflect.Uint8:
		countSort(&c, unsafe.Slice((*uint8)(p), n), 0)
	case reflect.Int16:
		sortKeys(&c, unsafe.Slice((*uint16)(p), n), 1<<15)
	case reflect.Uint16:
		sortKeys(&c, unsafe.Slice((*uint16)(p), n), 0)
	case reflect.Int32:
		sortKeys(&c, unsafe.Slice((*uint32)(p), n), 1<<31)
	case reflect.Uint32:
		sortKeys(&c, unsafe.Slice((*uint32)(p), n), 0)
	case reflect.Int64:
		sortKeys(&c, unsafe.Slice((*uint64)(p), n), 1<<63)
	case reflect.Uint64:
		sortKeys(&c, unsafe.Slice((*uint64)(p), n), 0)
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		signed := kind == reflect.Int
		if unsafe.Sizeof(zero) == 8 {
			sortKeys(&c, unsafe.Slice((*uint64)(p), n), uint64(b2i(signed))<<63)
		} else {
			sortKeys(&c, unsafe.Slice((*uint32)(p), n), uint32(b2i(signed))<<31)
		}
	case reflect.Float32:
		sortFloats(&c, unsafe.Slice((*uint32)(p), n))
	case reflect.Float64:
		sortFloats(&c, unsafe.Slice((*uint64)(p), n))
	default:
		panic("par: Sort: unexpected element kind " + kind.String())
	}
}

// presorted reports whether s is in ascending order (which it leaves alone)
// or in descending order (which it reverses, leaving s sorted). Elements
// in descending order may be equal unless strict. On a shuffled s it returns
// after a few comparisons; on a sorted one it costs a sequential pass, about
// what pdqsort spends to find out.
func presorted[E any](s []E, less func(a, b E) bool, strict bool) bool {
	if len(s) < 2 {
		return true
	}
	i := 1
	for i < len(s) && !less(s[i], s[i-1]) {
		i++
	}
	if i == len(s) {
		return true
	}
	if i > 1 {
		return false // ascending, then not
	}
	for i = 1; i < len(s); i++ {
		if strict && !less(s[i], s[i-1]) || less(s[i-1], s[i]) {
			return false
		}
	}
	slices.Reverse(s)
	return true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// seq returns the length at or below which a sort, or a piece of one, runs
// sequentially: def unless an option says otherwise.
func (c *config) seq(def int) int {
	if c.Grain > 0 {
		return c.Grain
	}
	if c.MinLen > 0 {
		return c.MinLen
	}
	return def
}

// sortKeys radix-sorts the integers whose keys are x^flip.
func sortKeys[K unsigned](c *config, a []K, flip K) {
	b := make([]K, len(a))
	if len(a) < radixSplit {
		radixSort(nil, a, b, flip, nil)
		return
	}
	c.run(func(w *sched.Worker) { radixSort(handle(w), a, b, flip, nil) })
}

// sortFloats radix-sorts the floats whose bits are a.
func sortFloats[K unsigned](c *config, a []K) {
	b := make([]K, len(a))
	if len(a) < radixSplit {
		radixFloat(nil, a, b)
		return
	}
	c.run(func(w *sched.Worker) { radixFloat(handle(w), a, b) })
}

// countSort sorts bytes whose keys are x^flip by counting them: no scratch.
func countSort(c *config, a []uint8, flip uint8) {
	n := len(a)
	c.run(func(sw *sched.Worker) {
		w := handle(sw)
		nb := blocks(w, n)
		cs := make([][radix]int, nb)
		forEach(w, 0, nb, func(_ *Worker, i int) {
			for _, x := range a[i*n/nb : (i+1)*n/nb] {
				cs[i][x^flip]++
			}
		})
		var start [radix + 1]int
		for d := range radix {
			t := 0
			for i := range cs {
				t += cs[i][d]
			}
			start[d+1] = start[d] + t
		}
		forEach(w, 0, nb, func(_ *Worker, i int) {
			lo, hi := i*n/nb, (i+1)*n/nb
			d := 0
			for start[d+1] <= lo {
				d++
			}
			for j := lo; j < hi; {
				e := min(hi, start[d+1])
				v := uint8(d) ^ flip
				for ; j < e; j++ {
					a[j] = v
				}
				d++
			}
		})
	})
}

// SortFunc sorts s in ascending order as determined by cmp, in place, in
// parallel, like slices.SortFunc: cmp must be a strict weak ordering (see
// slices.SortFunc), the sort is not stable, and the result is the sorted
// permutation slices.SortFunc would give up to the order of elements that
// compare equal. cmp runs concurrently with itself on different pairs of
// elements, on the pool's workers and the calling goroutine; the writes to s
// happen before SortFunc returns.
//
// SortFunc is a parallel quicksort: it partitions the top levels in place and
// hands pieces to slices.SortFunc, so it allocates no scratch copy of s. An s
// of at most 8,192 elements, or one already sorted or in descending order,
// is sorted by slices.SortFunc on the caller or reversed. Options are as for
// Sort.
//
// If cmp panics, at any call and on any worker, s holds a permutation of its
// elements (each exactly once, in an unspecified order) and the panic
// reaches the caller with its original value, once every task of the call
// has finished; the sort only ever swaps two elements between two calls of
// cmp. If cmp calls runtime.Goexit, s holds a permutation of its elements
// once the calling goroutine has exited.
//
// On 2 cores (go test -bench 'Sort(W6|Func)$' -count 10 ./par, median), 1
// million 32-byte records take 83 ms against 163 ms for slices.SortFunc, and
// W6 with cmp.Compare 836 ms against 1484 ms (1.8x; the first partition runs
// on one core).
func SortFunc[S ~[]E, E any](s S, cmp func(a, b E) int, opts ...Option) {
	if cmp == nil {
		panic("par: SortFunc: cmp is nil")
	}
	c := configure(opts)
	if len(s) <= c.seq(sortSeqCmp) {
		slices.SortFunc(s, cmp)
		return
	}
	if presorted(s, func(a, b E) bool { return cmp(a, b) < 0 }, false) {
		return
	}
	grain := c.seq(quickGrain)
	c.run(func(w *sched.Worker) { quickSortFunc(handle(w), s, cmp, grain, quickBad) })
}

// SortStableFunc sorts s as SortFunc does, keeping the original order of
// elements that compare equal: the result is exactly that of
// slices.SortStableFunc.
//
// SortStableFunc is a parallel merge sort with one scratch copy of s (so it
// allocates len(s) elements), whose merges are themselves parallel. It makes
// about n log2 n comparisons where slices.SortStableFunc, which uses no
// scratch, makes more and moves far more, so it is faster even on one core
// from 64 elements on. An s of at most 32 elements is sorted by
// slices.SortStableFunc on the caller; one already sorted is left alone, one
// in strictly descending order reversed. Options are as for Sort.
//
// If cmp panics, at any call and on any worker, s holds a permutation of its
// elements (each exactly once, in an unspecified order) and the panic
// reaches the caller with its original value, once every task of the call
// has finished: a merge into s that cmp cuts short copies both of its runs
// over its output. If cmp calls runtime.Goexit, s holds a permutation of its
// elements once the calling goroutine has exited. Keeping this costs a
// deferred call per merge and a lock per forked half, nothing measurable.
//
// On 2 cores (go test -bench 'SortStableFunc$' -count 10 ./par, median), 1
// million 32-byte records with 1,000 distinct keys take 201 ms against 419 ms
// for slices.SortStableFunc.
//
// cmp runs concurrently with itself on different pairs of elements, on the
// pool's workers and the calling goroutine.
func SortStableFunc[S ~[]E, E any](s S, cmp func(a, b E) int, opts ...Option) {
	if cmp == nil {
		panic("par: SortStableFunc: cmp is nil")
	}
	c := configure(opts)
	if len(s) <= c.seq(sortSeqStable) {
		slices.SortStableFunc(s, cmp)
		return
	}
	if presorted(s, func(a, b E) bool { return cmp(a, b) < 0 }, true) {
		return
	}
	b := make([]E, len(s))
	grain := c.seq(mergePar)
	if len(s) <= grain {
		seqMergeSort(s, b, cmp, true)
		return
	}
	c.run(func(w *sched.Worker) { mergeSort(handle(w), s, b, cmp, grain, true) })
}
