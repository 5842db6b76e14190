// Package gather collects what the pieces of one parallel call keep, in
// range order, for par's collecting functions and pipe's Collect.
package gather

import "sync"

// What a call collects (par's Filter, FilterIndex, Positions, FlatMap and
// Partition, pipe's Collect): each piece of the range appends what it keeps
// to a slice, and the slices are joined in range order. A participant runs
// most pieces one after the other, each starting where the one before ended;
// Tails hands the slice on from one to the next, so that they append to the
// same array, and Chunks joins two slices that lie next to each other in one
// array without a copy or a node. Before, every piece, and every step of a
// running one, began a slice of its own: W5 of `go run ./bench -full` made
// 23,000 allocations a call where blocks from a counter made 1,300.

// Chunks is an ordered list of slices, joined in O(1). The first slice is
// held in the value itself, so a list of one slice costs no allocation.
type Chunks[E any] struct {
	first      []E       // the first slice
	head, tail *chunk[E] // the slices after first, if any
	n          int       // the elements in all
}

type chunk[E any] struct {
	items []E
	next  *chunk[E]
}

// One is the list of items alone.
func One[E any](items []E) Chunks[E] {
	return Chunks[E]{first: items, n: len(items)}
}

// Push appends e to the last slice of l. Not for a list of slices from
// Tails, whose arrays hold later pieces' elements past their ends.
func (l *Chunks[E]) Push(e E) {
	if l.tail != nil {
		l.tail.items = append(l.tail.items, e)
	} else {
		l.first = append(l.first, e)
	}
	l.n++
}

// Last returns the last slice of l, for a run to append to; SetLast puts
// it back.
func (l *Chunks[E]) Last() []E {
	if l.tail != nil {
		return l.tail.items
	}
	return l.first
}

// SetLast replaces the last slice of l by items: what Last returned, with
// elements appended.
func (l *Chunks[E]) SetLast(items []E) {
	if l.tail != nil {
		l.n += len(items) - len(l.tail.items)
		l.tail.items = items
		return
	}
	l.n += len(items) - len(l.first)
	l.first = items
}

// Room returns an empty slice for a run's next step to append to and then
// Join as One: the rest of the last slice's array, adjoining it, if that
// rest is not too small a part of the array, else a new array twice the
// last slice's length (see Tails.Take, which sizes arrays the same way). A
// step that appends to what it is handed grows the run as append grows a
// slice, in a few arrays; one that returns an array of its own (a FlatMap
// callback may) is handed arrays the size of what it made, never more.
func (l *Chunks[E]) Room() []E {
	last := l.Last()
	if rest := last[len(last):]; cap(rest) > 0 && cap(rest) > (len(last)+cap(rest))/8 {
		return rest
	}
	return make([]E, 0, max(minTail, 2*len(last)))
}

// Add appends items to l as Join(l, One(items)) does, for a slice that Room
// handed out and a step appended to; an empty one that has an array of its
// own becomes the last slice all the same, so that its room serves the next
// step instead of a new array.
func (l *Chunks[E]) Add(items []E) {
	if len(items) > 0 || cap(items) == 0 {
		*l = Join(*l, One(items))
		return
	}
	last := l.Last()
	if cap(last) > len(last) && &last[:len(last)+1][len(last)] == &items[:1][0] {
		return // the rest of last's array, untouched
	}
	c := &chunk[E]{items: items}
	if l.tail == nil {
		l.head = c
	} else {
		l.tail.next = c
	}
	l.tail = c
}

// adjoins reports whether b begins where a ends, in a's array, so that a
// extended by len(b) elements is a followed by b.
func adjoins[E any](a, b []E) bool {
	return len(b) > 0 && cap(a)-len(a) >= len(b) && &a[:len(a)+1][len(a)] == &b[0]
}

// Join joins a and b, a first. It takes both: neither may be used
// after.
func Join[E any](a, b Chunks[E]) Chunks[E] {
	if a.n == 0 {
		return b
	}
	if b.n == 0 {
		return a
	}
	last := &a.first
	if a.tail != nil {
		last = &a.tail.items
	}
	if adjoins(*last, b.first) {
		*last = (*last)[:len(*last)+len(b.first)]
	} else {
		c := &chunk[E]{items: b.first}
		if a.tail == nil {
			a.head = c
		} else {
			a.tail.next = c
		}
		a.tail = c
	}
	if b.head != nil {
		if a.tail == nil {
			a.head = b.head
		} else {
			a.tail.next = b.head
		}
		a.tail = b.tail
	}
	a.n += b.n
	return a
}

// JoinMaps joins the lists of two adjacent pieces' maps, a before b, by
// moving the entries of the smaller map into the larger one, and returns
// that one; a key of both gets a's elements before b's. It takes both maps.
func JoinMaps[K comparable, E any](a, b map[K]*Chunks[E]) map[K]*Chunks[E] {
	if len(a) >= len(b) {
		for k, gb := range b {
			if ga := a[k]; ga != nil {
				*ga = Join(*ga, *gb)
			} else {
				a[k] = gb
			}
		}
		return a
	}
	for k, ga := range a {
		if gb := b[k]; gb != nil {
			*gb = Join(*ga, *gb)
		} else {
			b[k] = ga
		}
	}
	return b
}

// Flatten returns the items in order: the only slice if there is one, else a
// copy of them all.
func (l Chunks[E]) Flatten() []E {
	if l.n == 0 {
		return []E{}
	}
	if l.head == nil {
		return l.first
	}
	out := make([]E, 0, l.n)
	out = append(out, l.first...)
	for c := l.head; c != nil; c = c.next {
		out = append(out, c.items...)
	}
	return out
}

// Tails hands the slice that a piece of a call appended to on to the piece
// that starts where it ended. Any goroutine.
type Tails[E any] struct {
	mu sync.Mutex
	at map[int]tail[E]
}

// tail is a slice left at a position: the piece's own elements, and how many
// elements of the chain of pieces that handed the array on fill it up to the
// end of them.
type tail[E any] struct {
	items  []E
	filled int
}

// Lease is what Take handed out, for Leave to tell whether the piece appended
// to it or returned an array of its own.
type Lease[E any] struct {
	handed []E // empty, with the capacity handed out
	filled int // the chain's elements in handed's array before it
}

// minTail is the capacity of a slice begun where no tail was left.
const minTail = 8

// Take returns the slice for the piece that starts at lo to append to: empty,
// and either the rest of the array that the piece ending at lo left, adjoining
// its elements, or a new array. Pass the lease to Leave.
//
// A new array holds twice what the chain filled of the one before, so a chain
// that appends to what it is handed grows as append grows a slice, in a few
// arrays; and one whose pieces return arrays of their own (a FlatMap callback
// may) is handed arrays the size of what a piece made, never more: doubling
// the size handed out regardless made an array 2^k times the minimum after k
// such pieces.
func (t *Tails[E]) Take(lo int) ([]E, Lease[E]) {
	t.mu.Lock()
	p, ok := t.at[lo]
	if ok {
		delete(t.at, lo)
	}
	t.mu.Unlock()
	if !ok {
		s := make([]E, 0, minTail)
		return s, Lease[E]{handed: s}
	}
	if rest := p.items[len(p.items):]; cap(rest) > (p.filled+cap(rest))/8 {
		return rest, Lease[E]{handed: rest, filled: p.filled}
	}
	// Too little left of the old array: a new one, which an append would
	// make anyway, without copying what the old one holds.
	s := make([]E, 0, max(minTail, 2*p.filled))
	return s, Lease[E]{handed: s}
}

// Leave keeps the slice that the piece ending at hi appended to, for the
// piece that starts there; l is what Take handed that piece. A piece that
// panicked leaves nothing, and a slice left at a position nobody starts from
// is dropped with the call.
func (t *Tails[E]) Leave(hi int, items []E, l Lease[E]) {
	if cap(items) == 0 {
		return
	}
	filled := len(items) // in an array of their own: append outgrew the one handed, or the piece made one
	if cap(items) == cap(l.handed) && &items[:1][0] == &l.handed[:1][0] {
		filled += l.filled
	}
	t.mu.Lock()
	if t.at == nil {
		t.at = make(map[int]tail[E])
	}
	t.at[hi] = tail[E]{items, filled}
	t.mu.Unlock()
}
