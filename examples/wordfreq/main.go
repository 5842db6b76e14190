// Command wordfreq counts the words of a text and prints the ten most
// frequent. The text is a file named on the command line, or, without one, a
// generated text whose word frequencies follow Zipf's law, as those of real
// texts do.
//
// The lines are read with a bufio.Scanner and handed over as an
// iter.Seq[string], so the text is never held in memory. The lines are
// grouped in chunks of 256 (a map of counts per line would cost more than
// counting the line's words), par.MapSeq counts the words of each chunk in
// parallel, on batches pulled from the sequence, and par.ReduceSeq merges the
// counts, also in parallel. At any time only a few batches of lines are in
// flight, whatever the size of the file; what grows is the table of distinct
// words.
//
//	go run ./examples/wordfreq
//	go run ./examples/wordfreq -lines 1000000
//	go run ./examples/wordfreq /usr/share/common-licenses/GPL-3
package main

import (
	"bufio"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/weftgo/weft/par"
)

func main() {
	nLines := flag.Int("lines", 200_000, "without a file, count a generated text of `n` lines")
	runs := flag.Int("runs", 3, "time the median of `k` counts of each version")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: wordfreq [flags] [file]")
		flag.PrintDefaults()
	}
	flag.Parse()
	var src source
	switch flag.NArg() {
	case 0:
		src = generated(*nLines)
	case 1:
		src = file(flag.Arg(0))
	default:
		flag.Usage()
		os.Exit(2)
	}
	if _, err := run(os.Stdout, src, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "wordfreq:", err)
		os.Exit(1)
	}
}

// A source opens the text anew for each count.
type source struct {
	name string
	open func() (io.ReadCloser, error)
}

func file(path string) source {
	return source{name: path, open: func() (io.ReadCloser, error) { return os.Open(path) }}
}

func generated(n int) source {
	return source{
		name: fmt.Sprintf("a generated text of %d lines", n),
		open: func() (io.ReadCloser, error) { return io.NopCloser(newTextReader(n)), nil },
	}
}

// counts maps each word to its number of occurrences.
type counts map[string]int

// chunkLines is how many lines countChunk counts into one map: enough that
// the map's cost, and merging it, is small against counting the words.
const chunkLines = 256

// countChunk counts the words of some lines.
func countChunk(lines []string) counts {
	c := counts{}
	for _, line := range lines {
		c.add(line)
	}
	return c
}

// add counts the words of line into c.
func (c counts) add(line string) {
	for w := range words(line) {
		if _, ok := c[w]; !ok {
			w = strings.Clone(w) // a word of the line would keep the whole line alive
		}
		c[w]++
	}
}

// chunks groups the elements of seq in slices of up to n, each a new slice.
func chunks[E any](seq iter.Seq[E], n int) iter.Seq[[]E] {
	return func(yield func([]E) bool) {
		chunk := make([]E, 0, n)
		for e := range seq {
			chunk = append(chunk, e)
			if len(chunk) == n {
				if !yield(chunk) {
					return
				}
				chunk = make([]E, 0, n) // the last one may still be in use
			}
		}
		if len(chunk) > 0 {
			yield(chunk)
		}
	}
}

// merge adds the smaller of a and b into the larger and returns it. It may
// modify a or b, which is safe here because every count it is given is made
// for it by countChunk or by an earlier merge, and used once. nil is its
// identity, and it never writes to a nil map.
func merge(a, b counts) counts {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(b) == 0 {
		return a
	}
	for w, n := range b {
		a[w] += n
	}
	return a
}

// countPar is the parallel count: the lines grouped in chunks, a map per
// chunk, the maps merged.
func countPar(lines iter.Seq[string]) counts {
	return par.ReduceSeq(par.MapSeq(chunks(lines, chunkLines), countChunk), nil, merge)
}

// countSeq is the plain loop that countPar replaces.
func countSeq(lines iter.Seq[string]) counts {
	c := counts{}
	for line := range lines {
		c.add(line)
	}
	return c
}

// words yields the words of a line in lower case: the runs of letters and
// digits, with the apostrophes inside them ("don't").
func words(line string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1 // the start of the word in progress, or -1
		for i, r := range line {
			switch {
			case isWord(r):
				if start < 0 {
					start = i
				}
				continue
			case r == '\'' && start >= 0 && i+1 < len(line):
				if next, _ := utf8.DecodeRuneInString(line[i+1:]); isWord(next) {
					continue
				}
			}
			if start >= 0 {
				if !yield(lower(line[start:i])) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			yield(lower(line[start:]))
		}
	}
}

func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// lower is strings.ToLower without the copy when w is lower case already.
func lower(w string) string {
	for _, r := range w {
		if r >= utf8.RuneSelf || 'A' <= r && r <= 'Z' {
			return strings.ToLower(w)
		}
	}
	return w
}

// lines returns the lines of r as a sequence, and a function that reports
// the error that ended it early, if any.
func lines(r io.Reader) (iter.Seq[string], func() error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	seq := func(yield func(string) bool) {
		for sc.Scan() {
			if !yield(sc.Text()) {
				return
			}
		}
	}
	return seq, sc.Err
}

// entry is a word and its count.
type entry struct {
	word string
	n    int
}

// top returns the k most frequent words, the most frequent first, ties in
// alphabetical order.
func top(c counts, k int) []entry {
	es := make([]entry, 0, len(c))
	for w, n := range c {
		es = append(es, entry{w, n})
	}
	slices.SortFunc(es, func(a, b entry) int {
		if x := cmp.Compare(b.n, a.n); x != 0 {
			return x
		}
		return strings.Compare(a.word, b.word)
	})
	return es[:min(k, len(es))]
}

// result is what run found.
type result struct {
	total int // words in all
	top   []entry
	c     counts
}

// count reads src once and counts it with f, returning the counts and the
// time taken.
func count(src source, f func(iter.Seq[string]) counts) (counts, time.Duration, error) {
	r, err := src.open()
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	seq, scanErr := lines(r)
	start := time.Now()
	c := f(seq)
	d := time.Since(start)
	if err := scanErr(); err != nil {
		return nil, 0, err
	}
	return c, d, nil
}

// run counts src with the plain loop and in parallel, runs times each,
// checks that the counts agree, and prints the top ten and the median times.
func run(out io.Writer, src source, runs int) (result, error) {
	if runs < 1 {
		return result{}, fmt.Errorf("need runs >= 1, got %d", runs)
	}
	var seq, parl counts
	tSeq := make([]time.Duration, runs)
	tPar := make([]time.Duration, runs)
	for i := range runs {
		var err error
		if seq, tSeq[i], err = count(src, countSeq); err != nil {
			return result{}, err
		}
		if parl, tPar[i], err = count(src, countPar); err != nil {
			return result{}, err
		}
	}
	if parl == nil {
		parl = counts{}
	}
	if !equal(seq, parl) {
		return result{}, errors.New("the parallel count differs from the loop's")
	}

	r := result{top: top(parl, 10), c: parl}
	for _, n := range parl {
		r.total += n
	}
	fmt.Fprintf(out, "%s: %d words, %d distinct\n", src.name, r.total, len(parl))
	for i, e := range r.top {
		fmt.Fprintf(out, "%3d. %-12s %d\n", i+1, e.word, e.n)
	}
	slices.Sort(tSeq)
	slices.Sort(tPar)
	ms, mp := tSeq[runs/2], tPar[runs/2]
	fmt.Fprintf(out, "plain loop:                 %v (median of %d)\n", ms.Round(time.Microsecond), runs)
	fmt.Fprintf(out, "par.MapSeq + par.ReduceSeq: %v (%.2fx)\n", mp.Round(time.Microsecond), float64(ms)/float64(mp))
	return r, nil
}

func equal(a, b counts) bool {
	if len(a) != len(b) {
		return false
	}
	for w, n := range a {
		if b[w] != n {
			return false
		}
	}
	return true
}

// textReader generates lines of words drawn from a Zipf distribution over a
// made-up vocabulary, with capitals and punctuation as in prose, on demand:
// the text is never held in memory. The same n gives the same text.
type textReader struct {
	left int // lines still to generate
	rng  *rand.Rand
	buf  []byte // generated but not yet read
}

// vocabulary is the made-up words.
var vocabulary = func() []string {
	syllables := strings.Fields("the a ka lo mi ne ru so ta vi ze on re ba du fi go he ju")
	rng := rand.New(rand.NewPCG(7, 11))
	seen := map[string]bool{}
	var v []string
	for len(v) < 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString(syllables[rng.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			v = append(v, w)
		}
	}
	return v
}()

// draws holds indices into vocabulary drawn from a Zipf distribution once,
// so that a word costs a uniform draw from the table: sampling the
// distribution itself costs several logarithms per word, more than
// counting the word, and the generator runs on one goroutine.
var draws = func() []uint16 {
	rng := rand.New(rand.NewPCG(3, 5))
	z := rand.NewZipf(rng, 1.1, 2, uint64(len(vocabulary)-1))
	d := make([]uint16, 1<<16)
	for i := range d {
		d[i] = uint16(z.Uint64())
	}
	return d
}()

func newTextReader(n int) *textReader {
	return &textReader{left: n, rng: rand.New(rand.NewPCG(1, 2))}
}

func (t *textReader) Read(p []byte) (int, error) {
	for len(t.buf) == 0 {
		if t.left == 0 {
			return 0, io.EOF
		}
		t.left--
		t.buf = t.line(t.buf[:0])
	}
	n := copy(p, t.buf)
	t.buf = t.buf[n:]
	return n, nil
}

// line appends one line of 4 to 15 words to b.
func (t *textReader) line(b []byte) []byte {
	n := 4 + t.rng.IntN(12)
	for i := range n {
		x := t.rng.Uint64()
		w := vocabulary[draws[x&(1<<16-1)]]
		if i == 0 {
			b = append(b, w[0]-'a'+'A')
			w = w[1:]
		}
		b = append(b, w...)
		switch {
		case i == n-1:
			b = append(b, ".\n"...)
		case x>>61 == 0: // one time in 8
			b = append(b, ", "...)
		default:
			b = append(b, ' ')
		}
	}
	return b
}
