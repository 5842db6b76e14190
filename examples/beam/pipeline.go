package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// Every function a worker runs is registered, so that a worker (a separate
// process on a cluster) can find it by name and call it without reflection.
func init() {
	register.DoFn2x1[context.Context, Tile, Histogram](&renderFn{})
	register.Function4x1(parseLine)
	register.Emitter1[Tile]()
	register.Combiner1[Histogram](&mergeFn{})
	register.Function1x1(formatHistogram)
}

// The metrics the pipeline reports, in this namespace. Runners sum counters
// over workers and keep the count, sum, min and max of distributions.
const metricsNamespace = "weft-beam"

var (
	tilesRendered = beam.NewCounter(metricsNamespace, "tiles")
	// stepMicros is the time of each element step, in microseconds.
	stepMicros = beam.NewDistribution(metricsNamespace, "step_us")
	// concurrent is, for each element, how many element steps were running
	// in the same worker process when it started, itself included: Beam
	// runs bundles side by side, and every one of them that calls weft
	// shares the process's default pool.
	concurrent = beam.NewDistribution(metricsNamespace, "concurrent_steps")
)

// running counts the element steps in progress in this process.
var running atomic.Int64

// renderFn is the element step: it renders one tile and returns the
// histogram of its escape times. Its fields are encoded with the pipeline
// and decoded on every worker.
type renderFn struct {
	// Weft says whether to render the rows with par.For or with the plain
	// loop.
	Weft bool `json:"weft"`
}

// ProcessElement renders t.
func (f *renderFn) ProcessElement(ctx context.Context, t Tile) Histogram {
	concurrent.Update(ctx, running.Add(1))
	defer running.Add(-1)
	start := time.Now()
	n := t.escapes(f.Weft)
	stepMicros.Update(ctx, time.Since(start).Microseconds())
	tilesRendered.Inc(ctx, 1)
	return t.histogram(n)
}

// parseLine reads one line of a tile file, named so that a bad line fails
// the pipeline with the file's name.
func parseLine(_ context.Context, file, line string, emit func(Tile)) error {
	t, ok, err := parseTile(line)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if ok {
		emit(t)
	}
	return nil
}

// formatHistogram turns the combined histogram into the text to write.
func formatHistogram(h Histogram) string { return h.Text() }

// pipeline returns the pipeline that renders the tiles read from the files
// matching the globs (local paths, or gs:// and the other file systems Beam
// knows), or the given tiles when there are no globs, sums their histograms
// and writes the sum's Text to output.
func pipeline(globs []string, tiles []Tile, output string, withWeft bool) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()

	var in beam.PCollection
	if len(globs) == 0 {
		in = beam.CreateList(s.Scope("tiles"), tiles)
	} else {
		lines := make([]beam.PCollection, len(globs))
		for i, g := range globs {
			lines[i] = textio.ReadWithFilename(s, g)
		}
		in = beam.ParDo(s.Scope("parse"), parseLine, beam.Flatten(s, lines...))
	}
	// A runner fuses a step with the one before it, so without this the
	// tiles would be rendered where they were created or read, on one
	// worker: the reshuffle lets the runner spread them over its workers.
	in = beam.Reshuffle(s, in)

	hists := beam.ParDo(s.Scope("render"), &renderFn{Weft: withWeft}, in)
	total := beam.Combine(s.Scope("sum"), &mergeFn{}, hists)
	textio.Write(s, output, beam.ParDo(s.Scope("format"), formatHistogram, total))
	return p
}
