package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/exascience/pargo/parallel"
	loparallel "github.com/samber/lo/parallel"
	"github.com/sourcegraph/conc/iter"
	"golang.org/x/sync/errgroup"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// W12 station aggregation: docs/DESIGN.md's rows of the One Billion Row
// Challenge's format, and the min, mean and max per station, sequentially,
// with weft, and with the Go peers, from memory and from a file.

// w12Stations is the number of station names W12 draws.
const w12Stations = 413

// w12Text returns W12's text of the given rows: first 413 distinct names
// "st" + base36(1 + next()%1_000_000_000), then for each row a station
// next()%413 and a temperature next()%1999 - 999 in tenths, written as
// "name;-12.3\n".
func w12Text(rows int) string {
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		return x * 0x2545F4914F6CDD1D
	}
	names := make([]string, 0, w12Stations)
	seen := map[string]bool{}
	for len(names) < w12Stations {
		s := "st" + strconv.FormatUint(1+next()%1_000_000_000, 36)
		if !seen[s] {
			seen[s] = true
			names = append(names, s)
		}
	}
	b := make([]byte, 0, rows*15)
	for range rows {
		k := next() % w12Stations
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

// w12Stat is what W12 keeps per station, in tenths of a degree.
type w12Stat struct {
	Min, Max, Sum, Count int64
}

// w12One is the statistics of one row.
func w12One(t int64) w12Stat { return w12Stat{t, t, t, 1} }

// merge returns the statistics of the rows of a and b together.
func (a w12Stat) merge(b w12Stat) w12Stat {
	return w12Stat{min(a.Min, b.Min), max(a.Max, b.Max), a.Sum + b.Sum, a.Count + b.Count}
}

// add folds one temperature into s.
func (s *w12Stat) add(t int64) {
	s.Min = min(s.Min, t)
	s.Max = max(s.Max, t)
	s.Sum += t
	s.Count++
}

// w12Parse cuts a row "name;-12.3" (without its '\n') into the name and the
// temperature in tenths.
func w12Parse(line string) (string, int64) {
	i := strings.IndexByte(line, ';')
	name, s := line[:i], line[i+1:]
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
	return name, t
}

// w12Map is what the hand-written programs keep: a pointer per station, so
// that a row costs one lookup.
type w12Map = map[string]*w12Stat

// w12AddLine folds one row into m, as the hand-written programs and the
// sequential loop do.
func w12AddLine(m w12Map, line string) {
	name, t := w12Parse(line)
	if s := m[name]; s != nil {
		s.add(t)
		return
	}
	st := w12One(t)
	m[name] = &st
}

// w12AddText folds every row of text into m.
func w12AddText(m w12Map, text string) w12Map {
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			i = len(text)
		}
		w12AddLine(m, text[:i])
		text = text[min(i+1, len(text)):]
	}
	return m
}

// w12MergeMaps merges the maps of the parts into the first, on one goroutine.
func w12MergeMaps(ms []w12Map) w12Map {
	out := ms[0]
	for _, m := range ms[1:] {
		for k, s := range m {
			if o := out[k]; o != nil {
				*o = o.merge(*s)
			} else {
				out[k] = s
			}
		}
	}
	return out
}

// w12Checksum is W12's result for a text of the given bytes: the bytes, the
// stations, and over the stations sorted by name, rank i from 1, the
// wrapping sum of i * (min + 3*mean + 7*max), the mean rounded half up.
func w12Checksum(bytes int, each func(yield func(string, w12Stat))) string {
	stats := map[string]w12Stat{}
	each(func(k string, s w12Stat) { stats[k] = s })
	names := make([]string, 0, len(stats))
	for k := range stats {
		names = append(names, k)
	}
	slices.Sort(names)
	var sum uint64
	for i, k := range names {
		s := stats[k]
		sum += uint64(i+1) * uint64(s.Min+3*w12Mean(s)+7*s.Max)
	}
	return fmt.Sprintf("%d bytes, %d stations, checksum %d", bytes, len(names), sum)
}

// w12Mean is floor((2*sum + count) / (2*count)): the mean rounded half up.
func w12Mean(s w12Stat) int64 {
	a, b := 2*s.Sum+s.Count, 2*s.Count
	q := a / b
	if a%b != 0 && a < 0 {
		q-- // Go's division truncates toward zero
	}
	return q
}

func w12SumPtrs(bytes int) func(w12Map) string {
	return func(m w12Map) string {
		return w12Checksum(bytes, func(yield func(string, w12Stat)) {
			for k, s := range m {
				yield(k, *s)
			}
		})
	}
}

func w12SumVals(bytes int) func(map[string]w12Stat) string {
	return func(m map[string]w12Stat) string {
		return w12Checksum(bytes, func(yield func(string, w12Stat)) {
			for k, s := range m {
				yield(k, s)
			}
		})
	}
}

// w12Seq is W12's sequential baseline in memory: a plain loop over the rows.
func w12Seq(text string) w12Map { return w12AddText(w12Map{}, text) }

// w12SeqFile is W12's sequential baseline from the file: bufio.Scanner's
// lines, each parsed and folded into a map.
func w12SeqFile(path string) w12Map {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	m := w12Map{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w12AddBytes(m, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
	return m
}

// w12AddBytes folds a row held in a buffer that is reused: the lookup with
// string(name) makes no copy, and a new station's name is copied once.
func w12AddBytes(m w12Map, line []byte) {
	i := slices.Index(line, ';')
	name, t := line[:i], w12Tenths(line[i+1:])
	if s := m[string(name)]; s != nil {
		s.add(t)
		return
	}
	st := w12One(t)
	m[string(name)] = &st
}

// w12ParseBytes is w12Parse over a row held in a buffer that is reused:
// the name is part of the row.
func w12ParseBytes(line []byte) ([]byte, int64) {
	i := bytes.IndexByte(line, ';')
	return line[:i], w12Tenths(line[i+1:])
}

// w12ByteRow is a row's station and statistics, for ReduceBytesBy.
func w12ByteRow(line []byte) ([]byte, w12Stat) {
	name, t := w12ParseBytes(line)
	return name, w12One(t)
}

// w12Tenths parses "-12.3" into -123.
func w12Tenths(s []byte) int64 {
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var t int64
	for _, c := range s {
		if c != '.' {
			t = t*10 + int64(c-'0')
		}
	}
	if neg {
		t = -t
	}
	return t
}

// fileParts returns the byte ranges of a file of the given size cut into k
// parts of about equal length, each starting at the start of a line: the
// offsets are found by reading a few bytes past each cut.
func fileParts(f io.ReaderAt, size int64, k int) [][2]int64 {
	cuts := []int64{0}
	buf := make([]byte, 256)
	for c := 1; c < k; c++ {
		at := max(cuts[len(cuts)-1], size*int64(c)/int64(k))
		for at < size {
			n, err := f.ReadAt(buf, at)
			if i := slices.Index(buf[:n], '\n'); i >= 0 {
				at += int64(i) + 1
				break
			}
			at += int64(n)
			if err != nil {
				break
			}
		}
		cuts = append(cuts, min(at, size))
	}
	cuts = append(cuts, size)
	var out [][2]int64
	for i := range k {
		if cuts[i+1] > cuts[i] {
			out = append(out, [2]int64{cuts[i], cuts[i+1]})
		}
	}
	return out
}

// w12FilePart folds the rows of the part [lo, hi) of the file at path,
// through a reader of its own, as each goroutine of a hand-written program
// does.
func w12FilePart(path string, lo, hi int64) w12Map {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	m := w12Map{}
	sc := bufio.NewScanner(io.NewSectionReader(f, lo, hi-lo))
	for sc.Scan() {
		w12AddBytes(m, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
	return m
}

// w12FileParts opens the file at path to learn its size and cut it into k
// parts at line starts.
func w12FileParts(path string, k int) [][2]int64 {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		panic(err)
	}
	return fileParts(f, fi.Size(), k)
}

// w12WriteFile writes text to a new file in a new temporary directory and
// returns its path and a function that removes the directory.
func w12WriteFile(text string) (string, func()) {
	dir, err := os.MkdirTemp("", "weft-w12-")
	if err != nil {
		panic(err)
	}
	path := filepath.Join(dir, "measurements.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		panic(err)
	}
	return path, func() { os.RemoveAll(dir) }
}

// w12Runner runs body(c) for every part c in [0, k), in parallel, the way a
// strategy runs its tasks: one goroutine or task per part.
type w12Runner func(e *env, k int, body func(c int))

// w12Runners are the strategies that run W12 as one part per worker, a map
// each, merged on the calling goroutine: the program every Go solution of
// the challenge writes, through each one's API.
func w12Runners() map[string]w12Runner {
	return map[string]w12Runner{
		"static": func(_ *env, k int, body func(c int)) {
			var wg sync.WaitGroup
			wg.Add(k)
			for c := range k {
				go func() {
					defer wg.Done()
					body(c)
				}()
			}
			wg.Wait()
		},
		"errgroup": func(_ *env, k int, body func(c int)) {
			var g errgroup.Group
			for c := range k {
				g.Go(func() error { body(c); return nil })
			}
			_ = g.Wait() // the parts return no error
		},
		"conc": func(e *env, k int, body func(c int)) {
			iter.ForEachIdx(make([]struct{}, k), func(c int, _ *struct{}) { body(c) })
		},
		"lo": func(_ *env, k int, body func(c int)) {
			loparallel.ForEach(make([]struct{}, k), func(_ struct{}, c int) { body(c) })
		},
		"pond": func(e *env, k int, body func(c int)) { pondEach(e, k, body) },
		"ants": func(e *env, k int, body func(c int)) { antsEach(e, k, body) },
		"pargo": func(_ *env, k int, body func(c int)) {
			parallel.Range(0, k, k, func(lo, hi int) {
				for c := lo; c < hi; c++ {
					body(c)
				}
			})
		},
	}
}

var w12About = map[string]string{
	"static":   "one part per worker cut at a line end, a goroutine and a map each (sync.WaitGroup), merged",
	"errgroup": "one part per worker cut at a line end, g.Go and a map each (errgroup.Group), merged",
	"conc":     "iter.ForEachIdx over one part per worker cut at a line end, a map each, merged",
	"lo":       "lo/parallel.ForEach over one part per worker cut at a line end, a map each, merged",
	"pond":     "a task per part (one per worker, cut at a line end) on a pond pool, a map each, merged",
	"ants":     "a task per part (one per worker, cut at a line end) on an ants pool, a map each, merged",
	"pargo":    "parallel.Range over one part per worker cut at a line end, a map each, merged",
}

// w12Parts folds k parts in parallel with run, a map each, and merges them.
func w12Parts(e *env, run w12Runner, k int, part func(c int) w12Map) w12Map {
	maps := make([]w12Map, k)
	run(e, k, func(c int) { maps[c] = part(c) })
	return w12MergeMaps(maps)
}

// w12Dynamic is the dynamic strategy: one goroutine per worker, each with a
// map, taking blocks of lines from an atomic counter.
func w12Dynamic(e *env, text string) w12Map {
	blocks := lineChunks(text, e.workers*dynamicBlocksPerWorker)
	maps := make([]w12Map, e.workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(len(maps))
	for g := range maps {
		go func() {
			defer wg.Done()
			m := w12Map{}
			for c := int(next.Add(1) - 1); c < len(blocks); c = int(next.Add(1) - 1) {
				w12AddText(m, blocks[c])
			}
			maps[g] = m
		}()
	}
	wg.Wait()
	return w12MergeMaps(maps)
}

// w12Weft is W12 as a user writes it with weft: the text in chunks of whole
// lines, each folded into the map of the participant that takes it by the
// loop the hand-written programs run over their parts, and the maps merged,
// in no order, as those programs merge theirs: a map per participant.
func w12Weft(text string, opts []par.Option) w12Map {
	return w12MergeMaps(pipe.ForEachInit(pipe.LineChunks(text), newW12Map, w12AddChunkText, opts...))
}

// w12WeftFold is w12Weft with pipe.Fold, which keeps the order of the text:
// a map per run of adjacent pieces, about one per steal.
func w12WeftFold(text string, opts []par.Option) w12Map {
	return pipe.Fold(pipe.LineChunks(text), newW12Map, w12AddText, w12Merge, opts...)
}

func w12AddChunkText(m w12Map, chunk string) { w12AddText(m, chunk) }

// w12WeftFile is w12Weft over the chunks of the file at path, read by the
// goroutines that fold them, each into a buffer of its own that it reuses.
func w12WeftFile(path string, opts []par.Option) w12Map {
	return w12FromFile(path, func(chunks pipe.Pipe[[]byte]) w12Map {
		return w12MergeMaps(pipe.ForEachInit(chunks, newW12Map, func(m w12Map, chunk []byte) { w12AddChunk(m, chunk) }, opts...))
	})
}

// w12WeftFileFold is w12WeftFile with pipe.Fold, in the file's order.
func w12WeftFileFold(path string, opts []par.Option) w12Map {
	return w12FromFile(path, func(chunks pipe.Pipe[[]byte]) w12Map {
		return pipe.Fold(chunks, newW12Map, w12AddChunk, w12Merge, opts...)
	})
}

// w12FromFile opens the file at path and returns what fold makes of the
// chunks of its Reader, panicking on an error of the open or of the reads.
func w12FromFile(path string, fold func(chunks pipe.Pipe[[]byte]) w12Map) w12Map {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	r := pipe.NewReader(f)
	stats := fold(r.LineChunkBytes())
	if err := r.Err(); err != nil {
		panic(err)
	}
	return stats
}

func newW12Map() w12Map { return w12Map{} }

// w12AddChunk folds every row of a chunk held in a buffer that is reused.
func w12AddChunk(m w12Map, chunk []byte) w12Map {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			i = len(chunk)
		}
		w12AddBytes(m, chunk[:i])
		chunk = chunk[min(i+1, len(chunk)):]
	}
	return m
}

// w12Merge merges the maps of two parts.
func w12Merge(a, b w12Map) w12Map { return w12MergeMaps([]w12Map{a, b}) }

// w12WeftByKey is W12 as the aggregation by key over the lines: a station
// and a statistics of one row per line, merged per station.
func w12WeftByKey(lines pipe.Pipe[string], opts []par.Option) map[string]w12Stat {
	return pipe.ReduceBy(lines, func(line string) (string, w12Stat) {
		name, t := w12Parse(line)
		return name, w12One(t)
	}, w12Stat.merge, opts...)
}

// w12WeftFoldBy is W12 as the aggregation by key into statistics updated in
// place: a station and a temperature per line, folded into the station's
// statistics through a pointer.
func w12WeftFoldBy(lines pipe.Pipe[string], opts []par.Option) map[string]*w12Stat {
	return pipe.FoldBy(lines, w12Parse, w12Empty, (*w12Stat).add, w12MergeInto, opts...)
}

// w12Empty is the statistics of no row: folding a row into it gives w12One.
func w12Empty() w12Stat { return w12Stat{Min: math.MaxInt64, Max: math.MinInt64} }

func w12MergeInto(a, b *w12Stat) { *a = a.merge(*b) }

// w12OpenReader opens the file at path as a pipe.Reader, and returns it with
// the function that closes the file.
func w12OpenReader(path string) (*pipe.Reader, func()) {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	return pipe.NewReader(f), func() { f.Close() }
}

func (s *suite) stationImpls(n int) []impl {
	e := s.env
	text := w12Text(n)
	sum := w12SumPtrs(len(text))
	mk := func(name string, k kind, about string, f func() w12Map) impl {
		return resultImpl(name, k, about, f, sum)
	}
	// The text as bytes, copied once when an implementation first asks.
	w12Data := sync.OnceValue(func() []byte { return []byte(text) })
	impls := []impl{
		mk("sequential", kindSeq, "a plain loop over the rows, a map[string]*stat",
			func() w12Map { return w12Seq(text) }),
		mk("weft", kindWeft, "pipe.ForEachInit(pipe.LineChunks(text), newMap, addLines), the maps merged by the caller: a map per participant, the hand-written loop over each chunk's lines",
			func() w12Map { return w12Weft(text, s.opts) }),
		mk("weft Fold", kindWeft, "pipe.Fold(pipe.LineChunks(text), newMap, addLines, merge): in order, a map per run of adjacent pieces",
			func() w12Map { return w12WeftFold(text, s.opts) }),
		resultImpl("weft ReduceBy", kindWeft, "pipe.ReduceBy(pipe.Lines(text), parse, merge): a call of parse and merge per line",
			func() map[string]w12Stat { return w12WeftByKey(pipe.Lines(text), s.opts) }, w12SumVals(len(text))),
		mk("weft FoldBy", kindWeft, "pipe.FoldBy(pipe.Lines(text), parse, empty, add, merge): a call of parse and add per line, the statistics updated in place",
			func() w12Map { return w12WeftFoldBy(pipe.Lines(text), s.opts) }),
		resultImpl("weft ReduceBytesBy", kindWeft, "pipe.ReduceBytesBy(pipe.Lines(data), parse, merge) over the text as a []byte: each line a view of it, no string made, a station's name copied when first met",
			func() map[string]w12Stat {
				return pipe.ReduceBytesBy(pipe.Lines(w12Data()), w12ByteRow, w12Stat.merge, s.opts...)
			}, w12SumVals(len(text))),
	}
	runners := w12Runners()
	for _, st := range s.strategies {
		if st.name == "dynamic" {
			impls = append(impls, mk(st.name, st.kind, "one goroutine and map per worker taking blocks of n/(64*workers) bytes cut at line ends from an atomic counter, merged",
				func() w12Map { return w12Dynamic(e, text) }))
			continue
		}
		run, ok := runners[st.name]
		if !ok {
			impls = append(impls, skipped(st.name, st.kind, st.about, "W12 is written as one part per worker with a map each; this one starts a goroutine per element or is a sort"))
			continue
		}
		impls = append(impls, mk(st.name, st.kind, w12About[st.name], func() w12Map {
			parts := lineChunks(text, e.workers)
			return w12Parts(e, run, len(parts), func(c int) w12Map { return w12AddText(w12Map{}, parts[c]) })
		}))
	}
	return impls
}

func (s *suite) stationFileImpls(n int) []impl {
	e := s.env
	text := w12Text(n)
	path, remove := w12WriteFile(text)
	s.cleanups = append(s.cleanups, remove)
	size := len(text)
	sum := w12SumPtrs(size)
	text = "" // the file holds it now
	mk := func(name string, k kind, about string, f func() w12Map) impl {
		return resultImpl(name, k, about, f, sum)
	}
	impls := []impl{
		mk("sequential", kindSeq, "bufio.Scanner over the file, a map[string]*stat",
			func() w12Map { return w12SeqFile(path) }),
		mk("weft", kindWeft, "pipe.ForEachInit(pipe.NewReader(f).LineChunkBytes(), newMap, addLines), the maps merged: the file read in pieces, each goroutine into a buffer it reuses",
			func() w12Map { return w12WeftFile(path, s.opts) }),
		mk("weft Fold", kindWeft, "pipe.Fold(pipe.NewReader(f).LineChunkBytes(), newMap, addLines, merge): in the file's order",
			func() w12Map { return w12WeftFileFold(path, s.opts) }),
		resultImpl("weft ReduceBy", kindWeft, "pipe.ReduceBy(pipe.NewReader(f).Lines(), parse, merge): a call of parse and merge per line",
			func() map[string]w12Stat {
				r, done := w12OpenReader(path)
				defer done()
				return w12WeftByKey(r.Lines(), s.opts)
			}, w12SumVals(size)),
		mk("weft LineBytes", kindWeft, "pipe.ForEachInit(pipe.NewReader(f).LineBytes(), newMap, addLine), the maps merged: each line a []byte of a buffer the goroutine reuses",
			func() w12Map {
				r, done := w12OpenReader(path)
				defer done()
				return w12MergeMaps(pipe.ForEachInit(r.LineBytes(), newW12Map, w12AddBytes, s.opts...))
			}),
		resultImpl("weft ReduceBytesBy", kindWeft, "pipe.ReduceBytesBy(pipe.NewReader(f).LineBytes(), parse, merge): each line a []byte of a buffer the goroutine reuses, a station's name copied when first met",
			func() map[string]w12Stat {
				r, done := w12OpenReader(path)
				defer done()
				return pipe.ReduceBytesBy(r.LineBytes(), w12ByteRow, w12Stat.merge, s.opts...)
			}, w12SumVals(size)),
		mk("weft FoldBytesBy", kindWeft, "pipe.FoldBytesBy(pipe.NewReader(f).LineBytes(), parse, empty, add, merge): the statistics updated in place, over reused buffers",
			func() w12Map {
				r, done := w12OpenReader(path)
				defer done()
				return pipe.FoldBytesBy(r.LineBytes(), w12ParseBytes, w12Empty, (*w12Stat).add, w12MergeInto, s.opts...)
			}),
		mk("weft FoldBy", kindWeft, "pipe.FoldBy(pipe.NewReader(f).Lines(), parse, empty, add, merge): the statistics updated in place",
			func() w12Map {
				r, done := w12OpenReader(path)
				defer done()
				return w12WeftFoldBy(r.Lines(), s.opts)
			}),
	}
	runners := w12Runners()
	for _, st := range s.strategies {
		run, ok := runners[st.name]
		if !ok {
			impls = append(impls, skipped(st.name, st.kind, st.about, "W12f is written as one part per worker, each opening a reader of its own; this one starts a goroutine per element, takes blocks, or is a sort"))
			continue
		}
		impls = append(impls, mk(st.name, st.kind, strings.Replace(w12About[st.name], "a map each", "a reader (os.Open, bufio.Scanner) and a map each", 1), func() w12Map {
			parts := w12FileParts(path, e.workers)
			return w12Parts(e, run, len(parts), func(c int) w12Map { return w12FilePart(path, parts[c][0], parts[c][1]) })
		}))
	}
	return impls
}
