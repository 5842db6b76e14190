package par_test

import (
	"bytes"
	"reflect"
	"runtime"
	"runtime/trace"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// What a pool reports about its work: the counters of Stats, which add up,
// and the tasks and regions of an execution trace.

// quietStats polls p's counters until two snapshots in a row agree on
// everything but the time fields: the workers have published their counts and
// stopped counting. The loop is bounded by rounds, not by time.
func quietStats(p *par.Pool) par.Stats {
	counts := func(s par.Stats) []par.WorkerStats {
		out := []par.WorkerStats{s.Callers}
		for _, w := range s.Workers {
			w.Busy = 0
			out = append(out, w)
		}
		out[0].Busy = 0
		return out
	}
	prev := p.Stats()
	for range 1000 {
		runtime.Gosched()
		cur := p.Stats()
		same := len(counts(cur)) == len(counts(prev))
		for i, w := range counts(cur) {
			same = same && w == counts(prev)[i]
		}
		if same && cur.Total().Tasks > 0 {
			return cur
		}
		prev = cur
	}
	return prev
}

// requireConsistent checks what must hold of a quiet pool's counters.
func requireConsistent(t *testing.T, s par.Stats) {
	t.Helper()
	tot := s.Total()
	require.LessOrEqual(t, tot.Steals, tot.StealTries, "a steal is a successful try")
	require.Equal(t, tot.Steals+tot.Injected, tot.Tasks, "every task a participant ran that it did not fork itself was stolen or injected")
	require.LessOrEqual(t, tot.Injected, s.Submitted, "only submitted tasks are injected")
	for i, w := range s.Workers {
		require.LessOrEqual(t, w.Steals, w.StealTries, "worker %d", i)
		require.Equal(t, w.Steals+w.Injected, w.Tasks, "worker %d", i)
	}
	require.Positive(t, s.Uptime)
}

// TestTotalSumsEveryCounter: Total adds up every field of WorkerStats, the
// callers' and each worker's, so a counter added to them cannot be left out.
func TestTotalSumsEveryCounter(t *testing.T) {
	s := par.Stats{Workers: make([]par.WorkerStats, 2)}
	parts := []*par.WorkerStats{&s.Callers, &s.Workers[0], &s.Workers[1]}
	n := reflect.TypeFor[par.WorkerStats]().NumField()
	for i, w := range parts {
		v := reflect.ValueOf(w).Elem()
		for f := range n {
			v.Field(f).Set(reflect.ValueOf(1 + f + 100*i).Convert(v.Field(f).Type()))
		}
	}
	tot := reflect.ValueOf(s.Total())
	for f := range n {
		require.EqualValues(t, 3*(1+f)+300, tot.Field(f).Convert(reflect.TypeFor[int]()).Int(),
			"WorkerStats.%s", reflect.TypeFor[par.WorkerStats]().Field(f).Name)
	}
}

func TestStatsAfterWork(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	t.Cleanup(p.Close)
	before := p.Stats().Total()
	require.Zero(t, before.Tasks)
	require.Zero(t, before.Steals)

	require.True(t, forceSteal(p), "no attempt saw its second piece stolen")
	s := quietStats(p)
	requireConsistent(t, s)
	require.GreaterOrEqual(t, s.Total().Steals, uint64(1))
	require.GreaterOrEqual(t, s.Total().Tasks, uint64(1))

	// More work only adds to the counts.
	par.For(100_000, func(int) {}, par.OnPool(p), par.WithGrain(100))
	var f int
	par.Do(func(w *par.Worker) { f = fib(w, 18) }, par.OnPool(p))
	require.Equal(t, 2584, f)
	s2 := quietStats(p)
	requireConsistent(t, s2)
	require.GreaterOrEqual(t, s2.Total().Tasks, s.Total().Tasks)
	require.GreaterOrEqual(t, s2.Total().StealTries, s.Total().StealTries)
	require.Positive(t, s2.Total().Inline, "forks taken back by their forker")
	require.Positive(t, s2.Total().Busy)
	require.GreaterOrEqual(t, s2.Uptime, s.Uptime)
}

// forceSteal makes calls on p of two pieces whose first waits until the second
// has started elsewhere, until one succeeds, and reports whether one did: the
// second piece must then have been stolen. A try can fail when the pool's
// workers are not idle at the fork (they may not have started yet), since a
// fork made while none is idle may stay private until the forker's next push
// or pop (see steal_test.go); the next try finds them idle.
func forceSteal(p *par.Pool) bool {
	for range 20 {
		started := make(chan struct{})
		var stolen atomic.Bool
		par.For(2, func(i int) {
			if i == 1 {
				close(started)
				return
			}
			select {
			case <-started:
				stolen.Store(true)
			case <-time.After(100 * time.Millisecond):
			}
		}, par.OnPool(p), par.WithGrain(1))
		if stolen.Load() {
			return true
		}
	}
	return false
}

// TestInlineCountsRecordedForks: Inline counts each fork whose second half
// its forker ran itself after recording or pushing it; a fork made as plain
// calls, as most forks of a recursion are (see Join2), is not counted. Nobody
// steals from the caller here: a tree of depth 10 records its first
// par.RecordDepth levels, and no task runs. On one processor a recursion
// records nothing (see split.Fork), so none of its forks counts.
func TestInlineCountsRecordedForks(t *testing.T) {
	p, release, g1Done := busyPool(t)
	defer func() { close(release); <-g1Done }()
	before := p.Stats().Callers
	forks := 0
	var walk func(w *par.Worker, depth int)
	walk = func(w *par.Worker, depth int) {
		if depth == 0 {
			return
		}
		forks++
		w.Join(func(w *par.Worker) { walk(w, depth-1) }, func(w *par.Worker) { walk(w, depth-1) })
	}
	par.Do(func(w *par.Worker) { walk(w, 10) }, par.OnPool(p))
	after := p.Stats().Callers
	inline := after.Inline - before.Inline
	if runtime.GOMAXPROCS(0) < 2 {
		require.Zero(t, inline, "a recursion on one processor records no fork")
	} else {
		require.Positive(t, inline, "recorded forks")
		require.Less(t, inline, uint64(forks/4), "plain forks must not count")
	}
	require.Equal(t, before.Tasks, after.Tasks)
}

func TestDefaultStats(t *testing.T) {
	par.For(10_000, func(int) {}, par.WithGrain(10))
	s := par.DefaultStats()
	require.Len(t, s.Workers, par.DefaultWorkers())
	require.Positive(t, s.Total().Inline)
}

// TestCallerBusyCountsItsOwnWork: a caller's busy time includes the work it
// does on its own call, so utilization (busy over wall) counts it. Busy is
// measured with the same clock as f's elapsed time: the comparison is of the
// accounting, not of speed.
// Once caught: a call that ran entirely on its caller reported no busy time at all.
func TestCallerBusyCountsItsOwnWork(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	before := p.Stats()
	var worked time.Duration
	par.Do(func(w *par.Worker) {
		start := time.Now()
		for time.Since(start) < 20*time.Millisecond {
		}
		worked = time.Since(start)
	}, par.OnPool(p))
	after := p.Stats()
	busy := after.Total().Busy - before.Total().Busy
	require.GreaterOrEqual(t, busy, worked/2,
		"the caller worked %v on its own call but the pool reports %v busy", worked, busy)
}

// TestTraceTasksAndRegions checks that with tracing on, a call shows in the
// execution trace as a task named after the function, with its leaves as
// regions, so that `go tool trace` can show what each call did where.
func TestTraceTasksAndRegions(t *testing.T) {
	if trace.IsEnabled() {
		t.Skip("a trace is already running")
	}
	var buf bytes.Buffer
	require.NoError(t, trace.Start(&buf))
	xs := make([]int, 200_000)
	par.Map(xs, func(x int) int { return x + 1 }, par.WithGrain(10_000))
	par.Sum(xs, par.WithGrain(10_000))
	trace.Stop()

	// The names of tasks and regions are in the trace's string table. (The
	// trace parser of golang.org/x/exp that this module can use reads only
	// older trace versions.)
	out := buf.Bytes()
	require.True(t, bytes.Contains(out, []byte("par.Map")), "no par.Map task in the trace")
	require.True(t, bytes.Contains(out, []byte("par.Sum")), "no par.Sum task in the trace")
	require.True(t, bytes.Contains(out, []byte("leaf")), "no leaf region in the trace")
}

// BenchmarkTraceOff is the cost of the tracing hooks when no trace runs: the
// same small Sum as W8, which must cost what it costs without them.
func BenchmarkTraceOff(b *testing.B) {
	xs := make([]float64, 2000)
	for b.Loop() {
		par.Sum(xs)
	}
}
