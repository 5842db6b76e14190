package par

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"time"
	"unsafe"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// RunLeaf runs f over [0, n) as one leaf of the bridge on a seat of p: a
// piece that its splitter will not cut, which may give part of itself away
// while it runs. fixed makes it a leaf of a fixed tree (descend). It starts
// the leaf once some participant of p is hungry (a fresh pool's workers
// search, then park).
func RunLeaf(p *Pool, n int, fixed bool, f func(i int)) {
	p.p.Run(func(w *sched.Worker) {
		for !w.Hungry() {
			runtime.Gosched()
		}
		sp := split.New(1, 1, 0)
		sp.TrySplit(n, false) // spends the budget of one cut
		leaf(w, 0, n, sp, &body[struct{}]{fixedTree: fixed, each: func(lo, hi int) {
			for i := lo; i < hi; i++ {
				f(i)
			}
		}}, time.Now)
	})
}

// RunLeafHungry is RunLeaf for a leaf of range body f, reading time from
// clock.
func RunLeafHungry(p *Pool, n int, clock func() time.Time, f func(lo, hi int)) {
	p.p.Run(func(w *sched.Worker) {
		for !w.Hungry() {
			runtime.Gosched()
		}
		sp := split.New(1, 1, 0)
		sp.TrySplit(n, false) // spends the budget of one cut
		leaf(w, 0, n, sp, &body[struct{}]{each: f}, clock)
	})
}

// RunLeavesHungry is RunLeavesClocked begun once some participant of p is
// hungry (sched.Worker.Hungry): a parked worker is.
func RunLeavesHungry(p *Pool, leaves [][2]int, clock func() time.Time, f func(lo, hi int)) {
	p.p.Run(func(w *sched.Worker) {
		for !w.Hungry() {
			runtime.Gosched()
		}
		runLeaves(w, leaves, clock, f)
	})
}

// RunLeafClocked runs f over [0, n) as one leaf of the bridge on a seat of p,
// reading time from clock, without waiting for hunger: on a pool none of
// whose participants is hungry it only steps.
func RunLeafClocked(p *Pool, n int, clock func() time.Time, f func(lo, hi int)) {
	RunLeavesClocked(p, [][2]int{{0, n}}, clock, f)
}

// RunLeavesClocked is RunLeafClocked for several leaves [lo, hi) of one
// range, run one after the other on one seat.
func RunLeavesClocked(p *Pool, leaves [][2]int, clock func() time.Time, f func(lo, hi int)) {
	p.p.Run(func(w *sched.Worker) { runLeaves(w, leaves, clock, f) })
}

// runLeaves runs leaves of one range of body f on w, one after the other.
func runLeaves(w *sched.Worker, leaves [][2]int, clock func() time.Time, f func(lo, hi int)) {
	b := &body[struct{}]{each: f}
	for _, l := range leaves {
		sp := split.New(1, 1, 0)
		sp.TrySplit(l[1]-l[0], false) // spends the budget of one cut
		leaf(w, l[0], l[1], sp, b, clock)
	}
}

// Prefix runs the timed prefix of an adaptive call over [0, n) alone,
// reading time from clock, and returns where it stopped. The call's site
// (f's code) starts with no record, and the call's pool is not marked
// contended: a mark that its workers set while other test binaries held the
// processors (go test runs packages side by side) keeps the whole range on
// the caller, as a test of its own specifies (sched.Pool.Contended); the
// mark lapses within 16 ms.
func Prefix(n int, clock func() time.Time, f func(lo, hi int), opts ...Option) int {
	siteOf(siteKey(f)).slot.Store(0)
	c := configure(opts)
	for p := c.lookup(); p.Sleeping() < p.Workers() || p.Contended(); {
		time.Sleep(100 * time.Microsecond)
	}
	return PrefixAgain(n, clock, f, opts...)
}

// SetDrawTimed makes draw the draw of which short calls time themselves
// (timedOneIn), until the returned function puts the random one back.
func SetDrawTimed(draw func() uint32) (restore func()) {
	drawTimed = draw
	return func() { drawTimed = rand.Uint32 }
}

// Crowd counts k calls in progress on p, until the returned function ends
// them: with k = GOMAXPROCS, a call made meanwhile is one more than the
// processors (sched.Pool.Oversubscribed), and with one less, the one that
// fills them (sched.Pool.Full).
func Crowd(p *Pool, k int) (end func()) {
	for range k {
		p.p.Arrive()
	}
	return func() {
		for range k {
			p.p.Depart()
		}
	}
}

// WaitParked returns once every worker of p is parked.
func WaitParked(p *Pool) {
	for p.p.Sleeping() < p.p.Workers() {
		runtime.Gosched()
	}
}

// Contended reports whether p is marked contended (sched.Pool.Contended).
func Contended(p *Pool) bool { return p.p.Contended() }

// PrefixAgain is Prefix keeping what the site learned before. It begins
// once every worker of the call's pool is parked, so that the prefix is cold:
// a new pool's workers search before they first park, which made
// TestPrefixRunsItsPlan fail now and then, and a worker that ran the last
// piece of a call searches once it is done, though it did not while it ran
// it.
func PrefixAgain(n int, clock func() time.Time, f func(lo, hi int), opts ...Option) int {
	c := configure(opts)
	for p := c.lookup(); p.Sleeping() < p.Workers(); {
		runtime.Gosched()
	}
	_, hi, _ := prefix(&c, n, &body[struct{}]{each: f, covered: c.covered}, clock) // as run sets it
	return hi
}

// RunLeafCovered is RunLeafClocked for a body whose work done covers, from a
// position, what covered says (see internal/cover).
func RunLeafCovered(p *Pool, n int, clock func() time.Time, covered func(pos int) int, f func(lo, hi int)) {
	p.p.Run(func(w *sched.Worker) {
		sp := split.New(1, 1, 0)
		sp.TrySplit(n, false) // spends the budget of one cut
		leaf(w, 0, n, sp, &body[struct{}]{each: f, covered: covered}, clock)
	})
}

// SitePace returns the pace recorded for calls made with f (see site.go),
// in nanoseconds per 1000 elements, or 0.
func SitePace(f func(lo, hi int)) time.Duration {
	p := siteOf(siteKey(f)).pace()
	return p.D
}

// SiteSlot returns the index of key's record in the table of sites.
func SiteSlot(key uintptr) int {
	s := siteOf(key)
	return int(uintptr(unsafe.Pointer(s.slot))-uintptr(unsafe.Pointer(&sites[0]))) / int(unsafe.Sizeof(sites[0]))
}

// LearnSite records p for key; SiteKeyPace returns what key's record holds.
func LearnSite(key uintptr, p split.Pace) { siteOf(key).learn(p, true) }

// LearnSiteHandedOver records p at key's site as measured by a call that
// handed its rest over.
func LearnSiteHandedOver(key uintptr, p split.Pace) { siteOf(key).learn(p, false) }

// ForgetSite clears the record in key's slot, whichever site wrote it.
func ForgetSite(key uintptr) { siteOf(key).slot.Store(0) }

// SiteKey returns the key of the site of a call given f.
func SiteKey[F any](f F) uintptr { return siteKey(f) }

func SiteKeyPace(key uintptr) split.Pace { return siteOf(key).pace() }

// BodyHeapMissing returns the fields of a body that body.heap does not
// carry to its copy: it fills every field of a body with a value that is
// not its zero, and names the copy's fields that are zero.
func BodyHeapMissing() []string {
	b := &body[int]{}
	v := reflect.ValueOf(b).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem() // unexported fields too
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int:
			f.SetInt(1)
		case reflect.Uintptr:
			f.SetUint(1)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Func:
			f.Set(reflect.MakeFunc(f.Type(), func(in []reflect.Value) []reflect.Value {
				out := make([]reflect.Value, f.Type().NumOut())
				for k := range out {
					out[k] = reflect.Zero(f.Type().Out(k))
				}
				return out
			}))
		case reflect.Struct: // the flags, atomic.Bool
			f.Addr().Interface().(interface{ Store(bool) }).Store(true)
		default:
			panic("BodyHeapMissing: no value for the field " + v.Type().Field(i).Name)
		}
	}
	h := reflect.ValueOf(b.heap()).Elem()
	var missing []string
	for i := range h.NumField() {
		if h.Field(i).IsZero() {
			missing = append(missing, h.Type().Field(i).Name)
		}
	}
	return missing
}

// SplitPace is splitPace.
func SplitPace(measured, recorded split.Pace) split.Pace { return splitPace(measured, recorded) }
