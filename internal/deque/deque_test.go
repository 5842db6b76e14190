package deque_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weftgo/weft/internal/deque"
)

// oracle drives a deque from one goroutine and checks every result against a
// sequential model: a slice whose first element is the top, where thieves take,
// and whose last element is the bottom, where the owner pushes and pops.
type oracle struct {
	tb   testing.TB
	w    deque.Worker[int]
	s    deque.Stealer[int]
	want []*int // the model
	next int    // the id of the next pushed element
	step int    // operations done, for failure messages
}

func newOracle(tb testing.TB, capacity int) *oracle {
	w := deque.NewCap[int](capacity)
	return &oracle{tb: tb, w: w, s: w.Stealer()}
}

func (o *oracle) push() {
	x := new(int)
	*x = o.next
	o.next++
	o.w.Push(x)
	o.want = append(o.want, x)
	o.check("Push")
}

func (o *oracle) pop() {
	got := o.w.Pop()
	if len(o.want) == 0 {
		require.Nil(o.tb, got, "step %d: Pop on an empty deque", o.step)
	} else {
		want := o.want[len(o.want)-1]
		o.want = o.want[:len(o.want)-1]
		o.same(want, got, "Pop")
	}
	o.check("Pop")
}

func (o *oracle) steal() {
	got, st := o.s.Steal()
	if len(o.want) == 0 {
		require.Equal(o.tb, deque.Empty, st, "step %d: Steal on an empty deque", o.step)
		require.Nil(o.tb, got, "step %d: Steal on an empty deque", o.step)
	} else {
		// Nobody else touches the deque, so no race can be lost.
		if st != deque.Success {
			require.Equal(o.tb, deque.Success, st, "step %d: Steal with %d elements", o.step, len(o.want))
		}
		want := o.want[0]
		o.want = o.want[1:]
		o.same(want, got, "Steal")
	}
	o.check("Steal")
}

// drain empties the deque from both ends alternately, then checks it stays empty.
func (o *oracle) drain() {
	for i := 0; len(o.want) > 0; i++ {
		if i%2 == 0 {
			o.steal()
		} else {
			o.pop()
		}
	}
	o.pop()
	o.steal()
}

func (o *oracle) same(want, got *int, op string) {
	if got == want {
		return // the common case, checked without require's reflection so that fuzzing runs fast
	}
	require.NotNil(o.tb, got, "step %d: %s returned nil, want element %d", o.step, op, *want)
	require.Equal(o.tb, *want, *got, "step %d: %s returned the wrong element", o.step, op)
	require.Same(o.tb, want, got, "step %d: %s returned a copy", o.step, op)
}

func (o *oracle) check(op string) {
	o.step++
	n := len(o.want)
	if n == o.w.Len() && (n == 0) == o.s.IsEmpty() && n < deque.Cap(o.w) {
		return
	}
	require.Equal(o.tb, n, o.w.Len(), "step %d: Len after %s", o.step, op)
	require.Equal(o.tb, n == 0, o.s.IsEmpty(), "step %d: IsEmpty after %s with %d elements", o.step, op, n)
	// Push keeps one slot free, and grows only when it must.
	require.Less(o.tb, n, deque.Cap(o.w), "step %d: ring overfull after %s", o.step, op)
}

// run applies a script of space-separated steps, each a letter and a count:
// P pushes, p pops, s steals. "P3 s1 p2" pushes three, steals one, pops two.
func (o *oracle) run(script string) {
	for _, tok := range strings.Fields(script) {
		n, err := strconv.Atoi(tok[1:])
		require.NoError(o.tb, err, "bad script step %q", tok)
		for range n {
			switch tok[0] {
			case 'P':
				o.push()
			case 'p':
				o.pop()
			case 's':
				o.steal()
			default:
				o.tb.Fatalf("bad script step %q", tok)
			}
		}
	}
}

func TestModel(t *testing.T) {
	tests := []struct {
		name     string
		capacity int
		script   string
		repeat   int // times to run script; 0 means once
		wantCap  int // capacity of the buffer at the end; 0 means not checked
	}{
		{name: "pop empty", capacity: 2, script: "p3", wantCap: 2},
		{name: "steal empty", capacity: 2, script: "s3", wantCap: 2},
		{name: "pop one", capacity: 2, script: "P1 p1 p1 s1"},
		{name: "steal one", capacity: 2, script: "P1 s1 s1 p1"},
		{name: "LIFO pop", capacity: 64, script: "P5 p6", wantCap: 64},
		{name: "FIFO steal", capacity: 64, script: "P5 s6", wantCap: 64},
		{name: "ends meet by pop", capacity: 8, script: "P4 s1 p1 s1 p1 s1 p1"},
		{name: "ends meet by steal", capacity: 8, script: "P4 p1 s1 p1 s1 p1 s1"},
		{name: "interleaved", capacity: 4, script: "P3 s1 P2 p1 s2 P1 p2 s1 P2 s1 p1 p1"},
		{name: "refill after empty", capacity: 2, script: "P1 p1 P1 s1 P1 p1", repeat: 50, wantCap: 2},
		// Positions run far past the capacity: the ring wraps without growing.
		{name: "wrap by pop and steal", capacity: 4, script: "P2 s1 p1", repeat: 200, wantCap: 4},
		{name: "wrap by steals", capacity: 8, script: "P7 s7", repeat: 50, wantCap: 8},
		{name: "wrap by pushes and pops", capacity: 8, script: "P5 s1 p3 P3 s4", repeat: 30, wantCap: 8},
		// Push keeps one slot free, so capacity-1 elements fit and one more grows.
		{name: "fill without growing", capacity: 8, script: "P7", wantCap: 8},
		{name: "grow when full", capacity: 8, script: "P8 p3 s5 p1", wantCap: 16},
		// The live range straddles the end of the ring when it grows.
		{name: "grow wrapped ring", capacity: 4, script: "P3 s2 P3 s4", wantCap: 8},
		{name: "grow with top advanced", capacity: 2, script: "P3 s2 P100 s50 p20 P40 s100", wantCap: 128},
		{name: "grow from 2 many times", capacity: 2, script: "P1000 p500 s501 p1", wantCap: 1024},
		{name: "grow, drain, refill", capacity: 2, script: "P100 s100 P100 p100", repeat: 3, wantCap: 128},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := newOracle(t, tt.capacity)
			for range max(tt.repeat, 1) {
				o.run(tt.script)
			}
			if tt.wantCap != 0 {
				require.Equal(t, tt.wantCap, deque.Cap(o.w))
			}
			o.drain()
		})
	}
}

// TestSizes pushes n elements and takes them back in each way, for n around
// the first capacity and far beyond it.
func TestSizes(t *testing.T) {
	for _, capacity := range []int{2, deque.MinCap} {
		for _, n := range []int{0, 1, capacity - 1, capacity, capacity + 1, 10*capacity + 3, 10_000} {
			t.Run(fmt.Sprintf("cap=%d/n=%d", capacity, n), func(t *testing.T) {
				o := newOracle(t, capacity)
				o.run(fmt.Sprintf("P%d p%d", n, n+1)) // LIFO
				o.run(fmt.Sprintf("P%d s%d", n, n+1)) // FIFO
				o.run(fmt.Sprintf("P%d", n))
				o.drain() // both ends meet in the middle
				require.Equal(t, 3*n, o.next)
			})
		}
	}
}

// TestGrowthDoubles checks that, pushing from empty, the buffer is always the
// smallest power of two (at least 2) with a slot to spare.
func TestGrowthDoubles(t *testing.T) {
	w := deque.NewCap[int](2)
	x := new(int)
	grows := 0
	for n := 1; n <= 1<<16; n++ {
		before := deque.Cap(w)
		w.Push(x)
		want := 2
		for want <= n {
			want <<= 1
		}
		require.Equal(t, want, deque.Cap(w), "after %d pushes", n)
		if deque.Cap(w) != before {
			grows++
		}
	}
	require.Equal(t, 16, grows)
	require.Equal(t, 1<<16, w.Len())
}

func TestNewCap(t *testing.T) {
	for _, tt := range []struct{ capacity, want int }{
		{-1, 2}, {0, 2}, {1, 2}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {63, 64}, {64, 64}, {65, 128}, {1000, 1024},
	} {
		require.Equal(t, tt.want, deque.Cap(deque.NewCap[int](tt.capacity)), "NewCap(%d)", tt.capacity)
	}
	require.Equal(t, deque.MinCap, deque.Cap(deque.New[int]()))
}

// TestStealerCopies checks that every Stealer, and every copy of one, takes
// from the same deque.
func TestStealerCopies(t *testing.T) {
	w := deque.New[int]()
	s1 := w.Stealer()
	s2 := s1
	s3 := w.Stealer()
	xs := []int{10, 11, 12, 13}
	for i := range xs {
		w.Push(&xs[i])
	}
	for i, s := range []deque.Stealer[int]{s1, s2, s3} {
		x, st := s.Steal()
		require.Equal(t, deque.Success, st)
		require.Same(t, &xs[i], x)
	}
	require.Same(t, &xs[3], w.Pop())
	for _, s := range []deque.Stealer[int]{s1, s2, s3} {
		require.True(t, s.IsEmpty())
		x, st := s.Steal()
		require.Equal(t, deque.Empty, st)
		require.Nil(t, x)
	}
}

func TestStealIf(t *testing.T) {
	w := deque.New[int]()
	s := w.Stealer()
	xs := []int{10, 11, 12}
	for i := range xs {
		w.Push(&xs[i])
	}
	odd := func(x *int, key uint64) bool { return uint64(*x)%2 == key }
	x, st := s.StealIf(odd, 1)
	require.Equal(t, deque.Empty, st, "the top (10) is not wanted")
	require.Nil(t, x)
	require.Equal(t, 3, w.Len(), "nothing is taken when the top is not wanted")
	x, st = s.StealIf(odd, 0)
	require.Equal(t, deque.Success, st)
	require.Equal(t, 10, *x, "the top is taken when wanted")
	x, st = s.StealIf(odd, 1)
	require.Equal(t, deque.Success, st)
	require.Equal(t, 11, *x)
	require.Equal(t, 12, *w.Pop())
	x, st = s.StealIf(odd, 0)
	require.Equal(t, deque.Empty, st, "an empty deque")
	require.Nil(t, x)
}
