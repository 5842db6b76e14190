package pipe

import "unsafe"

// LineBytes returns the pipeline of the lines of the text, as Lines does,
// with each line a []byte that holds only while the function it is handed
// to runs: the goroutine that read it reads its next lines into the same
// memory, as bufio.Scanner's Bytes does, and as LineChunkBytes' chunks are.
// So a body that parses a line needs no string and the call allocates next
// to nothing, however large the text; the lines are cut for it, as Lines
// cuts them (the same lines at the same positions). Copy what is kept: a
// map lookup with m[string(b)] makes no copy, an insertion with it makes
// one; a stage that keeps its items (Collect) must not be fed from it unless
// they are copied first (Map with bytes.Clone), and neither the key nor the
// value that ReduceBy's or FoldBy's f returns may be the line itself.
// ForEachInit with a map per participant is the hand-written loop over a
// file's lines, without the loop:
//
//	parts := pipe.ForEachInit(r.LineBytes(), newStats,
//		func(m Stats, line []byte) { m.add(line) })
func (t *Reader) LineBytes() Pipe[[]byte] {
	lastStart, end := sepBounds('\n')
	p := readerPipe(t, t.size, true, func(w *window, lo, hi int, buf [][]byte, pbuf []int, sink func([]int, [][]byte)) {
		base, ok := w.span(lo, hi, lastStart, end)
		if !ok {
			return
		}
		tx := w.bytesText()
		fwd := sink
		if pbuf != nil && base != 0 {
			fwd = func(pos []int, xs [][]byte) {
				for i := range pos {
					pos[i] += base // positions in the text, not in the window
				}
				sink(pos, xs)
			}
		}
		// Every batch is handed on before feedSep returns, and nothing is
		// read meanwhile: the block is free for the next piece after it.
		feedSep(tx, '\n', true, lo-base, min(hi-base, len(tx.str)), buf, pbuf, fwd)
		w.clearText()
	})
	p.spans = &sepSpans[[]byte]{sep: '\n', open: func() func(lo, hi int, cut func(t *text[[]byte], lo, hi int)) {
		t.check()
		w := &window{t: t, reuse: true}
		return func(lo, hi int, cut func(t *text[[]byte], lo, hi int)) {
			if base, ok := w.span(lo, hi, lastStart, end); ok {
				tx := w.bytesText()
				cut(tx, lo-base, min(hi-base, len(tx.str)))
				w.clearText()
			}
			w.drop()
		}
	}}
	return p
}

// bytesText makes w.txb the bytes of w.tx, which span made, as a byte slice
// over the window's block.
func (w *window) bytesText() *text[[]byte] {
	b := unsafe.Slice(unsafe.StringData(w.tx.str), len(w.tx.str))
	w.txb.s, w.txb.bs, w.txb.str, w.txb.isBytes = b, b, w.tx.str, true
	w.txb.gap.Store(nil)
	return &w.txb
}

// clearText lets go of the window's texts once a piece is cut.
func (w *window) clearText() {
	w.tx.s, w.tx.str = "", ""
	w.txb.s, w.txb.bs, w.txb.str = nil, nil, ""
}
