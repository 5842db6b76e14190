package par_test

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// The sorts that call a user function (SortFunc and SortStableFunc) write
// into the caller's slice while they call it. Whenever the function panics or
// calls runtime.Goexit, on whichever worker and at whichever point of the
// sort, the slice must afterwards hold exactly its elements, in some order:
// the panic reaches the caller with its original value, the pool goes on
// working, and no goroutine is left behind (onEachPool checks). Sort calls
// no user function (it compares with cmp.Less and sorts numbers by their
// bits), so nothing it runs can stop it half-way, and it is not swept here.

// spRec is an element of the sweep: cmp compares keys; id is the element's
// index in the input, so that a lost or a duplicated element shows even
// among equal keys.
type spRec struct{ key, id int }

// spBoom is the panic value of the sweep: a pointer, so that the caller's
// recover can be checked to return that very value.
type spBoom struct{ at int64 }

// spSort is a sort that runs a user function.
type spSort struct {
	name string
	sort func(s []spRec, cmp func(a, b spRec) int, opts ...par.Option)
	// cases are the lengths and grains swept: each side of every threshold
	// at which the sort changes algorithm, and lengths at which pieces and
	// merges run on several workers.
	cases func() []spCase
}

type spCase struct {
	n     int
	grain int  // 0 for the default
	every bool // fail at every call of cmp in turn, not only the spAt ones
}

var spSorts = []spSort{
	{"SortStableFunc", func(s []spRec, cmp func(a, b spRec) int, opts ...par.Option) {
		par.SortStableFunc(s, cmp, opts...)
	}, func() []spCase {
		cs := []spCase{
			{n: par.MergeRun},          // slices.SortStableFunc on the caller
			{n: par.SortSeqStable + 1}, // the merge sort: two insertion runs and a merge
			{n: 300},                   // insertion runs and merges, on the caller
			{n: par.MergePar + 1},      // two pieces forked; the merge on one worker
			{n: 65, grain: 64},         // forks from the first split on
			{n: 1000, grain: 64},       // pieces and parallel merges, many of each
			// Every call failing in turn: the binary searches that cut a
			// parallel merge make a handful of the calls, which the powers
			// of two seldom hit; and the recursion is deep enough that
			// forks run crowded (second half first, see joinEager), so
			// that a half of a merge can be left unstarted.
			{n: 300, grain: 8, every: true},
		}
		if full() {
			cs = append(cs,
				spCase{n: par.MergePar},     // the longest input sorted without forks
				spCase{n: 3 * par.MergePar}, // the last merge cut between workers
				spCase{n: 5000, grain: 64},
				spCase{n: 100_000},
			)
		}
		return cs
	}},
	{"SortFunc", func(s []spRec, cmp func(a, b spRec) int, opts ...par.Option) {
		par.SortFunc(s, cmp, opts...)
	}, func() []spCase {
		cs := []spCase{
			{n: 300},                         // slices.SortFunc on the caller
			{n: par.SortSeqCmp + 1},          // one partition, then slices.SortFunc on two pieces
			{n: 65, grain: 64},               // partitions from the first call on
			{n: 1000, grain: 64},             // partitions on several workers
			{n: 150, grain: 16, every: true}, // every call: the pivot choice included
		}
		if full() {
			cs = append(cs,
				spCase{n: par.SortSeqCmp}, // the longest input sorted on the caller
				spCase{n: 5 * par.QuickGrain},
				spCase{n: 5000, grain: 64},
				spCase{n: 100_000},
			)
		}
		return cs
	}},
}

// spInputs are the inputs of the sweep: distinct keys, and keys so few that
// every element has many equals (where a stable sort's bookkeeping is
// busiest, and a duplicated element would look like its neighbours).
var spInputs = []struct {
	name string
	keys func(n int) []int
}{
	{"distinct", func(n int) []int {
		r := newRand(uint64(n))
		return r.Perm(n)
	}},
	{"dups", func(n int) []int {
		r := newRand(uint64(n) + 1)
		s := make([]int, n)
		for i := range s {
			s[i] = r.IntN(4)
		}
		return s
	}},
}

// spAt returns the calls of cmp at which the sweep fails: the first, every
// power of two below total, and the last.
func spAt(total int64) []int64 {
	var at []int64
	for k := int64(1); k < total; k *= 2 {
		at = append(at, k)
	}
	return append(at, total)
}

// spCmp compares keys, and fails at its k-th call (counted over all
// goroutines): it panics with v, or calls runtime.Goexit if v is nil. With k
// 0 it never fails; calls counts the calls.
func spCmp(k int64, v any, calls *atomic.Int64) func(a, b spRec) int {
	return func(a, b spRec) int {
		if calls.Add(1) == k {
			fail(v)
		}
		return cmp.Compare(a.key, b.key)
	}
}

// requirePermutation fails t unless s holds exactly the elements of in.
func requirePermutation(t *testing.T, in, s []spRec, what string) {
	t.Helper()
	require.Len(t, s, len(in), what)
	seen := make([]bool, len(in))
	bad, first := 0, -1
	for i, e := range s {
		if e.id < 0 || e.id >= len(in) || seen[e.id] || in[e.id] != e {
			bad++
			if first < 0 {
				first = i
			}
			continue
		}
		seen[e.id] = true
	}
	if bad > 0 {
		t.Fatalf("%s: s is not a permutation of its input: %d of %d elements wrong, the first at index %d (%v)",
			what, bad, len(s), first, s[first])
	}
}

// requirePoolWorks fails t unless a small sort with forks still gives the
// right answer on the pool of opts.
func requirePoolWorks(t *testing.T, opts []par.Option) {
	t.Helper()
	s := newRand(7).Perm(2000)
	want := slices.Clone(s)
	slices.Sort(want)
	par.SortStableFunc(s, cmp.Compare[int], append([]par.Option{par.WithGrain(64)}, opts...)...)
	require.Equal(t, want, s, "the pool must work after the failed sort")
}

// TestSortPanicKeepsElements sweeps the call of cmp that panics, and then
// the one that calls runtime.Goexit, over the lengths at which each sort
// changes algorithm, on pools of 1, 2 and 8 workers and the default pool.
func TestSortPanicKeepsElements(t *testing.T) {
	for _, so := range spSorts {
		t.Run(so.name, func(t *testing.T) {
			onEachPool(t, func(t *testing.T, p *par.Pool, opts []par.Option) {
				for _, c := range so.cases() {
					o := opts
					if c.grain > 0 {
						o = append([]par.Option{par.WithGrain(c.grain)}, opts...)
					}
					for ii, input := range spInputs {
						in := make([]spRec, c.n)
						for i, k := range input.keys(c.n) {
							in[i] = spRec{key: k, id: i}
						}
						var total atomic.Int64
						s := slices.Clone(in)
						so.sort(s, spCmp(0, nil, &total), o...)
						require.True(t, slices.IsSortedFunc(s, spCmp(0, nil, new(atomic.Int64))))
						at := spAt(total.Load())
						if c.every {
							// Every second call (every eleventh under -short or
							// -race), from a first one that differs between the
							// inputs: odd calls on one input, even on the other.
							step := int64(2)
							if !full() {
								step = 11
							}
							at = at[:0]
							for k := 1 + int64(ii)%step; k <= total.Load(); k += step {
								at = append(at, k)
							}
						}
						for _, k := range at {
							what := fmt.Sprintf("%s n=%d grain=%d %s: cmp fails at call %d of %d",
								so.name, c.n, c.grain, input.name, k, total.Load())

							s := slices.Clone(in)
							want := &spBoom{at: k}
							how, got := runOn(func() { so.sort(s, spCmp(k, want, new(atomic.Int64)), o...) })
							require.Equal(t, panicked, how, what)
							require.Same(t, want, got, "%s: the panic value must reach the caller", what)
							requirePermutation(t, in, s, what+" (panic)")

							s = slices.Clone(in)
							how, _ = runOn(func() { so.sort(s, spCmp(k, nil, new(atomic.Int64)), o...) })
							require.Equal(t, goexited, how, what)
							requirePermutation(t, in, s, what+" (Goexit)")
						}
						requirePoolWorks(t, o)
					}
				}
			})
		})
	}
}

// TestSortForkWaitsForStolenHalf builds the case the sorts' restores rely
// on: the caller, waiting for the half that a thief stole, runs a piece of
// that half, which calls runtime.Goexit. The fork of the caller is cut short
// while the thief still runs the half; it must hold the caller until that
// half has finished, so that what the half writes happens before the
// caller's goroutine ends.
func TestSortForkWaitsForStolenHalf(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	pushed, yStarted := make(chan struct{}), make(chan struct{})
	written := false // plain: the race detector checks the fork's ordering
	how, _ := runOn(func() {
		par.Do(func(w *par.Worker) {
			par.JoinEager(w, func(*par.Worker) {
				// The pool's only worker has taken the second half and pushed
				// the other half of its own fork: a caller that found nothing
				// when it began to wait would park until the second half ended.
				<-pushed
			}, func(w *par.Worker) {
				par.JoinEager(w, func(*par.Worker) {
					close(pushed)
					<-yStarted // the other half runs on the caller, which stole it while it waited
					time.Sleep(20 * time.Millisecond)
					written = true
				}, func(*par.Worker) {
					close(yStarted)
					runtime.Goexit()
				})
			})
		}, par.OnPool(p))
	})
	require.Equal(t, goexited, how)
	require.True(t, written, "the stolen half must have finished before the caller's goroutine ends")
	requirePoolWorks(t, []par.Option{par.OnPool(p)})
}
