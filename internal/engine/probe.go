package engine

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"time"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// Hooks for the tests of package par and par/pipe, which drive the
// engine's rules on a fake clock (internal/fakeclock) and look at what they
// decided. Nothing else calls them.

// ProbeLeaf runs f over each of leaves, one after the other, as leaves of
// one call on a seat of p, reading time from clock: pieces that their
// splitter will not cut, which may give part of themselves away while they
// run. step is the call's step (split.StepOf), or 0 for a splitter that
// knows no call (split.New: a step a split.Steps-th of each leaf). fixed
// makes them leaves of a Tree call; covered is the call's Work.Covered. With
// hungry, it starts once some participant of p is hungry (a fresh pool's
// workers search, then park).
func ProbeLeaf(p *sched.Pool, leaves [][2]int, step int, fixed, hungry bool, clock func() time.Time, covered func(pos int) int, f func(lo, hi int)) {
	p.Run(func(w *sched.Worker) {
		for hungry && !w.Hungry() {
			runtime.Gosched()
		}
		c := &call[struct{}]{w: split.Work[struct{}]{Tree: fixed, Covered: covered,
			Fold: func(_ struct{}, lo, hi int) struct{} { f(lo, hi); return struct{}{} }}}
		var r run[struct{}]
		for _, l := range leaves {
			sp := split.New(1, 1, 0)
			if step > 0 {
				sp = split.ForRange(1, split.Steps*step, 1, 0, split.Pace{}, 0)
			}
			sp.TrySplit(l[1]-l[0], false) // spends the budget of one cut
			if fixed {
				c.descend(w, l[0], l[1], sp.Step(l[1]-l[0]), sp)
				continue
			}
			r = c.leaf(w, l[0], l[1], sp, r, clock)
		}
	})
}

// ProbePrefix runs the timed prefix of a call over [0, n) alone, reading
// time from clock, and returns where it stopped.
func ProbePrefix(cfg *Config, n int, clock func() time.Time, covered func(pos int) int, f func(lo, hi int)) int {
	c := call[struct{}]{w: split.Work[struct{}]{Covered: covered, Key: SiteKey(f),
		Fold: func(_ struct{}, lo, hi int) struct{} { f(lo, hi); return struct{}{} }}}
	_, hi, _ := prefix(cfg, n, &c, clock)
	return hi
}

// ProbeParallel runs f over [0, n) on cfg's pool as a call does after a
// timed prefix that measured pace.
func ProbeParallel(cfg *Config, n int, pace split.Pace, f func(lo, hi int)) {
	c := &call[struct{}]{w: split.Work[struct{}]{
		Fold: func(_ struct{}, lo, hi int) struct{} { f(lo, hi); return struct{}{} }}}
	parallel(cfg, 0, n, c, pace, run[struct{}]{})
}

// SetDrawTimed makes draw the draw of which short calls time themselves
// (split.TimedOneIn), until the returned function puts the random one back.
func SetDrawTimed(draw func() uint32) (restore func()) {
	drawTimed = draw
	return func() { drawTimed = rand.Uint32 }
}

// SitePace returns what key's record says of its pace, or the zero Pace.
func SitePace(key uintptr) split.Pace { return siteOf(key).pace() }

// SiteSlot returns the index of key's record in the table of sites.
func SiteSlot(key uintptr) int {
	s := siteOf(key)
	for i := range sites {
		if s.slot == &sites[i] {
			return i
		}
	}
	return -1
}

// LearnSite records p at key's site, as measured by a call that ended in
// its prefix (ended) or handed its rest over.
func LearnSite(key uintptr, p split.Pace, ended bool) { siteOf(key).learn(p, ended) }

// ForgetSite clears the record in key's slot, whichever site wrote it.
func ForgetSite(key uintptr) { siteOf(key).slot.Store(0) }

// CallHeapMissing returns the fields of a call that call.heap does not
// carry to its copy: it makes a call none of whose fields is zero, copies
// it, and names the copy's fields that are zero. A field added to call that
// this function does not fill is named too, as having no value here. The
// spares are made after the copy, by parallel.
func CallHeapMissing() []string {
	c := &call[int]{w: split.Work[int]{Name: "x"}, obs: &callObs{}, spare: &spares[int]{}, short: true}
	c.stop.Store(true)
	c.failed.Store(true)
	var missing []string
	for _, f := range zeroFields(c) {
		missing = append(missing, f+" (CallHeapMissing gives it no value)")
	}
	if missing != nil {
		return missing
	}
	for _, f := range zeroFields(c.heap()) {
		if f != "spare" {
			missing = append(missing, f)
		}
	}
	return missing
}

// zeroFields names the fields of *p that hold their zero value (reflect
// reads unexported fields, though it cannot set them).
func zeroFields[T any](p *T) []string {
	v := reflect.ValueOf(p).Elem()
	var zero []string
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			zero = append(zero, v.Type().Field(i).Name)
		}
	}
	return zero
}
