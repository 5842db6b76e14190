package par

import (
	"runtime"
	"time"

	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/split"
)

// RunLeaf runs f over [0, n) as one leaf of the engine on a seat of p: a
// piece that its splitter will not cut, which may give part of itself away
// while it runs, in steps of a split.Steps-th of itself. fixed makes it a leaf of a fixed tree (descend). It starts
// the leaf once some participant of p is hungry (a fresh pool's workers
// search, then park).
func RunLeaf(p *Pool, n int, fixed bool, f func(i int)) {
	engine.ProbeLeaf(p.p, [][2]int{{0, n}}, 0, fixed, true, time.Now, nil, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f(i)
		}
	})
}

// RunLeafHungry is RunLeaf for a leaf of range body f, reading time from
// clock.
func RunLeafHungry(p *Pool, n int, clock func() time.Time, f func(lo, hi int)) {
	engine.ProbeLeaf(p.p, [][2]int{{0, n}}, 0, false, true, clock, nil, f)
}

// RunLeavesHungry is RunLeavesClocked begun once some participant of p is
// hungry (sched.Worker.Hungry): a parked worker is.
func RunLeavesHungry(p *Pool, leaves [][2]int, clock func() time.Time, f func(lo, hi int)) {
	engine.ProbeLeaf(p.p, leaves, longest(leaves), false, true, clock, nil, f)
}

// longest returns the length of the longest of leaves: the step of a call
// whose leaves hold one step each.
func longest(leaves [][2]int) int {
	n := 0
	for _, l := range leaves {
		n = max(n, l[1]-l[0])
	}
	return n
}

// RunLeafClocked runs f over [0, n) as one leaf of the engine on a seat of
// p, reading time from clock, without waiting for hunger: on a pool none of
// whose participants is hungry it only steps.
func RunLeafClocked(p *Pool, n int, clock func() time.Time, f func(lo, hi int)) {
	engine.ProbeLeaf(p.p, [][2]int{{0, n}}, 0, false, false, clock, nil, f)
}

// RunLeavesClocked is RunLeafClocked for several leaves [lo, hi) of one
// range, run one after the other on one seat, each continuing the run of
// the one before, of a call whose step is the longest of them, as leaves
// of a long call hold a step or two (split.ForRange).
func RunLeavesClocked(p *Pool, leaves [][2]int, clock func() time.Time, f func(lo, hi int)) {
	engine.ProbeLeaf(p.p, leaves, longest(leaves), false, false, clock, nil, f)
}

// RunLeafCovered is RunLeafClocked for a body whose work done covers, from a
// position, what covered says (engine.Config.Covered).
func RunLeafCovered(p *Pool, n int, clock func() time.Time, covered func(pos int) int, f func(lo, hi int)) {
	engine.ProbeLeaf(p.p, [][2]int{{0, n}}, 0, false, false, clock, covered, f)
}

// Prefix runs the timed prefix of an adaptive call over [0, n) alone,
// reading time from clock, and returns where it stopped. The call's site
// (f's code) starts with no record, and the call's pool is not marked
// contended: a mark that its workers set while other test binaries held the
// processors (go test runs packages side by side) keeps the whole range on
// the caller, as a test of its own specifies (sched.Pool.Load); the
// mark lapses within about 20 ms (split.MarkLength).
func Prefix(n int, clock func() time.Time, f func(lo, hi int), opts ...Option) int {
	return PrefixCovered(n, clock, nil, f, opts...)
}

// PrefixCovered is Prefix for a body whose work done covers, from a
// position, what covered says (engine.Config.Covered, which package pipe's
// text sources set).
func PrefixCovered(n int, clock func() time.Time, covered func(pos int) int, f func(lo, hi int), opts ...Option) int {
	engine.ForgetSite(siteKey(f))
	c := configure(opts)
	for p := c.Lookup(); p.Load().Parked < p.Workers() || p.Load().Contended; {
		time.Sleep(100 * time.Microsecond)
	}
	return prefixAgain(n, clock, covered, f, opts)
}

// SetDrawTimed makes draw the draw of which short calls time themselves
// (split.TimedOneIn), until the returned function puts the random one back.
func SetDrawTimed(draw func() uint32) (restore func()) { return engine.SetDrawTimed(draw) }

// Crowd counts k calls in progress on p, until the returned function ends
// them: with k = GOMAXPROCS, a call made meanwhile is one more than the
// processors (sched.Pool.Oversubscribed), and with one less, the one that
// fills them (sched.Pool.Full).
func Crowd(p *Pool, k int) (end func()) {
	p.p.Arrive(k)
	return func() { p.p.Arrive(-k) }
}

// WaitParked returns once every worker of p is parked.
func WaitParked(p *Pool) {
	for p.p.Load().Parked < p.p.Workers() {
		runtime.Gosched()
	}
}

// Contended reports whether p is marked contended (sched.Pool.Load).
func Contended(p *Pool) bool { return p.p.Load().Contended }

// Budget returns the budget of a prefix that meets p now (split.Budget of
// its measured wake-up).
func Budget(p *Pool) time.Duration { return split.Budget(p.p.Load().Wake) }

// PrefixAgain is Prefix keeping what the site learned before. It begins
// once every worker of the call's pool is parked, so that the prefix is cold:
// a new pool's workers search before they first park, which made
// TestPrefixRunsItsPlan fail now and then, and a worker that ran the last
// piece of a call searches once it is done, though it did not while it ran
// it.
func PrefixAgain(n int, clock func() time.Time, f func(lo, hi int), opts ...Option) int {
	return prefixAgain(n, clock, nil, f, opts)
}

func prefixAgain(n int, clock func() time.Time, covered func(pos int) int, f func(lo, hi int), opts []Option) int {
	c := configure(opts)
	for p := c.Lookup(); p.Load().Parked < p.Workers(); {
		runtime.Gosched()
	}
	return engine.ProbePrefix(&c.Config, n, clock, covered, f)
}

// SitePace returns the pace recorded for calls made with f, in nanoseconds
// per 1000 elements, or 0.
func SitePace(f func(lo, hi int)) time.Duration { return engine.SitePace(siteKey(f)).D }

// SiteSlot returns the index of key's record in the table of sites.
func SiteSlot(key uintptr) int { return engine.SiteSlot(key) }

// LearnSite records p for key; SiteKeyPace returns what key's record holds.
func LearnSite(key uintptr, p split.Pace) { engine.LearnSite(key, p, true) }

// LearnSiteHandedOver records p at key's site as measured by a call that
// handed its rest over.
func LearnSiteHandedOver(key uintptr, p split.Pace) { engine.LearnSite(key, p, false) }

// ForgetSite clears the record in key's slot, whichever site wrote it.
func ForgetSite(key uintptr) { engine.ForgetSite(key) }

// SiteKey returns the key of the site of a call given f.
func SiteKey[F any](f F) uintptr { return siteKey(f) }

func SiteKeyPace(key uintptr) split.Pace { return engine.SitePace(key) }

// CallHeapMissing returns the fields of the engine's call state that its
// heap copy does not carry.
func CallHeapMissing() []string { return engine.CallHeapMissing() }
