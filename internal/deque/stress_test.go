package deque_test

import (
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weftgo/weft/internal/deque"
)

// thieves is how many goroutines steal in each stress test: far more than the
// cores, so that thieves are also preempted between reading top and their CAS.
const thieves = 8

// stressSize picks the element count of a stress test: full normally, short
// under -short, and a twentieth of either under the race detector, which slows
// these loops about tenfold, so that `go test -race` of this package stays
// within about twenty seconds even on a busy two-core machine.
func stressSize(full, short int) int {
	n := full
	if testing.Short() {
		n = short
	}
	if raceEnabled {
		n /= 20
	}
	return n
}

// ledger hands out elements with unique ids and counts how often each was
// taken, by Pop or by Steal; at the end every count must be exactly one.
type ledger struct {
	items []int          // items[i] == i; the deque holds pointers into it
	taken []atomic.Int32 // by id
	next  int            // the next id to push; owner only

	// Written by thieves, where require cannot stop the test; checked at the end.
	nilSteals atomic.Int64 // Success with a nil element
	disorder  atomic.Int64 // a thief took an id no greater than its previous one
	steals    atomic.Int64
	retries   atomic.Int64
	empties   atomic.Int64

	pops    int // owner only
	doubles int // buffer doublings, summed over rounds; owner only
}

func newLedger(n int) *ledger {
	l := &ledger{items: make([]int, n), taken: make([]atomic.Int32, n)}
	for i := range l.items {
		l.items[i] = i
	}
	return l
}

// full reports whether every id has been pushed.
func (l *ledger) full() bool { return l.next == len(l.items) }

// push pushes the next id, if any are left. Owner only.
func (l *ledger) push(w deque.Worker[int]) {
	if !l.full() {
		w.Push(&l.items[l.next])
		l.next++
	}
}

// pop pops one element and reports whether it got one. Owner only.
func (l *ledger) pop(w deque.Worker[int]) bool {
	x := w.Pop()
	if x == nil {
		return false
	}
	l.taken[*x].Add(1)
	l.pops++
	return true
}

// thief steals until done is set. Because the owner pushes ids in increasing
// order and positions only ever advance at the top, each thief must see its
// ids strictly increase, whatever the owner pops and pushes again meanwhile.
func (l *ledger) thief(s deque.Stealer[int], done *atomic.Bool, ready, wg *sync.WaitGroup) {
	defer wg.Done()
	ready.Done()
	last := -1
	var steals, retries, empties int64
	for i := 0; !done.Load(); i++ {
		var x *int
		var st deque.Status
		if i%2 == 1 { // half the attempts take only even ids, through StealIf
			x, st = s.StealIf(evenID, 0)
		} else {
			x, st = s.Steal()
		}
		switch st {
		case deque.Success:
			if x == nil {
				l.nilSteals.Add(1)
				continue
			}
			if *x <= last {
				l.disorder.Add(1)
			}
			last = *x
			l.taken[*x].Add(1)
			steals++
		case deque.Retry:
			retries++
		case deque.Empty:
			empties++
			runtime.Gosched() // let the owner refill
		}
	}
	l.steals.Add(steals)
	l.retries.Add(retries)
	l.empties.Add(empties)
}

// evenID is StealIf's predicate in the stress tests. The ids never change
// after the owner pushes them, so reading one racily is safe.
func evenID(x *int, _ uint64) bool { return *x%2 == 0 }

// round runs owner on the test goroutine against a fresh deque of capacity 2
// with thieves stealing from it, then drains the deque and stops the thieves.
func (l *ledger) round(t *testing.T, owner func(w deque.Worker[int])) {
	w := deque.NewCap[int](2)
	var done atomic.Bool
	var ready, wg sync.WaitGroup
	ready.Add(thieves)
	wg.Add(thieves)
	for range thieves {
		go l.thief(w.Stealer(), &done, &ready, &wg)
	}
	ready.Wait()
	owner(w)
	// Pop returns nil when the deque is empty or a thief took the last
	// element; either way it is empty for good, as nothing is pushed after.
	for l.pop(w) {
	}
	require.Zero(t, w.Len())
	done.Store(true)
	wg.Wait()
	l.doubles += bits.Len(uint(deque.Cap(w))) - 2 // log2(Cap/2)
}

// verify checks that every pushed id was taken exactly once.
func (l *ledger) verify(t *testing.T) {
	t.Helper()
	require.True(t, l.full(), "test bug: not every id was pushed")
	require.Zero(t, l.nilSteals.Load(), "steals that succeeded with a nil element")
	require.Zero(t, l.disorder.Load(), "steals out of FIFO order")
	var lost, twice []int
	for id := range l.taken {
		switch n := l.taken[id].Load(); {
		case n == 0 && len(lost) < 10:
			lost = append(lost, id)
		case n > 1 && len(twice) < 10:
			twice = append(twice, id)
		}
	}
	require.Empty(t, lost, "ids never taken (first 10)")
	require.Empty(t, twice, "ids taken more than once (first 10)")
	require.Equal(t, int64(len(l.items)), int64(l.pops)+l.steals.Load())
	t.Logf("%d ids: %d popped, %d stolen, %d retries, %d empty steals, %d doublings",
		len(l.items), l.pops, l.steals.Load(), l.retries.Load(), l.empties.Load(), l.doubles)
}

// TestStress runs an owner that pushes and pops at random, with occasional
// bursts that make the deque grow, against the thieves.
func TestStress(t *testing.T) {
	const rounds = 20
	l := newLedger(stressSize(8_000_000, 300_000))
	rng := rand.New(rand.NewPCG(1, 2))
	for r := range rounds {
		end := len(l.items) * (r + 1) / rounds
		l.round(t, func(w deque.Worker[int]) {
			for l.next < end {
				switch k := rng.IntN(100); {
				case k < 3: // a burst; the deque grows unless thieves keep up
					for range 1 + rng.IntN(4096) {
						if l.next < end {
							l.push(w)
						}
					}
				case k < 55:
					for range 1 + rng.IntN(8) {
						if l.next < end {
							l.push(w)
						}
					}
				default:
					for range 1 + rng.IntN(8) {
						l.pop(w)
					}
				}
			}
		})
	}
	l.verify(t)
	require.Positive(t, l.doubles, "test bug: the deques never grew")
}

// TestStressLastElement has the owner push one element and pop it at once while
// the thieves hammer Steal, so that Pop and Steal keep racing for the last
// element through the CAS on top. Sometimes it pushes two, so that Pop also
// takes the path that skips the CAS right next to a thief.
func TestStressLastElement(t *testing.T) {
	l := newLedger(stressSize(8_000_000, 200_000))
	rng := rand.New(rand.NewPCG(3, 4))
	lost := 0
	l.round(t, func(w deque.Worker[int]) {
		for !l.full() {
			n := 1
			if rng.IntN(4) == 0 && len(l.items)-l.next >= 2 {
				n = 2
			}
			for range n {
				l.push(w)
			}
			for range n {
				if !l.pop(w) {
					lost++
				}
			}
		}
	})
	l.verify(t)
	t.Logf("the owner lost %d races for an element to a thief", lost)
}

// TestStressGrowth has the owner push ever larger bursts into deques that start
// at capacity 2, while the thieves steal, so that the buffer is replaced many
// times under thieves that are reading it.
func TestStressGrowth(t *testing.T) {
	const maxBurst = 1 << 12
	perRound := 2*maxBurst - 1 // bursts of 1, 2, 4, ... maxBurst
	l := newLedger(stressSize(1000*perRound, 20*perRound))
	for !l.full() {
		l.round(t, func(w deque.Worker[int]) {
			for burst := 1; burst <= maxBurst; burst *= 2 {
				for range burst {
					l.push(w)
				}
				runtime.Gosched() // let the thieves catch up, so top moves before the next growth
			}
		})
	}
	l.verify(t)
	require.Positive(t, l.doubles, "test bug: the deques never grew")
}
