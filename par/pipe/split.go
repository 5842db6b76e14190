package pipe

import (
	"bytes"
	"reflect"
	"strings"
)

// The sources that cut a text into pieces (Split, Lines, Fields) find the
// pieces' boundaries in parallel: their positions are the text's bytes, and
// the piece that starts at byte i is fed at position i, so the feeder of the
// bytes [lo, hi) looks just before lo to learn whether a piece starts there,
// then yields the pieces that start in [lo, hi), reading past hi to where the
// last of them ends. No list of pieces is built first; each byte is read by
// one feeder, and the bytes of a piece that crosses hi by two at most.

// text is a string or a byte slice of type S, with what a source needs to cut
// it: the separator search of package strings or bytes, and pieces of type S.
type text[S ~string | ~[]byte] struct {
	s   S
	str string // s, when S is a string type
	bs  []byte // s, when S is a byte slice type
	// isBytes: S is a byte slice type, whose pieces get their capacity
	// clipped, as bytes.Split's do, so that appending to one piece cannot
	// overwrite the next.
	isBytes bool
}

func newText[S ~string | ~[]byte](s S) *text[S] {
	t := &text[S]{s: s, isBytes: reflect.TypeFor[S]().Kind() == reflect.Slice}
	if t.isBytes {
		t.bs = []byte(s) // the same bytes: a byte slice type converts without a copy
	} else {
		t.str = string(s)
	}
	return t
}

// index returns the index of the first sep at or after from, or -1.
func (t *text[S]) index(from int, sep byte) int {
	var i int
	if t.isBytes {
		i = bytes.IndexByte(t.bs[from:], sep)
	} else {
		i = strings.IndexByte(t.str[from:], sep)
	}
	if i < 0 {
		return -1
	}
	return from + i
}

// piece returns s[i:j].
func (t *text[S]) piece(i, j int) S {
	if t.isBytes {
		return S(t.bs[i:j:j])
	}
	return t.s[i:j]
}

// cutter is how a source finds its pieces: first(lo) is the start of the
// first piece at or after position lo (or a position past the range), and
// end(start) returns where the piece that starts there ends and where the
// next piece can start at the earliest.
type cutter struct {
	first func(lo int) int
	end   func(start int) (end, next int)
}

// cut returns the pipeline of n positions whose pieces c finds in t.
func cut[S ~string | ~[]byte](t *text[S], n int, c cutter) Pipe[S] {
	return Pipe[S]{n: n, open: func() feeder[S] {
		buf := make([]S, 0, batch)
		return func(lo, hi int, sink func([]S)) {
			start := c.first(lo)
			for lo < hi {
				next := batchEnd(lo, hi)
				buf = buf[:0]
				for start < next {
					end, after := c.end(start)
					buf = append(buf, t.piece(start, end))
					start = after
				}
				sink(buf)
				lo = next
			}
		}
	}}
}

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
// range is about the bytes it covers. The last position, len(s), holds the
// empty piece after a final separator (or the one piece of an empty s), and
// no piece otherwise.
func Split[S ~string | ~[]byte](s S, sep byte) Pipe[S] {
	t := newText(s)
	n := len(s)
	return cut(t, n+1, cutter{
		first: func(lo int) int {
			if lo == 0 {
				return 0
			}
			j := t.index(lo-1, sep) // a piece starts after every separator
			if j < 0 {
				return none
			}
			return j + 1
		},
		end: func(start int) (int, int) {
			if start == n {
				return n, none // the empty piece after a final separator
			}
			j := t.index(start, sep)
			if j < 0 {
				return n, none
			}
			return j, j + 1
		},
	})
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
// that starts at byte i is at position i (see Split).
func Lines[S ~string | ~[]byte](s S) Pipe[S] {
	t := newText(s)
	n := len(s)
	return cut(t, n, cutter{
		first: func(lo int) int {
			if lo == 0 {
				return 0
			}
			j := t.index(lo-1, '\n')
			if j < 0 || j+1 == n {
				return none
			}
			return j + 1
		},
		end: func(start int) (int, int) {
			j := t.index(start, '\n')
			if j < 0 {
				return n, none
			}
			if j+1 == n {
				return j, none
			}
			return j, j + 1
		},
	})
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
// The pipeline's positions are the bytes of s: Len() is len(s), and the
// field that starts at byte i is at position i (see Split). Each byte is
// looked up in a table, where Split and Lines search for their separator
// with the vector instructions of strings.IndexByte.
func Fields[S ~string | ~[]byte](s S) Pipe[S] {
	t := newText(s)
	n := len(s)
	// Its own feeder rather than cut's: a field is a few bytes, and cut's
	// call of a cutter function per piece was a fifth of what W9 of `go run
	// ./bench` paid per word.
	return Pipe[S]{n: n, open: func() feeder[S] {
		buf := make([]S, 0, batch)
		return func(lo, hi int, sink func([]S)) {
			i := lo
			if lo > 0 && !asciiSpace[s[lo-1]] {
				for i < n && !asciiSpace[s[i]] { // inside a field that started before lo
					i++
				}
			}
			for lo < hi {
				next := batchEnd(lo, hi)
				buf = buf[:0]
				for {
					for i < n && asciiSpace[s[i]] {
						i++
					}
					if i >= next { // the field at i, if any, is the next batch's or range's
						break
					}
					start := i
					for i < n && !asciiSpace[s[i]] {
						i++
					}
					buf = append(buf, t.piece(start, i))
				}
				sink(buf)
				lo = next
			}
		}
	}}
}
