package par

import (
	"cmp"

	"github.com/weftgo/weft/internal/sched"
)

// SortOrderedQuick sorts s with the parallel quicksort that Sort uses for
// strings, whatever E is: the comparison path, for tests and benchmarks.
func SortOrderedQuick[E cmp.Ordered](s []E, opts ...Option) {
	c := configure(opts)
	grain := c.seq(quickGrain)
	c.run(func(w *sched.Worker) { quickSortOrdered(handle(w), s, grain, quickBad) })
}

// SortFuncMerge sorts s with the parallel merge sort of SortStableFunc, to
// compare it with SortFunc's quicksort.
func SortFuncMerge[E any](s []E, cmp func(a, b E) int, opts ...Option) {
	c := configure(opts)
	b := make([]E, len(s))
	grain := c.seq(mergePar)
	c.run(func(w *sched.Worker) { mergeSort(handle(w), s, b, cmp, grain, true) })
}
