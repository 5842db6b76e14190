package split

import "time"

// Calls made from one place in a program usually have elements of about the
// same cost, so what the last call from there measured sizes the next one's
// prefix (Prefix.Expect) and tells a short call so before it reads the
// clock. Memory is that record; the engine keeps one per site of a call (a
// small table keyed by the user's function), and these rules decide what it
// predicts and how a measurement changes it.

// Memory is what the calls of one site measured of their elements' cost.
type Memory struct {
	// PS is the pace, picoseconds an element (0: nothing recorded).
	PS uint64
	// Unsettled: the last two measurements disagreed, and the record
	// predicts nothing until a call confirms its pace.
	Unsettled bool
	// Suspect: a settled record that one call measured far dearer; it still
	// predicts, and the next measurement settles or unsettles it.
	Suspect bool
}

// MaxPS is the dearest pace a Memory holds, about 0.27 s an element, so that
// the engine packs it in 38 bits.
const MaxPS = 1<<38 - 1

// Pace returns the pace m predicts, or the zero Pace if it predicts nothing.
func (m Memory) Pace() Pace {
	if m.PS == 0 || m.Unsettled {
		return Pace{}
	}
	return Pace{N: 1000, D: time.Duration(m.PS)} // picoseconds an element, as 1000 elements' nanoseconds
}

// Short reports whether a call of n elements takes shortCall of PrefixBudget
// (10.8 µs) or less at the
// pace m predicts: the call that Prefix.Expect plans as one chunk, told with
// a multiplication where the plan takes four divisions and a Prefix to fill
// (ForRange over 100 cheap elements: 205.8 ns a call with the plan, 149.8
// with this, the loop 62: go test ./par -run '^$' -bench 'SmallCall$/n=100',
// 10 alternated runs, benchstat).
func (m Memory) Short(n int) bool {
	return m.PS != 0 && !m.Unsettled && shortAt(n, m.PS, 0)
}

// Learn returns the record of a site that held old after a call measured p
// (p.N elements in p.D), and whether it changed: a call that keeps a
// settled record within an eighth does not write it, so that callers of one
// site in a stream do not write its cache line at every call.
//
// The new pace is settled if old held nothing, if it is within twofold of
// old's, or if the measuring call ended in its prefix (ended) and was short
// at both paces, which then plan it alike: calls of about 100 ns, whose two
// clock reads weigh on what they measure, measured paces twofold apart
// often enough that each unsettled record sent the next call blind (ForRange
// over 100 elements of out[i] = 2*i: 138 ns a call without this exception,
// 107 ns with it; go test ./par -run '^$' -bench '^SmallCall$'). Otherwise
// it unsettles the record, except that a pace more than twice as dear as a
// settled one only marks it Suspect the first time: a call that the
// collector or the operating system stopped measures the same, and sending
// the next calls blind and then to the pool at a pace far too dear cut them
// into many pieces (Map of x*2 over 1,000 ints while the collector runs, go
// test ./par -run '^$' -bench SmallMap: 7 to 9 fork halves a call without
// this rule and SplitPace, 0.8 to 2.7 with them).
func Learn(old Memory, p Pace, ended bool) (Memory, bool) {
	if p.N <= 0 || p.D <= 0 {
		return old, false
	}
	ps := max(min(uint64(p.D)*1000/uint64(p.N), MaxPS), 1)
	m := Memory{PS: ps}
	if old.PS == 0 {
		return m, true
	}
	o := old.PS
	settled := !old.Unsettled && !old.Suspect
	if settled && o-o/8 <= ps && ps <= o+o/8 {
		return old, false
	}
	if (ps > 2*o || o > 2*ps) && !(ended && shortAt(p.N, ps, o)) {
		if settled && ps > 2*o {
			old.Suspect = true
			return old, true
		}
		m.Unsettled = true
	}
	return m, true
}

// shortPS is shortCall(PrefixBudget) in picoseconds, the unit of a
// Memory's pace: the pool is not looked up before a call is told short, so
// its wake-up is not known (TestShortPS checks the arithmetic).
const shortPS = uint64(PrefixBudget/4/8*5/4+2*(PrefixBudget/4)) * 1000

// shortAt reports whether n elements take shortCall(PrefixBudget) or less at both paces a
// and b, in picoseconds an element.
func shortAt(n int, a, b uint64) bool {
	return uint64(n) <= shortPS && uint64(n)*max(a, b) <= shortPS
}

// SplitPace returns the pace by which the pool cuts the rest of a call whose
// prefix handed it over (ForRange's prefix argument): measured, the pace the
// prefix measured, or recorded, its site's, if that is cheaper. A prefix
// that the collector or the operating system stopped measures elements
// dearer than they are, and the pool then cut its rest into pieces too
// short by that pace; pieces cut too long are halved while they run, as
// soon as a participant is hungry.
func SplitPace(measured, recorded Pace) Pace {
	if recorded.D > 0 && int64(recorded.D)*int64(measured.N) < int64(measured.D)*int64(recorded.N) {
		return recorded
	}
	return measured
}

// TimedOneIn is how many of the calls that a site's Memory says are short
// time one of them, drawn at random, so that the site still learns when its
// elements change; the others run as the plain loop, with no clock read. The
// two clock reads take some 70 ns (go test ./par -run '^$' -bench Clock), 2%
// of a call of W2's body over 100 elements (3.5 µs); a site whose elements
// become dearer learns it within a few calls, each of which runs its one
// chunk alone, as a timed call would (firstLook's bound).
const TimedOneIn = 8
