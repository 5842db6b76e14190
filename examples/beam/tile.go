package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/weftgo/weft/par"
)

// Tile is one element of the pipeline: a rectangle of the complex plane and
// the resolution at which to render it. Its exported fields are what Beam
// encodes when it ships the tile to a worker.
type Tile struct {
	XMin, YMin, XMax, YMax float64 // the rectangle; y grows upwards
	Width, Height          int     // its size in pixels
	MaxIter                int     // iterations after which a pixel counts as in the set
}

// Limits on a tile, so that a mistyped line fails the pipeline with a message
// instead of asking a worker for terabytes: the pixel counts fit an int on
// every platform and a histogram has at most maxIterLimit+1 buckets.
const (
	maxSideLimit = 1 << 15
	maxIterLimit = 1 << 20
)

// The view rendered when no tile file is given: a square of side 3.5 that
// holds the whole set.
const (
	viewXMin, viewXMax = -2.5, 1.0
	viewYMin, viewYMax = -1.75, 1.75
)

// grid cuts the default view into k×k tiles of side pixels each, row by row
// from the top left.
func grid(k, side, maxIter int) []Tile {
	tiles := make([]Tile, 0, k*k)
	w := (viewXMax - viewXMin) / float64(k)
	h := (viewYMax - viewYMin) / float64(k)
	for j := range k {
		for i := range k {
			tiles = append(tiles, Tile{
				XMin: viewXMin + float64(i)*w, XMax: viewXMin + float64(i+1)*w,
				YMin: viewYMax - float64(j+1)*h, YMax: viewYMax - float64(j)*h,
				Width: side, Height: side, MaxIter: maxIter,
			})
		}
	}
	return tiles
}

// String formats t as a line of a tile file, which parseTile reads back
// exactly.
func (t Tile) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf("%s %s %s %s %d %d %d", f(t.XMin), f(t.YMin), f(t.XMax), f(t.YMax), t.Width, t.Height, t.MaxIter)
}

// parseTile reads a line of a tile file: xmin ymin xmax ymax width height
// maxiter, separated by spaces or tabs. It reports ok = false for a blank
// line or a comment (a line starting with #).
func parseTile(line string) (t Tile, ok bool, err error) {
	fields := strings.Fields(line)
	if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
		return Tile{}, false, nil
	}
	if len(fields) != 7 {
		return Tile{}, false, fmt.Errorf("%q: want 7 fields (xmin ymin xmax ymax width height maxiter), have %d", line, len(fields))
	}
	var fs [4]float64
	for i := range fs {
		if fs[i], err = strconv.ParseFloat(fields[i], 64); err != nil {
			return Tile{}, false, fmt.Errorf("%q: %w", line, err)
		}
	}
	var is [3]int
	for i := range is {
		if is[i], err = strconv.Atoi(fields[4+i]); err != nil {
			return Tile{}, false, fmt.Errorf("%q: %w", line, err)
		}
	}
	t = Tile{XMin: fs[0], YMin: fs[1], XMax: fs[2], YMax: fs[3], Width: is[0], Height: is[1], MaxIter: is[2]}
	if err := t.check(); err != nil {
		return Tile{}, false, fmt.Errorf("%q: %w", line, err)
	}
	return t, true, nil
}

// check reports what is wrong with t, if anything.
func (t Tile) check() error {
	switch {
	case !(t.XMin < t.XMax) || !(t.YMin < t.YMax): // also false for NaN
		return fmt.Errorf("need xmin < xmax and ymin < ymax")
	case t.Width < 1 || t.Height < 1 || t.Width > maxSideLimit || t.Height > maxSideLimit:
		return fmt.Errorf("width %d and height %d must be in [1, %d]", t.Width, t.Height, maxSideLimit)
	case t.MaxIter < 1 || t.MaxIter > maxIterLimit:
		return fmt.Errorf("maxiter %d must be in [1, %d]", t.MaxIter, maxIterLimit)
	}
	return nil
}

// escapes returns the escape time of every pixel of t, row by row from the
// top: the number of iterations of z = z² + c, from z = 0, before |z|
// exceeds 2, or t.MaxIter if it does not within t.MaxIter iterations.
//
// This is the element step that weft cuts across the cores: the rows share
// nothing, and they cost very different amounts (a row through the set costs
// MaxIter per pixel inside it, one above it a few), so par.For splits them on
// demand rather than in equal chunks. With withWeft false the rows are
// rendered by the plain loop, which is the step as one would write it first.
func (t Tile) escapes(withWeft bool) []uint32 {
	n := make([]uint32, t.Width*t.Height)
	row := func(y int) { t.row(y, n[y*t.Width:][:t.Width]) }
	if withWeft {
		par.For(t.Height, row)
	} else {
		for y := range t.Height {
			row(y)
		}
	}
	return n
}

// row renders row y of t into out. Pixels are sampled at their centres.
func (t Tile) row(y int, out []uint32) {
	dx := (t.XMax - t.XMin) / float64(t.Width)
	dy := (t.YMax - t.YMin) / float64(t.Height)
	cy := t.YMax - (float64(y)+0.5)*dy
	for x := range out {
		out[x] = uint32(escape(t.XMin+(float64(x)+0.5)*dx, cy, t.MaxIter))
	}
}

// escape returns the escape time of c = cx + cy·i. The explicit conversions
// round every product, so that no compiler fuses a multiply and an add and
// the counts are the same on every architecture, and so on every worker.
func escape(cx, cy float64, maxIter int) int {
	var x, y float64
	for i := range maxIter {
		x2, y2 := float64(x*x), float64(y*y)
		if x2+y2 > 4 {
			return i
		}
		y = float64(2*x*y) + cy
		x = x2 - y2 + cx
	}
	return maxIter
}
