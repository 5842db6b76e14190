package par

// Stable merge sort with one scratch copy.
//
// The recursion halves the slice, sorts the halves in parallel with their
// results landing in the other buffer, and merges them back, so every level
// moves the data once between the slice and its scratch copy. Below mergePar
// a piece is sorted by the same recursion without forks, down to insertion
// sorts of at most mergeRun elements. Merges are parallel too: the longer
// input is cut at its middle, the shorter at the matching rank found by binary
// search, and the two halves are merged by two tasks (the classic divide and
// conquer merge; see Cormen, Leiserson, Rivest and Stein, 3rd ed., §27.3), so
// the last levels keep every core busy. Elements that compare equal keep
// their order throughout: a merge takes from the right run only what is
// strictly less, and a cut never separates equal elements in a way that would
// reorder them.
//
// cmp may panic, or call runtime.Goexit, at any call, on any worker, and the
// caller must then find its slice holding exactly its elements. Every step
// of the recursion keeps one rule on every way out, normal or not: its region
// of a holds a permutation of its input. A step whose destination is b
// writes nothing in a but through its halves, and one whose destination is a
// has halves that keep the rule and then merges b into a; b is scratch that
// nobody reads after a failure. An insertion run builds its result in b, so
// only a merge into a writes a while cmp runs: one cut short copies both of
// its runs, unmerged, over its output (the runs are in b, which the merge
// only reads). That takes a deferred call per merge, which on the normal path
// costs a call that tests a flag. A fork, cut short by a panic or
// runtime.Goexit, ends only once its other half has been taken back unrun or
// has finished (sched.Rec.End), so nothing is still being written once a
// failure has unwound a step.

const (
	// mergeRun is the longest run sorted by insertion.
	mergeRun = 24
	// mergePar is the longest piece sorted without forking, and half the
	// longest merge done without forking.
	mergePar = 1 << 13
)

// mergeSort sorts a stably by cmp with b (of the same length) as scratch; the
// result ends in a if inA and in b otherwise. If cmp fails, a holds a
// permutation of its input once mergeSort has unwound.
func mergeSort[E any](w *Worker, a, b []E, cmp func(x, y E) int, grain int, inA bool) {
	n := len(a)
	if n <= grain {
		seqMergeSort(a, b, cmp, inA)
		return
	}
	h := n / 2
	w.joinEager(
		func(w *Worker) { mergeSort(w, a[:h], b[:h], cmp, grain, !inA) },
		func(w *Worker) { mergeSort(w, a[h:], b[h:], cmp, grain, !inA) },
	)
	if inA {
		parMerge(w, b[:h], b[h:], a, cmp, 2*grain)
	} else {
		parMerge(w, a[:h], a[h:], b, cmp, 2*grain)
	}
}

// seqMergeSort is mergeSort without forks.
func seqMergeSort[E any](a, b []E, cmp func(x, y E) int, inA bool) {
	n := len(a)
	if n <= mergeRun {
		insertionRun(a, b, cmp, inA)
		return
	}
	h := n / 2
	seqMergeSort(a[:h], b[:h], cmp, !inA)
	seqMergeSort(a[h:], b[h:], cmp, !inA)
	if inA {
		merge(b[:h], b[h:], a, cmp)
	} else {
		merge(a[:h], a[h:], b, cmp)
	}
}

// insertionRun sorts a stably by insertion into b, and copies the result
// back to a if inA. a is not written while cmp runs, so a failure of cmp
// leaves it whole with nothing to restore; it costs what the sort in place
// followed by a copy to b cost.
func insertionRun[E any](a, b []E, cmp func(x, y E) int, inA bool) {
	if len(a) == 0 {
		return
	}
	b[0] = a[0]
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && cmp(x, b[j-1]) < 0; j-- {
			b[j] = b[j-1]
		}
		b[j] = x
	}
	if inA {
		copy(a, b)
	}
}

// merge merges the sorted runs x and y into out, which is as long as both;
// of equal elements, those of x come first. If cmp panics, out receives x and
// then y, unmerged: the merge sort needs out to hold their elements, in any
// order, and the restore then needs none of the loop's indices.
func merge[E any](x, y, out []E, cmp func(x, y E) int) {
	merged := false
	defer func() {
		if !merged {
			n := copy(out, x)
			copy(out[n:], y)
		}
	}()
	mergeRuns(x, y, out, cmp)
	merged = true
}

// mergeRuns is merge without the restore, in a function of its own: with a
// deferred call in the same frame, the loop ran about 3% slower (go test
// -bench SortSmall/stable/1000/par, CPU time).
func mergeRuns[E any](x, y, out []E, cmp func(x, y E) int) {
	if len(x) == 0 || len(y) == 0 || cmp(y[0], x[len(x)-1]) >= 0 {
		n := copy(out, x) // already in order: sorted inputs cost a copy
		copy(out[n:], y)
		return
	}
	i, j, k := 0, 0, 0
	for i < len(x) && j < len(y) {
		if cmp(y[j], x[i]) < 0 {
			out[k] = y[j]
			j++
		} else {
			out[k] = x[i]
			i++
		}
		k++
	}
	k += copy(out[k:], x[i:])
	copy(out[k:], y[j:])
}

// parMerge is merge, cut into parallel tasks while the runs are long. If cmp
// panics, out receives x and then y, unmerged, as for merge: once the fork has
// settled its halves, nothing else writes out, and x and y are read only.
func parMerge[E any](w *Worker, x, y, out []E, cmp func(x, y E) int, grain int) {
	if len(x)+len(y) <= grain {
		merge(x, y, out, cmp)
		return
	}
	merged := false
	defer func() {
		if !merged {
			n := copy(out, x)
			copy(out[n:], y)
		}
	}()
	var i, j int
	if len(x) >= len(y) {
		// y's elements equal to x[i] must follow it: cut y before them.
		i = len(x) / 2
		j = lowerBound(y, x[i], cmp)
	} else {
		// x's elements equal to y[j] must precede it: cut x after them.
		j = len(y) / 2
		i = upperBound(x, y[j], cmp)
	}
	w.joinEager(
		func(w *Worker) { parMerge(w, x[:i], y[:j], out[:i+j], cmp, grain) },
		func(w *Worker) { parMerge(w, x[i:], y[j:], out[i+j:], cmp, grain) },
	)
	merged = true
}

// lowerBound returns the first index of a at which cmp(a[i], t) >= 0.
func lowerBound[E any](a []E, t E, cmp func(x, y E) int) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmp(a[m], t) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// upperBound returns the first index of a at which cmp(a[i], t) > 0.
func upperBound[E any](a []E, t E, cmp func(x, y E) int) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmp(a[m], t) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
