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
