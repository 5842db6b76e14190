package pipe_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// A Reader's pipes give the pieces and positions that the in-memory sources
// give for the same text, whatever the reader and however the range is cut.

// readerTexts are texts with the edge cases of the cuts: empty, separators
// at either end, empty pieces, no final separator, and pieces far longer
// than what a piece of the range reads at first.
func readerTexts() map[string]string {
	long := strings.Repeat("x", 20_000)
	var rows strings.Builder
	for i := range 5000 {
		rows.WriteString(strings.Repeat("ab", i%7))
		rows.WriteString(";12.3 w\n")
	}
	return map[string]string{
		"empty":        "",
		"newline":      "\n",
		"one":          "a",
		"one-nl":       "a\n",
		"two-nl":       "a\n\n",
		"blank-lines":  "\n\n\nx\n\n",
		"spaces":       "  a \t b\r\n\v c  ",
		"long-lines":   long + "\n" + long + "\n\n" + long,
		"long-fields":  long + " " + long + "  \n" + long,
		"long-spaces":  "a" + strings.Repeat(" ", 20_000) + "b",
		"rows":         rows.String(),
		"rows-no-last": strings.TrimSuffix(rows.String(), "\n"),
	}
}

// readers returns ways to read text as a Reader: a strings.Reader (ReadAt
// and Size), a regular file, and a reader with neither (read whole).
func readers(t *testing.T, text string) map[string]func() *pipe.Reader {
	path := filepath.Join(t.TempDir(), "text")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return map[string]func() *pipe.Reader{
		"strings.Reader": func() *pipe.Reader { return pipe.NewReader(strings.NewReader(text)) },
		"file": func() *pipe.Reader {
			f, err := os.Open(path)
			require.NoError(t, err)
			t.Cleanup(func() { f.Close() })
			return pipe.NewReader(f)
		},
		"plain": func() *pipe.Reader { return pipe.NewReader(io.MultiReader(strings.NewReader(text))) },
	}
}

// pieces collects the items of p with their positions.
func pieces(p pipe.Pipe[string], opts ...par.Option) ([]string, []int) {
	type at struct {
		s string
		i int
	}
	got := pipe.MapIndex(p, func(i int, s string) at { return at{s, i} }).Collect(opts...)
	ss, is := make([]string, len(got)), make([]int, len(got))
	for k, a := range got {
		ss[k], is[k] = a.s, a.i
	}
	return ss, is
}

func TestReaderMatchesMemory(t *testing.T) {
	grains := [][]par.Option{nil, {par.WithGrain(1)}, {par.WithGrain(7)}, {par.WithGrain(1000)}}
	if !surfaceFull() {
		grains = grains[:2]
	}
	for name, text := range readerTexts() {
		for how, open := range readers(t, text) {
			for _, opts := range grains {
				r := open()
				for _, c := range []struct {
					what      string
					got, want pipe.Pipe[string]
				}{
					{"Lines", r.Lines(), pipe.Lines(text)},
					{"Split", r.Split(';'), pipe.Split(text, ';')},
					{"Split-nl", r.Split('\n'), pipe.Split(text, '\n')},
					{"Fields", r.Fields(), pipe.Fields(text)},
					{"LineChunks", r.LineChunks(), pipe.LineChunks(text)},
					{"LineChunkBytes", pipe.Map(r.LineChunkBytes(), func(b []byte) string { return string(b) }), pipe.LineChunks(text)},
				} {
					if len(text) > 1000 && len(opts) > 0 {
						opts = []par.Option{par.WithGrain(997)} // a grain of a byte over 20 KB: slow, and no more telling
					}
					require.Equal(t, c.want.Len(), c.got.Len(), "%s %s %s", name, how, c.what)
					ws, wi := pieces(c.want, opts...)
					gs, gi := pieces(c.got, opts...)
					require.True(t, slices.Equal(ws, gs), "%s %s %s %v: pieces differ", name, how, c.what, opts)
					require.Equal(t, wi, gi, "%s %s %s: positions", name, how, c.what)
					require.Equal(t, len(ws), c.got.Count(opts...), "%s %s %s: Count", name, how, c.what)
				}
				require.NoError(t, r.Err())
			}
		}
	}
}

// failingAt is a text whose ReadAt fails for every byte at or past at.
type failingAt struct {
	*strings.Reader
	at  int64
	err error
}

func (f failingAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) <= f.at {
		return f.Reader.ReadAt(p, off)
	}
	k := max(0, int(f.at-off))
	n, _ := f.Reader.ReadAt(p[:k], off)
	return n, f.err
}

func TestReaderError(t *testing.T) {
	text := strings.Repeat("line of text\n", 10_000)
	boom := errors.New("boom")
	half := int64(len(text) / 2)

	// Without DeferErr, the terminal that meets the error panics with it.
	r := pipe.NewReader(failingAt{strings.NewReader(text), half, boom})
	rerr := readPanic(t, func() { r.Lines().Count() })
	require.ErrorIs(t, rerr, boom)
	require.GreaterOrEqual(t, rerr.Offset, half, "where the piece that met it failed")
	require.ErrorIs(t, r.Err(), boom)

	// With it, the terminal returns what was read and Err has the error.
	r = pipe.NewReader(failingAt{strings.NewReader(text), half, boom}).DeferErr()
	n := r.Lines().Count()
	require.ErrorIs(t, r.Err(), boom)
	require.Equal(t, 5_000, n, "the lines that start before the error")

	// A file that is shorter than its size says: the end is an error too.
	short := failingAt{strings.NewReader(text), int64(len(text) - 5), io.EOF}
	r = pipe.NewReader(short)
	rerr = readPanic(t, func() { r.Lines().ForEach(func(string) {}) })
	require.ErrorIs(t, rerr, io.ErrUnexpectedEOF)
	r = pipe.NewReader(short).DeferErr()
	r.Lines().ForEach(func(string) {})
	require.ErrorIs(t, r.Err(), io.ErrUnexpectedEOF)

	// A reader without ReadAt is read whole by NewReader: the terminal
	// panics with its error, or with DeferErr gives what was read.
	r = pipe.NewReader(io.MultiReader(strings.NewReader("a\nb\n"), errReader{boom}))
	rerr = readPanic(t, func() { r.Lines().Collect() })
	require.ErrorIs(t, rerr, boom)
	require.Equal(t, int64(4), rerr.Offset)
	r = pipe.NewReader(io.MultiReader(strings.NewReader("a\nb\n"), errReader{boom})).DeferErr()
	require.Equal(t, []string{"a", "b"}, r.Lines().Collect())
	require.ErrorIs(t, r.Err(), boom)

	// The pool is usable after the panic.
	require.Equal(t, 10_000, pipe.NewReader(strings.NewReader(text)).Lines().Count())
}

// readPanic runs f, which must panic with a *pipe.ReadError, and returns it.
func readPanic(t *testing.T, f func()) (rerr *pipe.ReadError) {
	t.Helper()
	defer func() {
		var ok bool
		rerr, ok = recover().(*pipe.ReadError)
		require.True(t, ok, "the terminal panics with a *pipe.ReadError")
	}()
	f()
	return nil
}

// TestReaderErrorCoversTheSame checks that the part of the text a terminal
// covers after a read error does not depend on the timing: over a text whose
// reads fail at 99% (in the middle of a line), every terminal, on every run
// and however the range is cut, covers the lines that start before that
// byte, the last of them cut there, and Err is the error at that byte.
func TestReaderErrorCoversTheSame(t *testing.T) {
	var b strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&b, "st%d;%d.%d\n", i%413, i%97, i%10)
	}
	text := b.String()
	at := int64(len(text)) * 99 / 100
	for text[at-1] == '\n' {
		at++ // in the middle of a line, so that one is cut
	}
	lines := strings.Split(text[:at], "\n")
	boom := errors.New("boom")
	wantBytes := 0
	for _, l := range lines {
		wantBytes += len(l)
	}
	runs := 40
	if testing.Short() {
		runs = 10
	}
	for run := range runs {
		opts := []par.Option{}
		if run%2 == 1 {
			opts = append(opts, par.WithGrain(1+run*37))
		}
		r := pipe.NewReader(failingAt{strings.NewReader(text), at, boom}).DeferErr()
		require.Equal(t, len(lines), r.Lines().Count(opts...), "run %d: Count", run)
		bytesRead := pipe.Fold(r.Lines(), func() int { return 0 },
			func(n int, l string) int { return n + len(l) }, func(a, b int) int { return a + b }, opts...)
		require.Equal(t, wantBytes, bytesRead, "run %d: Fold", run)
		counts := pipe.ReduceBy(r.Lines(), func(l string) (int, int) { return len(l) % 7, 1 },
			func(a, b int) int { return a + b }, opts...)
		total := 0
		for _, c := range counts {
			total += c
		}
		require.Equal(t, len(lines), total, "run %d: ReduceBy", run)
		chunked := pipe.Fold(r.LineChunkBytes(), func() int { return 0 },
			func(n int, c []byte) int { return n + len(c) }, func(a, b int) int { return a + b }, opts...)
		require.Equal(t, int(at), chunked, "run %d: LineChunkBytes", run)
		var rerr *pipe.ReadError
		require.ErrorIs(t, r.Err(), boom)
		require.NotErrorAs(t, r.Err(), &rerr, "Err is the reader's error itself")
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestReaderReadsInPieces checks that a Reader is read by the pieces of the
// range, each what it needs, and not whole first: every ReadAt of a call over
// a text of many blocks is far shorter than the text, and together they
// read it about once. A piece reads at least a block of 4 KiB (readBlock),
// so the more pieces a schedule cuts, the more the blocks overlap: on eight
// processors, where thieves cut pieces of a few KiB, Lines read the text 2.3
// to 4 times. So no read may pass its piece by more than a block and the
// slack, and the calls run on a pool of two workers, whose pieces read the
// text less than twice (1.1 to 1.2 times without the race detector) on any
// machine.
func TestReaderReadsInPieces(t *testing.T) {
	text := strings.Repeat("station;-12.3\n", 200_000) // 2.8 MB
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	on := par.OnPool(p)
	for what, count := range map[string]func(r *pipe.Reader) int{
		"Lines": func(r *pipe.Reader) int { return r.Lines().Count(on) },
		"LineChunkBytes": func(r *pipe.Reader) int {
			return pipe.Sum(pipe.Map(r.LineChunkBytes(), func(c []byte) int { return bytes.Count(c, []byte("\n")) }), on)
		},
		"LineChunks": func(r *pipe.Reader) int {
			return pipe.Sum(pipe.Map(r.LineChunks(), func(c string) int { return strings.Count(c, "\n") }), on)
		},
	} {
		c := &countingReaderAt{r: strings.NewReader(text)}
		r := pipe.NewReader(sized{c, int64(len(text))})
		require.Equal(t, 200_000, count(r), what)
		require.NoError(t, r.Err())
		require.Less(t, c.largest.Load(), int64(len(text)/2), "%s: one ReadAt read half the text", what)
		require.Less(t, c.total.Load(), int64(len(text))+c.calls.Load()*(4<<10+512), "%s: a ReadAt read more than a block (4 KiB, readBlock) and the slack past its piece", what)
		require.Less(t, c.total.Load(), int64(len(text))*2, "%s: the text was read twice", what)
		require.GreaterOrEqual(t, c.total.Load(), int64(len(text)), what)
	}
}

// TestLineChunkBytesReuses: LineChunkBytes reads into a buffer per
// goroutine, so a call over a text allocates far less than the text, however
// many pieces the schedule cuts it into.
func TestLineChunkBytesReuses(t *testing.T) {
	text := strings.Repeat("station;-12.3\n", 200_000) // 2.8 MB
	r := pipe.NewReader(strings.NewReader(text))
	lines := func() int {
		return pipe.Fold(r.LineChunkBytes(), func() int { return 0 },
			func(a int, c []byte) int { return a + bytes.Count(c, []byte("\n")) },
			func(a, b int) int { return a + b })
	}
	require.Equal(t, 200_000, lines())
	if underRace {
		return // the race detector's sync.Pool drops a quarter of what it is given
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	require.Equal(t, 200_000, lines())
	runtime.ReadMemStats(&after)
	require.NoError(t, r.Err())
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(len(text)/4), "bytes allocated by a call")
}

func TestNewReaderNil(t *testing.T) {
	require.PanicsWithValue(t, "pipe: NewReader: r is nil", func() { pipe.NewReader(nil) })
}

// sized is an io.ReaderAt with a Size.
type sized struct {
	io.ReaderAt
	n int64
}

func (s sized) Size() int64 { return s.n }

func (s sized) Read([]byte) (int, error) { panic("a Reader with ReadAt must not call Read") }

// countingReaderAt counts what is read through it.
type countingReaderAt struct {
	r                     io.ReaderAt
	total, largest, calls atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.total.Add(int64(n))
	c.calls.Add(1)
	for {
		l := c.largest.Load()
		if int64(n) <= l || c.largest.CompareAndSwap(l, int64(n)) {
			break
		}
	}
	return n, err
}
