package sched_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
)

// onSeatAlone runs f on a seat of a one-worker pool whose worker is held
// busy, so that nobody steals from the seat's deque while f runs.
func onSeatAlone(t *testing.T, f func(w *sched.Worker)) {
	t.Helper()
	p := sched.New(1)
	defer p.Close()
	release, held := make(chan struct{}), make(chan struct{})
	task := p.Spawn(func(*sched.Worker) { close(held); <-release })
	<-held
	defer func() { close(release); task.Wait() }()
	p.Run(f)
}

// nest forks depth times and calls f inside the first half of the innermost
// fork, with the deque holding every fork's second half that was pushed.
func nest(w *sched.Worker, depth int, f func(w *sched.Worker)) {
	if depth == 0 {
		f(w)
		return
	}
	w.Join(func(w *sched.Worker) { nest(w, depth-1, f) }, func(*sched.Worker) {})
}

// Forks push their second halves until CrowdLen of them wait in the deque;
// from then on a fork runs both halves as plain calls, the second first.
func TestCrowdedForkRunsInline(t *testing.T) {
	onSeatAlone(t, func(w *sched.Worker) {
		lens := []int{}
		nest(w, sched.CrowdLen+3, func(w *sched.Worker) { lens = append(lens, w.Len()) })
		require.Equal(t, []int{sched.CrowdLen}, lens, "forks past CrowdLen must not push")

		var order []string
		nest(w, sched.CrowdLen, func(w *sched.Worker) {
			require.True(t, w.Crowded())
			w.Join(
				func(w *sched.Worker) { order = append(order, "a"); require.Equal(t, sched.CrowdLen, w.Len()) },
				func(w *sched.Worker) { order = append(order, "b") },
			)
		})
		require.Equal(t, []string{"b", "a"}, order)

		nest(w, sched.CrowdLen-1, func(w *sched.Worker) {
			require.False(t, w.Crowded())
			w.Join(func(w *sched.Worker) { require.Equal(t, sched.CrowdLen, w.Len(), "a fork below CrowdLen pushes") }, func(*sched.Worker) {})
		})
	})
}

// A list walked by recursion, the rest first and the element second: past
// CrowdLen, each level must do its element before it goes down, or every
// element below would wait, unexposed, until the walk unwinds.
func TestCrowdedSpineDoesItsWorkOnTheWayDown(t *testing.T) {
	onSeatAlone(t, func(w *sched.Worker) {
		const n = sched.CrowdLen + 5
		var done []int
		var walk func(w *sched.Worker, i int)
		walk = func(w *sched.Worker, i int) {
			if i == n {
				return
			}
			w.Join(func(w *sched.Worker) { walk(w, i+1) }, func(*sched.Worker) { done = append(done, i) })
		}
		walk(w, 0)
		var want []int
		for i := sched.CrowdLen; i < n; i++ {
			want = append(want, i) // crowded: on the way down
		}
		for i := sched.CrowdLen - 1; i >= 0; i-- {
			want = append(want, i) // pushed: popped back on the way up
		}
		require.Equal(t, want, done)
	})
}

// Panics in a crowded fork follow the rules of a fork whose second half was
// stolen: a panic in the second half waits for the first half, and the first
// half's panic wins.
func TestCrowdedForkPanics(t *testing.T) {
	crowded := func(w *sched.Worker, a, b func(w *sched.Worker)) {
		nest(w, sched.CrowdLen, func(w *sched.Worker) {
			require.True(t, w.Crowded())
			w.Join(a, b)
		})
	}
	onSeatAlone(t, func(w *sched.Worker) {
		ranA := false
		require.PanicsWithValue(t, "b", func() {
			crowded(w, func(*sched.Worker) { ranA = true }, func(*sched.Worker) { panic("b") })
		})
		require.True(t, ranA, "a runs although b panicked")
		require.PanicsWithValue(t, "a", func() {
			crowded(w, func(*sched.Worker) { panic("a") }, func(*sched.Worker) { panic("b") })
		})
		require.PanicsWithValue(t, "a", func() {
			crowded(w, func(*sched.Worker) { panic("a") }, func(*sched.Worker) {})
		})
		require.Zero(t, w.Len(), "every pushed half was taken back")
		ok := false
		crowded(w, func(*sched.Worker) {}, func(*sched.Worker) { ok = true })
		require.True(t, ok, "the worker forks on after the panics")
	})
}
