package pipe

import "fmt"

// Chunks returns the pipeline of the consecutive subslices of s of size
// elements each, in order, the last one shorter if size does not divide
// len(s): Rayon's par_chunks. Like slices.Chunk, each chunk's capacity ends
// where the chunk does, so appending to a chunk never writes into the next;
// the chunks share s's memory, and no chunk is copied. An empty s gives no
// chunks. It panics if size is less than 1.
//
// Each chunk is one item, so a stage that loops over its chunk keeps the
// loop in one call of its function: Map(Chunks(s, 4096), sumOf) costs a call
// per 4096 elements.
func Chunks[S ~[]E, E any](s S, size int) Pipe[S] {
	if size < 1 {
		panic(fmt.Sprintf("pipe: Chunks: size = %d, want size >= 1", size))
	}
	n := len(s) / size
	if len(s)%size != 0 {
		n++
	}
	return chunkPipe(s, n, size)
}

// ChunksExact returns the pipeline of the consecutive subslices of s of
// exactly size elements, in order, and the remainder: the last len(s) % size
// elements, which make no chunk (Rayon's par_chunks_exact and its
// remainder). The chunks' capacities end where they do, as in Chunks. It
// panics if size is less than 1.
func ChunksExact[S ~[]E, E any](s S, size int) (Pipe[S], S) {
	if size < 1 {
		panic(fmt.Sprintf("pipe: ChunksExact: size = %d, want size >= 1", size))
	}
	n := len(s) / size
	return chunkPipe(s, n, size), s[n*size : len(s) : len(s)]
}

// chunkPipe is the pipe of the first n chunks of size elements of s, the last
// one cut at len(s).
func chunkPipe[S ~[]E, E any](s S, n, size int) Pipe[S] {
	return Pipe[S]{n: n, oneToOne: true, bare: true, open: func() feeder[S] {
		buf := make([]S, batch)
		return func(lo, hi int, sink func([]S)) {
			for lo < hi {
				next := batchEnd(lo, hi)
				out := buf[:next-lo]
				for k := range out {
					a := (lo + k) * size // < len(s): no overflow
					b := a + min(size, len(s)-a)
					out[k] = s[a:b:b]
				}
				sink(out)
				lo = next
			}
		}
	}}
}

// Windows returns the pipeline of the subslices s[i:i+size] for i from 0 to
// len(s)-size, in order: every window of size consecutive elements, sliding
// by one (Rayon's par_windows); none if len(s) < size. The windows overlap
// and share s's memory, with capacities that end where they do. It panics if
// size is less than 1.
func Windows[S ~[]E, E any](s S, size int) Pipe[S] {
	if size < 1 {
		panic(fmt.Sprintf("pipe: Windows: size = %d, want size >= 1", size))
	}
	n := 0
	if len(s) >= size {
		n = len(s) - size + 1
	}
	return Pipe[S]{n: n, oneToOne: true, bare: true, open: func() feeder[S] {
		buf := make([]S, batch)
		return func(lo, hi int, sink func([]S)) {
			for lo < hi {
				next := batchEnd(lo, hi)
				out := buf[:next-lo]
				for k := range out {
					a := lo + k
					out[k] = s[a : a+size : a+size]
				}
				sink(out)
				lo = next
			}
		}
	}}
}
