package engine_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/sched"
)

func TestDefaultFollowsGOMAXPROCS(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	first := engine.Default()
	require.Equal(t, max(1, prev-1), first.Workers(), "the caller is the other participant")
	require.Equal(t, first.Workers(), engine.DefaultWorkers())
	runtime.GOMAXPROCS(prev + 3)
	second := engine.Default()
	require.Equal(t, prev+2, second.Workers())
	var cfg engine.Config
	ran := false
	cfg.Run(func(w *sched.Worker) { ran = w.Pool() == second })
	require.True(t, ran, "a call on the default pool runs on the current one")
	require.True(t, engine.Retired(first))
	require.False(t, engine.Retired(second))
	for first.Run(func(*sched.Worker) {}) { // the old default pool is closed: a seat is refused
		time.Sleep(time.Millisecond)
	}
	runtime.GOMAXPROCS(1)
	one := engine.Default()
	require.Equal(t, 1, one.Workers(), "at least one worker")
	require.Equal(t, 1, one.Load().Procs)
	runtime.GOMAXPROCS(2)
	two := engine.Default()
	require.Equal(t, 1, two.Workers())
	require.Equal(t, 2, two.Load().Procs, "a pool of the same size, but the planner's processors are GOMAXPROCS's")
	require.True(t, engine.Retired(one))
}
