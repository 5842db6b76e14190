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
// nobody reads after a failure. So only two things need a restore: a merge
// into a cut short copies the unmerged rests of both runs after what it has
// written, and an insertion run cut short puts back the element it held out
// of a. They run in deferred calls, one per merge and per run, which on the
// normal path cost a call that tests a flag. The forks go through a fence, so
// that nothing is still being written once a failure has unwound the sort.

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
	new(fence).join(w,
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

// insertionRun sorts a stably by insertion, and copies the result to b
// unless inA. If cmp panics, the element being inserted, held out of a while
// the elements before it shift up, is put back in the gap.
func insertionRun[E any](a, b []E, cmp func(x, y E) int, inA bool) {
	var x E // held out of a, whose gap is at j, while i > 0
	i, j := 0, 0
	sorted := false
	defer func() {
		if !sorted && i > 0 {
			a[j] = x
		}
	}()
	for i = 1; i < len(a); i++ {
		x = a[i]
		for j = i; j > 0 && cmp(x, a[j-1]) < 0; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
	sorted = true
	if !inA {
		copy(b, a)
	}
}

// merge merges the sorted runs x and y into out, which is as long as both;
// of equal elements, those of x come first. If cmp panics, out still
// receives every element of x and y: the rests of both runs are copied after
// what was merged.
func merge[E any](x, y, out []E, cmp func(x, y E) int) {
	i, j, k := 0, 0, 0
	merged := false
	defer func() {
		if !merged {
			k += copy(out[k:], x[i:])
			copy(out[k:], y[j:])
		}
	}()
	if len(x) == 0 || len(y) == 0 || cmp(y[0], x[len(x)-1]) >= 0 {
		merged = true
		n := copy(out, x) // already in order: sorted inputs cost a copy
		copy(out[n:], y)
		return
	}
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
	merged = true
	k += copy(out[k:], x[i:])
	copy(out[k:], y[j:])
}

// parMerge is merge, cut into parallel tasks while the runs are long. If cmp
// panics, out holds every element of x and y, as for merge.
func parMerge[E any](w *Worker, x, y, out []E, cmp func(x, y E) int, grain int) {
	if len(x)+len(y) <= grain {
		merge(x, y, out, cmp)
		return
	}
	var i, j int
	var f *fence // set once the runs are cut
	defer func() {
		switch {
		case f == nil: // the search for the cut failed: nothing was written
			n := copy(out, x)
			copy(out[n:], y)
		case !f.ran(0):
			n := copy(out[:i+j], x[:i])
			copy(out[n:i+j], y[:j])
		}
		if f != nil && !f.ran(1) {
			n := copy(out[i+j:], x[i:])
			copy(out[i+j+n:], y[j:])
		}
	}()
	if len(x) >= len(y) {
		// y's elements equal to x[i] must follow it: cut y before them.
		i = len(x) / 2
		j = lowerBound(y, x[i], cmp)
	} else {
		// x's elements equal to y[j] must precede it: cut x after them.
		j = len(y) / 2
		i = upperBound(x, y[j], cmp)
	}
	f = new(fence)
	f.join(w,
		func(w *Worker) { parMerge(w, x[:i], y[:j], out[:i+j], cmp, grain) },
		func(w *Worker) { parMerge(w, x[i:], y[j:], out[i+j:], cmp, grain) },
	)
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
