package split

// Work is the protocol between weft's engine and every shape of call: the
// functions of package par over slices and ranges, the terminals of
// par/pipe, the batches of a sequence. A shape says how a run of adjacent
// positions of its range folds into an accumulator and how the
// accumulators of two adjacent runs merge; the engine decides where the
// range is cut and who folds what, as this package's planner says.
//
// A run is what one participant folds without interruption: a piece, its
// steps, and the piece after it when the same participant goes on with it
// (the other half of its own cut, taken back unstolen). The engine carries
// one accumulator along a run, so Init is called once per run: at the
// start of the call and where a stolen piece begins, at most once more
// than the call's steals, whatever its length. Runs are merged in range
// order, left then right, where their pieces were joined.
//
// This is Rayon's plumbing (producer, folder, reducer) with the folder
// kept across pieces: a fold into a map makes a map per participant and
// steal, not per piece.
type Work[A any] struct {
	// Name names the call in an execution trace.
	Name string
	// Key names the call's site: calls made with the same function share
	// what the planner learned of their elements' cost (0: none).
	Key uintptr

	// Init makes the accumulator of a new run; nil makes the zero A.
	Init func() A
	// Fold folds the positions [lo, hi) into acc, which holds the fold of
	// the positions of its run before lo, and returns it. It is called once
	// per step of a run, never on an empty stretch.
	Fold func(acc A, lo, hi int) A
	// Merge combines the accumulators of two adjacent runs, left then
	// right, and returns the result; it may modify and return either. nil
	// means that the runs need no merge: the accumulators carry nothing
	// (For), or the call collects them unordered (Reuse).
	Merge func(left, right A) A

	// Leaf, instead of Fold, makes the value of a whole piece from nothing,
	// and Merge joins the values of a run's pieces: for a fold whose calls
	// cost the user's code something each (ReduceRange's leaf makes a
	// result per call). The engine calls it once per piece, never on a part
	// of one: a piece that has started cannot be shared, so such a call is
	// cut only before its pieces start.
	Leaf func(lo, hi int) A
	// Reuse makes the accumulators interchangeable (MapInit, ForEachInit:
	// a value per participant, in no order): a run that begins on a
	// participant takes the accumulator of that participant's last run, if
	// it has ended, instead of calling Init. Merge must be nil.
	Reuse bool
	// Tree makes the result independent of the timing, for folds whose
	// merge is not exact (float sums): the range is cut at the nodes of
	// the canonical tree (Cut), each node folded from Init and the nodes
	// merged as the tree says; ranges of MinSeq positions or fewer are
	// folded on the caller alone.
	Tree   bool
	MinSeq int

	// Settled, if not nil, reports that nothing at or after lo can change
	// the result (an earlier match of a find-first): the pieces from lo on
	// are skipped. Any goroutine, at any time.
	Settled func(lo int) bool
	// Covered, if not nil, tells how far from pos the work already done
	// covers: an end e >= pos such that folding [pos, e) costs next to
	// nothing (the inside of a long line that an earlier piece read to its
	// end), or pos. The engine folds such a stretch as one step, counted in
	// the pace of the step before, so that it is not timed as elements.
	Covered func(pos int) int
}
