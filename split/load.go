package split

import "time"

// Load is what a call's pool reports of its processors' use when the call
// decides whether to involve the pool: counts and a mark that the pool keeps
// (package internal/sched), read once each.
type Load struct {
	// Calls is the calls in progress on the pool: those running on its
	// workers and those whose callers are on their prefix.
	Calls int
	// Procs is the processors the pool runs on (GOMAXPROCS).
	Procs int
	// Searching is the pool's workers looking for work: a job pushed now is
	// taken within a round of their search, with no wake-up.
	Searching int
	// Parked is the pool's workers parked for want of work, or about to
	// park: a job pushed now waits for one to wake (Wake).
	Parked int
	// Contended: goroutines outside the pool's calls were recently found
	// waiting for a processor, so that a job handed over waits behind them.
	Contended bool
	// Wake is how long the pool's workers have taken from a wake-up to the
	// work it was for, as the pool measures it (zero: not measured yet).
	Wake time.Duration
}

// Spare returns the workers that would take a job pushed now at once: those
// searching, unless the calls in progress fill every processor or the pool
// is contended, when a searcher waits for one of them to yield its
// processor before it runs. A prefix that begins with a spare worker is warm
// (Prefix.Warm).
func (l Load) Spare() int {
	if l.Calls >= l.Procs || l.Contended {
		return 0
	}
	return l.Searching
}

// Alone reports whether a prefix that Next ended goes on alone rather than
// hand its rest to a pool under load l. While more calls are in progress
// than processors, a fork only adds to what waits for one; so it does while
// the pool is contended, unless the rest takes eight budgets (twice
// longCall: 160 µs of PrefixBudget) or more; and while as many calls as
// processors are in progress, a rest of a budget or less gains less from a
// processor that a call might free than its fork costs (ShortRest).
//
// Under contention the worker woken for a rest waits behind the goroutines
// that hold the processors, and the fork gains only where those goroutines
// leave a processor free before the rest is done, at the end of a burst of
// calls. 4 goroutines calling W2's body in turn on 2 processors (W11 of go
// run ./bench) ran 1,000 to 1,500 elements (45-65 µs) at 0.93-0.96 of the
// loop's speed handing rests over and at 0.98 alone; calls of 10,000
// elements (450 µs) and more, which hand theirs over, run at 1.00-1.05.
func (p *Prefix) Alone(l Load) bool {
	return l.Calls > l.Procs ||
		l.Contended && !p.RestAtLeast(2*longCall(p.budget)) ||
		l.Calls >= l.Procs && p.ShortRest()
}
