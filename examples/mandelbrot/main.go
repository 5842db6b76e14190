// Command mandelbrot renders the Mandelbrot set to a PNG file, rendering the
// rows once with a plain loop and once with par.For, and prints how long each
// took and the speedup (medians of a few renders in the same run).
//
// The rows are the classic uneven workload: a pixel outside the set costs a
// few iterations, one inside it costs the maximum, and the rows through the
// middle of the set cost many times the rows at the edges. A static split of
// the rows into one chunk per core leaves the cores with the edges idle while
// the one with the middle works; par.For splits on demand and lets idle
// workers steal the rest.
//
//	go run ./examples/mandelbrot
//	go run ./examples/mandelbrot -o /tmp/m.png -width 2800 -height 2000 -iter 1000
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/weftgo/weft/par"
)

func main() {
	var p params
	flag.StringVar(&p.out, "o", "mandelbrot.png", "write the image to `file`")
	flag.IntVar(&p.width, "width", 1050, "image width in `pixels`")
	flag.IntVar(&p.height, "height", 750, "image height in `pixels`")
	flag.IntVar(&p.maxIter, "iter", 500, "iterate at most `n` times per pixel (at most 65535)")
	flag.IntVar(&p.runs, "runs", 5, "time the median of `k` renders of each version")
	flag.Parse()
	if _, err := run(os.Stdout, p); err != nil {
		fmt.Fprintln(os.Stderr, "mandelbrot:", err)
		os.Exit(1)
	}
}

type params struct {
	out           string
	width, height int
	maxIter       int
	runs          int
}

// result describes the image that run wrote.
type result struct {
	inside  int    // pixels that did not escape within maxIter iterations
	iters   uint64 // iterations summed over all pixels
	seqTime time.Duration
	parTime time.Duration
}

// The part of the plane shown: x in [xMin, xMax], y centred on 0, with the
// scale of x so that pixels are square.
const (
	xMin = -2.5
	xMax = 1.0
)

// run renders the image sequentially and in parallel, checks that the two
// renders agree pixel for pixel, writes the image to p.out, and prints what
// it did.
func run(out io.Writer, p params) (result, error) {
	if p.width < 1 || p.height < 1 || p.maxIter < 1 || p.maxIter > math.MaxUint16 || p.runs < 1 {
		return result{}, errors.New("need width, height, runs >= 1 and 1 <= iter <= 65535")
	}
	seq := newFrame(p.width, p.height, p.maxIter)
	parl := newFrame(p.width, p.height, p.maxIter)

	var r result
	r.seqTime = median(p.runs, func() {
		for y := range p.height {
			seq.row(y)
		}
	})
	r.parTime = median(p.runs, func() {
		par.For(p.height, parl.row)
	})
	if !slices.Equal(seq.iters, parl.iters) || !bytes.Equal(seq.img.Pix, parl.img.Pix) {
		return result{}, errors.New("the parallel render differs from the sequential one")
	}
	for _, n := range parl.iters {
		r.iters += uint64(n)
		if int(n) == p.maxIter {
			r.inside++
		}
	}

	if err := writePNG(p.out, parl.img); err != nil {
		return result{}, err
	}
	fmt.Fprintf(out, "%s: %dx%d, at most %d iterations: %d pixels in the set, %d iterations in all\n",
		p.out, p.width, p.height, p.maxIter, r.inside, r.iters)
	fmt.Fprintf(out, "sequential rows: %v (median of %d)\n", r.seqTime.Round(time.Microsecond), p.runs)
	fmt.Fprintf(out, "par.For rows:    %v (%.2fx)\n", r.parTime.Round(time.Microsecond), float64(r.seqTime)/float64(r.parTime))
	return r, nil
}

// frame is an image being rendered: the iteration count of every pixel, and
// its colour.
type frame struct {
	w, h, maxIter int
	scale         float64 // the width and height of a pixel in the plane
	iters         []uint16
	img           *image.Paletted
}

func newFrame(w, h, maxIter int) *frame {
	return &frame{
		w: w, h: h, maxIter: maxIter,
		scale: (xMax - xMin) / float64(w),
		iters: make([]uint16, w*h),
		img:   image.NewPaletted(image.Rect(0, 0, w, h), palette),
	}
}

// row renders row y. Rows share nothing, so any number of them may be
// rendered at once.
func (f *frame) row(y int) {
	cy := (float64(f.h)/2 - float64(y) - 0.5) * f.scale
	pix := f.img.Pix[y*f.img.Stride:][:f.w]
	iters := f.iters[y*f.w:][:f.w]
	for x := range f.w {
		cx := xMin + (float64(x)+0.5)*f.scale
		n := escape(cx, cy, f.maxIter)
		iters[x] = uint16(n)
		pix[x] = colourIndex(n, f.maxIter)
	}
}

// escape returns the number of iterations of z = z² + c, from z = 0, before
// |z| exceeds 2, or maxIter if it never does within maxIter iterations. The
// explicit conversions round every product, so that no compiler fuses a
// multiply and an add and the counts are the same on every architecture.
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

// palette is black for the set, then a gradient from dark blue for the
// points that escape at once to bright colours for the slowest.
var palette = func() color.Palette {
	p := make(color.Palette, 256)
	p[0] = color.Black
	for i := 1; i < 256; i++ {
		t := float64(i-1) / 254
		p[i] = color.RGBA{
			R: uint8(255 * math.Min(1, 9*(1-t)*t*t*t*2)),
			G: uint8(255 * math.Min(1, 15*(1-t)*(1-t)*t*t*1.5)),
			B: uint8(255 * math.Min(1, 8.5*(1-t)*(1-t)*(1-t)*t*1.2)),
			A: 255,
		}
	}
	return p
}()

// colourIndex maps an iteration count to the palette: the square root
// spreads the many fast escapes over more colours than the few slow ones.
func colourIndex(n, maxIter int) uint8 {
	if n == maxIter {
		return 0
	}
	return 1 + uint8(254*math.Sqrt(float64(n)/float64(maxIter)))
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := png.Encode(w, img); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// median returns the median time of runs calls of f.
func median(runs int, f func()) time.Duration {
	ts := make([]time.Duration, runs)
	for i := range ts {
		start := time.Now()
		f()
		ts[i] = time.Since(start)
	}
	slices.Sort(ts)
	return ts[runs/2]
}
