package par

// The lengths at which the sorts change algorithm, so that the panic sweep
// of sort_panic_test.go tries every side of every threshold.
const (
	SortSeqStable = sortSeqStable // SortStableFunc: at or below, slices.SortStableFunc
	MergeRun      = mergeRun      // longest run sorted by insertion in the merge sort
	MergePar      = mergePar      // longest piece sorted without forks; half the longest merge without
	SortSeqCmp    = sortSeqCmp    // SortFunc: at or below, slices.SortFunc
	QuickGrain    = quickGrain    // longest piece the quicksort hands to slices.SortFunc
)

// FenceJoin is the fork of the sorts (see fence); once it has returned or
// unwound, ran says which halves started.
func FenceJoin(w *Worker, a, b func(w *Worker), ran *[2]bool) {
	f := new(fence)
	defer func() { ran[0], ran[1] = f.ran(0), f.ran(1) }()
	f.join(w, a, b)
}
