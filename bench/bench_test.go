// The tests are in package main, not main_test: a main package cannot be
// imported, so an external test package could reach none of it.
package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

func testSuite(t *testing.T, workers int) *suite {
	t.Helper()
	pool := par.NewPool(par.Workers(workers))
	e := newEnv(workers, 1_000_000)
	t.Cleanup(func() {
		e.close()
		pool.Close()
	})
	s := &suite{env: e, pool: pool, opts: []par.Option{par.OnPool(pool)},
		strategies: append(handStrategies(), libStrategies()...)}
	t.Cleanup(func() {
		for _, f := range s.cleanups {
			f()
		}
	})
	return s
}

// runOnce runs im once and returns its checksum.
func runOnce(im impl) string {
	if im.setup != nil {
		im.setup()
	}
	im.run(1)
	return im.check()
}

// TestImplementationsAgree runs every implementation of every workload and
// requires the sequential checksum. Small sizes keep the per-element ones
// under the race detector's limit on live goroutines; larger ones make weft
// and the range strategies cut their ranges for real.
func TestImplementationsAgree(t *testing.T) {
	s := testSuite(t, 3)
	small := map[string]int{"W1": 3000, "W2": 3000, "W3": 1000, "W4": 16, "W4c": 23, "W5": 3000,
		"W6": 20_000, "W7": 3000, "W8s": 2000, "W8m": 1000, "W9": 3000, "W10": 3000,
		"W12": 3000, "W12f": 3000, "W12h": 3000}
	large := map[string]int{"W1": 2_000_000, "W2": 100_000, "W3": 5000, "W4": 24, "W4c": 27, "W5": 100_000,
		"W6": 200_000, "W7": 100_000, "W9": 1_000_000, "W10": 1_000_000, "W12": 300_000, "W12f": 300_000, "W12h": 300_000}
	if testing.Short() {
		large = map[string]int{"W2": 50_000, "W4": 20, "W6": 50_000, "W9": 200_000, "W10": 200_000, "W12": 50_000, "W12f": 50_000, "W12h": 50_000}
	}
	for _, sizes := range []map[string]int{small, large} {
		for _, w := range allWorkloads() {
			n, ok := sizes[w.id]
			if !ok {
				continue
			}
			impls := w.build(s, n)
			require.Equal(t, "sequential", impls[0].name)
			want := runOnce(impls[0])
			ran := 0
			for _, im := range impls[1:] {
				if im.skip != "" {
					assert.NotEqual(t, kindWeft, im.kind, "%s: weft skipped: %s", w.id, im.skip)
					continue
				}
				if im.perElement && n > small[w.id] {
					continue
				}
				assert.Equal(t, want, runOnce(im), "%s n=%d %s", w.id, n, im.name)
				ran++
			}
			assert.Positive(t, ran, "%s: no implementation beside the sequential one ran", w.id)
		}
	}
}

// TestFullSizeReferences checks the sequential definitions against
// docs/DESIGN.md's reference checksums where the full size is fast to run.
func TestFullSizeReferences(t *testing.T) {
	s := testSuite(t, 2)
	ids := map[string]bool{"W1": true, "W2": true, "W3": true, "W4": true, "W7": true, "W9": true, "W10": true, "W12": true}
	if testing.Short() {
		ids = map[string]bool{"W1": true, "W2": true}
	}
	for _, w := range allWorkloads() {
		if !ids[w.id] {
			continue
		}
		got := runOnce(w.build(s, w.fullN)[0])
		ok := got == w.ref || strings.HasPrefix(got, w.ref+",")
		assert.True(t, ok, "%s at %d: %q, docs/DESIGN.md says %q", w.id, w.fullN, got, w.ref)
	}
}

// TestW12MeanRoundsHalfUp checks the mean of docs/DESIGN.md's W12,
// floor((2*sum + count) / (2*count)), where Go's division truncates.
func TestW12MeanRoundsHalfUp(t *testing.T) {
	for _, c := range []struct{ sum, count, want int64 }{
		{5, 2, 3}, {-5, 2, -2}, {4, 2, 2}, {-4, 2, -2}, {-7, 3, -2}, {7, 3, 2}, {-1, 3, 0}, {-2, 3, -1}, {0, 1, 0},
	} {
		assert.Equal(t, c.want, w12Mean(w12Stat{Sum: c.sum, Count: c.count}), "sum %d count %d", c.sum, c.count)
	}
}

func TestPerElementOverCapIsSkippedWithReason(t *testing.T) {
	m := &measurer{warmup: 1, reps: 3, cap: time.Millisecond}
	ran := false
	im := impl{name: "x", kind: kindLib, perElement: true,
		run: func(int) { ran = true }, check: func() string { return "0" }}
	r := m.measure("W0", false, im, func(time.Duration) (time.Duration, string) { return time.Hour, "1s on n = 1" })
	assert.False(t, ran)
	assert.Contains(t, r.Skip, "projected")
	assert.Contains(t, r.Skip, "cap")
}

func TestSlowWarmupIsCappedAndMarked(t *testing.T) {
	m := &measurer{warmup: 1, reps: 5, cap: time.Nanosecond}
	runs := 0
	im := impl{name: "x", kind: kindHand,
		run:   func(int) { runs++; time.Sleep(time.Millisecond) },
		check: func() string { return "0" }}
	r := m.measure("W0", false, im, nil)
	assert.Equal(t, 1, runs)
	assert.NotEmpty(t, r.Capped)
	assert.Len(t, r.Times, 1)
	assert.Equal(t, "0", r.Checksum)
}

// TestSlowCallIsOutOfW11FromItsSize: a competitor whose call at a size of
// W11 takes longer than callsRunTarget and callsCapFactor times the loop's,
// twice, has its figure there from one call, marked, and is not called at
// larger sizes; weft's implementations are measured whatever they take.
func TestSlowCallIsOutOfW11FromItsSize(t *testing.T) {
	calls := map[string]map[int]int{"lib": {}, "weft": {}}
	slow := func(name string) func(n int) {
		return func(n int) { calls[name][n]++; time.Sleep(callsRunTarget + time.Millisecond) }
	}
	zero := func() string { return "0" }
	b := &callsBody{id: "W0", def: "a test", sizes: []int{1, 2},
		impls: func(*suite, []int) []callImpl {
			return []callImpl{
				{name: "loop", kind: kindSeq, call: func(int) {}, sum: zero},
				{name: "lib", kind: kindLib, call: slow("lib"), sum: zero},
				{name: "weft", kind: kindWeft, call: slow("weft"), sum: zero},
			}
		}}
	c, errs := (&suite{}).callsCurve(b, nil, 1, 3, newProgress(false))
	require.Empty(t, errs)
	require.Len(t, c.Rows, 2)
	assert.Equal(t, []string{"", callsOnce, ""}, c.Rows[0].Out)
	assert.Equal(t, []string{"", callsSkipped, ""}, c.Rows[1].Out)
	assert.Equal(t, map[int]int{1: 2}, calls["lib"], "twice at its first size, never after")
	assert.Greater(t, c.Rows[0].Ratio[1], 0.0)
	assert.Zero(t, c.Rows[1].Ratio[1])
	assert.Greater(t, calls["weft"][2], 3, "weft: a check, then an untimed and a timed call a round")

	var out strings.Builder
	writeCallsText(&out, []*callsCurve{c})
	assert.Contains(t, out.String(), "* one call")
	assert.Regexp(t, `(?m)^ +2 .* - +\S+$`, out.String(), "a skipped size reads -")
}

func TestBudgetAddsRounds(t *testing.T) {
	runs := func(m *measurer) int {
		n := 0
		im := impl{name: "x", kind: kindHand, run: func(int) { n++ }, check: func() string { return "0" }}
		r := m.measure("W0", false, im, nil)
		assert.Len(t, r.Times, n)
		return n
	}
	assert.Equal(t, 3, runs(&measurer{reps: 3}), "no budget: reps rounds")
	assert.Equal(t, 3, runs(&measurer{reps: 3, budget: time.Nanosecond, maxReps: 50}), "a spent budget adds none")
	assert.Equal(t, 7, runs(&measurer{reps: 3, budget: time.Hour, maxReps: 7}), "a budget left: up to maxReps")
	assert.Equal(t, 3, runs(&measurer{reps: 3, budget: time.Hour, maxReps: 2}), "never fewer than reps")
}

func TestMismatchIsAnError(t *testing.T) {
	w := &wlReport{ID: "W9", N: 10, FullN: 10, Ref: "42", Results: []*result{
		{Impl: "sequential", Kind: kindSeq, Median: 10, Checksum: "42"},
		{Impl: "weft", Kind: kindWeft, Median: 5, Checksum: "42"},
		{Impl: "static", Kind: kindHand, Median: 4, Checksum: "41"},
		{Impl: "lo", Kind: kindLib, Skip: "too slow"},
	}}
	errs := w.finish()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "static")
	require.NotNil(t, w.RefOK)
	assert.True(t, *w.RefOK)
	assert.InDelta(t, 2.0, w.result("weft").Speedup, 1e-9)
	assert.InDelta(t, 0.8, w.result("static").VsWeft, 1e-9)

	w.Results[0].Checksum = "43"
	w.Results[1].Checksum = "43"
	w.Results[2].Checksum = "43"
	errs = w.finish()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "reference")
}

func TestSelect(t *testing.T) {
	ws, calls, err := selectWorkloads("w4,W8")
	require.NoError(t, err)
	assert.False(t, calls)
	var ids []string
	for _, w := range ws {
		ids = append(ids, w.id)
	}
	assert.Equal(t, []string{"W4", "W4c", "W8s", "W8m"}, ids)
	_, _, err = selectWorkloads("W99")
	assert.Error(t, err)
	ws, calls, err = selectWorkloads("w11")
	require.NoError(t, err)
	assert.True(t, calls)
	assert.Empty(t, ws)
	ws, _, err = selectWorkloads("w9,W10")
	require.NoError(t, err)
	require.Len(t, ws, 2)
	assert.Equal(t, "W9", ws[0].id)
	assert.Equal(t, "W10", ws[1].id)
	sts, err := selectStrategies("conc,static")
	require.NoError(t, err)
	require.Len(t, sts, 2)
	assert.Equal(t, "conc", sts[0].name)
	_, err = selectStrategies("nosuch")
	assert.Error(t, err)
	sizes, err := parseSizes("W1=1_000,w4=20")
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"W1": 1000, "W4": 20}, sizes)
	_, err = parseSizes("W1=0")
	assert.Error(t, err)
	f, err := parseFlags([]string{"-json", "-full"})
	require.NoError(t, err)
	assert.Equal(t, "-", f.jsonPath)
	assert.True(t, f.full)
	f, err = parseFlags([]string{"-json=r.json"})
	require.NoError(t, err)
	assert.Equal(t, "r.json", f.jsonPath)
}

// TestOutputs runs a tiny suite end to end and checks that the JSON parses
// and the chart is well-formed XML.
func TestOutputs(t *testing.T) {
	dir := t.TempDir()
	f, err := parseFlags([]string{"-w", "W2,W4c,W8m", "-c", "static,pargo", "-n", "W2=20000,W4=22",
		"-reps", "1", "-warmup", "0", "-sweep=true", "-scaling=false",
		"-json=" + filepath.Join(dir, "r.json"), "-html", filepath.Join(dir, "r.html"), "-svg", filepath.Join(dir, "r.svg")})
	require.NoError(t, err)
	stdout := os.Stdout
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	os.Stdout, err = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	code, err := run(f)
	os.Stdout.Close()
	os.Stdout = stdout
	require.NoError(t, err)
	assert.Equal(t, 0, code)

	var rep map[string]any
	b, err := os.ReadFile(filepath.Join(dir, "r.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rep))
	assert.Len(t, rep["workloads"], 3)

	for _, name := range []string{"r.svg", "r.html"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.NotContains(t, string(b), "<script")
		if name == "r.svg" {
			d := xml.NewDecoder(strings.NewReader(string(b)))
			for {
				_, err := d.Token()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
			}
		}
	}
}

// TestPairedRatio: the sweep compares the default with a grain round by
// round, so that a machine that slows down for some rounds slows both sides
// of each ratio alike.
func TestPairedRatio(t *testing.T) {
	// The machine triples its speed over the rounds; within each, a takes
	// 5% longer than b.
	assert.InDelta(t, 1.05, pairedRatio(millis(63, 42, 21), millis(60, 40, 20)), 1e-9)
	// Ratios 1, 1.5, 2 and 1: the mean of the middle two.
	assert.InDelta(t, 1.25, pairedRatio(millis(1, 3, 2, 9), millis(1, 2, 1, 9)), 1e-9)
	assert.Zero(t, pairedRatio(nil, nil))
}

// TestPickBest: the sweep judges each round of the default against the grain
// fastest on the rounds of the other parity, so that a grain whose noise ran
// low on the rounds that judge is not also the one chosen, and every round
// judges.
func TestPickBest(t *testing.T) {
	adaptive := millis(100, 100, 100, 100, 100, 100)
	grains := [][]time.Duration{
		millis(99, 80, 99, 80, 99, 80), // fastest on the odd rounds: judges the even ones
		millis(90, 98, 90, 98, 90, 98), // fastest on the even rounds: judges the odd ones
		millis(95, 99, 95, 99, 95, 99),
		millis(50), // capped: one run
	}
	best, paired := pickBest(adaptive, grains)
	assert.Equal(t, 0, best, "the lowest median over all rounds")
	assert.InDelta(t, (100.0/99+100.0/98)/2, paired, 1e-9, "three rounds against 99 ms, three against 98")
	// One grain fastest everywhere judges every round.
	best, paired = pickBest(millis(100, 90, 110), [][]time.Duration{millis(50, 45, 55), millis(100, 100, 100)})
	assert.Equal(t, 0, best)
	assert.InDelta(t, 2.0, paired, 1e-9)
	best, paired = pickBest(nil, nil)
	assert.Equal(t, -1, best)
	assert.Zero(t, paired)
}

// millis returns the durations of xs milliseconds.
func millis(xs ...int) []time.Duration {
	ds := make([]time.Duration, len(xs))
	for i, x := range xs {
		ds[i] = time.Duration(x) * time.Millisecond
	}
	return ds
}

// TestPairedVsWeft: each competitor's time is also compared with weft's round
// by round, per call, where it ran every round; the verdict of who beat weft
// takes that ratio where there is one.
func TestPairedVsWeft(t *testing.T) {
	w := &wlReport{ID: "W8s", N: 10, FullN: 10, Results: []*result{
		{Impl: "sequential", Kind: kindSeq, Calls: 1, Median: 40, Times: millis(40, 40, 40), Checksum: "1"},
		// The machine is four times slower for two of weft's rounds.
		{Impl: "weft", Kind: kindWeft, Calls: 1, Median: 40, Times: millis(10, 40, 40), Checksum: "1"},
		// Two calls a run, 10% slower than weft's in two rounds of three,
		// with a median far below weft's.
		{Impl: "static", Kind: kindHand, Calls: 2, Median: 11, Times: millis(22, 22, 88), Checksum: "1"},
		// Capped at one run: only the medians compare.
		{Impl: "lo", Kind: kindLib, Calls: 1, Median: 19, Times: millis(19), Checksum: "1"},
	}}
	require.Empty(t, w.finish())
	assert.InDelta(t, 1.1, w.result("static").Paired, 1e-9)
	assert.InDelta(t, 0.275, w.result("static").VsWeft, 1e-9)
	assert.Zero(t, w.result("lo").Paired)
	fs := fasterThanWeft([]*wlReport{w})
	require.Len(t, fs, 1)
	assert.Equal(t, "lo", fs[0].Impl)
	assert.True(t, fs[0].Sure, "by the medians")
}

// TestFasterNeedsRounds: a competitor counts as faster than weft only if it
// was faster in so many rounds that two implementations as fast as each
// other would rarely be told apart so (a one-sided sign test at 5%); one
// ahead by the paired median alone is listed apart.
func TestFasterNeedsRounds(t *testing.T) {
	assert.InDelta(t, 1.0/32, signP(5, 5), 1e-12)
	assert.InDelta(t, 1.0, signP(0, 7), 1e-12)
	assert.InDelta(t, 0.5, signP(3, 5), 1e-12) // 10+5+1 of 32
	assert.InDelta(t, 0.0392, signP(15, 21), 1e-4)
	assert.Greater(t, signP(14, 21), 0.05)

	w := &wlReport{ID: "W1", N: 10, FullN: 10, Results: []*result{
		{Impl: "sequential", Kind: kindSeq, Calls: 1, Median: 40, Times: millis(40, 40, 40, 40, 40), Checksum: "1"},
		{Impl: "weft", Kind: kindWeft, Calls: 1, Median: 20, Times: millis(20, 20, 20, 20, 20), Checksum: "1"},
		{Impl: "static", Kind: kindHand, Calls: 1, Median: 19, Times: millis(19, 19, 19, 19, 19), Checksum: "1"},
		{Impl: "dynamic", Kind: kindHand, Calls: 1, Median: 19, Times: millis(19, 19, 19, 21, 22), Checksum: "1"},
	}}
	require.Empty(t, w.finish())
	assert.Equal(t, 3, w.result("dynamic").Wins)
	fs := fasterThanWeft([]*wlReport{w})
	require.Len(t, fs, 2)
	byName := map[string]faster{fs[0].Impl: fs[0], fs[1].Impl: fs[1]}
	assert.True(t, byName["static"].Sure, "faster in 5 rounds of 5")
	assert.Equal(t, 5, byName["static"].Wins)
	assert.False(t, byName["dynamic"].Sure, "faster in 3 rounds of 5")
	var out strings.Builder
	writeFasterText(func(f string, a ...any) { fmt.Fprintf(&out, f, a...) }, fs)
	assert.Contains(t, out.String(), "Faster than weft")
	assert.Contains(t, out.String(), "W1 static 0.95 (5 of 5)")
	assert.Contains(t, out.String(), "too few rounds to tell the two apart (a sign test at 5%): W1 dynamic 0.95 (3 of 5)")
}
