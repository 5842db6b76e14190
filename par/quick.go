package par

import (
	"cmp"
	"slices"
)

// Parallel quicksort for comparison sorts that need not be stable (Hoare,
// "Quicksort", Computer Journal 1962; pivot from Bentley and McIlroy,
// "Engineering a sort function", Software—Practice and Experience 1993).
//
// The top levels of the recursion partition in place around a ninther pivot
// (Tukey's median of three medians of three) and sort the two sides as two
// tasks; pieces of at most grain elements go to the standard library's
// pdqsort (Peters, "Pattern-defeating quicksort", 2021). The partition is
// Hoare's, stopping on elements equal to the pivot from both ends, so that
// many equal keys still split evenly. A side shorter than an eighth of its
// piece counts as a bad partition; after quickBad of them on one path the
// piece goes to pdqsort whole, whose worst case is O(n log n), so
// adversarial inputs cost at most a few extra linear passes. The first
// partition runs on one core: on 2 cores that bounds the speedup at about
// 1.9 for 10 million keys (it is 1/23 of the work), and a parallel partition
// was not worth its complexity there. A parallel merge sort (the one of
// SortStableFunc) was measured as the alternative for SortFunc: it makes
// fewer comparisons but moves every element at every level, and was slower
// on the benchmarks (1 million records: 181 ms against 147 ms, median of 10,
// on a loaded machine).
//
// Two copies of the code exist, one comparing with cmp.Less (inlined, and
// ordering NaNs first as slices.Sort does) and one with a cmp function; the
// standard library makes the same choice.
//
// The partition, the pivot choice and the standard library's pdqsort below
// the grain only ever swap two elements between two calls of cmp, so
// wherever cmp panics or calls runtime.Goexit the slice holds a permutation
// of its elements; a fork ends only once both of its halves have (see
// sched.Rec.End), so no piece is still being sorted once the failure has
// unwound the call.

// quickBad is the number of bad partitions one path may make before its
// piece is sorted sequentially.
const quickBad = 3

// quickGrain is the default longest piece handed to the slices functions.
const quickGrain = 1 << 12

// quickMin is the shortest piece that is partitioned: the ninther needs
// nine elements.
const quickMin = 16

func quickSortFunc[E any](w *Worker, s []E, cmp func(a, b E) int, grain, bad int) {
	if len(s) <= max(grain, quickMin) {
		slices.SortFunc(s, cmp)
		return
	}
	m := partitionFunc(s, pivotFunc(s, cmp), cmp)
	l, r := s[:m], s[m+1:]
	if min(len(l), len(r)) < len(s)/8 {
		if bad == 0 {
			slices.SortFunc(l, cmp)
			slices.SortFunc(r, cmp)
			return
		}
		bad--
	}
	w.joinEager(
		func(w *Worker) { quickSortFunc(w, l, cmp, grain, bad) },
		func(w *Worker) { quickSortFunc(w, r, cmp, grain, bad) },
	)
}

// pivotFunc returns the index of the ninther of s, which has at least 8
// elements (quickMin).
func pivotFunc[E any](s []E, cmp func(a, b E) int) int {
	n := len(s)
	a, b, c := n/4, n/2, n/4*3
	a = median3Func(s, a-1, a, a+1, cmp)
	b = median3Func(s, b-1, b, b+1, cmp)
	c = median3Func(s, c-1, c, c+1, cmp)
	return median3Func(s, a, b, c, cmp)
}

func median3Func[E any](s []E, a, b, c int, cmp func(a, b E) int) int {
	if cmp(s[b], s[a]) < 0 {
		a, b = b, a
	}
	if cmp(s[c], s[b]) < 0 {
		b = c
		if cmp(s[b], s[a]) < 0 {
			b = a
		}
	}
	return b
}

// partitionFunc partitions s around s[p] and returns the pivot's final index
// m: s[:m] holds no element greater than it, s[m+1:] none less.
func partitionFunc[E any](s []E, p int, cmp func(a, b E) int) int {
	s[0], s[p] = s[p], s[0]
	pivot := s[0]
	i, j := 1, len(s)-1
	for {
		for i <= j && cmp(s[i], pivot) < 0 {
			i++
		}
		for i <= j && cmp(pivot, s[j]) < 0 {
			j--
		}
		if i >= j {
			break
		}
		s[i], s[j] = s[j], s[i]
		i++
		j--
	}
	s[0], s[j] = s[j], s[0]
	return j
}

func quickSortOrdered[E cmp.Ordered](w *Worker, s []E, grain, bad int) {
	if len(s) <= max(grain, quickMin) {
		slices.Sort(s)
		return
	}
	m := partitionOrdered(s, pivotOrdered(s))
	l, r := s[:m], s[m+1:]
	if min(len(l), len(r)) < len(s)/8 {
		if bad == 0 {
			slices.Sort(l)
			slices.Sort(r)
			return
		}
		bad--
	}
	w.joinEager(
		func(w *Worker) { quickSortOrdered(w, l, grain, bad) },
		func(w *Worker) { quickSortOrdered(w, r, grain, bad) },
	)
}

func pivotOrdered[E cmp.Ordered](s []E) int {
	n := len(s)
	a, b, c := n/4, n/2, n/4*3
	a = median3Ordered(s, a-1, a, a+1)
	b = median3Ordered(s, b-1, b, b+1)
	c = median3Ordered(s, c-1, c, c+1)
	return median3Ordered(s, a, b, c)
}

func median3Ordered[E cmp.Ordered](s []E, a, b, c int) int {
	if cmp.Less(s[b], s[a]) {
		a, b = b, a
	}
	if cmp.Less(s[c], s[b]) {
		b = c
		if cmp.Less(s[b], s[a]) {
			b = a
		}
	}
	return b
}

func partitionOrdered[E cmp.Ordered](s []E, p int) int {
	s[0], s[p] = s[p], s[0]
	pivot := s[0]
	i, j := 1, len(s)-1
	for {
		for i <= j && cmp.Less(s[i], pivot) {
			i++
		}
		for i <= j && cmp.Less(pivot, s[j]) {
			j--
		}
		if i >= j {
			break
		}
		s[i], s[j] = s[j], s[i]
		i++
		j--
	}
	s[0], s[j] = s[j], s[0]
	return j
}
