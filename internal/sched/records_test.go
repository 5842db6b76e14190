package sched_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
)

type recA struct {
	sched.Job
	v int
}

type recB struct {
	sched.Job
	s string
}

// withWorker runs f with a seat of a fresh pool.
func withWorker(t *testing.T, f func(w *sched.Worker)) {
	t.Helper()
	p := sched.New(1)
	defer p.Close()
	p.Run(f)
}

func TestRecordsNestAndReuse(t *testing.T) {
	withWorker(t, func(w *sched.Worker) {
		a0, s, k0 := sched.Take[recA](w)
		a1, s1, k1 := sched.Take[recA](w)
		b0, sb, kb := sched.Take[recB](w)
		require.NotNil(t, s)
		require.Same(t, s, s1, "records of one type share a stack")
		require.NotSame(t, s, sb, "records of another type have their own")
		require.Equal(t, []int{0, 1, 0}, []int{k0, k1, kb})
		require.NotSame(t, a0, a1)
		a1.v = 7
		sb.Put(kb)
		s.Put(k1)
		again, _, k := sched.Take[recA](w)
		require.Same(t, a1, again, "the record given back last is taken first")
		require.Equal(t, 1, k)
		require.Equal(t, 7, again.v, "a reused record keeps what its last user left")
		s.Put(k)
		s.Put(k0)
		first, _, k := sched.Take[recA](w)
		require.Same(t, a0, first)
		require.Equal(t, 0, k)
		s.Put(k)
		bAgain, _, _ := sched.Take[recB](w)
		require.Same(t, b0, bAgain)
	})
}

// A frame that never gave its record back (its deferred call was cut short)
// is found by the next Put below it: that record and all above are dropped,
// never handed out again while a thief may still run them.
func TestRecordsPutBelowDropsUnreturned(t *testing.T) {
	withWorker(t, func(w *sched.Worker) {
		a0, s, k0 := sched.Take[recA](w)
		a1, _, _ := sched.Take[recA](w)
		a2, _, _ := sched.Take[recA](w)
		s.Put(k0) // a1 and a2 were never put back
		got := map[*recA]bool{}
		for range 3 {
			r, _, _ := sched.Take[recA](w)
			got[r] = true
		}
		require.True(t, got[a0], "the record put back is reused")
		require.False(t, got[a1], "an unreturned record must not be reused")
		require.False(t, got[a2], "an unreturned record must not be reused")
	})
}

func TestRecordsDrop(t *testing.T) {
	withWorker(t, func(w *sched.Worker) {
		a0, s, k0 := sched.Take[recA](w)
		a1, _, k1 := sched.Take[recA](w)
		s.Drop(k1)
		s.Put(k0)
		r0, _, _ := sched.Take[recA](w)
		r1, _, _ := sched.Take[recA](w)
		require.Same(t, a0, r0)
		require.NotSame(t, a1, r1, "a dropped record must not be reused")
		s.Put(1)
		s.Drop(0) // the outermost fork of the stack
		_, _, k := sched.Take[recA](w)
		require.Equal(t, 0, k, "Drop leaves the stack at its index")
	})
}

func TestRecordsBounded(t *testing.T) {
	withWorker(t, func(w *sched.Worker) {
		type taken struct {
			s *sched.Records
			k int
		}
		var stack []taken
		uncached := 0
		for range 1000 {
			_, s, k := sched.Take[recA](w)
			if s == nil {
				uncached++
			}
			stack = append(stack, taken{s, k})
		}
		require.Positive(t, uncached, "forks nested deeper than the bound allocate")
		require.Less(t, uncached, 1000, "forks up to the bound are cached")
		for i := len(stack) - 1; i >= 0; i-- {
			stack[i].s.Put(stack[i].k) // nil stacks are allowed
		}
		_, s, k := sched.Take[recA](w)
		require.NotNil(t, s)
		require.Equal(t, 0, k, "the stack is empty again")
	})
}
