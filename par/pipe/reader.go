package pipe

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unsafe"
)

// A Reader's pipes are the text sources of split.go over a text that is not
// in memory: their positions are the text's bytes, as for Lines, Split and
// Fields, and a terminal's piece [lo, hi) reads, when it runs, the bytes it
// needs (from lo-1 to the end of the last piece that starts before hi) with
// one ReadAt of its own, into a new block that nothing writes again. So
// several goroutines read at once, each the part of the file it cuts, the
// first pieces are cut while the rest of the file is still unread, and no
// more of the text is in memory at once than the blocks of the steps that are
// running (plus what the caller keeps), whatever the file's size. The pieces
// are strings that share their block's memory; a block is freed when no
// piece of it is kept.

// readBlock is the least a piece reads at once, so that a piece of a few
// bytes does not cost a system call per line.
const readBlock = 4 << 10

// readSlack is how far past its range a piece reads at first, for the end of
// the last piece that starts in its range; a longer piece reads the rest
// with one more ReadAt (or more, doubling, for one longer than the range).
const readSlack = 512

// Reader is a text read from an io.Reader in parallel, as the pipes of its
// lines (Lines), of its pieces between separators (Split) or of its fields
// (Fields): the text sources of this package over a text that is not in
// memory. Its pipes are streamed: when a terminal runs, each piece of the
// range reads the bytes it needs itself, so the goroutines of the call read
// the file at once, each at its own offset, and cut and fold what they read
// while the rest is unread; the memory a call holds is about a block of the
// text per running goroutine, not the text.
//
// A read error (or a file that turns out shorter than its size) ends the
// text where it happened for every piece read after it, so a terminal then
// returns a result over part of the text: as with bufio.Scanner, check Err
// after the terminal. A Reader may be used by several terminals, one after
// the other or at once; it reads the text again each time.
type Reader struct {
	r    io.ReaderAt // nil when the text was read whole into mem
	size int         // the text's length in bytes
	mem  []byte      // the whole text, for a reader without ReadAt

	mu  sync.Mutex
	err error // guarded by mu: the first read error
}

// NewReader returns the Reader of the text of r. The text is r's bytes from
// offset 0 to the end:
//
//   - an *os.File of a regular file is read with ReadAt, by as many
//     goroutines as work on the call, up to the size the file had when
//     NewReader was called;
//   - so is a reader with ReadAt and a Size method (*bytes.Reader,
//     *strings.Reader, *io.SectionReader), whatever its current offset;
//   - any other reader (a pipe, a socket, a decompressor) is read whole into
//     memory by NewReader, in one goroutine, since it can only be read in
//     order; an error in that read is Err's.
func NewReader(r io.Reader) *Reader {
	if r == nil {
		panic("pipe: NewReader: r is nil")
	}
	t := &Reader{}
	switch x := r.(type) {
	case *os.File:
		if fi, err := x.Stat(); err == nil && fi.Mode().IsRegular() {
			t.r, t.size = x, int(fi.Size())
			return t
		}
	case interface {
		io.ReaderAt
		Size() int64
	}:
		t.r, t.size = x, int(x.Size())
		return t
	}
	b, err := io.ReadAll(r)
	t.mem, t.size = b, len(b)
	if err != nil {
		t.fail(err)
	}
	return t
}

// Err returns the first error met in reading the text, or nil. Call it after
// the terminals that used the Reader's pipes have returned.
func (t *Reader) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// fail records err as the Reader's error unless one is recorded already.
func (t *Reader) fail(err error) {
	t.mu.Lock()
	if t.err == nil {
		t.err = err
	}
	t.mu.Unlock()
}

// failed reports whether a read has failed; a piece that begins after that
// reads nothing.
func (t *Reader) failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err != nil
}

// Lines returns the pipeline of the lines of the text, in order, without
// their '\n', as Lines does for a text in memory: the same lines at the same
// positions (the byte at which each starts; Len() is the text's length).
func (t *Reader) Lines() Pipe[string] {
	return t.pipe(t.size, func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
		w.feedSep(lo, hi, '\n', true, buf, pbuf, sink)
	})
}

// Split returns the pipeline of the pieces of the text between the bytes
// sep, in order, as Split does for a text in memory: the same pieces at the
// same positions (Len() is the text's length plus one).
func (t *Reader) Split(sep byte) Pipe[string] {
	return t.pipe(t.size+1, func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
		w.feedSep(lo, hi, sep, false, buf, pbuf, sink)
	})
}

// Fields returns the pipeline of the fields of the text, in order: the
// non-empty runs of bytes between ASCII white space, as Fields does for a
// text in memory, at the same positions.
func (t *Reader) Fields() Pipe[string] {
	return t.pipe(t.size, func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
		w.feedFields(lo, hi, buf, pbuf, sink)
	})
}

// LineChunks returns the pipeline of the text cut into chunks of whole
// lines, as LineChunks does for a text in memory: the same chunks at the
// same positions, each read as one string. Each chunk is read into memory of
// its own, which stays alive while any string cut from it is kept (a map
// key, say); LineChunkBytes reads into a buffer per goroutine.
func (t *Reader) LineChunks() Pipe[string] {
	return t.pipe(chunksOf(t.size), func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
		feedReaderChunks(w, (*window).piece, lo, hi, buf, pbuf, sink)
	})
}

// LineChunkBytes is LineChunks with each chunk a []byte that holds only
// while the stage it is handed to runs: the goroutine that read it reads
// its next chunks into the same memory, as bufio.Scanner's Bytes does. So a
// call holds about one block of the text per goroutine, and allocates next
// to nothing, however large the text. Copy what is kept: a map lookup with
// m[string(b)] makes no copy, an insertion with it makes one; a stage that
// keeps its items (Collect) must not be fed from it unless they are copied
// first (Map with bytes.Clone). The 1BRC from a file is
//
//	r := pipe.NewReader(f)
//	stats := pipe.Fold(r.LineChunkBytes(), newStats,
//		func(m Stats, chunk []byte) Stats { m.addLines(chunk); return m },
//		mergeStats)
func (t *Reader) LineChunkBytes() Pipe[[]byte] {
	return readerPipe(t, chunksOf(t.size), true, func(w *window, lo, hi int, buf [][]byte, pbuf []int, sink func([]int, [][]byte)) {
		feedReaderChunks(w, pieceBytes, lo, hi, buf, pbuf, sink)
	})
}

// pipe returns the pipeline of n positions whose pieces feed finds through a
// window of the feeder's own.
func (t *Reader) pipe(n int, feed func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string))) Pipe[string] {
	return readerPipe(t, n, false, feed)
}

// readerPipe is Reader.pipe for items of any type, with windows that reuse
// their block when reuse is set (see LineChunkBytes).
func readerPipe[T any](t *Reader, n int, reuse bool, feed func(w *window, lo, hi int, buf []T, pbuf []int, sink func([]int, []T))) Pipe[T] {
	return Pipe[T]{n: n, open: func() feeder[T] {
		w := &window{t: t, reuse: reuse}
		buf := make([]T, 0, batch)
		var sink func([]T)
		fwd := func(_ []int, xs []T) { sink(xs) }
		return func(lo, hi int, s func([]T)) {
			sink = s
			feed(w, lo, hi, buf, nil, fwd)
			w.drop()
		}
	}, openPos: func() posFeeder[T] {
		w := &window{t: t, reuse: reuse}
		buf, pbuf := make([]T, 0, batch), make([]int, 0, batch)
		return func(lo, hi int, sink func([]int, []T)) {
			feed(w, lo, hi, buf, pbuf, sink)
			w.drop()
		}
	}}
}

// window is the part of a Reader's text that one feeder has read: the bytes
// [base, base+len(str)). Owned by the feeder's goroutine.
type window struct {
	t    *Reader
	base int
	str  string // a block that nothing writes after it was read
	hi   int    // the end of the range the feeder is cutting, for how far to read
	end  int    // where the text ends for this feeder: t.size, or where a read failed
	// reuse: the next read may overwrite the block of str unless pending,
	// which says that a piece of the block is in a batch not yet handed on.
	reuse, pending bool
	block          []byte // with reuse: the memory under str
}

// drop lets the window's block go once a piece is done, so that an idle
// feeder keeps no block alive.
func (w *window) drop() { w.base, w.str, w.pending = 0, "", false }

// begin starts a piece [lo, hi) of the range, and reports whether it reads
// anything: not after a ReadAt failed. A text read whole is complete as far
// as it goes, whatever error ended it.
func (w *window) begin(hi int) bool {
	w.hi, w.end = hi, w.t.size
	return w.t.mem != nil || !w.t.failed()
}

// load reads the text from `from` on into a new block: to readSlack past the
// range's end, and at least readBlock bytes and min bytes, or to the text's
// end. It reports whether it read anything.
func (w *window) load(from, least int) bool {
	size := min(max(w.hi+readSlack-from, readBlock, least), w.end-from)
	if size <= 0 {
		return false
	}
	if w.t.mem != nil {
		w.base, w.str = from, unsafe.String(&w.t.mem[from], size)
		return true
	}
	var b []byte
	if w.reuse && !w.pending && cap(w.block) >= size {
		b = w.block[:size]
	} else {
		b = make([]byte, size)
		if w.reuse {
			w.block = b
		}
	}
	k, err := w.t.r.ReadAt(b, int64(from))
	if k < size {
		if err == nil || errors.Is(err, io.EOF) {
			err = fmt.Errorf("pipe: Reader: the text ended at byte %d of %d: %w", from+k, w.t.size, io.ErrUnexpectedEOF)
		}
		w.t.fail(err)
		w.end = from + k
		if k == 0 {
			return false
		}
		b = b[:k]
	}
	w.base, w.str = from, unsafe.String(&b[0], k)
	return true
}

// has reports whether the window holds byte i.
func (w *window) has(i int) bool { return i >= w.base && i < w.base+len(w.str) }

// index returns the position of the first sep in [from, to), or -1 (also
// when the text ends before to), and leaves the window holding the bytes
// from `from` to it. Reading past the window starts a block at from, so
// that a piece that starts there is in one block.
func (w *window) index(from, to int, sep byte) int {
	to = min(to, w.end)
	if from >= to {
		return -1
	}
	if !w.has(from) && !w.load(from, 0) {
		return -1
	}
	for {
		stop := min(to, w.base+len(w.str))
		if i := bytes.IndexByte(unsafe.Slice(unsafe.StringData(w.str[from-w.base:]), stop-from), sep); i >= 0 {
			return from + i
		}
		if stop >= to {
			return -1
		}
		// The block ends before to: read again from `from`, twice as much.
		if !w.load(from, 2*(w.base+len(w.str)-from)) {
			return -1
		}
	}
}

// piece returns the text's bytes [i, j), which the window holds.
func (w *window) piece(i, j int) string {
	if i == j {
		return ""
	}
	return w.str[i-w.base : j-w.base]
}

// feedSep is feedCut for a Reader's Lines (lines) and Split: the pieces
// between the bytes sep that start in [lo, hi).
func (w *window) feedSep(lo, hi int, sep byte, lines bool, buf []string, pbuf []int, sink func([]int, []string)) {
	n := w.t.size
	start := none
	if w.begin(hi) {
		if lo == 0 {
			start = 0
		} else if j := w.index(lo-1, hi-1, sep); j >= 0 {
			start = j + 1 // a piece starts after every separator; for Lines, j+1 < hi <= n
		}
	}
	for lo < hi {
		next := batchEnd(lo, hi)
		buf = buf[:0]
		if pbuf != nil {
			pbuf = pbuf[:0]
		}
		for start < next {
			if start >= w.end { // the empty piece after a final separator, or a read that failed
				if start == n && !lines {
					buf = append(buf, "")
					if pbuf != nil {
						pbuf = append(pbuf, start)
					}
				}
				start = none
				break
			}
			end, after := w.end, none
			if j := w.index(start, w.end, sep); j >= 0 {
				end, after = j, j+1
				if lines && after == n {
					after = none // a final '\n' starts no line
				}
			} else if !w.has(start) && !w.load(start, 0) {
				break
			}
			buf = append(buf, w.piece(start, end))
			if pbuf != nil {
				pbuf = append(pbuf, start)
			}
			start = after
		}
		sink(pbuf, buf)
		lo = next
	}
}

// feedFields is feedFields of split.go for a Reader: the fields that start
// in [lo, hi).
func (w *window) feedFields(lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
	i := lo // the next byte to look at
	ok := w.begin(hi)
	if ok && lo > 0 && w.space(lo-1) == 0 {
		for i < hi && w.space(i) == 0 { // inside a field that started before lo
			i++
		}
	}
	for lo < hi {
		next := batchEnd(lo, hi)
		buf = buf[:0]
		if pbuf != nil {
			pbuf = pbuf[:0]
		}
		for ok {
			for i < next && w.space(i) == 1 {
				i++
			}
			if i >= next || i >= w.end {
				break
			}
			start := i
			if !w.has(start) && !w.load(start, 0) {
				ok = false
				break
			}
			for w.space(i) == 0 {
				i++
			}
			buf = append(buf, w.piece(start, i))
			if pbuf != nil {
				pbuf = append(pbuf, start)
			}
		}
		sink(pbuf, buf)
		lo = next
	}
}

// space returns 1 if byte i of the text is ASCII white space, 0 if it is
// another byte, and 2 past the text's end (or where a read failed). A byte
// outside the window is read into a block that starts at the field (or run
// of spaces) that holds it, so that a field is in one block.
func (w *window) space(i int) int {
	if i >= w.end {
		return 2
	}
	if !w.has(i) {
		start := i
		if i > 0 && w.has(i-1) {
			// Continue the field or run of spaces that i is in: read from
			// the first byte of it that the window holds.
			start = w.base
			for k := i - 1; k >= w.base; k-- {
				if asciiSpace[w.str[k-w.base]] != asciiSpace[w.str[i-1-w.base]] {
					start = k + 1
					break
				}
			}
		}
		if !w.load(start, 2*(i-start)) {
			return 2
		}
	}
	if asciiSpace[w.str[i-w.base]] {
		return 1
	}
	return 0
}

// feedReaderChunks is feedLineChunks of linechunks.go for a Reader: the
// chunks at the positions [lo, hi), each made by piece from the window.
func feedReaderChunks[T any](w *window, piece func(w *window, i, j int) T, lo, hi int, buf []T, pbuf []int, sink func([]int, []T)) {
	n := w.t.size
	ok := w.begin(min(hi*lineChunk, n))
	start := min(lo*lineChunk, n)
	if ok && start > 0 && start < n {
		if j := w.index(start-1, n, '\n'); j >= 0 {
			start = j + 1
		} else {
			start, ok = n, false
		}
	}
	for lo < hi {
		next := batchEnd(lo, hi)
		buf = buf[:0]
		if pbuf != nil {
			pbuf = pbuf[:0]
		}
		for k := lo; k < next && ok; k++ {
			end := w.lineStart(start, (k+1)*lineChunk)
			if end < 0 {
				ok = false
				break
			}
			if end > start {
				buf = append(buf, piece(w, start, end))
				w.pending = true
				if pbuf != nil {
					pbuf = append(pbuf, k)
				}
			}
			start = end
		}
		sink(pbuf, buf)
		w.pending = false
		lo = next
	}
}

// pieceBytes returns the text's bytes [i, j), which the window holds, as a
// slice of its block with the capacity clipped.
func pieceBytes(w *window, i, j int) []byte {
	if i == j {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(w.str[i-w.base:]), j-i)
}

// lineStart returns the start of the first line that starts at or after
// byte b (or the text's end), and leaves the window holding the bytes from
// start to it, so that they are one string; start <= b. It returns -1 if a
// read failed before it.
func (w *window) lineStart(start, b int) int {
	if b >= w.end {
		b = w.end
	}
	if start >= b {
		return start
	}
	if !w.has(start) && !w.load(start, b-start) {
		return -1
	}
	from := b - 1 // a line starts after every '\n'
	for {
		stop := w.base + len(w.str)
		if from < stop {
			if i := strings.IndexByte(w.str[from-w.base:], '\n'); i >= 0 {
				return from + i + 1
			}
			from = stop
		}
		if stop >= w.end {
			return w.end
		}
		// The block ends before the line does: read again from start,
		// twice as much.
		if !w.load(start, 2*(stop-start)) {
			return -1
		}
	}
}
