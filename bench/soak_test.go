package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// shortSoak returns the configuration of a soak that a test can afford.
func shortSoak(d time.Duration) soakConfig {
	cfg := defaultSoakConfig(d)
	cfg.goroutines = 8
	cfg.maxN = 50_000
	if testing.Short() || raceEnabled {
		cfg.maxN = 10_000
	}
	cfg.seed = 1
	return cfg
}

// TestSoakReports runs a short soak: every operation runs and agrees with its
// sequential oracle, and the report has what the long run is read for.
func TestSoakReports(t *testing.T) {
	d := 1500 * time.Millisecond
	if testing.Short() {
		d = time.Second
	}
	rep := runSoak(shortSoak(d), nil)
	require.Zero(t, rep.Mismatches, "mismatches: %v", rep.Errors)
	assert.Empty(t, rep.Errors)
	assert.False(t, rep.failed(), "flags: %v", rep.Flags)

	require.NotEmpty(t, rep.Intervals)
	var calls int64
	for _, iv := range rep.Intervals {
		calls += iv.Calls
		assert.Positive(t, iv.Goroutines)
		assert.Positive(t, iv.GCs)
	}
	assert.LessOrEqual(t, calls, rep.Calls, "the intervals count no more calls than the run")
	require.Len(t, rep.Ops, len(soakOps()))
	var sum int64
	for _, op := range rep.Ops {
		assert.Positive(t, op.Calls, "operation %s never ran", op.Name)
		sum += op.Calls
	}
	assert.Equal(t, rep.Calls, sum)
	assert.Positive(t, rep.Panics, "no injected panic reached its caller")

	for _, m := range []soakMem{rep.Start, rep.End} {
		assert.Positive(t, m.Goroutines)
		assert.Positive(t, m.HeapLive)
		assert.Positive(t, m.HeapInuse)
	}
	assert.Len(t, rep.Default.Workers, par.DefaultWorkers())
	tot := rep.Default.Total()
	assert.Positive(t, tot.Inline+tot.Tasks, "the default pool's counters did not move")
	assert.Positive(t, rep.PrivatePools)

	var b strings.Builder
	rep.write(&b)
	for _, want := range []string{"calls/s", "mismatches", "goroutines", "heap live", "heap in use", "RSS",
		"Default pool", "steals", "parks", "Private pools", "PASS"} {
		assert.Contains(t, b.String(), want)
	}
}

// TestSoakCountsMismatches: with a wrong oracle, the soak counts mismatches
// and fails.
func TestSoakCountsMismatches(t *testing.T) {
	cfg := shortSoak(300 * time.Millisecond)
	cfg.corrupt = true
	rep := runSoak(cfg, nil)
	assert.Positive(t, rep.Mismatches)
	assert.True(t, rep.failed())
	var b strings.Builder
	rep.write(&b)
	assert.Contains(t, b.String(), "MISMATCH sum:")
	assert.Contains(t, b.String(), "FAIL")
}

// TestFairReports runs the fairness measurement on a tiny large call: every
// kind of small call has an idle and a busy row, with right results.
func TestFairReports(t *testing.T) {
	cfg := defaultFairConfig()
	cfg.callers, cfg.rounds, cfg.n = 2, 1, 1000
	cfg.bigN, cfg.bigK = 2000, 400
	rep := runFair(cfg, nil)
	assert.False(t, rep.failed())
	require.Len(t, rep.Rows, 2*len(smallKinds(nil)))
	for i, row := range rep.Rows {
		assert.Equal(t, i%2 == 1, row.Busy)
		assert.Positive(t, row.Calls, "%s busy=%v", row.Kind, row.Busy)
		assert.Zero(t, row.Mismatches)
		assert.LessOrEqual(t, row.P50, row.P99)
		assert.LessOrEqual(t, row.P99, row.Max)
	}
	var b strings.Builder
	rep.write(&b)
	for _, want := range []string{"p50", "p99", "p99.9", "max", "idle", "busy", "under 3.00ms"} {
		assert.Contains(t, b.String(), want)
	}
}
