package engine

import (
	"reflect"
	"sync/atomic"

	"github.com/weftgo/weft/split"
)

// The engine keeps a split.Memory per site of a call, known by the code of
// the user's function (Reduce's op, the only function it takes): Go has no
// cheap way to name the caller (runtime.Callers costs more than the clock
// reads the record saves), and calls made with one function literal or
// named function usually have elements of about the same cost. Calls from
// different places with the same function share a record (so do pipelines
// that end in the same terminal of par/pipe, whose closures are the
// library's), and unrelated functions may collide in the table: either
// only makes a first chunk shorter or longer than it should be, which
// split.Prefix.Expect bounds.

// siteSlots is the number of records, 1<<siteBits.
const (
	siteBits  = 6
	siteSlots = 1 << siteBits
)

// The record of a site packs a tag of its key, the Memory's two flags and
// its pace into one word, so that a reader never sees the tag of one site
// with the pace of another.
const (
	paceBits  = 38 // split.MaxPS
	unsettled = 1 << paceBits
	suspect   = 1 << (paceBits + 1)
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

// memory returns the record of s, or the zero Memory if s has none.
func (s site) memory() split.Memory {
	if s.slot == nil {
		return split.Memory{}
	}
	v := s.slot.Load() // a whole record, written by learn on any goroutine
	if v>>tagShift != s.tag {
		return split.Memory{}
	}
	return split.Memory{PS: v & split.MaxPS, Unsettled: v&unsettled != 0, Suspect: v&suspect != 0}
}

// pace returns the pace that s's record predicts, or the zero Pace.
func (s site) pace() split.Pace { return s.memory().Pace() }

// short reports whether s's record says that a call of n elements is short
// (split.Memory.Short).
func (s site) short(n int) bool { return s.memory().Short(n) }

// learn records at s what a call measured, as split.Learn says, writing
// the slot only when the record changes.
func (s site) learn(p split.Pace, ended bool) {
	if s.slot == nil {
		return
	}
	m, changed := split.Learn(s.memory(), p, ended)
	if !changed {
		return
	}
	v := s.tag<<tagShift | m.PS
	if m.Unsettled {
		v |= unsettled
	}
	if m.Suspect {
		v |= suspect
	}
	s.slot.Store(v) // the whole record in one word: see sites
}
