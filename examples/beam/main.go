// Command beam renders Mandelbrot tiles in an Apache Beam pipeline, with weft
// cutting each tile's rows across the cores of the worker that renders it:
// Beam between machines, weft inside an element.
//
// Beam spreads the elements of a pipeline over workers and runs a worker's
// bundles side by side, but it never cuts one element: a large element is
// rendered, parsed or counted by one goroutine while the worker's other cores
// wait for another element, or sit idle when the elements are few and large.
// Here an element is a tile of an image (1024×1024 pixels by default), and
// the element step renders its rows with par.For instead of the plain loop.
//
// The pipeline reads tiles (generated: a 4×4 grid over the whole set, or one
// per line of the files named on the command line, "xmin ymin xmax ymax width
// height maxiter"), reshuffles them so that the runner may spread them over
// its workers, renders each one into the histogram of its escape times, sums
// the histograms with a Beam combiner (colouring by histogram equalization
// needs the counts of the whole image), and writes the sum with textio. It
// runs the pipeline with the plain loop and then with weft inside the element
// step, a few times each, checks that both wrote the same histogram, and
// prints the median time of each.
//
// On the embedded prism runner, in this process, with nothing to install:
//
//	go run ./examples/beam
//	go run ./examples/beam -tiles 8 -size 512 -runs 5
//	go run ./examples/beam -print-tiles > tiles.txt   # edit, then:
//	go run ./examples/beam -output /tmp/hist.txt tiles.txt
//
// The usual Beam flags choose another runner. Run the weft step only
// (-step weft), and give paths that every worker can read and write:
//
//	# Flink: a job server for the cluster (apache/beam_flink1.18_job_server)
//	# listening on localhost:8099; the SDK workers run in Docker.
//	go run ./examples/beam -step weft --runner flink --endpoint localhost:8099 \
//	    --environment_type DOCKER -output /shared/hist.txt
//
//	# Spark: the same with a Spark job server (apache/beam_spark3_job_server).
//	go run ./examples/beam -step weft --runner spark --endpoint localhost:8099 \
//	    --environment_type DOCKER -output /shared/hist.txt
//
//	# Dataflow: the worker binary is cross-compiled for linux/amd64 and
//	# staged; here 1,024 tiles of 2048×2048 pixels. Tile files may be
//	# given as gs:// globs instead.
//	go run ./examples/beam -step weft --runner dataflow --project my-project \
//	    --region us-central1 --staging_location gs://my-bucket/staging \
//	    -output gs://my-bucket/hist.txt -tiles 32 -size 2048
//
// A cluster worker runs several bundles at once (typically about one per
// core), so several tiles call par.For at the same time. They share the
// process's default pool; each call's goroutine works on its own call, so no
// call waits behind another, and -callers 4 shows what that costs on this
// machine without Beam: it renders the tiles from 4 goroutines at once, as 4
// concurrent bundles would, and prints the pool's counters (par.DefaultStats).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

func main() {
	var c config
	var k, side, maxIter, callers int
	var step string
	var printTiles, verbose bool
	flag.StringVar(&c.output, "output", "mandelbrot-histogram.txt", "write the histogram to `path` (a local path or gs://...)")
	flag.IntVar(&k, "tiles", 4, "without tile files, render a `k`×k grid of tiles over the whole set")
	flag.IntVar(&side, "size", 1024, "without tile files, make each tile `n`×n pixels")
	flag.IntVar(&maxIter, "iter", 1000, "without tile files, iterate at most `n` times per pixel")
	flag.StringVar(&step, "step", "both", "run the element step as a plain `loop`, with `weft`, or `both` (and compare)")
	flag.IntVar(&c.runs, "runs", 3, "run the pipeline `n` times with each step and report the median")
	flag.IntVar(&callers, "callers", 0, "instead of the pipeline, render the tiles from `n` goroutines at once, without Beam, and print the pool's counters")
	flag.BoolVar(&printTiles, "print-tiles", false, "print the generated tiles as a tile file and exit")
	flag.BoolVar(&verbose, "v", false, "show the runner's log at level INFO (its warnings and errors are always shown)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: beam [flags] [tile files (globs)...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if !verbose {
		// prism logs a dozen lines of progress per run on standard error;
		// beam.Init sets the log's level from this.
		beamlog.LogLevel = "warn"
	}
	// Init comes after flag.Parse: on a cluster it turns this process into
	// a worker when the runner starts it as one, and never returns then.
	beam.Init()

	c.globs = flag.Args()
	switch step {
	case "loop":
		c.steps = []bool{false}
	case "weft":
		c.steps = []bool{true}
	case "both":
		c.steps = []bool{false, true}
	default:
		fail(fmt.Errorf("-step %q: want loop, weft or both", step))
	}
	if len(c.globs) == 0 {
		// The grid cuts the view exactly, so that one tile's check is every
		// tile's: only the rectangle differs.
		const maxTiles = 1 << 10
		if k < 1 || k > maxTiles {
			fail(fmt.Errorf("-tiles %d: want 1 to %d", k, maxTiles))
		}
		t := Tile{XMin: viewXMin, YMin: viewYMin, XMax: viewXMax, YMax: viewYMax, Width: side, Height: side, MaxIter: maxIter}
		if err := t.check(); err != nil {
			fail(fmt.Errorf("-size %d, -iter %d: %w", side, maxIter, err))
		}
		c.tiles = grid(k, side, maxIter)
	}

	switch {
	case printTiles:
		if len(c.globs) != 0 {
			fail(errors.New("-print-tiles prints the generated tiles: give no tile files"))
		}
		for _, t := range c.tiles {
			fmt.Println(t)
		}
	case callers > 0:
		if len(c.globs) != 0 {
			fail(errors.New("-callers renders the generated tiles: give no tile files"))
		}
		if _, err := crowd(os.Stdout, c.tiles, callers, c.runs); err != nil {
			fail(err)
		}
	default:
		if _, err := run(context.Background(), os.Stdout, c); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "beam:", err)
	os.Exit(1)
}

// config says what run does.
type config struct {
	globs  []string // tile files; none means tiles
	tiles  []Tile
	output string
	steps  []bool // the element steps to run: false the loop, true weft
	runs   int
}

// timing is what run measured of the pipeline with one element step.
type timing struct {
	weft     bool
	pipeline time.Duration // the median wall time of the runs
	// Of the run whose time is the median:
	steps       time.Duration // the element steps' times added up
	tiles       int64         // elements rendered
	maxAtOnce   int64         // the most element steps seen running at once in one process
	elementTime time.Duration // the longest element step
}

// run runs the pipeline c.runs times with each element step of c.steps, in
// turns, checks that every run wrote the same text, and prints the summary
// line of that text and the timings. The first run also pays for starting
// the runner, which the turns spread over the steps when c.runs > 1.
func run(ctx context.Context, out io.Writer, c config) ([]timing, error) {
	if c.runs < 1 || len(c.steps) == 0 {
		return nil, fmt.Errorf("runs %d, %d steps: want at least one of each", c.runs, len(c.steps))
	}
	if len(c.globs) == 0 && len(c.tiles) == 0 {
		return nil, errors.New("no tiles to render")
	}
	runner := *runners.Runner
	if runner == "" {
		runner = "prism" // beamx's default
	}

	type sample struct {
		wall time.Duration
		t    timing
	}
	samples := make([][]sample, len(c.steps))
	var text string
	for r := range c.runs {
		for i, withWeft := range c.steps {
			p := pipeline(c.globs, c.tiles, c.output, withWeft)
			start := time.Now()
			res, err := beamx.RunWithMetrics(ctx, p)
			wall := time.Since(start)
			if err != nil {
				return nil, fmt.Errorf("the pipeline on %s: %w", runner, err)
			}
			t := metricsOf(res)
			t.weft = withWeft
			samples[i] = append(samples[i], sample{wall, t})

			got, err := readAll(ctx, c.output)
			if errors.Is(err, fs.ErrNotExist) && t.tiles == 0 {
				// The sum of no histogram is no element, and textio
				// writes no file for no element.
				return nil, fmt.Errorf("no tile in %s", strings.Join(c.globs, ", "))
			}
			if err != nil {
				return nil, fmt.Errorf("reading the pipeline's output: %w", err)
			}
			if r == 0 && i == 0 {
				text = got
			} else if got != text {
				return nil, fmt.Errorf("the pipeline with the %s step wrote a different histogram than the first run", stepName(withWeft))
			}
		}
	}

	summary, _, _ := strings.Cut(text, "\n")
	fmt.Fprintf(out, "%s, written to %s by Beam's %s runner\n", strings.TrimPrefix(summary, "# "), c.output, runner)
	fmt.Fprintf(out, "%-22s %-24s %-21s %s\n", "element step", "pipeline (median of "+fmt.Sprint(c.runs)+")", "element steps summed", "at most at once")
	timings := make([]timing, len(c.steps))
	for i, s := range samples {
		slices.SortFunc(s, func(a, b sample) int { return int(a.wall - b.wall) })
		m := s[len(s)/2]
		m.t.pipeline = m.wall
		timings[i] = m.t
		speedup := ""
		if i > 0 {
			speedup = fmt.Sprintf(" (%.2fx)", float64(timings[0].pipeline)/float64(m.wall))
		}
		fmt.Fprintf(out, "%-22s %-24s %-21v %d\n", stepName(m.t.weft), m.wall.Round(time.Millisecond).String()+speedup,
			m.t.steps.Round(time.Millisecond), m.t.maxAtOnce)
	}
	return timings, nil
}

func stepName(withWeft bool) string {
	if withWeft {
		return "weft (par.For rows)"
	}
	return "plain loop over rows"
}

// metricsOf reads the pipeline's metrics from its result.
func metricsOf(res beam.PipelineResult) timing {
	var t timing
	if res == nil {
		return t
	}
	q := res.Metrics().Query(func(r beam.MetricResult) bool { return r.Namespace() == metricsNamespace })
	for _, c := range q.Counters() {
		if c.Name() == "tiles" {
			t.tiles += c.Result()
		}
	}
	for _, d := range q.Distributions() {
		v := d.Result()
		switch d.Name() {
		case "step_us":
			t.steps += time.Duration(v.Sum) * time.Microsecond
			t.elementTime = max(t.elementTime, time.Duration(v.Max)*time.Microsecond)
		case "concurrent_steps":
			t.maxAtOnce = max(t.maxAtOnce, v.Max)
		}
	}
	return t
}

// readAll reads the file at path through Beam's file systems, so that a
// gs:// output is read back as a local one.
func readAll(ctx context.Context, path string) (string, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(bufio.NewReader(r))
	return string(b), err
}
