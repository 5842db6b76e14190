package pipe_test

import (
	"fmt"
	"strings"

	"github.com/weftgo/weft/par/pipe"
)

// The words per line length of a text read in pieces by the goroutines
// that count them; a *os.File is read the same way, at its offsets.
func ExampleNewReader() {
	r := pipe.NewReader(strings.NewReader("one two\nthree\nfour five six\n"))
	words := pipe.Sum(pipe.Map(r.Lines(), func(l string) int { return len(strings.Fields(l)) }))
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(words)
	// Output: 6
}

// A body that loops over lines itself gets whole lines in chunks of a few
// kilobytes, a call per chunk.
func ExampleLineChunks() {
	text := strings.Repeat("a;1\nb;2\n", 5000)
	count := pipe.Fold(pipe.LineChunks(text), func() map[string]int { return map[string]int{} },
		func(m map[string]int, chunk string) map[string]int {
			for line := range strings.Lines(chunk) {
				name, _, _ := strings.Cut(line, ";")
				m[name]++
			}
			return m
		}, func(a, b map[string]int) map[string]int {
			for k, v := range b {
				a[k] += v
			}
			return a
		})
	fmt.Println(count["a"], count["b"])
	// Output: 5000 5000
}

// Chunks read into a buffer per goroutine: copy what is kept, as with
// bufio.Scanner's Bytes (string(b) in a map insertion does).
func ExampleReader_LineChunkBytes() {
	r := pipe.NewReader(strings.NewReader(strings.Repeat("x=1\ny=22\n", 3000)))
	longest := pipe.Fold(r.LineChunkBytes(), func() string { return "" }, func(acc string, chunk []byte) string {
		for line := range strings.Lines(string(chunk)) { // string(chunk): a copy, kept only as long as acc needs it
			if l := strings.TrimSuffix(line, "\n"); len(l) > len(acc) {
				acc = l
			}
		}
		return acc
	}, func(a, b string) string {
		if len(b) > len(a) {
			return b
		}
		return a
	})
	fmt.Println(longest, r.Err())
	// Output: y=22 <nil>
}
