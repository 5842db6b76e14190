package par_test

import (
	"bytes"
	"runtime/trace"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

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
