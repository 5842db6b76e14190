package pipe

import (
	"reflect"
	"strings"
	"sync/atomic"
	"unsafe"
)

// The sources that cut a text into pieces (Split, Lines, Fields) find the
// pieces' boundaries in parallel: their positions are the text's bytes, and
// the piece that starts at byte i is fed at position i, so the feeder of the
// bytes [lo, hi) looks just before lo to learn whether a piece starts there,
// then yields the pieces that start in [lo, hi), reading past hi to where the
// last of them ends. No list of pieces is built first. A feeder that starts
// inside a long piece or a long run of separators reads no further than hi
// to learn that, so every byte is read by the feeder of its own piece of the
// range, and the bytes of a piece that crosses hi by one more: O(bytes) in
// all, however finely the range is cut and however far apart the separators.

// text is a string or a byte slice of type S, with what a source needs to cut
// it: its bytes as a string to search, and pieces of type S.
type text[S ~string | ~[]byte] struct {
	s   S
	str string // the bytes of s, read only: s itself, or a view of a byte slice
	bs  []byte // s, when S is a byte slice type
	// isBytes: S is a byte slice type, whose pieces get their capacity
	// clipped, as bytes.Split's do, so that appending to one piece cannot
	// overwrite the next, and whose gap holds for one call (see opened).
	isBytes bool
	// gap is the last long run of bytes a feeder searched in vain for the
	// separator (see index), or the last long field of Fields, or nil; for
	// a byte slice, of the call that runs (see opened). Any goroutine: the
	// run is published whole through the pointer.
	gap atomic.Pointer[gap]
}

// gap is a run [from, to) of a text with no separator in it (for Fields, no
// space): no piece starts in (from, to].
type gap struct{ from, to int }

// gapMin is the shortest run without a separator that index records: the
// piece where a long line starts is searched to its end by one feeder, and
// the feeders of the positions inside it then skip what it searched rather
// than search it again. Long enough that a text with separators a few
// kilobytes apart writes no gap.
const gapMin = 64 << 10

func newText[S ~string | ~[]byte](s S) *text[S] {
	t := new(text[S])
	t.init(s)
	return t
}

// init sets t to the text s.
func (t *text[S]) init(s S) {
	t.s, t.isBytes = s, reflect.TypeFor[S]().Kind() == reflect.Slice
	if t.isBytes {
		t.bs = []byte(s) // the same bytes: a byte slice type converts without a copy
		t.str = unsafe.String(unsafe.SliceData(t.bs), len(t.bs))
	} else {
		t.str = string(s)
	}
}

// index returns the index of the first sep in [from, to), or -1, and how far
// it read: just past the sep, or to. A text is searched for one separator
// only (each source makes its own text), so a gap that a search recorded
// holds for every search after it.
func (t *text[S]) index(from, to int, sep byte) (i, reach int) {
	at := from
	if g := t.gap.Load(); g != nil && g.from <= at && at < g.to {
		at, from = min(g.to, to), g.from
	}
	i = strings.IndexByte(t.str[at:to], sep)
	end := to
	if i >= 0 {
		end = at + i
	}
	if end-at >= gapMin {
		t.noteGap(from, end)
	}
	if i < 0 {
		return -1, to
	}
	return at + i, at + i + 1
}

// noteGap records that [from, to) holds no separator (see text.gap).
func (t *text[S]) noteGap(from, to int) { t.gap.Store(&gap{from, to}) }

// opened is called when a feeder of t is opened, which only a terminal's
// call does, for that call: a byte slice's gap is forgotten, since the
// caller may have changed the bytes since it was recorded (between two
// terminals of one pipe), and never while a call runs. So the gap a feeder
// sees was recorded by its own call, or by one running at the same time.
// Only the feeders read the gap for what they yield; the call's cover
// function (covered) only groups positions into steps.
func (t *text[S]) opened() {
	if t.isBytes {
		t.gap.Store(nil)
	}
}

// covered is the text's cover, its calls' engine.Config.Covered: a piece
// that reads a long line to its end records it, and the positions inside it
// start no piece, so a call folds them as one step rather than timing them
// at the pace of that piece.
func (t *text[S]) covered() func(pos int) int {
	return func(pos int) int {
		if g := t.gap.Load(); g != nil && g.from < pos && pos <= g.to {
			return g.to + 1
		}
		return pos
	}
}

// piece returns s[i:j].
func (t *text[S]) piece(i, j int) S {
	if t.isBytes {
		return S(t.bs[i:j:j])
	}
	return t.s[i:j]
}

// pieceOf returns the piece of s whose bytes are the string p, a part of
// t.str: s[i:j] for p == t.str[i:j], with a byte slice's capacity clipped,
// as piece does. The loops that cut a text as they fold it (reduceSpans)
// carry the rest of the text and cut pieces from it: a piece made from the
// text's start and an offset (piece) made W12's rows slower to fold, in
// ReduceBy's loop over the same calls, by a tenth (go test ./par/pipe
// -run '^$' -bench ByKey).
func (t *text[S]) pieceOf(p string) S {
	if t.isBytes {
		return S(unsafe.Slice(unsafe.StringData(p), len(p)))
	}
	return S(p)
}

// feedSep hands sink the pieces of Split (lines false) or Lines (lines
// true) on sep that start in [lo, hi), in batches of up to batch pieces,
// with their starts in pbuf unless pbuf is nil. buf and pbuf have room for a
// batch. With a nil sink, it writes the pieces into buf, which has room for
// all of them (counter.fill). It returns how far it read t.
//
// A text source's batch is not one per run of batch positions, as a
// feeder's is otherwise, but batch pieces, from as many runs as hold them:
// the stages rely on nothing more (see feeder), and a run holds a few lines
// of ordinary text, whose calls of the sink, one per run, were a fifth of
// what Count paid for a line.
func feedSep[S ~string | ~[]byte](t *text[S], sep byte, lines bool, lo, hi int, buf []S, pbuf []int, sink func([]int, []S)) int {
	start, reach := 0, 0
	if lo > 0 {
		// A piece starts after every separator: one in [lo-1, hi-1). For
		// Lines, hi <= n, so a final '\n' starts none.
		var j int
		if j, reach = t.index(lo-1, hi-1, sep); j < 0 {
			return reach
		}
		start = j + 1
	}
	return feedCut(buf, pbuf, sink, reach, func(dst []S, pos []int) (int, int, bool) {
		k, next, end := t.cutSep(sep, lines, start, hi, dst, pos)
		start = next
		return k, end, next >= hi
	})
}

// feedCut hands sink, in batches, the pieces that cut writes: each call of
// cut writes the next pieces into dst (and their starts into pos, if pos is
// not nil) until dst is full or no piece is left, and returns how many it
// wrote, where the last of them ends (-1: none), and whether none is left.
// buf and pbuf are as feedSep's; with a nil sink, buf has room for every
// piece, and cut writes them there (counter.fill). It returns how far the
// pieces read: reach, or the byte after the last one's end.
func feedCut[S any](buf []S, pbuf []int, sink func([]int, []S), reach int, cut func(dst []S, pos []int) (int, int, bool)) int {
	buf, pbuf = buf[:cap(buf)], pbuf[:cap(pbuf)]
	k := 0
	for {
		var pos []int
		if pbuf != nil {
			pos = pbuf[k:]
		}
		m, end, done := cut(buf[k:], pos)
		k += m
		if end >= 0 {
			reach = end + 1
		}
		if done || sink == nil {
			break
		}
		if len(buf) < batch { // a feeder's first, short buffer (firstRoom): grown to a batch
			grown := make([]S, batch)
			copy(grown, buf)
			buf = grown
			continue
		}
		sink(starts(pbuf, k), buf)
		k = 0
	}
	if k > 0 && sink != nil {
		sink(starts(pbuf, k), buf[:k])
	}
	return reach
}

// starts returns the first k starts of pbuf, or nil if it is nil.
func starts(pbuf []int, k int) []int {
	if pbuf == nil {
		return nil
	}
	return pbuf[:k]
}

// cutSep writes into dst the pieces of Split or Lines on sep (see feedSep)
// that start in [start, hi), beginning with the one at start, until dst is
// full; their starts go into pos, if it is not nil. It returns how many it
// wrote, the start of the next piece (none: no more), and the last byte it
// read: the separator after the last piece it wrote, or the text's last
// byte (-1: no piece).
func (t *text[S]) cutSep(sep byte, lines bool, start, hi int, dst []S, pos []int) (k, next, end int) {
	str, n := t.str, len(t.str)
	end = -1
	for ; k < len(dst) && start < hi; k++ {
		after := none
		end = n // start == n: Split's empty piece after a final separator
		if start < n {
			if j := strings.IndexByte(str[start:], sep); j >= 0 {
				end, after = start+j, start+j+1
				if lines && after == n {
					after = none // a final '\n' starts no line
				}
			}
			if end-start >= gapMin {
				t.noteGap(start, end)
			}
		}
		dst[k] = t.piece(start, end)
		if pos != nil {
			pos[k] = start
		}
		start = after
	}
	return k, start, min(end, n-1)
}

// countSep returns how many pieces of Split or Lines on sep start in [lo,
// hi): the first piece, at 0, and one after every sep in [lo-1, hi-1) (a
// final '\n', after which no line starts, is at len(s)-1, out of reach of a
// range of Lines, which ends at len(s)). strings.Count counts a byte with
// vector instructions. (Searching from one separator to the next with
// strings.IndexByte, faster over a text with few, changed nothing that the
// text benchmark shows: a call over 64 KiB costs its prefix's chunks.)
func (t *text[S]) countSep(sep byte, lo, hi int) int {
	if lo >= hi {
		return 0
	}
	k := 0
	if lo == 0 {
		k, lo = 1, 1
	}
	return k + strings.Count(t.str[lo-1:hi-1], byteStrings[sep:int(sep)+1])
}

// byteStrings holds the 256 bytes in order: byteStrings[c:c+1] is the string
// of the byte c.
var byteStrings = func() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// textPipe returns the pipeline of n positions whose pieces src feeds,
// with their starts for positions, covered for its terminals' calls (nil:
// none), and c, what Count and Collect know beyond the feeder (nil: none).
func textPipe[S ~string | ~[]byte](n int, src textSource[S], covered func(pos int) int, c *counter[S]) Pipe[S] {
	return Pipe[S]{n: n, cover: covered, count: c, open: func() feeder[S] {
		src.opened()
		buf := make([]S, 0, firstRoom) // feedCut grows it, and fwd keeps what it grew to
		var sink func([]S)
		fwd := func(_ []int, xs []S) {
			if cap(xs) > cap(buf) {
				buf = xs[:0]
			}
			sink(xs)
		}
		return func(lo, hi int, s func([]S)) {
			sink = s
			src.feed(lo, hi, buf, nil, fwd)
		}
	}, openPos: func() posFeeder[S] {
		src.opened()
		buf, pbuf := make([]S, 0, batch), make([]int, 0, batch)
		return func(lo, hi int, sink func([]int, []S)) { src.feed(lo, hi, buf, pbuf, sink) }
	}}
}

// cutText is the source of Split, Lines or Fields: its text, how it cuts it,
// and its counter, in one allocation.
type cutText[S ~string | ~[]byte] struct {
	text[S]
	sep byte
	cut cutKind
	ctr counter[S]
}

// cutKind is how a cutText cuts its text.
type cutKind uint8

const (
	cutSplit cutKind = iota
	cutLines
	cutFields
)

// newCut returns the pipeline of the pieces of s that cut cuts, over n
// positions.
func newCut[S ~string | ~[]byte](s S, n int, sep byte, cut cutKind, alone aloneSizes) Pipe[S] {
	c := &cutText[S]{sep: sep, cut: cut}
	c.init(s)
	c.ctr = counter[S]{src: c, alone: alone}
	p := textPipe(n, c, c.covered(), &c.ctr)
	if cut != cutFields {
		p.spans = &sepSpans[S]{sep: sep, open: func() func(lo, hi int, cut func(t *text[S], lo, hi int)) {
			c.opened()
			return func(lo, hi int, cut func(t *text[S], lo, hi int)) { cut(&c.text, lo, hi) }
		}}
	}
	return p
}

// feed is feedSep or feedFields over c's text.
func (c *cutText[S]) feed(lo, hi int, buf []S, pbuf []int, sink func([]int, []S)) int {
	if c.cut == cutFields {
		return feedFields(&c.text, lo, hi, buf, pbuf, sink)
	}
	return feedSep(&c.text, c.sep, c.cut == cutLines, lo, hi, buf, pbuf, sink)
}

// count is countSep or countFields over c's text.
func (c *cutText[S]) count(lo, hi int) int {
	if c.cut == cutFields {
		return c.countFields(lo, hi)
	}
	return c.countSep(c.sep, lo, hi)
}

// sepAlone and fieldsAlone are the longest texts that Collect of Split or
// Lines, and of Fields, runs on the calling goroutine alone (see
// aloneSizes). Below them the pool's Collect was no faster, on two cores
// (WEFT_TEXT_SIZES=16384,32768,65536,131072,1048576 go test -bench
// 'TextSources/.*/.*/.*/collect' ./par/pipe): its two calls over short
// pieces each end about when a worker wakes, and over long pieces its
// fixed cost is the standard call's own.
// Fields does more a byte than the others' vector search (a word of space
// bits per 64 bytes, and a branch per field), so the pool pays for itself
// sooner.
var (
	sepAlone    = aloneSizes{sparse: 1 << 20, dense: 256 << 10}
	fieldsAlone = aloneSizes{sparse: 32 << 10, dense: 16 << 10}
)

// firstRoom is the capacity of a text feeder's first batch buffer: a call
// over a few long pieces then allocates 256 bytes, not the 4 KiB of a whole
// batch of pieces, a buffer with pointers to set up and clear (Lines over one
// line of 64 KiB collected in 6.7 µs with it, 3.7 µs without: go test
// -bench 'TextSources/n=65536/Lines/one-field' ./par/pipe).
const firstRoom = 16

// none is a start past every range: no piece is left.
const none = int(^uint(0) >> 1)

// Split returns the pipeline of the pieces of s between the bytes sep, in
// order: the pieces that strings.Split (or bytes.Split) with the one-byte
// separator gives, without building their list first. Separators are not
// part of the pieces; two adjacent separators make an empty piece, and so do
// a separator at either end; an empty s is one empty piece. The pieces share
// the memory of s (a byte slice's pieces have their capacity clipped, as
// bytes.Split's do).
//
// The pipeline's positions are the bytes of s plus one: Len() is len(s)+1,
// and the piece that starts at byte i is at position i, so a terminal's
// pieces of the range [lo, hi) yield the pieces that start in it, each found
// by searching from lo with strings.IndexByte, and the cost of a piece of the
// range is about the bytes it covers, however far apart the separators. The
// last position, len(s), holds the empty piece after a final separator (or
// the one piece of an empty s), and no piece otherwise. The positional calls
// (MapIndex, IndexFunc, FindLast, TakeWhile, SkipWhile, ...) see these
// positions: LastIndexFunc returns the byte at which the last matching piece
// starts.
func Split[S ~string | ~[]byte](s S, sep byte) Pipe[S] {
	return newCut(s, len(s)+1, sep, cutSplit, sepAlone)
}

// Lines returns the pipeline of the lines of s, in order, without their '\n':
// the pieces between the bytes '\n', where a final piece with no '\n' after
// it is a line and a final '\n' does not start an empty one, so that an empty
// s has no lines, "a\n" has one and "a\n\n" two ("a" and ""). These are the
// lines bufio.ScanLines gives, except that a '\r' at the end of a line, which
// ScanLines drops, is kept (strings.TrimSuffix(line, "\r") drops it); and
// they are the lines of strings.Lines without their '\n'. The lines share the memory of s (a
// byte slice's lines have their capacity clipped).
//
// The pipeline's positions are the bytes of s: Len() is len(s), and the line
// that starts at byte i is at position i, for the positional calls too (see
// Split): SkipWhile skips a file's header lines, FindLast finds the last line
// that matches.
func Lines[S ~string | ~[]byte](s S) Pipe[S] {
	return newCut(s, len(s), '\n', cutLines, sepAlone)
}

// asciiSpace marks the bytes that Fields separates on.
var asciiSpace = [256]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// Fields returns the pipeline of the fields of s, in order: the non-empty
// runs of bytes between the ASCII white space bytes '\t', '\n', '\v', '\f',
// '\r' and ' '. On a text with no other Unicode white space (U+0085, U+00A0,
// U+2000 and the like, which Fields does not separate on) these are the
// fields that strings.Fields gives: the words of a text, with no empty ones.
// It is Rayon's par_split_ascii_whitespace, with '\v' as a space as Go's
// unicode.IsSpace has it. The fields share the memory of s (a byte slice's
// fields have their capacity clipped).
//
// The pipeline's positions are the bytes of s: Len() is len(s), and the field
// that starts at byte i is at position i, for the positional calls too (see
// Split). Its bytes are read 64 at a time, as a word of bits that marks the
// spaces, where Split and Lines search for their separator with the vector
// instructions of strings.IndexByte.
func Fields[S ~string | ~[]byte](s S) Pipe[S] {
	return newCut(s, len(s), 0, cutFields, fieldsAlone)
}

// feedFields is feedSep for Fields, whose separators are the six ASCII
// spaces (a nil sink too).
func feedFields[S ~string | ~[]byte](t *text[S], lo, hi int, buf []S, pbuf []int, sink func([]int, []S)) int {
	s := t.s
	i := lo
	if lo > 0 && !asciiSpace[s[lo-1]] { // inside a field that started before lo
		if g := t.gap.Load(); g != nil && g.from <= lo-1 && lo-1 < g.to {
			i = min(hi, g.to) // a long field, read once (see text.gap)
		}
		for i < hi && !asciiSpace[s[i]] {
			i++
		}
	}
	return feedCut(buf, pbuf, sink, min(len(s), i+1), func(dst []S, pos []int) (int, int, bool) {
		k, next, end := t.cutFields(i, hi, dst, pos)
		i = next
		return k, end, next >= hi
	})
}
