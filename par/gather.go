package par

import "sync"

// What a call collects (Filter, FilterIndex, Positions, FlatMap, Partition):
// each piece of the range appends what it keeps to a slice, and the slices
// are joined in range order. A participant runs most pieces one after the
// other, each starting where the one before ended; tails hands the slice on
// from one to the next, so that they append to the same array, and chunks
// joins two slices that lie next to each other in one array without a copy
// or a node. Before, every piece, and every step of a running one, began a
// slice of its own: W5 of `go run ./bench -full` made 23,000 allocations a
// call where blocks from a counter made 1,300.

// chunks is an ordered list of slices, joined in O(1). The first slice is
// held in the value itself, so a list of one slice costs no allocation.
type chunks[E any] struct {
	first      []E       // the first slice
	head, tail *chunk[E] // the slices after first, if any
	n          int       // the elements in all
}

type chunk[E any] struct {
	items []E
	next  *chunk[E]
}

func oneChunk[E any](items []E) chunks[E] {
	return chunks[E]{first: items, n: len(items)}
}

// adjoins reports whether b begins where a ends, in a's array, so that a
// extended by len(b) elements is a followed by b.
func adjoins[E any](a, b []E) bool {
	return len(b) > 0 && cap(a)-len(a) >= len(b) && &a[:len(a)+1][len(a)] == &b[0]
}

// appendChunks joins a and b, a first. It takes both: neither may be used
// after.
func appendChunks[E any](a, b chunks[E]) chunks[E] {
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

// flatten returns the items in order: the only slice if there is one, else a
// copy of them all.
func (l chunks[E]) flatten() []E {
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

// tails hands the slice that a piece of a call appended to on to the piece
// that starts where it ended. Any goroutine.
type tails[E any] struct {
	mu sync.Mutex
	at map[int]tail[E]
}

// tail is a slice left at a position: the piece's own elements, and the
// capacity of the array it was cut from, which the next array doubles.
type tail[E any] struct {
	items []E
	size  int
}

// minTail is the capacity of a slice begun where no tail was left.
const minTail = 8

// take returns the slice for the piece that starts at lo to append to: empty,
// and either the rest of the array that the piece ending at lo left, adjoining
// its elements, or a new array. size is the capacity to hand on in leave.
func (t *tails[E]) take(lo int) (items []E, size int) {
	t.mu.Lock()
	p, ok := t.at[lo]
	if ok {
		delete(t.at, lo)
	}
	t.mu.Unlock()
	if !ok {
		return make([]E, 0, minTail), minTail
	}
	if rest := p.items[len(p.items):]; cap(rest) >= max(minTail, p.size/8) {
		return rest, p.size
	}
	// Too little left of the old array: a new one twice as large, which an
	// append would make anyway, without copying what the old one holds.
	return make([]E, 0, 2*p.size), 2 * p.size
}

// leave keeps the slice that the piece ending at hi appended to, for the
// piece that starts there. A piece that panicked leaves nothing, and a
// slice left at a position nobody starts from is dropped with the call.
func (t *tails[E]) leave(hi int, items []E, size int) {
	if cap(items) == 0 {
		return
	}
	size = max(size, cap(items)) // an append that outgrew the array made a larger one
	t.mu.Lock()
	if t.at == nil {
		t.at = make(map[int]tail[E])
	}
	t.at[hi] = tail[E]{items, size}
	t.mu.Unlock()
}
