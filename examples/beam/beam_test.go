package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weftgo/weft/par"
)

// TestMain does what main does before it builds a pipeline. The pipelines
// run on prism, in this process; there is no goroutine leak check in this
// package, because prism keeps its job server and its goroutines for the
// life of the process by design.
func TestMain(m *testing.M) {
	beamlog.LogLevel = "warn"
	flag.Parse()
	beam.Init()
	os.Exit(m.Run())
}

// want is the oracle's account of a set of tiles: every pixel rendered on
// its own, with nothing shared with the pipeline but escape.
type want struct {
	pixels, inside, iterations int64
	area                       float64
	escapes                    map[int]int64
}

func oracle(tiles []Tile) want {
	w := want{escapes: map[int]int64{}}
	for _, t := range tiles {
		dx := (t.XMax - t.XMin) / float64(t.Width)
		dy := (t.YMax - t.YMin) / float64(t.Height)
		for y := range t.Height {
			for x := range t.Width {
				n := escape(t.XMin+(float64(x)+0.5)*dx, t.YMax-(float64(y)+0.5)*dy, t.MaxIter)
				w.pixels++
				w.iterations += int64(n)
				if n == t.MaxIter {
					w.inside++
					w.area += dx * dy
				} else {
					w.escapes[n]++
				}
			}
		}
	}
	return w
}

// readOutput parses the file the pipeline wrote.
func readOutput(t *testing.T, path string, tiles int) want {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	sc := bufio.NewScanner(bytes.NewReader(b))
	require.True(t, sc.Scan())
	var w want
	var n int
	_, err = fmt.Sscanf(sc.Text(), "# %d tiles, %d pixels, %d inside the set (area %f), %d iterations",
		&n, &w.pixels, &w.inside, &w.area, &w.iterations)
	require.NoError(t, err, sc.Text())
	assert.Equal(t, tiles, n)
	require.True(t, sc.Scan())
	assert.Equal(t, "# escape time (iterations)\tpixels", sc.Text())
	w.escapes = map[int]int64{}
	last, inside := -1, int64(-1)
	for sc.Scan() {
		require.Negative(t, inside, "a line after the inside line: %q", sc.Text())
		k, c, ok := strings.Cut(sc.Text(), "\t")
		require.True(t, ok, sc.Text())
		v, err := strconv.ParseInt(c, 10, 64)
		require.NoError(t, err)
		require.Positive(t, v, "a line for an escape time that no pixel has: %q", sc.Text())
		if k == "inside" {
			inside = v
			continue
		}
		e, err := strconv.Atoi(k)
		require.NoError(t, err)
		require.Greater(t, e, last, "escape times out of order")
		last = e
		w.escapes[e] = v
	}
	assert.Equal(t, w.inside, inside, "the inside line and the summary disagree")
	return w
}

func checkOutput(t *testing.T, path string, tiles []Tile) {
	t.Helper()
	got, exp := readOutput(t, path, len(tiles)), oracle(tiles)
	assert.Equal(t, exp.pixels, got.pixels)
	assert.Equal(t, exp.inside, got.inside)
	assert.Equal(t, exp.iterations, got.iterations)
	assert.InDelta(t, exp.area, got.area, 0.00005+exp.area*1e-9) // printed with 4 decimals
	assert.Equal(t, exp.escapes, got.escapes)
}

func TestPipelineGeneratedTiles(t *testing.T) {
	tiles := grid(3, 37, 150)
	out := filepath.Join(t.TempDir(), "hist.txt")
	var stdout bytes.Buffer
	timings, err := run(context.Background(), &stdout, config{tiles: tiles, output: out, steps: []bool{false, true}, runs: 2})
	require.NoError(t, err)
	checkOutput(t, out, tiles)

	require.Len(t, timings, 2)
	for i, tm := range timings {
		assert.Equal(t, i == 1, tm.weft)
		assert.Equal(t, int64(len(tiles)), tm.tiles, "the tiles counter of the %s step", stepName(tm.weft))
		assert.GreaterOrEqual(t, tm.maxAtOnce, int64(1))
		assert.Positive(t, tm.pipeline)
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Len(t, lines, 4, stdout.String())
	w := oracle(tiles)
	assert.Equal(t, fmt.Sprintf("9 tiles, %d pixels, %d inside the set (area %.4f), %d iterations, written to %s by Beam's prism runner",
		w.pixels, w.inside, w.area, w.iterations, out), lines[0])
	assert.Regexp(t, `^element step +pipeline \(median of 2\) +element steps summed +at most at once$`, lines[1])
	assert.Regexp(t, `^plain loop over rows +\S+ +\S+ +\d+$`, lines[2])
	assert.Regexp(t, `^weft \(par\.For rows\) +\S+ \(\d+\.\d\dx\) +\S+ +\d+$`, lines[3])
}

func TestPipelineTileFiles(t *testing.T) {
	dir := t.TempDir()
	a := []Tile{
		{XMin: -2, YMin: -1, XMax: 0.5, YMax: 1, Width: 50, Height: 40, MaxIter: 100},
		{XMin: -0.8, YMin: 0.05, XMax: -0.7, YMax: 0.15, Width: 30, Height: 30, MaxIter: 2000},
		{XMin: 0, YMin: 0, XMax: 0.1, YMax: 0.1, Width: 1, Height: 1, MaxIter: 1},
	}
	b := []Tile{
		{XMin: -1.5, YMin: -0.5, XMax: -1, YMax: 0, Width: 7, Height: 61, MaxIter: 300},
		{XMin: 0.25, YMin: -0.01, XMax: 0.26, YMax: 0.01, Width: 20, Height: 20, MaxIter: 5000},
	}
	text := func(ts []Tile) string {
		var s strings.Builder
		s.WriteString("# xmin ymin xmax ymax width height maxiter\n\n")
		for _, t := range ts {
			fmt.Fprintf(&s, "  %s\t\n", t)
		}
		return s.String()
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.tiles"), []byte(text(a)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.tiles"), []byte(text(b)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.other"), []byte("not a tile\n"), 0o644))
	all := append(append([]Tile{}, a...), b...)

	for _, tc := range []struct {
		name  string
		globs []string
	}{
		{"one glob", []string{filepath.Join(dir, "*.tiles")}},
		{"two files", []string{filepath.Join(dir, "b.tiles"), filepath.Join(dir, "a.tiles")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "hist.txt")
			timings, err := run(context.Background(), &bytes.Buffer{}, config{globs: tc.globs, output: out, steps: []bool{true}, runs: 1})
			require.NoError(t, err)
			checkOutput(t, out, all)
			require.Len(t, timings, 1)
			assert.Equal(t, int64(len(all)), timings[0].tiles)
		})
	}
}

func TestPipelineBadTileFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.tiles")
	require.NoError(t, os.WriteFile(path, []byte("-2 -1 1 1 10 10 100\n-2 -1 1 1 10 10\n"), 0o644))
	_, err := run(context.Background(), &bytes.Buffer{}, config{globs: []string{path}, output: filepath.Join(dir, "out.txt"), steps: []bool{true}, runs: 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+`: "-2 -1 1 1 10 10": want 7 fields`)

	empty := filepath.Join(dir, "empty.tiles")
	require.NoError(t, os.WriteFile(empty, []byte("# no tile here\n\n"), 0o644))
	_, err = run(context.Background(), &bytes.Buffer{}, config{globs: []string{empty}, output: filepath.Join(dir, "out2.txt"), steps: []bool{true}, runs: 1})
	require.Error(t, err)
	assert.Equal(t, "no tile in "+empty, err.Error())
}

func TestRunRejectsBadConfig(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.txt")
	for _, c := range []config{
		{tiles: grid(1, 1, 1), output: out, steps: []bool{true}, runs: 0},
		{tiles: grid(1, 1, 1), output: out, runs: 1},
		{output: out, steps: []bool{true}, runs: 1},
	} {
		_, err := run(context.Background(), &bytes.Buffer{}, c)
		assert.Error(t, err, "%+v", c)
	}
}

func TestEscape(t *testing.T) {
	for _, tc := range []struct {
		cx, cy float64
		want   int
	}{
		{0, 0, 100},    // the centre of the main cardioid never escapes
		{-1, 0, 100},   // a cycle of period 2: 0, -1, 0, -1, ...
		{-2, 0, 100},   // the tip of the needle: 0, -2, 2, 2, ... stays at |z| = 2
		{1, 0, 3},      // 0, 1, 2, 5: |z|² exceeds 4 at the third step
		{0.5, 0, 5},    // 0, .5, .75, 1.0625, 1.62890625, 3.1533...
		{0, 3, 1},      // 0, 3i
		{0.25, 0, 100}, // the cusp of the cardioid converges to 1/2
	} {
		assert.Equal(t, tc.want, escape(tc.cx, tc.cy, 100), "c = %v%+vi", tc.cx, tc.cy)
	}
}

func TestEscapesWeftMatchesLoop(t *testing.T) {
	for _, tile := range []Tile{
		{XMin: -2.5, YMin: -1.75, XMax: 1, YMax: 1.75, Width: 1, Height: 1, MaxIter: 50},
		{XMin: -2.5, YMin: -1.75, XMax: 1, YMax: 1.75, Width: 3, Height: 200, MaxIter: 50},
		{XMin: -2.5, YMin: -1.75, XMax: 1, YMax: 1.75, Width: 300, Height: 2, MaxIter: 50},
		{XMin: -0.75, YMin: 0.1, XMax: -0.74, YMax: 0.11, Width: 64, Height: 64, MaxIter: 3000},
	} {
		seq := tile.escapes(false)
		require.Len(t, seq, tile.Width*tile.Height)
		assert.Equal(t, seq, tile.escapes(true), "%v", tile)
		// The rows come from the top: the first pixel is the top left one.
		dx, dy := (tile.XMax-tile.XMin)/float64(tile.Width), (tile.YMax-tile.YMin)/float64(tile.Height)
		assert.Equal(t, uint32(escape(tile.XMin+dx/2, tile.YMax-dy/2, tile.MaxIter)), seq[0])
	}
}

func TestParseTile(t *testing.T) {
	good := Tile{XMin: -2.5, YMin: -1.25, XMax: 1, YMax: 1.25, Width: 640, Height: 480, MaxIter: 500}
	for _, tc := range []struct {
		line string
		want Tile
		ok   bool
		err  string
	}{
		{line: "-2.5 -1.25 1 1.25 640 480 500", want: good, ok: true},
		{line: "\t-2.5  -1.25 1e0 1.25\t640 480 500  ", want: good, ok: true},
		{line: ""},
		{line: "   \t"},
		{line: "# a comment"},
		{line: "#-2.5 -1.25 1 1.25 640 480 500"},
		{line: "-2.5 -1.25 1 1.25 640 480", err: "want 7 fields"},
		{line: "-2.5 -1.25 1 1.25 640 480 500 1", err: "want 7 fields"},
		{line: "-2.5 -1.25 x 1.25 640 480 500", err: "invalid syntax"},
		{line: "-2.5 -1.25 1 1.25 640.5 480 500", err: "invalid syntax"},
		{line: "1 -1.25 1 1.25 640 480 500", err: "xmin < xmax"},
		{line: "-2.5 1.25 1 -1.25 640 480 500", err: "ymin < ymax"},
		{line: "NaN -1.25 1 1.25 640 480 500", err: "xmin < xmax"},
		{line: "-2.5 -1.25 1 1.25 0 480 500", err: "width 0"},
		{line: "-2.5 -1.25 1 1.25 640 -1 500", err: "height -1"},
		{line: "-2.5 -1.25 1 1.25 640 40000 500", err: "height 40000"},
		{line: "-2.5 -1.25 1 1.25 640 480 0", err: "maxiter 0"},
		{line: "-2.5 -1.25 1 1.25 640 480 2000000", err: "maxiter 2000000"},
	} {
		got, ok, err := parseTile(tc.line)
		if tc.err != "" {
			require.Error(t, err, "%q", tc.line)
			assert.Contains(t, err.Error(), tc.err)
			assert.Contains(t, err.Error(), strconv.Quote(tc.line), "the message quotes the line")
			continue
		}
		require.NoError(t, err, "%q", tc.line)
		assert.Equal(t, tc.ok, ok, "%q", tc.line)
		assert.Equal(t, tc.want, got, "%q", tc.line)
	}
}

func TestGrid(t *testing.T) {
	for _, k := range []int{1, 2, 3, 7} {
		tiles := grid(k, 5, 10)
		require.Len(t, tiles, k*k)
		area := 0.0
		for i, tile := range tiles {
			require.NoError(t, tile.check())
			back, ok, err := parseTile(tile.String())
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, tile, back, "String and parseTile round trip")
			if i%k > 0 {
				assert.Equal(t, tiles[i-1].XMax, tile.XMin, "tile %d touches its left neighbour", i)
				assert.Equal(t, tiles[i-1].YMin, tile.YMin)
			}
			if i >= k {
				assert.Equal(t, tiles[i-k].YMin, tile.YMax, "tile %d touches the one above", i)
			}
			area += (tile.XMax - tile.XMin) * (tile.YMax - tile.YMin)
		}
		assert.InDelta(t, (viewXMax-viewXMin)*(viewYMax-viewYMin), area, 1e-9)
		assert.Equal(t, viewXMin, tiles[0].XMin)
		assert.Equal(t, viewYMax, tiles[0].YMax)
		assert.InDelta(t, viewXMax, tiles[k*k-1].XMax, 1e-12)
		assert.InDelta(t, viewYMin, tiles[k*k-1].YMin, 1e-12)
	}
}

func TestHistogramCombine(t *testing.T) {
	tiles := []Tile{
		{XMin: -2, YMin: -1, XMax: 0.5, YMax: 1, Width: 20, Height: 16, MaxIter: 40},
		{XMin: -0.8, YMin: 0.05, XMax: -0.7, YMax: 0.15, Width: 12, Height: 9, MaxIter: 400},
		{XMin: 1, YMin: 1, XMax: 2, YMax: 2, Width: 3, Height: 3, MaxIter: 10}, // all escape at once
	}
	hs := make([]Histogram, len(tiles))
	for i, tile := range tiles {
		hs[i] = tile.histogram(tile.escapes(false))
	}
	snapshot := func() string { return fmt.Sprint(hs) }
	before := snapshot()

	var fn mergeFn
	// Every order and grouping a runner may choose gives the same sum.
	sums := []Histogram{
		fn.AddInput(fn.AddInput(fn.AddInput(fn.CreateAccumulator(), hs[0]), hs[1]), hs[2]),
		fn.AddInput(fn.AddInput(fn.AddInput(fn.CreateAccumulator(), hs[2]), hs[1]), hs[0]),
		fn.MergeAccumulators(fn.AddInput(fn.CreateAccumulator(), hs[1]),
			fn.AddInput(fn.AddInput(fn.CreateAccumulator(), hs[2]), hs[0])),
		fn.MergeAccumulators(fn.CreateAccumulator(),
			fn.MergeAccumulators(fn.AddInput(fn.CreateAccumulator(), hs[0]),
				fn.MergeAccumulators(fn.AddInput(fn.CreateAccumulator(), hs[1]), fn.AddInput(fn.CreateAccumulator(), hs[2])))),
	}
	assert.Equal(t, before, snapshot(), "the combiner changed an input")

	w := oracle(tiles)
	for i, s := range sums {
		s = fn.ExtractOutput(s)
		assert.Equal(t, int64(3), s.Tiles, "sum %d", i)
		assert.Equal(t, w.pixels, s.Pixels, "sum %d", i)
		assert.Equal(t, w.inside, s.Inside, "sum %d", i)
		assert.Equal(t, w.iterations, s.Iterations, "sum %d", i)
		assert.InDelta(t, w.area, s.Area, 1e-12, "sum %d", i)
		got := map[int]int64{}
		for n, c := range s.Escapes {
			if c != 0 {
				got[n] = c
			}
		}
		assert.Equal(t, w.escapes, got, "sum %d", i)
		assert.Equal(t, sums[0].Text(), s.Text(), "sum %d", i)
	}
	assert.Equal(t, "# 0 tiles, 0 pixels, 0 inside the set (area 0.0000), 0 iterations\n# escape time (iterations)\tpixels\ninside\t0",
		fn.CreateAccumulator().Text())
}

func TestCrowd(t *testing.T) {
	tiles := grid(3, 24, 300)
	var out bytes.Buffer
	res, err := crowd(&out, tiles, 3, 2)
	require.NoError(t, err)
	for i, r := range res {
		assert.Equal(t, i == 1, r.weft)
		assert.Positive(t, r.wall)
		assert.Positive(t, r.perCall)
		assert.LessOrEqual(t, r.perCall, r.wall)
		assert.Positive(t, r.mean)
	}
	for _, s := range []par.WorkerStats{res[1].pool, res[1].callers} {
		assert.LessOrEqual(t, s.Steals, s.StealTries)
		assert.Less(t, s.Tasks, uint64(1e9), "a count went below zero: %+v", s)
	}
	assert.Positive(t, res[1].workers)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 5, out.String())
	assert.Regexp(t, `^9 tiles of 24x24 pixels from 3 goroutines at once, on \d+ cores \(GOMAXPROCS\), 2 rounds$`, lines[0])
	assert.Regexp(t, `^plain loop over rows: +all tiles \S+ \(median\), one tile \S+ \(median\), \S+ \(mean\)$`, lines[1])
	assert.Regexp(t, `^weft \(par\.For rows\): +all tiles \S+ \(median\), one tile \S+ \(median\), \S+ \(mean\)$`, lines[2])
	assert.Regexp(t, `^par\.DefaultStats over the weft rounds: the pool's \d+ workers ran \d+ tasks \(\d+ steals of \d+ tries\), parked \d+ times, busy \d+% of the time;$`, lines[3])
	assert.Regexp(t, `^  the callers ran \d+ tasks of their own calls that another participant had forked \(\d+ steals of \d+ tries\)$`, lines[4])

	_, err = crowd(&out, tiles, 0, 1)
	assert.Error(t, err)
	_, err = crowd(&out, nil, 1, 1)
	assert.Error(t, err)
}
