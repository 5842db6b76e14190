package pipe_test

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weftgo/weft/par/pipe"
)

// The text sources against the standard library's sequential call on the
// layouts that matter: ordinary words, one line of the whole input, one
// field (one piece) of the whole input, and nothing but the source's
// separator. "collect" makes the slice of the pieces, as the standard call
// does; "count" counts them, against the loop over the standard library's
// sequence (FieldsSeq, Lines, SplitSeq) that a user writes to count them.
// weft's Count of a source with no stage counts separators without making
// the pieces (a vector byte count for Split and Lines), as Collect does
// first when the pieces are short.
//
//	go test ./par/pipe -run '^$' -bench TextSources -benchmem -count 10
//
// A text source reads every byte about once whatever the layout
// (TestTextSourcesReadEachByteAboutOnce), so "collect" on one field of the
// whole input is what the parallel cut costs beside the standard library's
// one IndexByte over the text.

var textSink []string

// textBenchSizes are the texts' lengths in bytes: 64 KiB and 4 MiB, or
// those that WEFT_TEXT_SIZES lists (WEFT_TEXT_SIZES=16384,1048576), as the
// thresholds of Collect alone on the caller were measured.
func textBenchSizes() []int {
	if e := os.Getenv("WEFT_TEXT_SIZES"); e != "" {
		var ns []int
		for _, f := range strings.Split(e, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 0 {
				panic(fmt.Sprintf("WEFT_TEXT_SIZES: %q is not a length in bytes", f))
			}
			ns = append(ns, n)
		}
		return ns
	}
	if testing.Short() {
		return []int{64 << 10}
	}
	return []int{64 << 10, 4 << 20}
}

// benchText returns n bytes of the layout for a source that cuts on sep:
// words of 1 to 9 letters between spaces, with a comma after about one in
// four and a line break every 60 or so bytes ("words"); the same without
// the line breaks ("one line"); n letters ("one field"); n times sep
// ("separators").
func benchText(layout string, n int, sep byte) string {
	r := rand.New(rand.NewPCG(uint64(n), 11))
	b := make([]byte, 0, n)
	switch layout {
	case "one field":
		return strings.Repeat("x", n)
	case "separators":
		return strings.Repeat(string(sep), n)
	}
	col := 0
	for len(b) < n {
		for range 1 + r.IntN(9) {
			b = append(b, byte('a'+r.IntN(26)))
		}
		if r.IntN(4) == 0 {
			b = append(b, ',')
		}
		col += 10
		if layout == "words" && col > 60 {
			b, col = append(b, '\n'), 0
		} else {
			b = append(b, ' ')
		}
	}
	return string(b[:n])
}

func BenchmarkTextSources(b *testing.B) {
	sources := []struct {
		name        string
		sep         byte
		std, weft   func(s string) []string
		stdN, weftN func(s string) int // the pieces counted, none kept
	}{
		{"Fields", ' ',
			strings.Fields, func(s string) []string { return pipe.Fields(s).Collect() },
			func(s string) int { return count(strings.FieldsSeq(s)) }, func(s string) int { return pipe.Fields(s).Count() }},
		{"Lines", '\n',
			func(s string) []string { return slices.Collect(strings.Lines(s)) }, func(s string) []string { return pipe.Lines(s).Collect() },
			func(s string) int { return count(strings.Lines(s)) }, func(s string) int { return pipe.Lines(s).Count() }},
		{"Split", ',',
			func(s string) []string { return strings.Split(s, ",") }, func(s string) []string { return pipe.Split(s, ',').Collect() },
			func(s string) int { return count(strings.SplitSeq(s, ",")) }, func(s string) int { return pipe.Split(s, ',').Count() }},
	}
	for _, n := range textBenchSizes() {
		for _, src := range sources {
			for _, layout := range []string{"words", "one line", "one field", "separators"} {
				// The text and the standard call's count of its pieces are
				// made by the first sub-benchmark that runs, so that a
				// filtered run makes only its own.
				var s string
				want := -1
				setup := func(b *testing.B, got func(string) int) {
					if want < 0 {
						s = benchText(layout, n, src.sep)
						want = len(src.std(s))
					}
					if g := got(s); g != want {
						b.Fatalf("%s of %s: %d pieces, the standard call %d", src.name, layout, g, want)
					}
					b.SetBytes(int64(n))
				}
				name := fmt.Sprintf("n=%d/%s/%s", n, src.name, strings.ReplaceAll(layout, " ", "-"))
				for _, impl := range []string{"std", "weft"} {
					f, fn := src.std, src.stdN
					if impl == "weft" {
						f, fn = src.weft, src.weftN
					}
					b.Run(name+"/collect/impl="+impl, func(b *testing.B) {
						setup(b, func(s string) int { return len(f(s)) })
						for b.Loop() {
							textSink = f(s)
						}
					})
					b.Run(name+"/count/impl="+impl, func(b *testing.B) {
						setup(b, fn)
						for b.Loop() {
							countSink = fn(s)
						}
					})
				}
			}
		}
	}
}

var countSink int

// count is the loop a user writes to count what a sequence yields.
func count[T any](seq iter.Seq[T]) int {
	n := 0
	for range seq {
		n++
	}
	return n
}
