package par

import (
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/weftgo/weft/split"
)

// A call's timed prefix starts blind: its first chunk is one element, and it
// grows eightfold a chunk, reading the clock after each, which in a call of a
// few microseconds costs more than the rest of the library does. Calls made
// from one place in a program usually have elements of about the same cost,
// so the pace that the last call from there measured sizes the next call's
// first chunk (split.Prefix.Expect). Go has no cheap way to name the caller
// (runtime.Callers costs more than the reads it would save), so a call is
// known by the code of the user's function: two loads, the same for every
// call made with the same function literal or named function. Calls from
// different places with the same function share a record, and unrelated
// functions may collide in the table: either only makes a first chunk
// shorter or longer than it should be, which Expect bounds.

// siteSlots is the number of records; a power of two.
const siteSlots = 64

// The record of a site packs a tag of its key and its pace, picoseconds an
// element, into one word, so that a reader never sees the tag of one site
// with the pace of another.
const (
	paceBits = 40 // up to about 1.1 s an element
	paceMax  = 1<<paceBits - 1
)

// sites holds the records, direct-mapped by key; any goroutine reads and
// writes them.
var sites [siteSlots]atomic.Uint64

// siteKey returns the key of a call's site: the code pointer of f, a
// function value. A func value points to a closure record whose first word
// is the code's address (reflect.Value.Pointer reads it the same way).
func siteKey[F any](f F) uintptr {
	return **(**uintptr)(unsafe.Pointer(&f))
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
	return site{slot: &sites[h>>(64-6)], tag: h<<6>>paceBits | 1}
}

// pace returns the pace last learned at s, or the zero Pace.
func (s site) pace() split.Pace {
	if s.slot == nil {
		return split.Pace{}
	}
	v := s.slot.Load() // a whole record, written by learn on any goroutine
	if v>>paceBits != s.tag {
		return split.Pace{}
	}
	return split.Pace{N: 1000, D: time.Duration(v & paceMax)} // picoseconds an element, as 1000 elements' nanoseconds
}

// learn records pace p at s. A record within an eighth of p is left alone, so
// that callers of one site in a stream do not write its cache line at every
// call.
func (s site) learn(p split.Pace) {
	if s.slot == nil || p.N <= 0 || p.D <= 0 {
		return
	}
	ps := min(uint64(p.D)*1000/uint64(p.N), paceMax)
	ps = max(ps, 1)
	old := s.slot.Load()
	if o := old & paceMax; old>>paceBits == s.tag && o-o/8 <= ps && ps <= o+o/8 {
		return
	}
	s.slot.Store(s.tag<<paceBits | ps) // the whole record in one word: see sites
}
