package par_test

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

func TestScopeSmoke(t *testing.T) {
	var n atomic.Int64
	var walk func(s *par.Spawner, w *par.Worker, d int)
	walk = func(s *par.Spawner, w *par.Worker, d int) {
		n.Add(1)
		if d == 0 {
			return
		}
		s.Spawn(w, func(w *par.Worker) { walk(s, w, d-1) })
		s.Spawn(w, func(w *par.Worker) { walk(s, w, d-1) })
	}
	par.Scope(func(s *par.Spawner, w *par.Worker) { walk(s, w, 14) })
	require.Equal(t, int64(1<<15-1), n.Load())
	n.Store(0)
	par.Scope(func(s *par.Spawner, w *par.Worker) {
		for i := 0; i < 1000; i++ {
			s.Go(func(w *par.Worker) { n.Add(1) })
		}
	})
	require.Equal(t, int64(1000), n.Load())
	require.PanicsWithValue(t, "boom", func() {
		par.Scope(func(s *par.Spawner, w *par.Worker) {
			s.Spawn(w, func(w *par.Worker) { panic("boom") })
		})
	})
}
