package main

import (
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/weftgo/weft/par"
)

// W10 prefix sum: the inclusive scan of docs/DESIGN.md's n int64, in place on a
// buffer refilled from the input before every run (untimed), so that no run
// pays for allocating and faulting in 8n fresh bytes.

// w10Input returns W10's n numbers: xorshift64* (W6's generator and state)
// shifted right by 40.
func w10Input(n int) []int64 {
	s := make([]int64, n)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range s {
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		s[i] = int64((x * 0x2545F4914F6CDD1D) >> 40)
	}
	return s
}

// w10Data is W10's input and buffer, kept by prefixSumImpls for
// prefixSumNotes, so that a full-size run holds 800 MB and not twice that.
type w10Data struct{ input, buf []int64 }

// prefixChecksum is W10's result: the last prefix and the wrapping sum of all.
func prefixChecksum(p []int64) string {
	var sum uint64
	for _, x := range p {
		sum += uint64(x)
	}
	last := int64(0)
	if len(p) > 0 {
		last = p[len(p)-1]
	}
	return fmt.Sprintf("last %d, sum %d", last, sum)
}

// w10Seq is W10's sequential baseline: one pass, reading and writing each
// element once.
func w10Seq(s []int64) {
	var acc int64
	for i, x := range s {
		acc += x
		s[i] = acc
	}
}

func sumOf(s []int64) int64 {
	var t int64
	for _, x := range s {
		t += x
	}
	return t
}

func addFrom(s []int64, acc int64) {
	for i, x := range s {
		acc += x
		s[i] = acc
	}
}

// errgroupScan is the two-pass scan of Rayon's chunks written with errgroup:
// one chunk per worker; the chunks' sums in parallel (reduce), their offsets
// on the caller, then each chunk scanned from its offset in parallel: two
// reads and one write per element.
func errgroupScan(e *env, s []int64) {
	k := e.workers
	n := len(s)
	sums := make([]int64, k)
	var g errgroup.Group
	for c := range k - 1 { // the last chunk's sum is not needed
		g.Go(func() error { sums[c] = sumOf(s[c*n/k : (c+1)*n/k]); return nil })
	}
	_ = g.Wait() // the goroutines return no error
	var off int64
	for c := range k {
		o := off
		off += sums[c]
		g.Go(func() error { addFrom(s[c*n/k:(c+1)*n/k], o); return nil })
	}
	_ = g.Wait()
}

// errgroupScanFix is the other shape, scan-then-fix: each chunk scanned from
// zero in parallel, then every chunk but the first has its offset added in
// parallel: one read and two writes per element, and a read of the output.
func errgroupScanFix(e *env, s []int64) {
	k := e.workers
	n := len(s)
	ends := make([]int64, k)
	var g errgroup.Group
	for c := range k {
		g.Go(func() error {
			ch := s[c*n/k : (c+1)*n/k]
			addFrom(ch, 0)
			if len(ch) > 0 {
				ends[c] = ch[len(ch)-1]
			}
			return nil
		})
	}
	_ = g.Wait() // the goroutines return no error
	var off int64
	for c := range k {
		o := off
		off += ends[c]
		if c == 0 {
			continue
		}
		g.Go(func() error {
			ch := s[c*n/k : (c+1)*n/k]
			for i := range ch {
				ch[i] += o
			}
			return nil
		})
	}
	_ = g.Wait()
}

func (s *suite) prefixSumImpls(n int) []impl {
	e := s.env
	input := w10Input(n)
	buf := make([]int64, n)
	s.w10 = &w10Data{input: input, buf: buf} // for prefixSumNotes
	mk := func(name string, k kind, about string, f func([]int64)) impl {
		return impl{
			name: name, kind: k, about: about,
			setup: func() { copy(buf, input) },
			run:   func(int) { f(buf) },
			check: func() string { return prefixChecksum(buf) },
		}
	}
	impls := []impl{
		mk("sequential", kindSeq, "a plain loop, in place", w10Seq),
		mk("weft", kindWeft, "par.PrefixSumInPlace: reduce-then-scan over blocks fixed by n",
			func(b []int64) { par.PrefixSumInPlace(b, s.opts...) }),
	}
	for _, st := range s.strategies {
		if st.name != "errgroup" {
			impls = append(impls, skipped(st.name, st.kind, st.about, "W10 is written for errgroup alone, in both shapes of a two-pass scan"))
			continue
		}
		impls = append(impls,
			mk("errgroup", st.kind, "reduce-then-scan in one chunk per worker (the shape of Rayon's chunks)",
				func(b []int64) { errgroupScan(e, b) }),
			mk("errgroup-fix", st.kind, "scan-then-fix in one chunk per worker: scan each from 0, then add the offsets",
				func(b []int64) { errgroupScanFix(e, b) }))
	}
	return impls
}

// prefixSumNotes measures the bandwidth ceiling of W10: a copy of the n
// int64 (a read and a write of each, the least any scan moves) on one
// goroutine and with par.ForRange on the suite's pool, and reports every
// implementation's rate in the same bytes: 16n per run.
func (s *suite) prefixSumNotes(n int, m *measurer, w *wlReport) []string {
	if s.w10 == nil || len(s.w10.input) != n {
		s.w10 = &w10Data{input: w10Input(n), buf: make([]int64, n)}
	}
	src, dst := s.w10.input, s.w10.buf
	s.w10 = nil
	copy1 := func() { copy(dst, src) }
	copyP := func() {
		par.ForRange(n, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) }, s.opts...)
	}
	time1 := medianOf(m.reps, copy1)
	timeP := medianOf(m.reps, copyP)
	bytes := 16 * float64(n)
	rate := func(d time.Duration) string { return fmt.Sprintf("%.1f GB/s", bytes/d.Seconds()/1e9) }
	out := []string{
		fmt.Sprintf("bandwidth: a copy of the %s int64 (16 bytes an element: read and write) takes %s on 1 goroutine (%s) and %s with par.ForRange on %d (%s), median of %d",
			commas(n), fmtDur(time1), rate(time1), fmtDur(timeP), s.env.workers, rate(timeP), m.reps),
	}
	for _, r := range w.Results {
		if r.Skip != "" || r.Median == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("  %-14s %s of scan a second: %.2f of the parallel copy's rate", r.Impl, rate(r.Median), float64(timeP)/float64(r.Median)))
	}
	return out
}

// medianOf returns the median time of reps runs of f, after one untimed run.
func medianOf(reps int, f func()) time.Duration {
	f()
	var ts []time.Duration
	for range max(1, reps) {
		start := time.Now()
		f()
		ts = append(ts, time.Since(start))
	}
	return median(ts)
}
