package par

import (
	"cmp"
	"reflect"
	"slices"
	"unsafe"

	"github.com/weftgo/weft/internal/sched"
)

// Default lengths at or below which a sort is done by the slices function on
// the caller: below them the parallel algorithms do not pay for themselves
// (measured with BenchmarkSortSmall on 2 cores).
const (
	sortSeqRadix  = 1 << 12
	sortSeqCmp    = 1 << 13
	sortSeqStable = 1 << 5
)

// Sort sorts s in ascending order, in place, in parallel, with the result of
// slices.Sort: NaNs first, then the other values in ascending order. Writes
// to s happen before Sort returns.
//
// Integer and floating-point element types (named ones too) are sorted by a
// parallel radix sort, strings by a parallel quicksort. Floats are ordered
// as slices.Sort orders them, which ranks all NaNs equal and -0 equal to +0:
// the values of s are kept bit for bit, but among equal elements the order
// may differ from that of slices.Sort, which is not stable either.
//
// Sort allocates one scratch copy of s for integers and floats, and nothing
// of that size for strings. An s of at most a few thousand elements is
// sorted by slices.Sort on the caller. OnPool directs the call at a pool;
// WithMinLen(n) or WithGrain(n) sets the length at or below which s, or a
// piece of it, is sorted sequentially.
//
// On 2 cores, 10 million uint64 take about TODO ms against TODO ms for
// slices.Sort.
func Sort[S ~[]E, E cmp.Ordered](s S, opts ...Option) {
	c := configure(opts)
	n := len(s)
	kind := reflect.TypeFor[E]().Kind()
	if kind == reflect.String {
		if n <= c.seq(sortSeqCmp) || slices.IsSorted(s) {
			slices.Sort(s)
			return
		}
		grain := c.seq(quickGrain)
		c.run(func(w *sched.Worker) { quickSortOrdered(handle(w), s, grain, quickBad) })
		return
	}
	if n <= c.seq(sortSeqRadix) {
		slices.Sort(s)
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
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
		if unsafe.Sizeof(s[0]) == 8 {
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// seq returns the length at or below which a sort, or a piece of one, runs
// sequentially: def unless an option says otherwise.
func (c *config) seq(def int) int {
	if c.grain > 0 {
		return c.grain
	}
	if c.minLen > 0 {
		return c.minLen
	}
	return def
}

// sortKeys radix-sorts the integers whose keys are x^flip.
func sortKeys[K unsigned](c *config, a []K, flip K) {
	b := make([]K, len(a))
	if len(a) < radixSplit {
		radixSort(nil, a, b, flip)
		return
	}
	c.run(func(w *sched.Worker) { radixSort(handle(w), a, b, flip) })
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
// compare equal. cmp is called from several goroutines at once; the writes
// to s happen before SortFunc returns.
//
// SortFunc is a parallel quicksort: it partitions the top levels in place and
// hands pieces to slices.SortFunc, so it allocates no scratch copy of s. An s
// of at most a few thousand elements is sorted by slices.SortFunc on the
// caller. Options are as for Sort. If cmp panics, SortFunc panics with the
// same value once the tasks in progress have returned; s is then a
// permutation of its elements in an unspecified order.
func SortFunc[S ~[]E, E any](s S, cmp func(a, b E) int, opts ...Option) {
	if cmp == nil {
		panic("par: SortFunc: cmp is nil")
	}
	c := configure(opts)
	if len(s) <= c.seq(sortSeqCmp) || slices.IsSortedFunc(s, cmp) {
		slices.SortFunc(s, cmp)
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
// scratch, makes more and moves far more. An s of at most a few hundred
// elements is sorted by slices.SortStableFunc on the caller. Options and
// panics are as for SortFunc.
func SortStableFunc[S ~[]E, E any](s S, cmp func(a, b E) int, opts ...Option) {
	if cmp == nil {
		panic("par: SortStableFunc: cmp is nil")
	}
	c := configure(opts)
	if len(s) <= c.seq(sortSeqStable) || slices.IsSortedFunc(s, cmp) {
		slices.SortStableFunc(s, cmp)
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
