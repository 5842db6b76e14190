package pipe_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// TestLineChunks: the chunks are runs of whole lines that together are the
// text, and the chunk at position k holds the lines that start in its 8 KB
// of the text, however the range is cut.
func TestLineChunks(t *testing.T) {
	const block = 8 << 10
	for name, text := range readerTexts() {
		for _, opts := range [][]par.Option{nil, {par.WithGrain(1)}} {
			p := pipe.LineChunks(text)
			require.Equal(t, (len(text)+block-1)/block, p.Len(), name)
			chunks, at := pieces(p, opts...)
			require.Equal(t, text, strings.Join(chunks, ""), "%s: the chunks are not the text", name)
			off := 0
			for i, c := range chunks {
				require.NotEmpty(t, c, "%s: chunk %d", name, i)
				if off+len(c) < len(text) {
					require.True(t, strings.HasSuffix(c, "\n"), "%s: chunk %d does not end a line", name, i)
				}
				// Every line of the chunk starts in its block.
				for s := off; s < off+len(c); {
					require.Equal(t, at[i], s/block, "%s: chunk %d holds a line at byte %d", name, i, s)
					j := strings.IndexByte(text[s:off+len(c)], '\n')
					if j < 0 {
						break
					}
					s += j + 1
				}
				off += len(c)
			}
			// A byte slice is cut the same, each chunk's capacity clipped.
			bs := pipe.LineChunks([]byte(text)).Collect(opts...)
			require.Len(t, bs, len(chunks), name)
			for i, b := range bs {
				require.Equal(t, chunks[i], string(b), name)
				require.Equal(t, len(b), cap(b), name)
			}
		}
	}
}

// TestLineChunksFold is the use the source is for: a fold whose body loops
// over the lines of a chunk, with an accumulator per participant.
func TestLineChunksFold(t *testing.T) {
	text := readerTexts()["rows"]
	count := func(m map[string]int, chunk string) map[string]int {
		for line := range strings.Lines(chunk) {
			name, _, _ := strings.Cut(line, ";")
			m[name]++
		}
		return m
	}
	want := count(map[string]int{}, text)
	got := pipe.Fold(pipe.LineChunks(text), func() map[string]int { return map[string]int{} }, count,
		func(a, b map[string]int) map[string]int {
			for k, v := range b {
				a[k] += v
			}
			return a
		}, par.WithGrain(1))
	require.Equal(t, want, got)
}
