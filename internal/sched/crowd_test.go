package sched_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
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
// fork, with the deque holding every fork's second half.
func nest(w *sched.Worker, depth int, f func(w *sched.Worker)) {
	if depth == 0 {
		f(w)
		return
	}
	w.Join(func(w *sched.Worker) { nest(w, depth-1, f) }, func(*sched.Worker) {})
}

// A worker is crowded once split.RecordDepth jobs that no thief has taken wait in its
// deque (package par then runs its forks as plain calls), and not before.
func TestCrowdedAtRecordDepth(t *testing.T) {
	onSeatAlone(t, func(w *sched.Worker) {
		for depth := range split.RecordDepth + 3 {
			nest(w, depth, func(w *sched.Worker) {
				require.Equal(t, depth, w.Len())
				require.Equal(t, depth >= split.RecordDepth, w.Crowded(), "depth %d", depth)
			})
		}
		require.Zero(t, w.Len(), "every pushed half was taken back")
	})
}
