package pipe_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// TestReaderLineBytes checks that a Reader's LineBytes are its Lines as
// bytes, at the same positions, through a stage, a positional call and the
// by-key terminals that cut and fold in one loop, on texts with short and
// long lines (longer than a block read at once), empty ones, and with or
// without a final '\n'.
func TestReaderLineBytes(t *testing.T) {
	long := strings.Repeat("x", 40_000)
	var rows strings.Builder
	for i := range 20_000 {
		rows.WriteString([]string{"a", "bb", "", "ccc;1", long[:i%300]}[i%5])
		rows.WriteByte('\n')
	}
	texts := map[string]string{
		"empty":       "",
		"one":         "a",
		"newline":     "\n",
		"rows":        rows.String(),
		"no final":    strings.TrimSuffix(rows.String(), "\n"),
		"long lines":  strings.Repeat(long+"\n\n", 8) + "end",
		"only breaks": strings.Repeat("\n", 9000),
	}
	grains := [][]par.Option{nil, {par.WithGrain(997)}, {par.WithGrain(4097)}} // a grain of a byte reads a block per byte
	if testing.Short() {
		grains = grains[:2]
	}
	for name, text := range texts {
		for _, opts := range grains {
			r := pipe.NewReader(strings.NewReader(text))
			want := r.Lines().Collect(opts...)
			got := pipe.Map(r.LineBytes(), func(b []byte) string { return string(b) }).Collect(opts...)
			require.Equal(t, want, got, "%s %v: Map", name, opts)
			isC := func(s string) bool { return strings.HasPrefix(s, "c") }
			require.Equal(t, r.Lines().LastIndexFunc(isC, opts...),
				r.LineBytes().LastIndexFunc(func(b []byte) bool { return isC(string(b)) }, opts...), "%s: positions", name)
			wr, wl := reduceStrings(r.Lines(), opts)
			gr, gl := reduceBytes(r.LineBytes(), opts)
			require.Equal(t, wr, gr, "%s %v: ReduceBy", name, opts)
			require.Equal(t, wl, gl, "%s %v: FoldBy", name, opts)
			require.Equal(t, len(want), r.LineBytes().Count(opts...), "%s: Count", name)
			require.NoError(t, r.Err())
		}
	}
}
