package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct {
		cx, cy float64
		want   int
	}{
		{0, 0, 100},    // the centre of the main cardioid never escapes
		{-1, 0, 100},   // a cycle of period 2: 0, -1, 0, -1, ...
		{-2, 0, 100},   // the tip of the needle: 0, -2, 2, 2, ... stays at |z| = 2
		{1, 0, 3},      // 0, 1, 2, 5: |z|² exceeds 4 at the third step
		{2, 0, 2},      // 0, 2, 6
		{3, 0, 1},      // 0, 3
		{0, 3, 1},      // 0, 3i
		{0.5, 0, 5},    // 0, .5, .75, 1.0625, 1.62890625, 3.1533...
		{-2.5, 0, 1},   // 0, -2.5
		{0.25, 0, 100}, // the cusp of the cardioid converges to 1/2
	} {
		assert.Equal(t, tc.want, escape(tc.cx, tc.cy, 100), "c = %v%+vi", tc.cx, tc.cy)
	}
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		w, h, maxIter int
	}{
		{1, 1, 1},
		{2, 3, 10},
		{17, 5, 50},
		{160, 120, 200},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.png")
			var out bytes.Buffer
			r, err := run(&out, params{out: path, width: tc.w, height: tc.h, maxIter: tc.maxIter, runs: 1})
			require.NoError(t, err)

			// The oracle: every pixel computed on its own.
			inside, iters := 0, uint64(0)
			scale := (xMax - xMin) / float64(tc.w)
			for y := range tc.h {
				for x := range tc.w {
					n := escape(xMin+(float64(x)+0.5)*scale, (float64(tc.h)/2-float64(y)-0.5)*scale, tc.maxIter)
					iters += uint64(n)
					if n == tc.maxIter {
						inside++
					}
				}
			}
			assert.Equal(t, inside, r.inside)
			assert.Equal(t, iters, r.iters)

			lines := regexp.MustCompile(`\n`).Split(out.String(), -1)
			require.Len(t, lines, 4, out.String())
			assert.Equal(t, fmt.Sprintf("%s: %dx%d, at most %d iterations: %d pixels in the set, %d iterations in all",
				path, tc.w, tc.h, tc.maxIter, inside, iters), lines[0])
			assert.Regexp(t, `^sequential rows: \S+ \(median of 1\)$`, lines[1])
			assert.Regexp(t, `^par\.For rows:    \S+ \(\d+\.\d\dx\)$`, lines[2])

			img := decode(t, path)
			assert.Equal(t, image.Rect(0, 0, tc.w, tc.h), img.Bounds())
		})
	}
}

// TestRunPicture checks the file against known points of a 350x250 view, in
// which a pixel is 0.01 wide and pixel (x, y) is centred on
// c = -2.495 + 0.01x + (1.245 - 0.01y)i.
func TestRunPicture(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.png")
	r, err := run(&bytes.Buffer{}, params{out: path, width: 350, height: 250, maxIter: 300, runs: 2})
	require.NoError(t, err)
	// The set's area is about 1.5066, so about 15,066 pixels of 0.0001 each;
	// points near the edge that escape after more than 300 iterations add a
	// few more.
	assert.InDelta(t, 15066, r.inside, 300)
	// Pinned totals for this view: they change only if the view, the pixel
	// centres or the iteration change.
	assert.Equal(t, 15216, r.inside)
	assert.Equal(t, uint64(4929660), r.iters)

	img := decode(t, path)
	black := func(x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		return r == 0 && g == 0 && b == 0
	}
	assert.True(t, black(250, 125), "c = 0.005+0.005i is in the main cardioid")
	assert.True(t, black(150, 125), "c = -0.995+0.005i is in the period-2 bulb")
	assert.False(t, black(0, 0), "c = -2.495+1.245i escapes at once")
	assert.False(t, black(349, 125), "c = 0.995+0.005i escapes")
}

func TestRunRejectsBadArguments(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []params{
		{width: 0, height: 1, maxIter: 1, runs: 1},
		{width: 1, height: 0, maxIter: 1, runs: 1},
		{width: 1, height: 1, maxIter: 0, runs: 1},
		{width: 1, height: 1, maxIter: 65536, runs: 1},
		{width: 1, height: 1, maxIter: 1, runs: 0},
	} {
		p.out = filepath.Join(dir, "x.png")
		_, err := run(&bytes.Buffer{}, p)
		assert.Error(t, err, "%+v", p)
	}
	_, err := run(&bytes.Buffer{}, params{out: filepath.Join(dir, "no", "such", "dir.png"), width: 1, height: 1, maxIter: 1, runs: 1})
	assert.Error(t, err)
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}
