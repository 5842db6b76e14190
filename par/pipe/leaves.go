package pipe

import "sync/atomic"

// The par bridge calls a terminal's leaf function several times per leaf
// (its steps: typically three, more on a long leaf), and may cut what a
// leaf has left to give it to another worker between two steps. A leaf
// function that opened the pipe at every call paid its stages' batch
// buffers and closures at every step: Map then Filter then Reduce over
// 1,000,000 ints made about 11,000 allocations (4.4 MB) a call. So a
// terminal keeps what its leaf function opens in a leaves: each call takes
// a state, preferably the one that the call ending where it begins gave
// back (the step just before on the same goroutine, whose buffers are still
// in this core's cache), and gives it back when it returns.

// A leafState is what a terminal's leaf function opens once and reuses:
// feed runs the pipe's feeder over [lo, hi) with the terminal's sink, which
// folds the items into acc. A leafState belongs to one call at a time,
// between leaves.get and leaves.put.
type leafState[A any] struct {
	feed func(lo, hi int)
	acc  A
}

// leafSlots is how many states a leaves keeps: more than the goroutines
// that run leaves of one call at once on most machines. A state given back
// when every slot is full is dropped, and opened again if it is missed.
const leafSlots = 16

// leaves hands out the leafStates of one terminal call. Any goroutine may
// call its methods. The states given back wait in slots, each at the slot
// of the position where its call ended, so that the call that begins there
// finds it at once; a leaf's steps follow each other within microseconds
// on two cores, and a mutex around a list of states spent a third of such a
// call spinning.
type leaves[A any] struct {
	// open sets st.feed, with a feeder and a sink of st's own; it is
	// called at most once per state.
	open func(st *leafState[A])

	// slots hold the states given back: the CompareAndSwap that stores a
	// state hands it over to the CompareAndSwap that takes it out.
	slots [leafSlots]struct {
		atomic.Pointer[leafState[A]]
		_ [56]byte // a cache line each: two cores at their own slots do not share one
	}
}

// slot returns the first slot to try for a state that ended at pos.
func slot(pos int) int { return int(uint64(pos) * 0x9e3779b97f4a7c15 >> 60) }

// get returns a state for a call over [lo, hi): the one given back by the
// call that ended at lo if it waits in its slot, else any one given back,
// else a new one.
func (l *leaves[A]) get(lo int) *leafState[A] {
	k := slot(lo)
	for i := range leafSlots {
		s := &l.slots[(k+i)%leafSlots]
		if st := s.Load(); st != nil && s.CompareAndSwap(st, nil) {
			return st
		}
	}
	st := &leafState[A]{}
	l.open(st)
	return st
}

// put gives st back after a call that ended at hi and returned normally,
// once the call has read st.acc. A call whose callback panicked (or called
// runtime.Goexit) gives nothing back: its feeder may have stopped in the
// middle of a batch, and what it opened is dropped with it.
func (l *leaves[A]) put(st *leafState[A], hi int) {
	var zero A
	st.acc = zero // drops what acc referred to, such as a result's items
	k := slot(hi)
	for i := range leafSlots {
		if l.slots[(k+i)%leafSlots].CompareAndSwap(nil, st) {
			return
		}
	}
}

// leavesOf returns the leaves of a terminal over p whose states feed their
// items to the sink that sinkOf makes for each: the boilerplate of opening
// a state, written once. One state is opened at once (see warm).
func leavesOf[T, A any](p Pipe[T], sinkOf func(st *leafState[A]) func([]T)) *leaves[A] {
	return (&leaves[A]{open: func(st *leafState[A]) {
		feed, sink := p.open(), sinkOf(st)
		st.feed = func(lo, hi int) { feed(lo, hi, sink) }
	}}).warm(p.n)
}

// warm opens one state before the terminal's call over n positions begins,
// unless n is 0, and returns l. The call times its first chunk, a position
// or a few, to pace the rest: a chunk that opened the stages (their buffers
// and closures, a few microseconds) made a cheap text look slow, and the
// rest of a 64 KiB text was cut into 512 pieces.
func (l *leaves[A]) warm(n int) *leaves[A] {
	if n > 0 {
		st := &leafState[A]{}
		l.open(st)
		l.put(st, 0)
	}
	return l
}

// run feeds [lo, hi) through a state whose acc starts at init, gives the
// state back and returns what acc became.
func (l *leaves[A]) run(lo, hi int, init A) A {
	st := l.get(lo)
	st.acc = init
	st.feed(lo, hi)
	acc := st.acc
	l.put(st, hi)
	return acc
}
