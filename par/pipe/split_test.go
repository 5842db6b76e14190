package pipe_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// textSizes are the lengths in bytes of the texts cut: the sizes of the
// other tests, and a million bytes when the surface tests run at full size.
func textSizes() []int {
	if !surfaceFull() {
		return sizes
	}
	return append(sizes, 1_000_000)
}

// randText returns n bytes drawn from alphabet, which holds the separators
// and white space the sources cut on at some density.
func randText(n int, seed uint64, alphabet string) string {
	r := rand.New(rand.NewPCG(seed, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// The sequential oracles: what the standard library gives.

func linesOracle(s string) []string {
	out := []string{}
	for l := range strings.Lines(s) {
		out = append(out, strings.TrimSuffix(l, "\n"))
	}
	return out
}

func isASCIISpace(r rune) bool { return r < 0x80 && strings.ContainsRune("\t\n\v\f\r ", r) }

func fieldsOracle(s string) []string {
	out := strings.FieldsFunc(s, isASCIISpace)
	if out == nil {
		out = []string{}
	}
	return out
}

// bytesOf converts pieces of a byte slice to strings, to compare them with
// the oracle, and checks that each non-empty piece is a subslice of s whose
// capacity is clipped.
func bytesOf(t *testing.T, s []byte, pieces [][]byte) []string {
	t.Helper()
	out := make([]string, len(pieces))
	for i, p := range pieces {
		if len(p) > 0 {
			off := uintptr(unsafe.Pointer(&p[0])) - uintptr(unsafe.Pointer(&s[0]))
			if off >= uintptr(len(s)) {
				t.Fatalf("piece %d is not in the input", i)
			}
			if cap(p) != len(p) {
				t.Fatalf("piece %d: capacity %d, want its length %d", i, cap(p), len(p))
			}
		}
		out[i] = string(p)
	}
	return out
}

// alphabets are the byte sets of the random texts: sparse separators, dense
// ones, and runs of them.
var alphabets = []string{"abcdefghijklmnopqrstuvwxyz\n, ", "a\n,\n, ", "\n\n\n\n,,  \t\rx"}

func TestSplitLinesFieldsAgainstStrings(t *testing.T) {
	all := pools(t)
	for _, n := range textSizes() {
		for ai, alphabet := range alphabets {
			s := randText(n, uint64(n)*7+uint64(ai), alphabet)
			b := []byte(s)
			wantSplit, wantLines, wantFields := strings.Split(s, ","), linesOracle(s), fieldsOracle(s)
			total := 0
			for _, l := range wantLines {
				total += len(l)
			}
			for name, opts := range all {
				if n > 1000 && strings.Contains(name, "grain") {
					continue // a grain of 7 bytes opens a feeder per 7 bytes: the small sizes cover it
				}
				t.Run(fmt.Sprintf("%s/n=%d/alphabet%d", name, n, ai), func(t *testing.T) {
					split := pipe.Split(s, ',')
					require.Equal(t, n+1, split.Len())
					require.Equal(t, wantSplit, split.Collect(opts...), "Split")
					require.Equal(t, wantSplit, bytesOf(t, b, pipe.Split(b, ',').Collect(opts...)), "Split of bytes")
					if n <= 1000 {
						require.Equal(t, bytes.Split(b, []byte(",")), pipe.Split(b, ',').Collect(opts...), "Split of bytes")
					}
					require.Equal(t, len(wantSplit), split.Count(opts...))

					lines := pipe.Lines(s)
					require.Equal(t, n, lines.Len())
					require.Equal(t, wantLines, lines.Collect(opts...), "Lines")
					require.Equal(t, wantLines, bytesOf(t, b, pipe.Lines(b).Collect(opts...)), "Lines of bytes")
					require.Equal(t, len(wantLines), lines.Count(opts...), "Lines")
					require.Equal(t, len(wantLines), pipe.Lines(b).Count(opts...), "Lines of bytes")

					fields := pipe.Fields(s)
					require.Equal(t, n, fields.Len())
					require.Equal(t, wantFields, fields.Collect(opts...), "Fields")
					require.Equal(t, wantFields, bytesOf(t, b, pipe.Fields(b).Collect(opts...)), "Fields of bytes")
					require.Equal(t, len(wantFields), fields.Count(opts...), "Fields")
					require.Equal(t, len(wantFields), pipe.Fields(b).Count(opts...), "Fields of bytes")

					// Through a stage, and a terminal that feeds its own pieces.
					lens := pipe.Map(pipe.Lines(s), func(l string) int { return len(l) })
					require.Equal(t, total, pipe.Sum(lens, opts...))
					if len(wantLines) > 0 {
						last := wantLines[len(wantLines)-1]
						got, ok := pipe.Lines(s).Find(func(l string) bool { return l == last }, opts...)
						require.True(t, ok)
						require.Equal(t, last, got)
					}
				})
			}
		}
	}
}

// textLayouts are the texts whose pieces are far apart or packed: one field
// of the whole input, one line of it, nothing but the separators of each
// source, and words.
func textLayouts(n int) map[string]string {
	return map[string]string{
		"one field": strings.Repeat("x", n-2) + " w",
		"one line":  strings.Repeat("x y,", n/4),
		"commas":    strings.Repeat(",", n),
		"newlines":  strings.Repeat("\n", n),
		"spaces":    strings.Repeat(" \t", n/2),
		"words":     randText(n, 5, alphabets[0]),
	}
}

// TestTextSourcesReadEachByteAboutOnce: the feeders of the pieces of any cut
// of a text read it about once in all, wherever its separators are: a piece
// of the range that starts inside a long field, line or run of separators
// reads only its own bytes, and the piece where a long field starts reads to
// its end. So a text source costs O(bytes), however finely the range is cut.
func TestTextSourcesReadEachByteAboutOnce(t *testing.T) {
	const n = 10_000 // a feeder that read to the end of a long piece would read n*n/2 bytes in pieces of one
	for layout, s := range textLayouts(n) {
		for _, source := range []string{"Split", "Lines", "Fields"} {
			for _, piece := range []int{1, 7, 256, 4096, n + 1} {
				pieces := (n + piece) / piece
				read := pipe.TextRead(source, s, piece)
				require.LessOrEqual(t, read, 2*len(s)+2*pieces, "%s of %s in pieces of %d read %d bytes of %d", source, layout, piece, read, len(s))
			}
		}
	}
}

// TestTextSourcesCoverALongLine: the piece where a long line starts reads it
// to its end, and the call then folds the positions inside the line as one
// step (engine.Config.Covered), not as elements timed at that piece's pace: Split,
// Lines and Fields over one piece of 4 MiB end alone on the calling goroutine and
// never reach the pool, whatever the timing, and so do the stages that keep
// the source's positions, over a string or a byte slice.
func TestTextSourcesCoverALongLine(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	on := par.OnPool(p)
	s := strings.Repeat("x", 4<<20)
	for name, count := range map[string]func() int{
		"Lines, Inspect":          func() int { return pipe.Lines(s).Inspect(func(string) {}).Count(on) },
		"Fields, Map":             func() int { return pipe.Map(pipe.Fields(s), strings.ToUpper).Count(on) },
		"Lines of bytes, Inspect": func() int { return pipe.Lines([]byte(s)).Inspect(func([]byte) {}).Count(on) },
		"Split, ForEach":          func() int { k := 0; pipe.Split(s, ',').ForEach(func(string) { k++ }, on); return k },
		"Lines, Map, Filter": func() int {
			return pipe.Map(pipe.Lines(s), strings.ToUpper).Filter(func(string) bool { return true }).Count(on)
		},
		"Split, FlatMap": func() int {
			return pipe.FlatMap(pipe.Split(s, ','), func(x string, out []int) []int { return append(out, len(x)) }).Count(on)
		},
	} {
		tasks := func() uint64 { s := p.Stats().Total(); return s.Tasks + s.Inline }
		before := tasks()
		require.Equal(t, 1, count(), name)
		require.Equal(t, before, tasks(), "%s: the call reached the pool", name)
	}
}

// TestTextSourcesSeeAChangedByteSlice: a byte slice's long runs hold for the
// call that found them only: a pipe over a byte slice whose bytes change
// between two terminals cuts the new bytes, on every pool, through the
// terminals that open their feeders before the call and those that open them
// in it, and from the end of the range (FindLast), which cuts the changed
// stretch before the piece that reads it has run.
func TestTextSourcesSeeAChangedByteSlice(t *testing.T) {
	b := bytes.Repeat([]byte("x"), 300_000)
	for pool, opts := range pools(t) {
		if strings.Contains(pool, "grain") {
			opts = append(opts[:1:1], par.WithGrain(5000))
		}
		for source, sep := range map[string]byte{"Split": ',', "Lines": '\n', "Fields": ' ', "LineChunks": '\n'} {
			var p pipe.Pipe[[]byte]
			first := 100_000 // the first piece once b[100_000] is sep
			switch source {
			case "Split":
				p = pipe.Split(b, sep)
			case "Lines":
				p = pipe.Lines(b)
			case "LineChunks":
				p, first = pipe.LineChunks(b), 100_001 // a chunk keeps its lines' '\n'
			default:
				p = pipe.Fields(b)
			}
			lens := func() []int { return pipe.Map(p, func(x []byte) int { return len(x) }).Collect(opts...) }
			sizes := func() []int { // a terminal that opens its feeders in its call
				var out []int
				for _, part := range pipe.ForEachInit(p, func() *[]int { return new([]int) }, func(s *[]int, x []byte) { *s = append(*s, len(x)) }, opts...) {
					out = append(out, *part...)
				}
				slices.Sort(out)
				return out
			}
			last := func() int { // from the end: the stretch changed is cut before the piece that reads it
				x, _ := p.FindLast(func([]byte) bool { return true }, opts...)
				return len(x)
			}
			require.Equal(t, []int{300_000}, lens(), "%s on %s", source, pool)
			b[100_000] = sep
			require.Equal(t, 199_999, last(), "%s on %s, changed, FindLast", source, pool)
			require.Equal(t, []int{first, 199_999}, lens(), "%s on %s, changed", source, pool)
			require.Equal(t, []int{first, 199_999}, sizes(), "%s on %s, changed, ForEachInit", source, pool)
			b[100_000] = 'x'
			require.Equal(t, []int{300_000}, sizes(), "%s on %s, changed back, ForEachInit", source, pool)
			require.Equal(t, []int{300_000}, lens(), "%s on %s, changed back", source, pool)
		}
	}
}

// TestTextCollectAllocatesTheResult: Collect of a text source whose pieces
// are short counts them first and makes the result once, as strings.Split
// and strings.Fields do, rather than appending per piece of the range and
// concatenating, which allocated about three times the result; a text of
// long pieces, which it does not count first, allocates little anyway: a
// buffer and a slice of the result per run of pieces, so that on eight
// processors, whose thieves cut many more runs, Fields of long lines
// allocated 212 KB for 8 KB of result. The calls run on a pool of two
// workers, whose runs the bound is for, on any machine.
func TestTextCollectAllocatesTheResult(t *testing.T) {
	const n = 1 << 20
	words := randText(n, 3, alphabets[0])
	long := strings.Repeat(strings.Repeat("x", 2000)+"\n", n/2001)
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	on := par.OnPool(p)
	for name, collect := range map[string]func(string) []string{
		"Split":  func(s string) []string { return pipe.Split(s, ',').Collect(on) },
		"Lines":  func(s string) []string { return pipe.Lines(s).Collect(on) },
		"Fields": func(s string) []string { return pipe.Fields(s).Collect(on) },
	} {
		for layout, s := range map[string]string{"words": words, "long lines": long} {
			var got []string
			bytes := torture.Allocated(func() { got = collect(s) })
			result := uint64(cap(got)) * uint64(unsafe.Sizeof(""))
			require.LessOrEqual(t, bytes, result+result/4+64<<10, "%s of %s: %d pieces", name, layout, len(got))
		}
	}
}

// TestTextCollectAnyCut: the pieces of the range that count and then fill
// a text source's Collect each do the blocks that start in them, so that
// every block is counted and filled once however the range is cut: grains
// that end pieces inside, at and across the blocks' bounds.
func TestTextCollectAnyCut(t *testing.T) {
	s := randText(50_000, 5, alphabets[1])
	want := map[string][]string{"Split": strings.Split(s, ","), "Lines": linesOracle(s), "Fields": fieldsOracle(s)}
	for _, workers := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(workers))
		for _, grain := range []int{999, 4095, 4096, 4097, 12_289} {
			opts := []par.Option{par.OnPool(p), par.WithGrain(grain)}
			require.Equal(t, want["Split"], pipe.Split(s, ',').Collect(opts...), "Split, %d workers, grain %d", workers, grain)
			require.Equal(t, want["Lines"], pipe.Lines(s).Collect(opts...), "Lines, %d workers, grain %d", workers, grain)
			require.Equal(t, want["Fields"], pipe.Fields(s).Collect(opts...), "Fields, %d workers, grain %d", workers, grain)
		}
		p.Close()
	}
}

// TestTextCollectAlone: a text source with no stage that is too short to be
// worth waking a worker for is collected on the calling goroutine, with a
// handful of allocations where a call on the pool makes some thirty, and
// gives the same pieces: short pieces are counted and cut straight into the
// result, its one allocation; long ones are appended through a small buffer.
// A grain still cuts it as asked (TestTextCollectAnyCut).
func TestTextCollectAlone(t *testing.T) {
	for layout, s := range map[string]string{"words": randText(8<<10, 5, alphabets[1]), "one piece": strings.Repeat("x", 8<<10)} {
		most := 1.0 // the result
		if layout == "one piece" {
			most = 4 // the buffer, the sink that appends (a closure and the result it holds), and the result
		}
		for name, c := range map[string]struct {
			p    pipe.Pipe[string]
			want []string
		}{
			"Split":  {pipe.Split(s, ','), strings.Split(s, ",")},
			"Lines":  {pipe.Lines(s), linesOracle(s)},
			"Fields": {pipe.Fields(s), fieldsOracle(s)},
		} {
			require.Equal(t, c.want, c.p.Collect(), "%s of %s", name, layout)
			allocs := testing.AllocsPerRun(20, func() { c.p.Collect() })
			require.LessOrEqual(t, allocs, most, "%s of %s: allocations a call", name, layout)
		}
	}
}

// TestSplitEdges pins the position semantics on small cases, and that the
// pieces share the memory of the input.
func TestSplitEdges(t *testing.T) {
	cases := []struct {
		s                    string
		split, lines, fields []string
	}{
		{"", []string{""}, []string{}, []string{}},
		{",", []string{"", ""}, []string{","}, []string{","}},
		{"\n", []string{"\n"}, []string{""}, []string{}},
		{"a\n", []string{"a\n"}, []string{"a"}, []string{"a"}},
		{"a\n\n", []string{"a\n\n"}, []string{"a", ""}, []string{"a"}},
		{"a\r\nb", []string{"a\r\nb"}, []string{"a\r", "b"}, []string{"a", "b"}},
		{",a,,b,", []string{"", "a", "", "b", ""}, []string{",a,,b,"}, []string{",a,,b,"}},
		{"  x  y\t", []string{"  x  y\t"}, []string{"  x  y\t"}, []string{"x", "y"}},
	}
	for _, c := range cases {
		require.Equal(t, c.split, pipe.Split(c.s, ',').Collect(par.WithGrain(1)), "Split(%q)", c.s)
		require.Equal(t, c.lines, pipe.Lines(c.s).Collect(par.WithGrain(1)), "Lines(%q)", c.s)
		require.Equal(t, c.fields, pipe.Fields(c.s).Collect(par.WithGrain(1)), "Fields(%q)", c.s)
	}
	b := []byte("ab\ncd")
	lines := pipe.Lines(b).Collect()
	require.Len(t, lines, 2)
	b[3] = 'X'
	require.Equal(t, "Xd", string(lines[1]), "a line shares the memory of the input")
	lines[0] = append(lines[0], '!')
	require.Equal(t, "ab\nXd", string(b), "appending to a line leaves the input alone")

	type text string
	require.Equal(t, []text{"a", "b"}, pipe.Lines(text("a\nb\n")).Collect())
}

// TestFieldsSeparatesOnTheASCIISpacesOnly: Fields separates on '\t', '\n',
// '\v', '\f', '\r' and ' ' and on no other byte, wherever the byte falls in
// the 64-byte blocks that Fields reads at once: the bytes next to the spaces
// (8, 14, 31, 33), the spaces with the high bit set (0x89, 0xa0), and the
// rest of the 256.
func TestFieldsSeparatesOnTheASCIISpacesOnly(t *testing.T) {
	for c := range 256 {
		for _, at := range []int{0, 1, 7, 8, 31, 62, 63, 64, 65, 127, 128} {
			b := []byte(strings.Repeat("x", at) + "?yz?" + strings.Repeat("w", 130-at))
			b[at], b[at+3] = byte(c), byte(c)
			s := string(b)
			want := fieldsOracle(s)
			require.Equal(t, want, pipe.Fields(s).Collect(), "Fields of %q", s)
			require.Equal(t, want, pipe.Fields(s).Collect(par.WithGrain(5)), "Fields of %q, cut in 5s", s)
			require.Equal(t, len(want), pipe.Fields(s).Count(), "Count of Fields of %q", s)
		}
	}
}

// TestSplitNestedAndStagePanics cuts texts inside the elements of another
// call, and checks that a panic in a stage after a text source reaches the
// caller with its value.
func TestSplitNestedAndStagePanics(t *testing.T) {
	s := randText(20_000, 9, alphabets[0])
	want := linesOracle(s)
	for name, opts := range pools(t) {
		ok := par.Map(make([]int, 8), func(int) bool {
			got := pipe.Lines(s).Collect(opts...)
			return fmt.Sprint(got) == fmt.Sprint(want) && pipe.Fields(s).Count(opts...) == len(fieldsOracle(s))
		}, opts...)
		require.NotContains(t, ok, false, name)
		last := want[len(want)-1]
		boom := fmt.Errorf("line %q", last)
		v := panicValue(t, func() {
			pipe.Map(pipe.Lines(s), func(l string) int {
				if l == last {
					panic(boom)
				}
				return len(l)
			}).Collect(opts...)
		})
		require.Equal(t, boom, v, name)
		require.Equal(t, want, pipe.Lines(s).Collect(opts...), "after the panic, %s", name)
	}
}

// TestTextSourcesLongRuns cuts texts whose pieces are longer than the run
// that one feeder's search records for the others to skip (see text.gap),
// with the range's pieces fed in order, backwards, and by the pools, and a
// pipe used by two terminals: the pieces and their positions are the
// standard library's, and a run of positions with no piece costs no call of
// the sink.
func TestTextSourcesLongRuns(t *testing.T) {
	long := func(k int) string { return strings.Repeat("x", k) }
	texts := map[string]string{
		"one piece":   long(300_000),
		"three runs":  long(150_000) + ",\n " + long(70_000) + "\n,a b\n" + long(200_000) + ",",
		"runs inside": "a,b\nc " + long(100_000) + "\n\n,," + long(66_000) + " \n" + long(131_072) + "\n",
	}
	for name, s := range texts {
		want := map[string][]string{"Split": strings.Split(s, ","), "Lines": linesOracle(s), "Fields": fieldsOracle(s)}
		for source, w := range want {
			var wantPos []int
			at := 0
			for _, p := range w {
				if source == "Fields" {
					at += strings.Index(s[at:], p)
				}
				wantPos = append(wantPos, at)
				at += len(p)
				if source != "Fields" {
					at++
				}
			}
			for _, piece := range []int{1000, 4096, 65_537, len(s) + 1} {
				for _, back := range []bool{false, true} {
					got, pos, sinks := pipe.TextPieces(source, s, piece, back)
					require.Equal(t, w, got, "%s of %s in pieces of %d, backwards %v", source, name, piece, back)
					require.Equal(t, wantPos, pos, "%s of %s in pieces of %d, backwards %v", source, name, piece, back)
					if source != "Fields" {
						require.LessOrEqual(t, sinks, 2*len(w), "%s of %s in pieces of %d: calls of the sink", source, name, piece)
					}
				}
			}
		}
		for pool, opts := range pools(t) {
			if strings.Contains(pool, "grain") {
				opts = append(opts[:1:1], par.WithGrain(5000))
			}
			split, lines, fields := pipe.Split(s, ','), pipe.Lines(s), pipe.Fields(s)
			for range 2 { // the second time, with the runs the first recorded
				require.Equal(t, want["Split"], split.Collect(opts...), "Split of %s on %s", name, pool)
				require.Equal(t, want["Lines"], lines.Collect(opts...), "Lines of %s on %s", name, pool)
				require.Equal(t, len(want["Lines"]), lines.Count(opts...), "Lines of %s on %s", name, pool)
				last, ok := lines.FindLast(func(string) bool { return true }, opts...)
				require.True(t, ok)
				require.Equal(t, want["Lines"][len(want["Lines"])-1], last)
				require.Equal(t, want["Fields"], fields.Collect(opts...), "Fields of %s on %s", name, pool)
			}
		}
	}
}
