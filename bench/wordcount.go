package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	loparallel "github.com/samber/lo/parallel"
	"github.com/sourcegraph/conc/iter"
	"golang.org/x/sync/errgroup"

	"github.com/weftgo/weft/par/pipe"
)

// W9 word count: docs/DESIGN.md's text, and the count of its words, sequentially,
// with weft, and with the Go peers that can cut a text at line ends.

// w9Text returns docs/DESIGN.md's W9 text of at least n bytes: lines of
// 5 + next()%11 words, each "w" and min of three draws of next()%50000 in
// base 36, separated by spaces, each line ending in '\n'.
func w9Text(n int) string {
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		return x * 0x2545F4914F6CDD1D
	}
	b := make([]byte, 0, n+128)
	for len(b) < n {
		words := 5 + next()%11
		for i := range words {
			if i > 0 {
				b = append(b, ' ')
			}
			k := next() % 50000
			k = min(k, next()%50000)
			k = min(k, next()%50000)
			b = append(b, 'w')
			b = strconv.AppendUint(b, k, 36)
		}
		b = append(b, '\n')
	}
	return string(b)
}

// wordsChecksum is W9's result for a text of the given bytes: the words, the
// distinct words and the sum of their squared counts.
func wordsChecksum(bytes int) func(map[string]int) string {
	return func(counts map[string]int) string {
		var words int
		var squares uint64
		for _, c := range counts {
			words += c
			squares += uint64(c) * uint64(c)
		}
		return fmt.Sprintf("%d bytes, %d words, %d distinct, sum of squared counts %d", bytes, words, len(counts), squares)
	}
}

// w9Seq is W9's sequential baseline: bufio.Scanner's lines, each cut at its
// spaces, counted in a map. Indexing the map with string(word) looks a word
// up without a copy; a new word is copied once.
func w9Seq(text string) map[string]int {
	counts := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		countWords(counts, sc.Bytes())
	}
	return counts
}

// countWords counts the words of a line, separated by single spaces.
func countWords(counts map[string]int, line []byte) {
	for len(line) > 0 {
		i := 0
		for i < len(line) && line[i] != ' ' {
			i++
		}
		if i > 0 {
			counts[string(line[:i])]++
		}
		if i == len(line) {
			return
		}
		line = line[i+1:]
	}
}

// countText counts the words of text (lines of words separated by spaces)
// without copying the words: the keys are substrings of text.
func countText(counts map[string]int, text string) map[string]int {
	for len(text) > 0 {
		i := strings.IndexAny(text, " \n")
		if i < 0 {
			counts[text]++
			break
		}
		if i > 0 {
			counts[text[:i]]++
		}
		text = text[i+1:]
	}
	return counts
}

// lineChunks cuts text into k pieces of about equal length, each ending
// after a '\n' (the last one at the end of text), as a hand-written parallel
// word count must before it starts its goroutines.
func lineChunks(text string, k int) []string {
	var out []string
	lo := 0
	for c := 1; c <= k && lo < len(text); c++ {
		hi := len(text)
		if c < k {
			hi = max(lo, c*len(text)/k)
			if j := strings.IndexByte(text[hi:], '\n'); j >= 0 {
				hi += j + 1
			} else {
				hi = len(text)
			}
		}
		if hi > lo {
			out = append(out, text[lo:hi])
		}
		lo = hi
	}
	return out
}

// mergeAll merges maps of counts, each into the largest, on one goroutine.
func mergeAll(ms []map[string]int) map[string]int {
	if len(ms) == 0 {
		return map[string]int{}
	}
	big := 0
	for i, m := range ms {
		if len(m) > len(ms[big]) {
			big = i
		}
	}
	out := ms[big]
	for i, m := range ms {
		if i == big {
			continue
		}
		for k, n := range m {
			out[k] += n
		}
	}
	return out
}

func errgroupWords(e *env, text string) map[string]int {
	chunks := lineChunks(text, e.workers)
	maps := make([]map[string]int, len(chunks))
	var g errgroup.Group
	for i, c := range chunks {
		g.Go(func() error {
			maps[i] = countText(map[string]int{}, c)
			return nil
		})
	}
	_ = g.Wait() // the goroutines return no error
	return mergeAll(maps)
}

func concWords(e *env, text string) map[string]int {
	chunks := lineChunks(text, e.workers)
	maps := iter.Mapper[string, map[string]int]{MaxGoroutines: e.workers}.Map(chunks,
		func(c *string) map[string]int { return countText(map[string]int{}, *c) })
	return mergeAll(maps)
}

func loWords(e *env, text string) map[string]int {
	chunks := lineChunks(text, e.workers)
	return mergeAll(loparallel.Map(chunks, func(c string, _ int) map[string]int {
		return countText(map[string]int{}, c)
	}))
}

func word(w string) string { return w }

func (s *suite) wordCountImpls(n int) []impl {
	e := s.env
	text := w9Text(n)
	sum := wordsChecksum(len(text))
	mk := func(name string, k kind, about string, f func() map[string]int) impl {
		return resultImpl(name, k, about, f, sum)
	}
	impls := []impl{
		mk("sequential", kindSeq, "bufio.Scanner's lines, cut at spaces, counted in a map[string]int",
			func() map[string]int { return w9Seq(text) }),
		mk("weft", kindWeft, "pipe.CountBy(pipe.Fields(text), word): cut at spaces and line ends in parallel, a map per piece, merged in a tree",
			func() map[string]int { return pipe.CountBy(pipe.Fields(text), word, s.opts...) }),
	}
	for _, st := range s.strategies {
		var f func(*env, string) map[string]int
		switch st.name {
		case "errgroup":
			f = errgroupWords
		case "conc":
			f = concWords
		case "lo":
			f = loWords
		default:
			impls = append(impls, skipped(st.name, st.kind, st.about, "W9 is written for errgroup, conc and lo: one chunk per worker cut at a line end, a map each, merged"))
			continue
		}
		about := map[string]string{
			"errgroup": "one chunk per worker cut at a line end, a goroutine and a map each (errgroup.Group), merged into the largest",
			"conc":     "iter.Mapper over one chunk per worker cut at a line end, a map each, merged into the largest",
			"lo":       "lo/parallel.Map over one chunk per worker cut at a line end, a map each, merged into the largest",
		}[st.name]
		impls = append(impls, mk(st.name, st.kind, about, func() map[string]int { return f(e, text) }))
	}
	return impls
}
