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
		a0 := sched.Take[recA](w)
		a1 := sched.Take[recA](w)
		b0 := sched.Take[recB](w)
		require.NotSame(t, a0, a1)
		a1.v = 7
		b0.Put()
		a1.Put()
		again := sched.Take[recA](w)
		require.Same(t, a1, again, "the record given back last is taken first")
		require.Equal(t, 7, again.v, "a reused record keeps what its last user left")
		again.Put()
		a0.Put()
		require.Same(t, a0, sched.Take[recA](w), "the stack is empty again: its first record comes first")
		require.Same(t, b0, sched.Take[recB](w), "records of another type have their own stack")
	})
}

// A frame that never gave its record back (its deferred call was cut short)
// is found by the next Put below it: that record and all above are dropped,
// never handed out again while a thief may still run them.
func TestRecordsPutBelowDropsUnreturned(t *testing.T) {
	withWorker(t, func(w *sched.Worker) {
		a0 := sched.Take[recA](w)
		a1 := sched.Take[recA](w)
		a2 := sched.Take[recA](w)
		a0.Put() // a1 and a2 were never put back
		got := map[*recA]bool{}
		for range 3 {
			got[sched.Take[recA](w)] = true
		}
		require.True(t, got[a0], "the record put back is reused")
		require.False(t, got[a1], "an unreturned record must not be reused")
		require.False(t, got[a2], "an unreturned record must not be reused")
	})
}

// A record that was dropped belongs to no stack any more: a late Put by the
// frame that took it (or a stale copy of it) must not move the stack,
// or the record now at its place would be handed out twice.
func TestRecordsDroppedPutIsInert(t *testing.T) {
	withWorker(t, func(w *sched.Worker) {
		a0 := sched.Take[recA](w)
		a1 := sched.Take[recA](w)
		a0.Put() // drops a1, never given back
		x := sched.Take[recA](w)
		y := sched.Take[recA](w)
		require.Same(t, a0, x)
		require.NotSame(t, a1, y)
		a1.Put() // late: must not make y's place free again
		z := sched.Take[recA](w)
		require.NotSame(t, y, z, "a record in use was handed out again")
	})
}

func TestRecordsBounded(t *testing.T) {
	withWorker(t, func(w *sched.Worker) {
		var stack []*recA
		seen := map[*recA]bool{}
		for range 1000 {
			r := sched.Take[recA](w)
			require.False(t, seen[r], "a record in use was handed out again")
			seen[r] = true
			stack = append(stack, r)
		}
		for i := len(stack) - 1; i >= 0; i-- {
			stack[i].Put() // records past the bound are not cached: Put ignores them
		}
		first := sched.Take[recA](w)
		require.Same(t, stack[0], first, "the stack is empty again")
		first.Put()
		reused := 0
		for range 1000 {
			if seen[sched.Take[recA](w)] {
				reused++
			}
		}
		require.Positive(t, reused, "forks up to the bound are cached")
		require.Less(t, reused, 1000, "forks nested deeper than the bound allocate")
	})
}

// TestRecordsLateTypeTakesAnIdleSlot: a type that comes after others hold
// every slot of the cache takes one over whose records are not in use, and
// its records are reused from then on; a slot whose records are in use stays.
// Once caught: slots stayed with the first types to claim them, and a later
// type allocated at every fork (pipe's Max after the other terminals in
// BenchmarkPipeline: about 300 allocations a call against 33 alone).
func TestRecordsLateTypeTakesAnIdleSlot(t *testing.T) {
	withWorker(t, func(w *sched.Worker) {
		w.FillTypeCache()
		a := sched.Take[recA](w)
		a.Put()
		require.Same(t, a, sched.Take[recA](w), "a late type's record must be reused")

		// a is in use, and so is every other slot: another type may not take one.
		sched.HoldTypeCacheBut[recA](w)
		require.False(t, sched.ClaimForeign(w, true), "a slot with a record in use was taken over")
		a.Put()
		require.True(t, sched.ClaimForeign(w, true), "an idle slot was not taken over")
		require.NotSame(t, a, sched.Take[recA](w), "records of a slot taken over must be dropped")
	})
}
