package pipe_test

import (
	"bufio"
	"slices"
	"strings"
	"testing"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// FuzzSplit compares Split, Lines and Fields, of a string and of a byte
// slice, with the standard library's sequential cuts on a fuzzed text, with
// a fuzzed separator and a fuzzed grain (every piece of the range looks back
// for where its first piece starts); and the word count of CountBy over
// Fields with the sequential map loop.
func FuzzSplit(f *testing.F) {
	f.Add("", byte(','), uint8(0), uint8(0))
	f.Add(",", byte(','), uint8(1), uint8(1))
	f.Add("a\n", byte('\n'), uint8(1), uint8(2))
	f.Add("a,,b,\n\nc d\r\n  e\t", byte(','), uint8(2), uint8(1))
	f.Add(strings.Repeat("word another\n", 40), byte(' '), uint8(3), uint8(2))
	f.Add(strings.Repeat("x", 600)+"\n\n"+strings.Repeat(" ", 300), byte('x'), uint8(7), uint8(1))
	p1 := par.NewPool(par.Workers(1))
	p3 := par.NewPool(par.Workers(3))
	f.Cleanup(p1.Close)
	f.Cleanup(p3.Close)
	pools := []*par.Pool{nil, p1, p3}
	f.Fuzz(func(t *testing.T, s string, sep byte, grain, pool uint8) {
		if len(s) > 512 {
			// A grain of a byte or two opens a feeder, with its buffer, per
			// piece: long texts only slow the fuzzer down.
			s = s[:512]
		}
		var opts []par.Option
		if grain > 0 {
			opts = append(opts, par.WithGrain(int(grain)))
		}
		if p := pools[int(pool)%len(pools)]; p != nil {
			opts = append(opts, par.OnPool(p))
		}
		b := []byte(s)
		check := func(what string, want []string, got []string) {
			if !slices.Equal(want, got) {
				t.Fatalf("%s of %q: %q, want %q", what, s, got, want)
			}
		}
		str := func(ps [][]byte) []string {
			out := make([]string, len(ps))
			for i, p := range ps {
				if cap(p) != len(p) {
					t.Fatalf("piece %d of %q: capacity %d, want %d", i, s, cap(p), len(p))
				}
				out[i] = string(p)
			}
			return out
		}
		check("Split", strings.Split(s, string([]byte{sep})), pipe.Split(s, sep).Collect(opts...))
		check("Split of bytes", strings.Split(s, string([]byte{sep})), str(pipe.Split(b, sep).Collect(opts...)))
		check("Lines", linesOracle(s), pipe.Lines(s).Collect(opts...))
		if !strings.Contains(s, "\r") { // bufio.ScanLines drops a '\r' at the end of a line
			sc := bufio.NewScanner(strings.NewReader(s))
			scanned := []string{}
			for sc.Scan() {
				scanned = append(scanned, sc.Text())
			}
			check("Lines against bufio.ScanLines", scanned, pipe.Lines(s).Collect(opts...))
		}
		check("Lines of bytes", linesOracle(s), str(pipe.Lines(b).Collect(opts...)))
		check("Fields", fieldsOracle(s), pipe.Fields(s).Collect(opts...))
		check("Fields of bytes", fieldsOracle(s), str(pipe.Fields(b).Collect(opts...)))
		want := map[string]int{}
		for _, w := range fieldsOracle(s) {
			want[w]++
		}
		got := pipe.CountBy(pipe.Fields(s), func(w string) string { return w }, opts...)
		if len(got) != len(want) {
			t.Fatalf("CountBy(Fields(%q)): %v, want %v", s, got, want)
		}
		for w, n := range want {
			if got[w] != n {
				t.Fatalf("CountBy(Fields(%q)): %v, want %v", s, got, want)
			}
		}
	})
}
