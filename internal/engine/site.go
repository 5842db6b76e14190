package engine

import (
	"reflect"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/split"
)

// A call's timed prefix starts blind: its first chunk is one element, and it
// grows eightfold a chunk, reading the clock after each, which in a call of a
// few microseconds costs more than the rest of the library does. Calls made
// from one place in a program usually have elements of about the same cost,
// so the pace that the last call from there measured sizes the next call's
// first chunk (split.Prefix.Expect). Go has no cheap way to name the caller
// (runtime.Callers costs more than the reads it would save), so a call is
// known by the code of the user's function (Reduce's op, the only function
// it takes), the same for every call made with the same function
// literal or named function. Calls from
// different places with the same function share a record (so do pipelines
// that end in the same terminal of par/pipe, whose closures are the
// library's), and unrelated functions may collide in the table: either only
// makes a first chunk shorter or longer than it should be, which Expect
// bounds. A pace that differs from the recorded one by more than twofold
// unsettles the record (a dearer one only the second time in a row), unless
// the call that measured it ended in its prefix and was short at both paces
// (learn), and an unsettled record predicts nothing until a call
// confirms its pace: calls that alternate between cheap and dear
// elements under one key run blind, as without a record, and a site whose
// elements became dearer pays the bound once.

// siteSlots is the number of records, 1<<siteBits.
const (
	siteBits  = 6
	siteSlots = 1 << siteBits
)

// The record of a site packs a tag of its key, the unsettled flag and its
// pace, picoseconds an element, into one word, so that a reader never sees
// the tag of one site with the pace of another.
const (
	paceBits  = 38 // up to about 0.27 s an element
	paceMax   = 1<<paceBits - 1
	unsettled = 1 << paceBits
	suspect   = 1 << (paceBits + 1) // a settled record that one call measured far dearer: see learn
	tagShift  = paceBits + 2
)

// sites holds the records, direct-mapped by key; any goroutine reads and
// writes them.
var sites [siteSlots]atomic.Uint64

// SiteKey returns the key of a call's site: the code pointer of f, a
// function value, as reflect.Value.Pointer gives it (the same for every
// closure of one function literal).
func SiteKey[F any](f F) uintptr {
	return reflect.ValueOf(f).Pointer()
}

// site is the slot of a key and the tag that marks the key's record in it.
type site struct {
	slot *atomic.Uint64
	tag  uint64
}

// siteOf returns the site of key (0: none, and the site is inert).
func siteOf(key uintptr) site {
	if key == 0 {
		return site{}
	}
	h := uint64(key) * 0x9E3779B97F4A7C15 // Fibonacci hashing: the high bits mix every bit of the address
	return site{slot: &sites[h>>(64-siteBits)], tag: h<<siteBits>>tagShift | 1}
}

// pace returns the pace last learned at s, or the zero Pace.
func (s site) pace() split.Pace {
	if s.slot == nil {
		return split.Pace{}
	}
	v := s.slot.Load() // a whole record, written by learn on any goroutine
	if v>>tagShift != s.tag || v&unsettled != 0 {
		return split.Pace{}
	}
	return split.Pace{N: 1000, D: time.Duration(v & paceMax)} // picoseconds an element, as 1000 elements' nanoseconds
}

// short reports whether a call of n elements takes split.ShortCall or less
// at the pace of s's settled record: the call that split.Prefix.Expect
// plans as one chunk, told with a multiplication where the plan takes four
// divisions and a Prefix to fill (ForRange over 100 cheap elements: 205.8 ns
// a call with the plan, 149.8 with this, the loop 62: go test ./par -run
// '^$' -bench 'SmallCall$/n=100', 10 alternated runs, benchstat).
func (s site) short(n int) bool {
	if s.slot == nil {
		return false
	}
	v := s.slot.Load() // a whole record, written by learn on any goroutine
	if v>>tagShift != s.tag || v&unsettled != 0 {
		return false
	}
	return shortAt(n, v&paceMax, 0)
}

// learn records pace p, measured over p.N elements in p.D, at s: settled if
// s had no record, if its record is within twofold of p, or if the
// measuring call ended in its prefix (ended) and was short
// (split.ShortCall) at both paces, which then plan it alike; unsettled
// otherwise. Calls of about 100 ns, whose two clock reads (some 35 ns each)
// weigh on what they measure, measured paces twofold apart often enough
// that each unsettled record made the next call run blind (ForRange over 100
// elements of out[i] = 2*i, go test ./par -run '^$' -bench '^SmallCall$':
// 138 ns a call without this exception, 107 ns with it). A pace more than
// twice as dear as a settled record's, which would unsettle it, only marks
// it suspect the first time, its pace kept: a call that the collector or the
// operating system stopped for a while measures the same, and one stalled
// call that unsettled the record sent the next calls blind, and their
// chunks of one element, stalled in turn, to the pool at a pace far too
// dear, cut into many pieces (Map of x*2 over 1,000 ints while the
// collector runs, go test ./par -run '^$' -bench SmallMap: 7 to 9 fork
// halves a call before this rule and splitPace, 0.8 to 2.7 with them). The
// next pace measured settles the record again, or, if it too is dear,
// unsettles it. A settled record within an eighth of p is left alone, so
// that callers of one site in a stream do not write its cache line at every
// call.
func (s site) learn(p split.Pace, ended bool) {
	if s.slot == nil || p.N <= 0 || p.D <= 0 {
		return
	}
	ps := min(uint64(p.D)*1000/uint64(p.N), paceMax)
	ps = max(ps, 1)
	v := ps
	if old := s.slot.Load(); old>>tagShift == s.tag {
		o := old & paceMax
		if old&(unsettled|suspect) == 0 && o-o/8 <= ps && ps <= o+o/8 {
			return
		}
		if (ps > 2*o || o > 2*ps) && !(ended && shortAt(p.N, ps, o)) {
			if old&(unsettled|suspect) == 0 && ps > 2*o {
				s.slot.Store(old | suspect)
				return
			}
			v |= unsettled
		}
	}
	s.slot.Store(s.tag<<tagShift | v) // the whole record in one word: see sites
}

// shortPs is split.ShortCall in picoseconds, the unit of a record's pace.
const shortPs = uint64(split.ShortCall) * 1000

// shortAt reports whether n elements take split.ShortCall or less at both
// paces a and b, in picoseconds an element.
func shortAt(n int, a, b uint64) bool {
	return uint64(n) <= shortPs && uint64(n)*max(a, b) <= shortPs
}
