package par

// ForRangePaced runs f over [0, n) as a call does after a timed prefix that
// found pace elements to take about leafTarget (0: no pace known).
func ForRangePaced(n, pace int, f func(lo, hi int), opts ...Option) {
	c := configure(opts)
	parallel(&c, 0, n, &body[struct{}]{leaf: func(lo, hi int) struct{} { f(lo, hi); return struct{}{} }}, pace)
}

// MaxLeavesPerWorker is maxLeavesPerWorker, for tests.
const MaxLeavesPerWorker = maxLeavesPerWorker
