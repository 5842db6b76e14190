package pipe

import "sync/atomic"

// Leaves is a leaves of int accumulators, whose open counts the states it
// makes, for the tests of the cache itself.
type Leaves struct {
	l     *leaves[int]
	opens atomic.Int64 // states made
}

// Opens returns the number of states made.
func (ls *Leaves) Opens() int { return int(ls.opens.Load()) }

// LeafState is a state handed out by Leaves.Get.
type LeafState = leafState[int]

// NewLeaves returns an empty Leaves.
func NewLeaves() *Leaves {
	ls := &Leaves{}
	ls.l = &leaves[int]{open: func(st *leafState[int]) {
		ls.opens.Add(1) // open runs on any goroutine
		st.feed = func(lo, hi int) {}
	}}
	return ls
}

func (ls *Leaves) Get(lo int) *LeafState     { return ls.l.get(lo) }
func (ls *Leaves) Put(st *LeafState, hi int) { ls.l.put(st, hi) }
func (st *leafState[A]) Acc() A              { return st.acc }
func (st *leafState[A]) SetAcc(a A)          { st.acc = a }
