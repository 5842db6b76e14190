package pipe

// LineChunks is the text source for a body that loops over lines itself:
// its items are runs of whole lines, each a few kilobytes, so that the pipe
// costs a call per chunk where Lines costs one per line. On the rows of the
// One Billion Row Challenge (about 14 bytes a line) a call of a function
// value per line, and the line's trip through a batch, cost about 7 ns of
// the 40 ns a row takes to parse and aggregate (W12 of `go run ./bench`).

// lineChunk is the bytes of the text per position of a LineChunks pipe: a
// chunk holds the lines that start in its lineChunk bytes. Large enough that
// the pipe's cost per chunk is lost in the body's loop over its lines (a
// few hundred of W12's rows), small enough that a text of a few hundred
// kilobytes still has positions to share among the cores.
const lineChunk = 8 << 10

// LineChunks returns the pipeline of the text s cut into chunks of whole
// lines, in order: each chunk is a run of lines of s with their '\n' (the
// last one may lack it, as the text does), the chunks are never empty, and
// together they are s. It is for a body that loops over the lines of a chunk
// itself (with strings.Lines, or strings.IndexByte), as the hand-written
// goroutine-per-core programs do over their parts, with an accumulator per
// participant from Fold or ForEachInit:
//
//	maps := pipe.ForEachInit(pipe.LineChunks(text), newStats,
//		func(m Stats, chunk string) { m.addLines(chunk) })
//
// An aggregation by key (the One Billion Row Challenge) is ReduceBy or
// FoldBy over Lines, which cut the lines and merge the maps themselves.
//
// The chunks share the memory of s (a byte slice's chunks have their
// capacity clipped). Which lines go together is fixed by s alone, not by
// the timing: the chunk at position k holds the lines that start in the
// bytes [k*8192, (k+1)*8192) of s, so Len() is len(s)/8192 rounded up, and a
// position whose bytes are all inside a longer line holds no chunk.
func LineChunks[S ~string | ~[]byte](s S) Pipe[S] {
	return textPipe(chunksOf(len(s)), (*lineChunks[S])(newText(s)), nil, nil)
}

// lineChunks is the source of LineChunks.
type lineChunks[S ~string | ~[]byte] text[S]

// feed is feedLineChunks.
func (c *lineChunks[S]) feed(lo, hi int, buf []S, pbuf []int, sink func([]int, []S)) int {
	return feedLineChunks((*text[S])(c), lo, hi, buf, pbuf, sink)
}

// opened is text.opened.
func (c *lineChunks[S]) opened() { (*text[S])(c).opened() }

// chunksOf returns the positions of a LineChunks pipe over n bytes.
func chunksOf(n int) int { return n/lineChunk + min(1, n%lineChunk) }

// feedLineChunks hands sink the chunks at the positions [lo, hi) of t, in
// one batch per run of positions (see feeder), with their positions in pbuf
// unless pbuf is nil, and returns how far it read t.
func feedLineChunks[S ~string | ~[]byte](t *text[S], lo, hi int, buf []S, pbuf []int, sink func([]int, []S)) int {
	n := len(t.s)
	// lineStart returns the start of the first line that starts at or
	// after byte b, or n, and how far it read.
	lineStart := func(b int) (int, int) {
		if b == 0 || b >= n {
			return min(b, n), min(b, n)
		}
		j, reach := t.index(b-1, n, '\n') // a line starts after every '\n'
		if j < 0 {
			return n, reach
		}
		return j + 1, reach
	}
	start, reach := lineStart(lo * lineChunk)
	for lo < hi {
		next := batchEnd(lo, hi)
		buf = buf[:0]
		if pbuf != nil {
			pbuf = pbuf[:0]
		}
		for k := lo; k < next; k++ {
			end, r := lineStart((k + 1) * lineChunk)
			reach = max(reach, r)
			if end > start {
				buf = append(buf, t.piece(start, end))
				if pbuf != nil {
					pbuf = append(pbuf, k)
				}
			}
			start = end
		}
		sink(pbuf, buf)
		lo = next
	}
	return reach
}
