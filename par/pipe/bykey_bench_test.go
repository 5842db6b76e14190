package pipe_test

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/weftgo/weft/par/pipe"
)

// ReduceBy and FoldBy beside the hand-written program they stand for: the
// rows of the One Billion Row Challenge (W12 of go run ./bench), a part per
// core cut at a line end, a goroutine and a map each, merged; in memory and
// from a file, where each goroutine reads its part through a bufio.Scanner
// of its own.
//
//	go test ./par/pipe -run '^$' -bench ByKey -count 10
//
// WEFT_BYKEY_ROWS sets the rows (default 2,000,000; W12 has 10,000,000).

func byKeyRows() int {
	if e := os.Getenv("WEFT_BYKEY_ROWS"); e != "" {
		n, err := strconv.Atoi(e)
		if err != nil {
			panic(err)
		}
		return n
	}
	if testing.Short() {
		return 100_000
	}
	return 2_000_000
}

// stationRows is W12's text of the given rows (bench/stations.go).
func stationRows(rows int) string {
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		return x * 0x2545F4914F6CDD1D
	}
	names := make([]string, 0, 413)
	seen := map[string]bool{}
	for len(names) < 413 {
		s := "st" + strconv.FormatUint(1+next()%1_000_000_000, 36)
		if !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	b := make([]byte, 0, rows*15)
	for range rows {
		k := next() % 413
		t := int64(next()%1999) - 999
		b = append(b, names[k]...)
		b = append(b, ';')
		if t < 0 {
			b = append(b, '-')
			t = -t
		}
		b = strconv.AppendInt(b, t/10, 10)
		b = append(b, '.', byte('0'+t%10), '\n')
	}
	return string(b)
}

type station struct{ Min, Max, Sum, Count int64 }

func (a station) merge(b station) station {
	return station{min(a.Min, b.Min), max(a.Max, b.Max), a.Sum + b.Sum, a.Count + b.Count}
}

func (s *station) add(t int64) {
	s.Min, s.Max = min(s.Min, t), max(s.Max, t)
	s.Sum += t
	s.Count++
}

// stationHist is W12h's value: 50 buckets of 4 degrees.
type stationHist [50]uint32

func histBucket(t int64) int { return int(min(49, max(0, (t+1000)/40))) }

func tenths[S ~string | ~[]byte](s S) int64 {
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var t int64
	for j := 0; j < len(s); j++ {
		if c := s[j]; c != '.' {
			t = t*10 + int64(c-'0')
		}
	}
	if neg {
		t = -t
	}
	return t
}

func parseRow(line string) (string, int64) {
	i := strings.IndexByte(line, ';')
	return line[:i], tenths(line[i+1:])
}

func parseRowBytes(line []byte) ([]byte, int64) {
	i := bytes.IndexByte(line, ';')
	return line[:i], tenths(line[i+1:])
}

// addRow is the hand-written loop's body.
func addRow(m map[string]*station, line string) {
	name, t := parseRow(line)
	if s := m[name]; s != nil {
		s.add(t)
		return
	}
	m[name] = &station{t, t, t, 1}
}

func addRowBytes(m map[string]*station, line []byte) {
	name, t := parseRowBytes(line)
	if s := m[string(name)]; s != nil {
		s.add(t)
		return
	}
	m[string(name)] = &station{t, t, t, 1}
}

func addRowHist(m map[string]*stationHist, line string) {
	name, t := parseRow(line)
	h := m[name]
	if h == nil {
		h = new(stationHist)
		m[name] = h
	}
	h[histBucket(t)]++
}

// lineParts cuts text into k parts at line ends.
func lineParts(text string, k int) []string {
	var parts []string
	for c := k; c > 0 && len(text) > 0; c-- {
		at := len(text) / c
		if j := strings.IndexByte(text[at:], '\n'); j >= 0 {
			at += j + 1
		} else {
			at = len(text)
		}
		parts = append(parts, text[:at])
		text = text[at:]
	}
	return parts
}

// handWritten runs fold over a part per core on a goroutine each and merges
// the maps on the caller.
func handWritten[V any](k int, fold func(c int, m map[string]*V), merge func(a, b *V)) map[string]*V {
	maps := make([]map[string]*V, k)
	var wg sync.WaitGroup
	for c := range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := map[string]*V{}
			fold(c, m)
			maps[c] = m
		}()
	}
	wg.Wait()
	out := maps[0]
	for _, m := range maps[1:] {
		for name, v := range m {
			if o := out[name]; o != nil {
				merge(o, v)
			} else {
				out[name] = v
			}
		}
	}
	return out
}

func mergeStation(a, b *station) { *a = a.merge(*b) }

func mergeHist(a, b *stationHist) {
	for i := range a {
		a[i] += b[i]
	}
}

// fileParts is the hand-written cut of a file into k parts at line ends.
func fileParts(path string, k int) [][2]int64 {
	b, err := os.ReadFile(path) // only to cut: the parts' offsets
	if err != nil {
		panic(err)
	}
	var out [][2]int64
	lo := 0
	for _, p := range lineParts(string(b), k) {
		out = append(out, [2]int64{int64(lo), int64(lo + len(p))})
		lo += len(p)
	}
	return out
}

func scanPart(path string, lo, hi int64, line func([]byte)) {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(io.NewSectionReader(f, lo, hi-lo))
	for sc.Scan() {
		line(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
}

var byKeySink int

var benchF = func(line string) (string, station) {
	name, t := parseRow(line)
	return name, station{t, t, t, 1}
}
var benchOp = station.merge

func BenchmarkByKey(b *testing.B) {
	text := stationRows(byKeyRows())
	textBytes := []byte(text)
	k := runtime.GOMAXPROCS(0)
	path := filepath.Join(b.TempDir(), "rows.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	parts := fileParts(path, k)
	open := func() (*os.File, *pipe.Reader) {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		return f, pipe.NewReader(f)
	}
	oneRow := func(line string) (string, station) {
		name, t := parseRow(line)
		return name, station{t, t, t, 1}
	}
	rowBucket := func(line string) (string, int) {
		name, t := parseRow(line)
		return name, histBucket(t)
	}
	newHist := func() stationHist { return stationHist{} }
	addHist := func(h *stationHist, i int) { h[i]++ }
	cases := []struct {
		name string
		run  func() int
	}{
		{"mem/hand", func() int {
			ps := lineParts(text, k)
			return len(handWritten(len(ps), func(c int, m map[string]*station) {
				for text := ps[c]; len(text) > 0; {
					i := strings.IndexByte(text, '\n')
					addRow(m, text[:i])
					text = text[i+1:]
				}
			}, mergeStation))
		}},
		// The hand-written loop calling ReduceBy's f and op through function
		// values: what the calls cost that no library can inline.
		{"mem/funcvalues", func() int {
			ps := lineParts(text, k)
			f, op := benchF, benchOp
			return len(handWritten(len(ps), func(c int, m map[string]*station) {
				for text := ps[c]; len(text) > 0; {
					i := strings.IndexByte(text, '\n')
					k, v := f(text[:i])
					if p := m[k]; p != nil {
						*p = op(*p, v)
					} else {
						p = new(station)
						*p = v
						m[k] = p
					}
					text = text[i+1:]
				}
			}, mergeStation))
		}},
		{"mem/ReduceBy", func() int {
			return len(pipe.ReduceBy(pipe.Lines(text), oneRow, station.merge))
		}},
		// Lines of a []byte in memory, each a view of the text.
		{"mem/ReduceBytesBy", func() int {
			return len(pipe.ReduceBytesBy(pipe.Lines(textBytes), func(line []byte) ([]byte, station) {
				name, t := parseRowBytes(line)
				return name, station{t, t, t, 1}
			}, station.merge))
		}},
		{"file/hand", func() int {
			return len(handWritten(len(parts), func(c int, m map[string]*station) {
				scanPart(path, parts[c][0], parts[c][1], func(line []byte) { addRowBytes(m, line) })
			}, mergeStation))
		}},
		{"file/ReduceBy", func() int {
			f, r := open()
			defer f.Close()
			return len(pipe.ReduceBy(r.Lines(), oneRow, station.merge))
		}},
		{"file/ReduceBytesBy", func() int {
			f, r := open()
			defer f.Close()
			return len(pipe.ReduceBytesBy(r.LineBytes(), func(line []byte) ([]byte, station) {
				name, t := parseRowBytes(line)
				return name, station{t, t, t, 1}
			}, station.merge))
		}},
		{"hist/mem/hand", func() int {
			ps := lineParts(text, k)
			return len(handWritten(len(ps), func(c int, m map[string]*stationHist) {
				for text := ps[c]; len(text) > 0; {
					i := strings.IndexByte(text, '\n')
					addRowHist(m, text[:i])
					text = text[i+1:]
				}
			}, mergeHist))
		}},
		{"hist/mem/FoldBy", func() int {
			return len(pipe.FoldBy(pipe.Lines(text), rowBucket, newHist, addHist, mergeHist))
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			cpu := processCPU()
			for b.Loop() {
				byKeySink += c.run()
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
