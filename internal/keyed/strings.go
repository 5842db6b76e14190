package keyed

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"unsafe"
)

// Strings is a Map with string keys and an index in front of it: an
// open-addressed table of the keys the run has met, each with its value's
// pointer, which a key of up to 16 bytes finds by comparing three words (its
// length and two words of its bytes) in the table itself, where Go's map
// hashes the key, matches a group's control bytes and compares it with the
// stored key's bytes, read elsewhere. On W12's rows (413 stations) it took
// ReduceBy from 0.93 to 1.00 of the hand-written program (go run ./bench -w
// W12 -c static -full; bench/RESULTS.md).
//
// The index only points into the map, which stays the whole truth: a key
// not in the index is looked up in the map (one a merge brought in, or one
// the index had no room for), and the index makes no result differ. It
// holds at most maxSlots/4 keys (2,048); a run that meets more turns it off
// and uses the map alone from then on, at the map's cost and a call more.
// Its hash is seeded at random per
// map and a lookup probes at most maxProbes slots, so keys chosen to collide
// cost a bounded number of compares each.
//
// A Strings is used by one goroutine at a time.
type Strings[V any] struct {
	Map Map[string, V]
	// slots is the open-addressed table, a power of two long, held at most
	// a quarter full: at that load a lookup mostly ends at its first slot,
	// and the branches that decide it are predicted. nil when the index is
	// off.
	slots []slot[V]
	held  int
	long  []string // the keys longer than 16 bytes, which slots point to
	seed  [2]uint64
}

// slot is a key of the index and its value's pointer: w0, w1 and n
// identify a key of up to 16 bytes (words); a longer one is also compared
// with long[li].
type slot[V any] struct {
	w0, w1 uint64
	n, li  int32
	p      *V // nil: an empty slot
}

const (
	firstSlots = 64
	maxSlots   = 8192 // 256 KB for 2,048 keys
	maxProbes  = 8
	maxKey     = 1<<31 - 1 // longer keys are not held
)

// NewStrings returns an empty Strings.
func NewStrings[V any]() *Strings[V] {
	return &Strings[V]{Map: Map[string, V]{}, slots: make([]slot[V], firstSlots), seed: [2]uint64{rand.Uint64(), rand.Uint64()}}
}

// words returns two words of k's bytes that, with its length, tell apart
// any two keys of up to 16 bytes: its first and last 8 bytes (overlapping
// under 16), its first and last 4 under 8, and its first, middle and last
// byte under 4.
func words(k string) (w0, w1 uint64) {
	b := unsafe.Slice(unsafe.StringData(k), len(k))
	switch n := len(b); {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
	return 0, 0
}

// slot returns the first slot a key of these words and length probes (a
// multiply folded, as wyhash mixes, seeded per map).
func (s *Strings[V]) slot(w0, w1 uint64, n int) int {
	hi, lo := bits.Mul64(w0^s.seed[0], w1^uint64(n)^s.seed[1])
	return int(hi^lo) & (len(s.slots) - 1)
}

// find returns the value of k in the index, or nil, k's words and the
// first empty slot its probes met (-1 if none). The index must be on.
func (s *Strings[V]) find(k string) (p *V, w0, w1 uint64, free int) {
	w0, w1 = words(k)
	mask := len(s.slots) - 1
	i := s.slot(w0, w1, len(k))
	for range maxProbes {
		sl := &s.slots[i]
		if sl.p == nil {
			return nil, w0, w1, i
		}
		if sl.w0 == w0 && sl.w1 == w1 && int(sl.n) == len(k) && (len(k) <= 16 || s.long[sl.li] == k) {
			return sl.p, w0, w1, -1
		}
		i = (i + 1) & mask
	}
	return nil, w0, w1, -1
}

// hold puts k's value p into the empty slot free that find returned for
// k, and grows the index when a quarter full, or turns it off if it has
// maxSlots slots. k must stay unchanged if it is longer than 16 bytes.
func (s *Strings[V]) hold(k string, w0, w1 uint64, p *V, free int) {
	if free < 0 || len(k) > maxKey {
		return // the map alone knows k
	}
	sl := slot[V]{w0: w0, w1: w1, n: int32(len(k)), p: p}
	if len(k) > 16 {
		sl.li = int32(len(s.long))
		s.long = append(s.long, k)
	}
	s.slots[free] = sl
	if s.held++; 4*s.held < len(s.slots) {
		return
	}
	if len(s.slots) >= maxSlots {
		s.slots, s.held, s.long = nil, 0, nil
		return
	}
	old := s.slots
	s.slots = make([]slot[V], 2*len(old))
	mask := len(s.slots) - 1
	for _, o := range old {
		if o.p == nil {
			continue
		}
		i := s.slot(o.w0, o.w1, int(o.n))
		for s.slots[i].p != nil {
			i = (i + 1) & mask // past maxProbes, find misses it and the map finds it
		}
		s.slots[i] = o
	}
}

// Add is Map.Add through the index.
func (s *Strings[V]) Add(k string, v V, op func(V, V) V) {
	if s.slots == nil {
		s.Map.Add(k, v, op)
		return
	}
	p, w0, w1, free := s.find(k)
	if p != nil {
		*p = op(*p, v)
		return
	}
	if p = s.Map[k]; p != nil {
		*p = op(*p, v)
	} else {
		p = new(V)
		*p = v
		s.Map[k] = p
	}
	s.hold(k, w0, w1, p, free)
}

// At is Map.At through the index.
func (s *Strings[V]) At(k string, init func() V) *V {
	if s.slots == nil {
		return s.Map.At(k, init)
	}
	p, w0, w1, free := s.find(k)
	if p != nil {
		return p
	}
	p = s.Map.At(k, init)
	s.hold(k, w0, w1, p, free)
	return p
}

// AddBytes is AddBytes through the index: k may be reused by the caller,
// and a new key is copied once, as AddBytes copies it.
func (s *Strings[V]) AddBytes(k []byte, v V, op func(V, V) V) {
	if s.slots == nil {
		AddBytes(s.Map, k, v, op)
		return
	}
	view := unsafe.String(unsafe.SliceData(k), len(k)) // only looked up, never kept
	p, w0, w1, free := s.find(view)
	if p != nil {
		*p = op(*p, v)
		return
	}
	key := view
	if p = s.Map[view]; p != nil {
		*p = op(*p, v)
		if len(k) > 16 && free >= 0 {
			key = string(k) // the index keeps it
		}
	} else {
		key = string(k)
		p = new(V)
		*p = v
		s.Map[key] = p
	}
	s.hold(key, w0, w1, p, free)
}

// AtBytes is AtBytes through the index (see AddBytes). It repeats
// AddBytes's lookup rather than share a helper with it: one more call a
// line cost ReduceBytesBy and FoldBytesBy 4-5% (go run ./bench -w
// W12,W12f, builds alternated).
func (s *Strings[V]) AtBytes(k []byte, init func() V) *V {
	if s.slots == nil {
		return AtBytes(s.Map, k, init)
	}
	view := unsafe.String(unsafe.SliceData(k), len(k)) // only looked up, never kept
	p, w0, w1, free := s.find(view)
	if p != nil {
		return p
	}
	key := view
	if p = s.Map[view]; p != nil {
		if len(k) > 16 && free >= 0 {
			key = string(k) // the index keeps it
		}
	} else {
		key = string(k)
		p = new(V)
		*p = init()
		s.Map[key] = p
	}
	s.hold(key, w0, w1, p, free)
	return p
}

// MergeStrings is MergeInto for the maps of two Strings, a's run before
// b's: a's index stays right, since MergeInto keeps the pointers of a's
// values, and b's is dropped.
func MergeStrings[V any](a, b *Strings[V], merge func(acc, other *V)) *Strings[V] {
	a.Map = MergeInto(a.Map, b.Map, merge)
	return a
}
