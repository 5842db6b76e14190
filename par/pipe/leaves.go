package pipe

import "sync"

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
	end  int // where the call that gave it back ended
}

// leaves hands out the leafStates of one terminal call. Any goroutine may
// call its methods.
type leaves[A any] struct {
	// open sets st.feed, with a feeder and a sink of st's own; it is
	// called at most once per state.
	open func(st *leafState[A])

	mu   sync.Mutex
	free []*leafState[A] // guarded by mu; what get hands out is not here
}

// get returns a state for a call over [lo, hi): the one given back by the
// call that ended at lo if there is one, else the last one given back, else
// a new one. The mutex hands the state over: the put that gave it back
// happens before get returns it.
func (l *leaves[A]) get(lo int) *leafState[A] {
	l.mu.Lock()
	if n := len(l.free); n > 0 {
		k := n - 1
		for i, st := range l.free {
			if st.end == lo {
				k = i
				break
			}
		}
		st := l.free[k]
		l.free[k] = l.free[n-1]
		l.free[n-1] = nil
		l.free = l.free[:n-1]
		l.mu.Unlock()
		return st
	}
	l.mu.Unlock()
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
	st.acc, st.end = zero, hi // drops what acc referred to, such as a result's items
	l.mu.Lock()
	l.free = append(l.free, st)
	l.mu.Unlock()
}

// leavesOf returns the leaves of a terminal over p whose states feed their
// items to the sink that sinkOf makes for each: the boilerplate of opening
// a state, written once.
func leavesOf[T, A any](p Pipe[T], sinkOf func(st *leafState[A]) func([]T)) *leaves[A] {
	return &leaves[A]{open: func(st *leafState[A]) {
		feed, sink := p.open(), sinkOf(st)
		st.feed = func(lo, hi int) { feed(lo, hi, sink) }
	}}
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
