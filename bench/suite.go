package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/weftgo/weft/par"
)

// impl is one implementation of a workload.
type impl struct {
	name  string
	kind  kind
	about string
	skip  string // why it does not run here; empty if it runs
	// perElement: one goroutine, task or call per element (or per call of
	// fib): probed on a smaller input first, skipped if projected over the cap.
	perElement bool
	setup      func()          // untimed, before every run; may be nil
	run        func(calls int) // timed; calls > 1 only for per-call workloads
	check      func() string   // untimed, after every run: the checksum of what run made
}

// workload is one of docs/DESIGN.md's workloads.
type workload struct {
	id, name string
	def      string // the definition, for the report
	fullN    int    // the size of docs/DESIGN.md
	quickN   int    // the size of the quick default
	ref      string // the reference checksum at fullN, if docs/DESIGN.md gives one
	perCall  bool   // times are per call of a small input (W8)
	// size describes n for the report.
	size func(n int) string
	// units is the work at size n, to project a probe's time to n.
	units func(n int) float64
	// probe gives the smaller sizes, ascending, a per-element implementation
	// is first timed on; none if it is not worth it.
	probe func(n int) []int
	// build makes the implementations at size n.
	build func(s *suite, n int) []impl
	// ownInput: the workload makes its own input and does not need the
	// shared [0, n) of env.
	ownInput bool
	// notes, if set, measures what else the workload's report needs, after
	// its implementations ran, and returns it as lines of text.
	notes func(s *suite, n int, m *measurer, w *wlReport) []string
}

// suite is one run of the benchmark: the weft pool, the competitors chosen,
// and what they share.
type suite struct {
	env        *env
	pool       *par.Pool
	opts       []par.Option // OnPool(pool)
	strategies []*strategy
	w10        *w10Data // W10's input and buffer, from its build to its notes
	// cleanups run when the suite ends (W12f's file).
	cleanups []func()
	// sweepBudget is how long the grain sweep of one workload goes on past
	// sweepReps rounds (see sweepReps).
	sweepBudget time.Duration
}

// resultImpl makes an implementation whose run computes a value and whose
// checksum is derived from it; the value is dropped after the check so that
// a large result does not outlive its run.
func resultImpl[R any](name string, k kind, about string, f func() R, sum func(R) string) impl {
	var r R
	return impl{
		name: name, kind: k, about: about,
		run: func(calls int) {
			for range calls {
				r = f()
			}
		},
		check: func() string {
			c := sum(r)
			var zero R
			r = zero
			return c
		},
	}
}

func u64String(x uint64) string  { return strconv.FormatUint(x, 10) }
func f64String(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
func skipped(name string, k kind, about, why string) impl {
	return impl{name: name, kind: k, about: about, skip: why}
}

// forStrategies makes one implementation per competitor: f returns a maker of
// st's implementation and whether st can do op o at all; if not, the
// implementation is a skipped one that gives st.why[o] as the reason.
func (s *suite) forStrategies(o op, f func(st *strategy) (func() impl, bool)) []impl {
	var out []impl
	for _, st := range s.strategies {
		mk, ok := f(st)
		if !ok {
			why := st.why[o]
			if why == "" {
				why = "does not offer " + string(o)
			}
			out = append(out, skipped(st.name, st.kind, st.about, why))
			continue
		}
		im := mk()
		im.name, im.kind, im.about = st.name, st.kind, st.about
		out = append(out, im)
	}
	return out
}

// sumImpls are the implementations of a range reduction (W1..W3).
func (s *suite) sumImpls(n int, leaf func(lo, hi int) uint64, elem func(int) uint64) []impl {
	e := s.env
	impls := []impl{
		resultImpl("sequential", kindSeq, "a plain loop", func() uint64 { return leaf(0, n) }, u64String),
		resultImpl("weft", kindWeft, "par.ForRange, a local sum per piece added to an atomic",
			func() uint64 { return weftSum(n, leaf, s.opts) }, u64String),
	}
	return append(impls, s.forStrategies(opSum, func(st *strategy) (func() impl, bool) {
		return func() impl {
			im := resultImpl("", "", "", func() uint64 { return st.sumU(e, n, leaf, elem) }, u64String)
			im.perElement = st.perElement
			return im
		}, st.sumU != nil
	})...)
}

// weftSumImpl is W1..W3's weft entry with the given options: a fixed grain
// for the sweep, another pool for the scaling table.
func (s *suite) weftSumImpl(n int, leaf func(lo, hi int) uint64, opts []par.Option) impl {
	return resultImpl("weft", kindWeft, "", func() uint64 { return weftSum(n, leaf, opts) }, u64String)
}

func (s *suite) fibImpls(n int, cutoff bool) []impl {
	e := s.env
	c, about := 0, "par.Do, par.Join2 at every call"
	if cutoff {
		c, about = fibCutoff, fmt.Sprintf("par.Do, par.Join2 above n = %d, sequential fib below", fibCutoff)
	}
	impls := []impl{
		resultImpl("sequential", kindSeq, "plain recursion", func() uint64 { return fib(n) }, u64String),
		resultImpl("weft", kindWeft, about, func() uint64 { return weftFibDo(n, cutoff, s.opts) }, u64String),
	}
	if !cutoff {
		impls = append(impls, resultImpl("weft Forks", kindWeft, "par.Do, par.Join2 where Worker.Forks, direct calls elsewhere",
			func() uint64 {
				var r uint64
				par.Do(func(w *par.Worker) { r = weftFibForks(w, n) }, s.opts...)
				return r
			}, u64String))
	}
	return append(impls, s.forStrategies(opFib, func(st *strategy) (func() impl, bool) {
		return func() impl {
			im := resultImpl("", "", "", func() uint64 { return st.fib(e, n, c) }, u64String)
			im.perElement = st.fibPerCall && !cutoff
			return im
		}, st.fib != nil
	})...)
}

func (s *suite) primesImpls(n int) []impl {
	e := s.env
	in := e.idx[:n]
	impls := []impl{
		resultImpl("sequential", kindSeq, "a plain loop appending the primes",
			func() []int { return filterLeaf(in, 0, n, isPrime) }, primesChecksum),
		resultImpl("weft", kindWeft, "par.Filter (keeps order)",
			func() []int { return par.Filter(in, isPrime, s.opts...) }, primesChecksum),
	}
	return append(impls, s.forStrategies(opFilter, func(st *strategy) (func() impl, bool) {
		return func() impl {
			im := resultImpl("", "", "", func() []int { return st.filter(e, in, isPrime) }, primesChecksum)
			im.perElement = st.perElement
			return im
		}, st.filter != nil
	})...)
}

func (s *suite) sortImpls(n int) []impl {
	e := s.env
	input := w6Input(n)
	buf := make([]uint64, n)
	mk := func(name string, k kind, about string, f func([]uint64)) impl {
		return impl{
			name: name, kind: k, about: about,
			setup: func() { copy(buf, input) },
			run:   func(int) { f(buf) },
			check: func() string { return sortedChecksum(buf) },
		}
	}
	impls := []impl{
		mk("sequential", kindSeq, "slices.Sort", sortSeq),
		mk("weft", kindWeft, "par.Sort", func(b []uint64) { weftSort(b, s.opts) }),
	}
	return append(impls, s.forStrategies(opSort, func(st *strategy) (func() impl, bool) {
		return func() impl {
			return mk("", "", "", func(b []uint64) { st.sort(e, b) })
		}, st.sort != nil
	})...)
}

func (s *suite) itoaImpls(n int) []impl {
	e := s.env
	in := e.idx[:n]
	impls := []impl{
		resultImpl("sequential", kindSeq, "a plain loop", func() []string { return w7Seq(in) }, stringsChecksum),
		resultImpl("weft", kindWeft, "par.Map(xs, strconv.Itoa)",
			func() []string { return par.Map(in, strconv.Itoa, s.opts...) }, stringsChecksum),
	}
	return append(impls, s.forStrategies(opMap, func(st *strategy) (func() impl, bool) {
		return func() impl {
			im := resultImpl("", "", "", func() []string { return st.mapS(e, in, strconv.Itoa) }, stringsChecksum)
			im.perElement = st.perElement
			return im
		}, st.mapS != nil
	})...)
}

// smallSumImpls are W8's sum: n float64 holding 0, 1, ..., n-1, so that every
// order of summation gives the same exact result.
func (s *suite) smallSumImpls(n int) []impl {
	e := s.env
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	leaf := func(lo, hi int) float64 {
		var t float64
		for _, x := range xs[lo:hi] {
			t += x
		}
		return t
	}
	elem := func(i int) float64 { return xs[i] }
	impls := []impl{
		resultImpl("sequential", kindSeq, "a plain loop", func() float64 { return leaf(0, n) }, f64String),
		resultImpl("weft", kindWeft, "par.Sum", func() float64 { return par.Sum(xs, s.opts...) }, f64String),
	}
	return append(impls, s.forStrategies(opSum, func(st *strategy) (func() impl, bool) {
		return func() impl {
			return resultImpl("", "", "", func() float64 { return st.sumF(e, n, leaf, elem) }, f64String)
		}, st.sumF != nil
	})...)
}

// smallMapImpls are W8's map: x*2 over n int.
func (s *suite) smallMapImpls(n int) []impl {
	e := s.env
	in := iota(n)
	impls := []impl{
		resultImpl("sequential", kindSeq, "a plain loop into a new slice", func() []int {
			out := make([]int, len(in))
			for i, x := range in {
				out[i] = x * 2
			}
			return out
		}, intsChecksum),
		resultImpl("weft", kindWeft, "par.Map", func() []int { return par.Map(in, double, s.opts...) }, intsChecksum),
	}
	return append(impls, s.forStrategies(opMap, func(st *strategy) (func() impl, bool) {
		return func() impl {
			return resultImpl("", "", "", func() []int { return st.mapI(e, in, double) }, intsChecksum)
		}, st.mapI != nil
	})...)
}

func count(n int) string { return "n = " + commas(n) }

func rows(n int) string { return commas(n) + " rows" }

func linear(n int) float64 { return float64(n) }

// fractions are the probe sizes of a loop: n/256, whose time alone rules out
// an implementation hundreds of times over the cap at little cost, then n/16
// for a closer projection.
func fractions(n int) []int { return []int{n / 256, n / 16} }

// allWorkloads are docs/DESIGN.md's workloads in order. W4 and W8 have two parts
// each, measured and reported apart.
func allWorkloads() []*workload {
	return append([]*workload{
		{
			id: "W1", name: "sum", def: "sum of x*x for x in [0, n)",
			fullN: 50_000_000, quickN: 10_000_000, ref: "13917298230507451072",
			size: count, units: linear, probe: fractions,
			build: func(s *suite, n int) []impl { return s.sumImpls(n, w1Leaf, w1Elem) },
		},
		{
			id: "W2", name: "varmap", def: "sum over x in [0, n) of acc: acc = x, then x%100+1 times acc = acc*31 + 7",
			fullN: 2_000_000, quickN: 400_000, ref: "11591267410475940352",
			size: count, units: linear, probe: fractions,
			build: func(s *suite, n int) []impl { return s.sumImpls(n, w2Leaf, w2Elem) },
		},
		{
			id: "W3", name: "skewed", def: "W2's loop from acc = i, 1 + i*i*4000/(n*n) times, for i in [0, n); cost climbs to the end",
			fullN: 100_000, quickN: 20_000, ref: "3246865918622852908",
			size: count, units: linear, probe: fractions,
			build: func(s *suite, n int) []impl {
				return s.sumImpls(n, w3Leaf(n), func(i int) uint64 { return w3Elem(i, n) })
			},
		},
		{
			id: "W4", name: "fib", def: "fib(n), a fork-join at every call: the cost of one join",
			fullN: 32, quickN: 24, ref: "2178309",
			size:  func(n int) string { return fmt.Sprintf("fib(%d)", n) },
			units: fibCalls, probe: func(n int) []int { return []int{n - 12, n - 6} },
			build: func(s *suite, n int) []impl { return s.fibImpls(n, false) },
		},
		{
			id: "W4c", name: "fib cutoff", def: fmt.Sprintf("fib(n), forking only above n = %d", fibCutoff),
			fullN: 32, quickN: 30, ref: "2178309",
			size:  func(n int) string { return fmt.Sprintf("fib(%d)", n) },
			units: fibCalls, probe: func(n int) []int { return []int{n - 12, n - 6} },
			build: func(s *suite, n int) []impl { return s.fibImpls(n, true) },
		},
		{
			id: "W14", name: "tree sum", def: "the sum over a balanced tree of 2^n-1 heap nodes, a Join2 at every node",
			fullN: 22, quickN: 20, ref: "4194303",
			size: treeSize, units: func(n int) float64 { return float64(int(1)<<n - 1) },
			probe: func(int) []int { return nil }, ownInput: true,
			build: func(s *suite, n int) []impl { return s.treeImpls(n) },
		},
		{
			id: "W5", name: "primes", def: "the primes below n by trial division, collected in order",
			fullN: 3_000_000, quickN: 600_000, ref: "216816 primes, sum 312471072265",
			size: count, units: linear, probe: fractions,
			build: func(s *suite, n int) []impl { return s.primesImpls(n) },
		},
		{
			id: "W6", name: "sort", def: "n uint64 from xorshift64*, sorted ascending",
			fullN: 10_000_000, quickN: 1_000_000,
			size: count, units: func(n int) float64 { return float64(n) * float64(max(1, bitsLen(n))) },
			probe: func(int) []int { return nil },
			build: func(s *suite, n int) []impl { return s.sortImpls(n) },
		},
		{
			id: "W7", name: "map-alloc", def: "strconv.Itoa over [0, n) into an ordered []string",
			fullN: 1_000_000, quickN: 250_000, ref: "5888890 bytes",
			size: count, units: linear, probe: fractions,
			build: func(s *suite, n int) []impl { return s.itoaImpls(n) },
		},
		{
			id: "W8s", name: "small sum", def: "Sum of n float64 per call: the cost of calling on an input too small to split",
			fullN: 2_000, quickN: 2_000, perCall: true,
			size: count, units: linear, probe: func(int) []int { return nil },
			build: func(s *suite, n int) []impl { return s.smallSumImpls(n) },
		},
		{
			id: "W8m", name: "small map", def: "Map of x*2 over n int per call",
			fullN: 1_000, quickN: 1_000, perCall: true,
			size: count, units: linear, probe: func(int) []int { return nil },
			build: func(s *suite, n int) []impl { return s.smallMapImpls(n) },
		},
		{
			id: "W9", name: "word count", def: "the words of docs/DESIGN.md's generated text of n bytes, counted per word",
			fullN: 50_000_000, quickN: 10_000_000, ref: "50000012 bytes, 10157933 words, 48180 distinct, sum of squared counts 3723960109",
			size:  func(n int) string { return commas(n) + " bytes" },
			units: linear, probe: func(int) []int { return nil }, ownInput: true,
			build: func(s *suite, n int) []impl { return s.wordCountImpls(n) },
		},
		{
			id: "W10", name: "prefix sum", def: "the inclusive scan of n int64 (xorshift64* >> 40), in place",
			fullN: 50_000_000, quickN: 10_000_000, ref: "last 419410896261424, sum 7616162781765827082",
			size: count, units: linear, probe: func(int) []int { return nil }, ownInput: true,
			build: func(s *suite, n int) []impl { return s.prefixSumImpls(n) },
			notes: func(s *suite, n int, m *measurer, w *wlReport) []string { return s.prefixSumNotes(n, m, w) },
		},
		{
			id: "W12", name: "stations", def: "min, mean and max per station over n rows \"name;-12.3\" of 413 stations, in memory",
			fullN: 10_000_000, quickN: 2_000_000, ref: "143373363 bytes, 413 stations, checksum 512416728",
			size: rows, units: linear, probe: func(int) []int { return nil }, ownInput: true,
			build: func(s *suite, n int) []impl { return s.stationImpls(n) },
		},
		{
			id: "W12f", name: "stations file", def: "W12 from a file on disk, read inside the call",
			fullN: 10_000_000, quickN: 2_000_000, ref: "143373363 bytes, 413 stations, checksum 512416728",
			size: rows, units: linear, probe: func(int) []int { return nil }, ownInput: true,
			build: func(s *suite, n int) []impl { return s.stationFileImpls(n) },
		},
		{
			id: "W12h", name: "stations histogram", def: "W12's rows kept as a 50-bucket histogram per station (uint32 counts), in memory",
			fullN: 10_000_000, quickN: 2_000_000,
			size: rows, units: linear, probe: func(int) []int { return nil }, ownInput: true,
			build: func(s *suite, n int) []impl { return s.stationHistImpls(n) },
		},
	}, seqWorkloads()...)
}

func bitsLen(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}

// commas writes n with thousands separators.
func commas(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + commas(-n)
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
