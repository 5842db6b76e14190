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
// the last piece that starts in its range; where that piece is longer, the
// piece of the range reads again, twice as much each time (feedSpan).
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
// A read error (or a file that turns out shorter than its size) is never
// silent: the terminal that meets it panics with a *ReadError that wraps it,
// on the calling goroutine, once the pieces that had started have returned,
// as a panic in the caller's function does. A program that would rather
// have a result over the part of the text that could be read, and the
// error beside it, as bufio.Scanner gives them, calls DeferErr first and
// checks Err after the terminal. A Reader may be used by several terminals,
// one after the other or at once; it reads the text again each time.
type Reader struct {
	r    io.ReaderAt // nil when the text was read whole into mem
	size int         // the text's length in bytes
	mem  []byte      // the whole text, for a reader without ReadAt

	// deferErr: a read error is Err's only, not a panic (DeferErr). Set
	// before the terminals run, read by their pieces.
	deferErr bool

	mu    sync.Mutex
	err   error // guarded by mu: the read error at the smallest offset
	errAt int   // guarded by mu: where err happened, when err is not nil

	// blocks holds the *block of LineChunkBytes' windows between their
	// pieces, so that the pieces of a call, however many, share about one
	// block per goroutine (see window.drop).
	blocks sync.Pool
}

// block is the reused memory of a window of LineChunkBytes.
type block struct{ b []byte }

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
		t.fail(err, len(b))
	}
	return t
}

// ReadError is the value a terminal over a Reader's pipe panics with when
// the text cannot be read (see Reader): the error that ReadAt (or, for a
// reader without it, Read) returned, and the offset in the text where the
// read of the piece that met it failed (the Reader's Err is the error at the
// smallest offset that the call's pieces met). errors.Is and errors.As see
// Err through it.
type ReadError struct {
	Offset int64
	Err    error
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("pipe: Reader: read failed at byte %d: %v", e.Offset, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// DeferErr makes a read error Err's, as bufio.Scanner's is, instead of a
// panic of the terminal that meets it, and returns t. A terminal then
// returns its result over the part of the text that could be read, the same
// on every run, for a source whose ReadAt fails at the same offsets: each
// piece of the text (a line, a chunk, a field) that starts before the first
// byte that its own read could not get, cut there. A piece never stops
// reading because another one failed, so which pieces are covered does not
// depend on the timing. Check Err after each terminal. Call DeferErr before
// the terminals, not while one runs.
func (t *Reader) DeferErr() *Reader {
	t.deferErr = true
	return t
}

// Err returns the read error at the smallest offset of the text met so far,
// or nil. Call it after the terminals that used the Reader's pipes have
// returned. Without DeferErr, a terminal that met an error has panicked
// with it already.
func (t *Reader) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// fail records err, met at the offset at of the text, as the Reader's error
// unless one is recorded at a smaller offset, so that Err does not depend on
// which goroutine failed first.
func (t *Reader) fail(err error, at int) {
	t.mu.Lock()
	if t.err == nil || at < t.errAt {
		t.err, t.errAt = err, at
	}
	t.mu.Unlock()
}

// check panics with the Reader's error, unless it has none or DeferErr was
// called: a terminal opens its pipe with it, for a text read whole whose read
// failed in NewReader (a ReaderAt's pieces panic where they fail).
func (t *Reader) check() {
	if t.deferErr || t.r != nil {
		return
	}
	t.mu.Lock()
	err, at := t.err, t.errAt
	t.mu.Unlock()
	if err != nil {
		panic(&ReadError{Offset: int64(at), Err: err})
	}
}

// Lines returns the pipeline of the lines of the text, in order, without
// their '\n', as Lines does for a text in memory: the same lines at the same
// positions (the byte at which each starts; Len() is the text's length).
func (t *Reader) Lines() Pipe[string] {
	return t.cutPipe(t.size, '\n', true)
}

// Split returns the pipeline of the pieces of the text between the bytes
// sep, in order, as Split does for a text in memory: the same pieces at the
// same positions (Len() is the text's length plus one).
func (t *Reader) Split(sep byte) Pipe[string] {
	return t.cutPipe(t.size+1, sep, false)
}

// Fields returns the pipeline of the fields of the text, in order: the
// non-empty runs of bytes between ASCII white space, as Fields does for a
// text in memory, at the same positions.
func (t *Reader) Fields() Pipe[string] {
	return t.pipe(t.size, func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
		w.feedSpan(lo, hi, lastField, fieldEnd, buf, pbuf, sink, func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
			feedFields(&w.tx, lo, min(hi, len(w.tx.s)), buf, pbuf, sink)
		})
	})
}

// cutPipe returns the pipeline of n positions of the pieces between the
// bytes sep: Lines' if lines, else Split's.
func (t *Reader) cutPipe(n int, sep byte, lines bool) Pipe[string] {
	lastStart, end := sepBounds(sep)
	last := 1 // the positions past the text's bytes: Split's empty piece after a final separator
	if lines {
		last = 0
	}
	feed := func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
		feedSep(&w.tx, sep, lines, lo, min(hi, len(w.tx.s)+last), buf, pbuf, sink)
	}
	p := t.pipe(n, func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string)) {
		w.feedSpan(lo, hi, lastStart, end, buf, pbuf, sink, feed)
	})
	p.spans = &sepSpans[string]{sep: sep, open: func() func(lo, hi int, cut func(t *text[string], lo, hi int)) {
		t.check()
		w := &window{t: t}
		return func(lo, hi int, cut func(t *text[string], lo, hi int)) {
			if base, ok := w.span(lo, hi, lastStart, end); ok {
				cut(&w.tx, lo-base, min(hi-base, len(w.tx.s)+last))
				w.tx.s, w.tx.str = "", ""
			}
			w.drop()
		}
	}}
	return p
}

// sepBounds returns the functions that span needs to find the pieces
// between the bytes sep (see span).
func sepBounds(sep byte) (lastStart func(s string, lo, hi int) int, end func(s string) int) {
	lastStart = func(s string, lo, hi int) int {
		from := max(lo-1, 0)
		if j := strings.LastIndexByte(s[from:min(hi-1, len(s))], sep); j >= 0 {
			return from + j + 1 // a piece starts after every separator
		}
		if lo == 0 {
			return 0
		}
		return -1
	}
	end = func(s string) int { return strings.IndexByte(s, sep) }
	return lastStart, end
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
// first (Map with bytes.Clone). It is for a body that loops over the lines
// of a chunk itself, with a value per participant:
//
//	r := pipe.NewReader(f)
//	maps := pipe.ForEachInit(r.LineChunkBytes(), newStats,
//		func(m Stats, chunk []byte) { m.addLines(chunk) })
//
// An aggregation by key, the One Billion Row Challenge among them, is
// ReduceBytesBy or FoldBytesBy over LineBytes, which cut the lines and
// merge the maps themselves; the loop of a body of one's own saves the
// calls of f and op per line (examples/1brc's rows took 0.9 of
// ReduceBytesBy's time this way).
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
		t.check()
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
		t.check()
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
	block          *block // with reuse: the memory under str, or nil
	// tx is the text that the in-memory feeders of split.go cut: the bytes
	// of the window that a piece of the range needs (see feedSpan).
	tx text[string]
	// txb is tx as bytes, for LineBytes (see bytesText).
	txb text[[]byte]
	// shifted hands sink the batches of the feeder over tx with their
	// positions moved by shift, from tx's to the text's.
	shifted func(pos []int, xs []string)
	shift   int
	sink    func(pos []int, xs []string)
}

// drop lets the window's block go once a piece is done, so that an idle
// feeder keeps no block alive. A reused block goes back to the Reader for
// the next piece of any feeder: every batch made from it has been handed on.
func (w *window) drop() {
	w.base, w.str, w.pending = 0, "", false
	if w.block != nil {
		w.t.blocks.Put(w.block)
		w.block = nil
	}
}

// begin starts a piece [lo, hi) of the range. Each piece reads its own
// bytes whatever others met, so that the part of the text a terminal covers
// after a read error does not depend on the timing (see DeferErr). A text
// read whole is complete as far as it goes, whatever error ended it.
func (w *window) begin(hi int) { w.hi, w.end = hi, w.t.size }

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
	if w.reuse {
		if w.block == nil {
			if k, ok := w.t.blocks.Get().(*block); ok {
				w.block = k
			}
		}
		if w.block != nil && !w.pending && cap(w.block.b) >= size {
			b = w.block.b[:size]
		} else {
			// Room for a whole batch of chunks, so that the next loads fit.
			// A block still pending stays with the batch that holds it.
			b = make([]byte, size, max(size, chunkBatch*lineChunk+readSlack))
			w.block = &block{b}
		}
	} else {
		b = make([]byte, size)
	}
	k, err := w.t.r.ReadAt(b, int64(from))
	if k < size {
		if err == nil || errors.Is(err, io.EOF) {
			err = fmt.Errorf("pipe: Reader: the text ended at byte %d of %d: %w", from+k, w.t.size, io.ErrUnexpectedEOF)
		}
		w.t.fail(err, from+k)
		if !w.t.deferErr {
			panic(&ReadError{Offset: int64(from + k), Err: err})
		}
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

// feedSpan hands sink the pieces of a Reader's text that start in [lo, hi),
// as feed, the feeder of the same source over a text in memory (split.go),
// cuts them from the bytes that the piece [lo, hi) of the range needs (see
// span).
func (w *window) feedSpan(lo, hi int, lastStart func(s string, lo, hi int) int, end func(s string) int,
	buf []string, pbuf []int, sink func([]int, []string), feed func(w *window, lo, hi int, buf []string, pbuf []int, sink func([]int, []string))) {
	base, ok := w.span(lo, hi, lastStart, end)
	if !ok {
		return
	}
	w.shift, w.sink = base, sink
	if w.shifted == nil {
		w.shifted = func(pos []int, xs []string) {
			for i := range pos {
				pos[i] += w.shift // positions in the text, not in the window
			}
			w.sink(pos, xs)
		}
	}
	feed(w, lo-base, hi-base, buf, pbuf, w.shifted)
	w.tx.s, w.tx.str, w.sink = "", "", nil // the block goes with the window's
}

// span makes w.tx the bytes of a Reader's text that the piece [lo, hi) of
// the range needs to cut the pieces that start in it: from lo-1 (the byte
// that tells whether a piece starts at lo) to the end of the last piece that
// starts before hi, and returns the position of w.tx's first byte in the
// text; false if no piece starts in [lo, hi) (or the text cannot be read
// there). lastStart returns the start of that piece in s, the bytes the
// window holds from lo-1 on, with lo and hi counted from there, or -1 if no
// piece starts in [lo, hi); end returns the index in s of the byte that ends
// a piece that starts at s[0], or -1. The window holds those bytes in one
// block, read from lo-1 on, twice as much each time that the last piece is
// longer than what was read; a feeder that starts inside a long piece reads
// its own bytes only. The caller clears w.tx once it has cut it.
func (w *window) span(lo, hi int, lastStart func(s string, lo, hi int) int, end func(s string) int) (int, bool) {
	base := max(lo-1, 0)
	w.begin(hi)
	switch {
	case base >= w.end: // an empty text, whose one piece for Split is empty
		if lo > 0 {
			return 0, false
		}
	case !w.load(base, hi-base):
		return 0, false
	}
	p := lastStart(w.str, lo-base, hi-base)
	if p < 0 {
		return 0, false // no piece starts in [lo, hi)
	}
	var e int // past the last piece's end, in the window
	for {
		if j := end(w.str[p:]); j >= 0 {
			e = p + j + 1
			break
		}
		if w.base+len(w.str) >= w.end || !w.load(base, 2*len(w.str)) {
			e = len(w.str) // the text ends (or a read failed) inside the piece
			break
		}
	}
	w.tx.s, w.tx.str = w.str[:e], w.str[:e]
	w.tx.gap.Store(nil)
	return base, true
}

// lastField returns the start of the last field of s that starts in
// [lo, hi), or -1 (see feedSpan).
func lastField(s string, lo, hi int) int {
	i := min(hi, len(s)) - 1
	for i >= lo && asciiSpace[s[i]] {
		i--
	}
	for i > lo && !asciiSpace[s[i-1]] {
		i--
	}
	if i < lo || i > 0 && !asciiSpace[s[i-1]] {
		return -1 // s ends in spaces after lo, or the field holding lo began before it
	}
	return i
}

// fieldEnd returns the index of the first space in s, or -1 (see feedSpan).
func fieldEnd(s string) int {
	for i := range len(s) {
		if asciiSpace[s[i]] {
			return i
		}
	}
	return -1
}

// feedReaderChunks is feedLineChunks of linechunks.go for a Reader: the
// chunks at the positions [lo, hi), each made by piece from the window.
func feedReaderChunks[T any](w *window, piece func(w *window, i, j int) T, lo, hi int, buf []T, pbuf []int, sink func([]int, []T)) {
	n := w.t.size
	w.begin(min(chunkBatchEnd(lo, hi)*lineChunk, n))
	ok := true
	start := min(lo*lineChunk, n)
	if start > 0 && start < n {
		if j := w.index(start-1, n, '\n'); j >= 0 {
			start = j + 1
		} else {
			start, ok = n, false
		}
	}
	for lo < hi {
		next := chunkBatchEnd(lo, hi)
		w.hi = min(next*lineChunk, n) // how far the window reads ahead
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

// chunkBatch is how many of a Reader's line chunks a feeder hands on at once,
// and so how far ahead its window reads: 128 KiB. A batch of the pipe's size
// (batch) would read 2 MiB ahead, and LineChunkBytes would keep a block of
// that size for each feeder. 16 chunks of 8 KiB are work enough to pay for
// their batch: W12f's speedup was 2.01-2.11 before and 1.92-2.17 after (go
// run ./bench -w W12f -c none -reps 7, three runs each).
const chunkBatch = 16

// chunkBatchEnd is batchEnd for batches of chunkBatch chunks.
func chunkBatchEnd(lo, hi int) int { return runEnd(lo, hi, chunkBatch) }

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
