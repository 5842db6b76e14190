package pipe_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// bytesKey is the key of a line in these tests: up to its first ';', or
// its first 3 bytes; a part of the line, which a Reader's LineBytes reads
// into memory it reuses.
func bytesKey[S ~string | ~[]byte](s S) S {
	for i := range min(len(s), 3) {
		if s[i] == ';' {
			return s[:i]
		}
	}
	return s[:min(len(s), 3)]
}

// TestBytesBy checks ReduceBytesBy and FoldBytesBy against ReduceBy and
// FoldBy over the same lines as strings: over a Reader's LineBytes, whose
// buffers are reused under the keys f returns (a key kept without a copy
// would change), over Lines of a []byte, which cut and fold in one loop,
// and through a stage, which hands over batches; with a non-commutative op.
func TestBytesBy(t *testing.T) {
	var rows strings.Builder
	for i := range 30_000 {
		rows.WriteString("k" + strconv.Itoa(i*7919%613) + ";" + strings.Repeat("v", i%50) + "\n")
	}
	texts := map[string]string{
		"empty":     "",
		"one":       "a",
		"rows":      rows.String(),
		"no final":  strings.TrimSuffix(rows.String(), "\n"),
		"long":      strings.Repeat(strings.Repeat("x", 40_000)+"\n\n", 8) + "end",
		"only ends": strings.Repeat("\n", 9000),
	}
	grains := [][]par.Option{nil, {par.WithGrain(997)}, {par.WithGrain(4097)}}
	if testing.Short() {
		grains = grains[:2]
	}
	for name, text := range texts {
		for _, opts := range grains {
			r := pipe.NewReader(strings.NewReader(text))
			want := pipe.ReduceBy(r.Lines(), func(s string) (string, seqHash) { return bytesKey(s), seqOf(s) }, join, opts...)
			wantF := derefs(pipe.FoldBy(r.Lines(), func(s string) (string, string) { return bytesKey(s), s },
				func() []string { return nil },
				func(acc *[]string, s string) { *acc = append(*acc, s) },
				func(acc, other *[]string) { *acc = append(*acc, *other...) }, opts...))
			for src, p := range map[string]pipe.Pipe[[]byte]{
				"LineBytes": r.LineBytes(),
				"Lines":     pipe.Lines([]byte(text)),
				"Map":       pipe.Map(r.LineBytes(), func(b []byte) []byte { return b }),
			} {
				got := pipe.ReduceBytesBy(p, func(b []byte) ([]byte, seqHash) { return bytesKey(b), seqOf(b) }, join, opts...)
				require.Equal(t, want, got, "%s %s %v: ReduceBytesBy", name, src, opts)
				gotF := pipe.FoldBytesBy(p, func(b []byte) ([]byte, string) { return bytesKey(b), string(b) },
					func() []string { return nil },
					func(acc *[]string, s string) { *acc = append(*acc, s) },
					func(acc, other *[]string) { *acc = append(*acc, *other...) }, opts...)
				require.Equal(t, wantF, derefs(gotF), "%s %s %v: FoldBytesBy", name, src, opts)
			}
			require.NoError(t, r.Err())
		}
	}
}

func TestBytesByNil(t *testing.T) {
	p := pipe.Lines([]byte("a\nb"))
	f := func(b []byte) ([]byte, int) { return b, 1 }
	add := func(a, b int) int { return a + b }
	require.PanicsWithValue(t, "pipe: ReduceBytesBy: f is nil", func() { pipe.ReduceBytesBy(p, nil, add) })
	require.PanicsWithValue(t, "pipe: ReduceBytesBy: op is nil", func() { pipe.ReduceBytesBy(p, f, nil) })
	initI := func() int { return 0 }
	fold := func(acc *int, v int) { *acc += v }
	merge := func(acc, o *int) { *acc += *o }
	require.PanicsWithValue(t, "pipe: FoldBytesBy: f is nil", func() { pipe.FoldBytesBy(p, nil, initI, fold, merge) })
	require.PanicsWithValue(t, "pipe: FoldBytesBy: init is nil", func() { pipe.FoldBytesBy(p, f, nil, fold, merge) })
	require.PanicsWithValue(t, "pipe: FoldBytesBy: fold is nil", func() { pipe.FoldBytesBy(p, f, initI, nil, merge) })
	require.PanicsWithValue(t, "pipe: FoldBytesBy: merge is nil", func() { pipe.FoldBytesBy(p, f, initI, fold, nil) })
	require.Equal(t, map[string]int{"a": 1, "b": 1}, pipe.ReduceBytesBy(p, f, add))
	require.Equal(t, map[string]int{}, pipe.ReduceBytesBy(pipe.Lines([]byte{}), f, add))
}
