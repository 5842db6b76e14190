package main

import (
	"fmt"
	"strings"
)

// Histogram counts the escape times of the pixels of one tile or, once
// combined, of all the tiles. It is what colours a Mandelbrot image by
// histogram equalization, which needs the counts of the whole image before
// any tile can be coloured: the reason to combine across elements.
type Histogram struct {
	Tiles      int64   // tiles counted
	Pixels     int64   // pixels counted
	Inside     int64   // pixels that did not escape within their tile's MaxIter
	Area       float64 // area of the plane covered by the Inside pixels
	Iterations int64   // iterations summed over all pixels
	// Escapes[n] counts the pixels that escaped after exactly n iterations.
	// It is as long as the largest n seen, plus one.
	Escapes []int64
}

// histogram counts the escape times n of t's pixels, as returned by
// t.escapes.
func (t Tile) histogram(n []uint32) Histogram {
	h := Histogram{Tiles: 1, Pixels: int64(len(n))}
	for _, k := range n {
		h.Iterations += int64(k)
		if int(k) == t.MaxIter {
			h.Inside++
			continue
		}
		for int(k) >= len(h.Escapes) {
			h.Escapes = append(h.Escapes, 0)
		}
		h.Escapes[k]++
	}
	h.Area = float64(h.Inside) * (t.XMax - t.XMin) / float64(t.Width) * (t.YMax - t.YMin) / float64(t.Height)
	return h
}

// add adds b's counts to a's and returns the sum. It may reuse a's Escapes,
// never b's, so that a combiner never changes an input it does not own.
func (a Histogram) add(b Histogram) Histogram {
	a.Tiles += b.Tiles
	a.Pixels += b.Pixels
	a.Inside += b.Inside
	a.Area += b.Area
	a.Iterations += b.Iterations
	if len(b.Escapes) > len(a.Escapes) {
		a.Escapes = append(a.Escapes, make([]int64, len(b.Escapes)-len(a.Escapes))...)
	}
	for i, c := range b.Escapes {
		a.Escapes[i] += c
	}
	return a
}

// mergeFn is the combiner that sums the tiles' histograms. Sums are
// associative and commutative, so a runner may combine partial sums on each
// worker before the shuffle (combiner lifting) and in any order after it.
type mergeFn struct{}

// CreateAccumulator returns an empty histogram.
func (mergeFn) CreateAccumulator() Histogram { return Histogram{} }

// AddInput adds a tile's histogram to the accumulator.
func (mergeFn) AddInput(acc, h Histogram) Histogram { return acc.add(h) }

// MergeAccumulators sums two partial sums.
func (mergeFn) MergeAccumulators(a, b Histogram) Histogram { return a.add(b) }

// ExtractOutput returns the sum.
func (mergeFn) ExtractOutput(acc Histogram) Histogram { return acc }

// Text formats h as the pipeline's output: a summary line starting with #,
// then one line "n<TAB>pixels" for every escape time n that some pixel has,
// in increasing n, and a last line "inside<TAB>pixels". The whole text is one
// element, so that its lines stay in order whatever the runner.
func (h Histogram) Text() string {
	var b strings.Builder
	fmt.Fprintln(&b, h.Summary())
	fmt.Fprintln(&b, "# escape time (iterations)\tpixels")
	for n, c := range h.Escapes {
		if c != 0 {
			fmt.Fprintf(&b, "%d\t%d\n", n, c)
		}
	}
	fmt.Fprintf(&b, "inside\t%d", h.Inside)
	return b.String()
}

// Summary is the first line of Text.
func (h Histogram) Summary() string {
	return fmt.Sprintf("# %d tiles, %d pixels, %d inside the set (area %.4f), %d iterations",
		h.Tiles, h.Pixels, h.Inside, h.Area, h.Iterations)
}
