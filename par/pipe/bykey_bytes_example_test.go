package pipe_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/weftgo/weft/par/pipe"
)

// The min and max temperature per station of a text read in pieces (an
// *os.File is read the same way): each line is a view of a buffer that its
// goroutine reuses, and a station's name is copied once, when first met.
func ExampleReduceBytesBy() {
	r := pipe.NewReader(strings.NewReader("oslo;-3.1\nrome;12.0\noslo;4.5\nrome;9.9\n"))
	type minMax struct{ lo, hi float64 }
	stats := pipe.ReduceBytesBy(r.LineBytes(), func(line []byte) ([]byte, minMax) {
		name, temp, _ := bytes.Cut(line, []byte{';'})
		t, _ := strconv.ParseFloat(string(temp), 64)
		return name, minMax{t, t}
	}, func(a, b minMax) minMax { return minMax{min(a.lo, b.lo), max(a.hi, b.hi)} })
	fmt.Println(stats["oslo"], stats["rome"])
	// Output: {-3.1 4.5} {9.9 12}
}

// A count per bucket of 10 degrees per station, updated in place.
func ExampleFoldBytesBy() {
	r := pipe.NewReader(strings.NewReader("oslo;-3.1\nrome;12.0\noslo;4.5\nrome;21.0\n"))
	hists := pipe.FoldBytesBy(r.LineBytes(), func(line []byte) ([]byte, int) {
		name, temp, _ := bytes.Cut(line, []byte{';'})
		t, _ := strconv.ParseFloat(string(temp), 64)
		return name, min(4, max(0, int(t+10)/10))
	}, func() [5]int { return [5]int{} },
		func(h *[5]int, b int) { h[b]++ },
		func(h, other *[5]int) {
			for i := range h {
				h[i] += other[i]
			}
		})
	fmt.Println(*hists["oslo"], *hists["rome"])
	// Output: [1 1 0 0 0] [0 0 1 1 0]
}
