// Command 1brc computes the One Billion Row Challenge: the min, mean and max
// temperature per weather station over a file of lines "station;-12.3", and
// prints them in the challenge's format, {name=min/mean/max, ...} sorted by
// name. Without a file it writes one of generated rows to a temporary
// directory first.
//
// The file is read by the goroutines that fold it, in the form the docs give
// for it: pipe.NewReader cuts it at line ends by file offset, LineBytes hands
// each line to the parse as a view of a buffer its goroutine reuses, and
// pipe.ReduceBytesBy keeps a map per run of adjacent pieces (about one per
// participant), looks a station up without copying its name and copies the
// name once, when the map first meets it. It is the program every fast Go
// solution writes by hand (a part of the file per core, a reader and a map
// each), in one call. The time is printed beside the plain loop's, a
// bufio.Scanner and one map.
//
//	go run ./examples/1brc
//	go run ./examples/1brc -rows 10000000
//	go run ./examples/1brc measurements.txt
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weftgo/weft/par/pipe"
)

func main() {
	rows := flag.Int("rows", 5_000_000, "without a file, generate one of `n` rows")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: 1brc [flags] [measurements.txt]")
		flag.PrintDefaults()
	}
	flag.Parse()
	path := flag.Arg(0)
	switch flag.NArg() {
	case 0:
		dir, err := os.MkdirTemp("", "1brc-")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "measurements.txt")
		if err := generate(path, *rows, 1); err != nil {
			fail(err)
		}
	case 1:
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, os.Stderr, path); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "1brc:", err)
	os.Exit(1)
}

// run prints the result for the file at path to out, and the times of weft
// and of the plain loop to log. The two must agree.
func run(out, log io.Writer, path string) error {
	t0 := time.Now()
	stats, err := aggregate(path)
	if err != nil {
		return err
	}
	t1 := time.Now()
	plain, err := aggregatePlain(path)
	if err != nil {
		return err
	}
	t2 := time.Now()
	res := format(stats)
	if format(plain) != res {
		return fmt.Errorf("weft and the plain loop disagree")
	}
	fmt.Fprintln(out, res)
	fmt.Fprintf(log, "%d stations: weft %v, plain loop %v (%.2fx)\n", len(stats),
		t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), t2.Sub(t1).Seconds()/t1.Sub(t0).Seconds())
	return nil
}

// stat is what is kept per station, in tenths of a degree.
type stat struct{ min, max, sum, count int64 }

// none is the stat of no row: merged with any stat it gives that stat.
var none = stat{min: math.MaxInt64, max: math.MinInt64}

// merge returns the stat of the rows of a and b together.
func (a stat) merge(b stat) stat {
	return stat{min(a.min, b.min), max(a.max, b.max), a.sum + b.sum, a.count + b.count}
}

// stats maps a station to its stat.
type stats map[string]stat

// aggregate is the challenge with weft: the file's lines parsed into a
// station and the stat of one row, merged per station.
func aggregate(path string) (stats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := pipe.NewReader(f)
	m := pipe.ReduceBytesBy(r.LineBytes(), row, stat.merge)
	if s, ok := m[""]; ok && s.count == 0 { // only empty lines
		delete(m, "")
	}
	return m, r.Err()
}

// row parses a line "name;-12.3" into the station's name, a view of the
// line, and the stat of its one row. An empty line is the stat of no row
// under the name "", which aggregate drops. A malformed line panics, and the
// panic reaches the caller of pipe.ReduceBytesBy.
func row(line []byte) ([]byte, stat) {
	name, t, ok, err := parse(line)
	if err != nil {
		panic(err)
	}
	if !ok {
		return nil, none
	}
	return name, stat{t, t, t, 1}
}

// aggregatePlain is the plain loop: a bufio.Scanner and one map, of a
// pointer per station so that a row costs one lookup.
func aggregatePlain(path string) (stats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]*stat{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, t, ok, err := parse(sc.Bytes())
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if s := m[string(name)]; s != nil { // looked up without a copy
			s.min, s.max = min(s.min, t), max(s.max, t)
			s.sum += t
			s.count++
			continue
		}
		m[string(name)] = &stat{t, t, t, 1}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	out := make(stats, len(m))
	for k, s := range m {
		out[k] = *s
	}
	return out, nil
}

// parse cuts a line "name;-12.3" into the name, a view of the line, and the
// temperature in tenths; ok is false for an empty line (a '\r' at its end
// dropped), which holds no row.
func parse(line []byte) (name []byte, t int64, ok bool, err error) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) == 0 {
		return nil, 0, false, nil
	}
	i := bytes.LastIndexByte(line, ';')
	if i < 0 {
		return nil, 0, false, fmt.Errorf("no ';' in line %q", line)
	}
	t, err = tenths(line[i+1:])
	if err != nil {
		return nil, 0, false, err
	}
	return line[:i], t, true, nil
}

// tenths parses a temperature with one decimal, "-12.3", into -123.
func tenths(b []byte) (int64, error) {
	s := b
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	n := len(s)
	if n < 3 || s[n-2] != '.' {
		return 0, fmt.Errorf("temperature %q: want one decimal", b)
	}
	var t int64
	for k, c := range s {
		if k == n-2 {
			continue
		}
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("temperature %q: not a number", b)
		}
		t = t*10 + int64(c-'0')
	}
	if neg {
		t = -t
	}
	return t, nil
}

// format writes m as the challenge does: {name=min/mean/max, ...}, sorted by
// name, in degrees with one decimal, the mean rounded half up.
func format(m stats) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		s := m[k]
		fmt.Fprintf(&b, "%s=%s/%s/%s", k, degrees(s.min), degrees(mean(s)), degrees(s.max))
	}
	b.WriteByte('}')
	return b.String()
}

// mean is the mean in tenths, rounded half up: floor((2*sum + count) / (2*count)).
func mean(s stat) int64 {
	a, b := 2*s.sum+s.count, 2*s.count
	q := a / b
	if a%b != 0 && a < 0 {
		q-- // Go's division truncates toward zero
	}
	return q
}

// degrees writes tenths of a degree as "-12.3".
func degrees(t int64) string {
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	return sign + strconv.FormatInt(t/10, 10) + "." + strconv.FormatInt(t%10, 10)
}

// generate writes a file of n rows over 413 stations, with temperatures
// from -99.9 to 99.9 around a mean of each station's own, from a seeded
// generator: the same file for the same n and seed.
func generate(path string, n int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15))
	type station struct {
		name string
		mean float64
	}
	sts := make([]station, 413)
	seen := map[string]bool{}
	for i := range sts {
		name := ""
		for name == "" || seen[name] {
			name = "st" + strconv.FormatUint(1+r.Uint64N(1_000_000_000), 36)
		}
		seen[name] = true
		sts[i] = station{name, r.Float64()*60 - 20}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var line []byte
	for range n {
		s := sts[r.IntN(len(sts))]
		t := int64((s.mean + r.NormFloat64()*10) * 10)
		t = max(-999, min(999, t))
		line = append(line[:0], s.name...)
		line = append(line, ';')
		line = append(line, degrees(t)...)
		line = append(line, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
