package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// W12h: W12's rows kept as a histogram per station (docs/DESIGN.md): 50
// buckets of 40 tenths, bucket min(49, max(0, (t+1000)/40)), counts as
// uint32, updated in place by the hand-written programs. A value of 200
// bytes, where W12's is 32: the form that builds a value per row and merges
// two (ReduceBy) pays for it at every row, the form that updates the
// station's value in place (FoldBy) does not.

// w12Hist is W12h's value per station.
type w12Hist [50]uint32

// w12Bucket is the bucket of a temperature in tenths.
func w12Bucket(t int64) int { return int(min(49, max(0, (t+1000)/40))) }

type w12HistMap = map[string]*w12Hist

// w12HistLine folds one row into m, as the hand-written programs do.
func w12HistLine(m w12HistMap, line string) {
	name, t := w12Parse(line)
	h := m[name]
	if h == nil {
		h = new(w12Hist)
		m[name] = h
	}
	h[w12Bucket(t)]++
}

// w12HistText folds every row of text into m.
func w12HistText(m w12HistMap, text string) w12HistMap {
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			i = len(text)
		}
		w12HistLine(m, text[:i])
		text = text[min(i+1, len(text)):]
	}
	return m
}

func w12HistMerge(a, b *w12Hist) {
	for i := range a {
		a[i] += b[i]
	}
}

// w12HistMergeMaps merges the maps of the parts into the first.
func w12HistMergeMaps(ms []w12HistMap) w12HistMap {
	out := ms[0]
	for _, m := range ms[1:] {
		for k, h := range m {
			if o := out[k]; o != nil {
				w12HistMerge(o, h)
			} else {
				out[k] = h
			}
		}
	}
	return out
}

// w12HistSum is W12h's checksum: the bytes, the stations, and over the
// stations sorted by name, rank i from 1, the wrapping sum of i times the
// sum over the buckets b of (b+1) * count[b].
func w12HistSum(bytes int) func(w12HistMap) string {
	return func(m w12HistMap) string {
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		slices.Sort(names)
		var sum uint64
		for i, k := range names {
			var s uint64
			for b, c := range m[k] {
				s += uint64(b+1) * uint64(c)
			}
			sum += uint64(i+1) * s
		}
		return fmt.Sprintf("%d bytes, %d stations, checksum %d", bytes, len(names), sum)
	}
}

// w12HistRow is a row's station and bucket.
func w12HistRow(line string) (string, int) {
	name, t := w12Parse(line)
	return name, w12Bucket(t)
}

func w12HistNew() w12Hist          { return w12Hist{} }
func w12HistAdd(h *w12Hist, b int) { h[b]++ }

// w12HistFoldBy is W12h as the docs recommend it for a value that is not
// small: the station's histogram made once per map and updated in place.
func w12HistFoldBy(text string, opts []par.Option) w12HistMap {
	return pipe.FoldBy(pipe.Lines(text), w12HistRow, w12HistNew, w12HistAdd, w12HistMerge, opts...)
}

// w12HistReduceBy is W12h with ReduceBy: a histogram of one row built per
// line, and two histograms added at every line.
func w12HistReduceBy(text string, opts []par.Option) w12HistMap {
	m := pipe.ReduceBy(pipe.Lines(text), func(line string) (string, w12Hist) {
		name, t := w12Parse(line)
		var h w12Hist
		h[w12Bucket(t)] = 1
		return name, h
	}, func(a, b w12Hist) w12Hist {
		for i := range a {
			a[i] += b[i]
		}
		return a
	}, opts...)
	out := make(w12HistMap, len(m))
	for k, h := range m {
		out[k] = &h
	}
	return out
}

func (s *suite) stationHistImpls(n int) []impl {
	e := s.env
	text := w12Text(n)
	sum := w12HistSum(len(text))
	mk := func(name string, k kind, about string, f func() w12HistMap) impl {
		return resultImpl(name, k, about, f, sum)
	}
	impls := []impl{
		mk("sequential", kindSeq, "a plain loop over the rows, a map[string]*[50]uint32 updated in place",
			func() w12HistMap { return w12HistText(w12HistMap{}, text) }),
		mk("weft", kindWeft, "pipe.FoldBy(pipe.Lines(text), parse, newHist, inc, add): the station's histogram updated in place",
			func() w12HistMap { return w12HistFoldBy(text, s.opts) }),
		mk("weft ReduceBy", kindWeft, "pipe.ReduceBy(pipe.Lines(text), parse, add): a histogram of one row built per line and added",
			func() w12HistMap { return w12HistReduceBy(text, s.opts) }),
		mk("weft ForEachInit", kindWeft, "pipe.ForEachInit(pipe.LineChunks(text), newMap, addLines), the maps merged by the caller",
			func() w12HistMap {
				return w12HistMergeMaps(pipe.ForEachInit(pipe.LineChunks(text), func() w12HistMap { return w12HistMap{} },
					func(m w12HistMap, chunk string) { w12HistText(m, chunk) }, s.opts...))
			}),
	}
	runners := w12Runners()
	for _, st := range s.strategies {
		run, ok := runners[st.name]
		if !ok {
			impls = append(impls, skipped(st.name, st.kind, st.about, "W12h is written as one part per worker with a map each; this one starts a goroutine per element, takes blocks, or is a sort"))
			continue
		}
		impls = append(impls, mk(st.name, st.kind, w12About[st.name], func() w12HistMap {
			parts := lineChunks(text, e.workers)
			maps := make([]w12HistMap, len(parts))
			run(e, len(parts), func(c int) { maps[c] = w12HistText(w12HistMap{}, parts[c]) })
			return w12HistMergeMaps(maps)
		}))
	}
	return impls
}
