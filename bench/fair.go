package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

// The fairness measurement (-fair): while one goroutine runs a large call that
// keeps every worker busy, small calls made from other goroutines should take
// about what they take on an idle pool, not wait for the large call. It times
// each small call from several goroutines at once, first on an idle pool, then
// during large calls, and prints the latency distributions side by side.
//
// A plain loop without weft is timed the same way as a control: the large
// call and the small callers together want more goroutines than there are
// cores, so the Go scheduler's time slices delay every small call now and
// then whatever weft does; what the control shows is that share.
//
// The report also counts the small calls whose goroutine ran pieces of the
// large call (see latencies.watch): a goroutine that makes a call works on
// it, and while it waits for a stolen piece of its own it may take a piece of
// another call, which it cannot leave before that piece ends
// (TestSmallCallDoesNotRunLargeCallTasks in par/fairness_test.go).

// fairConfig is what -fair runs.
type fairConfig struct {
	callers int           // goroutines making small calls
	big     time.Duration // how long the large call should take alone
	rounds  int           // large calls timed per kind of small call
	n       int           // elements of a small call
	kinds   []string      // kinds of small call to run; nil: all
	// bigN and bigK fix the large call's size instead of calibrating it.
	bigN, bigK int
}

func defaultFairConfig() fairConfig {
	return fairConfig{callers: 4, big: time.Second, rounds: 3, n: 10_000}
}

// smallKind is one kind of small call: run returns its result, which must be
// want.
type smallKind struct {
	name  string
	about string
	run   func(xs []int64) int64
	want  int64
}

func loopSum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

func smallKinds(xs []int64) []smallKind {
	const w2n = 2_000 // W2's first 2,000 elements: about 100 µs alone
	sum := loopSum(xs)
	return []smallKind{
		{"loop", "plain loop, no weft (the control)", loopSum, sum},
		{"sum", "par.Sum", func(xs []int64) int64 { return par.Sum(xs) }, sum},
		{"sum-grain", "par.Sum, WithGrain(1024): always on the pool", func(xs []int64) int64 {
			return par.Sum(xs, par.WithGrain(1024))
		}, sum},
		{"w2-loop", fmt.Sprintf("plain loop over W2's first %d elements, no weft (the control)", w2n), func([]int64) int64 {
			return int64(w2Leaf(0, w2n))
		}, int64(w2Leaf(0, w2n))},
		{"w2", fmt.Sprintf("par.ReduceRange of W2's first %d elements", w2n), func([]int64) int64 {
			return int64(par.ReduceRange(w2n, 0, w2Leaf, addU64))
		}, int64(w2Leaf(0, w2n))},
	}
}

// fairRow is the latency distribution of one kind of small call on an idle
// or a busy pool.
type fairRow struct {
	Kind       string        `json:"kind"`
	About      string        `json:"about"`
	Busy       bool          `json:"busy"`
	Calls      int           `json:"calls"`
	Mismatches int           `json:"mismatches"`
	P50        time.Duration `json:"p50_ns"`
	P90        time.Duration `json:"p90_ns"`
	P99        time.Duration `json:"p99_ns"`
	P999       time.Duration `json:"p999_ns"`
	Max        time.Duration `json:"max_ns"`
	// Big is the median length of the large calls it ran beside (busy rows).
	Big time.Duration `json:"big_ns,omitempty"`
	// Hijacked counts the small calls during which their goroutine ran
	// pieces of the large call, for Foreign in all, HijackedMax the longest
	// such call.
	Hijacked    int           `json:"hijacked"`
	Foreign     time.Duration `json:"foreign_ns"`
	HijackedMax time.Duration `json:"hijacked_max_ns"`
}

type fairReport struct {
	Callers    int           `json:"callers"`
	N          int           `json:"n"`
	GOMAXPROCS int           `json:"gomaxprocs"`
	Workers    int           `json:"workers"`
	BigN       int           `json:"big_n"`
	BigK       int           `json:"big_k"`
	BigAlone   time.Duration `json:"big_alone_ns"`
	Rows       []fairRow     `json:"rows"`
	BigErrors  int           `json:"big_mismatches"`
	Limit      time.Duration `json:"limit_ns"`
	// Load is the machine's one-minute load average at the start and the
	// end (Linux): other processes on the cores delay the small calls too.
	Load [2]float64 `json:"load_average,omitempty"`
}

// fairMinWindow is the shortest time over which small calls are timed: a
// large call shorter than that is repeated.
const fairMinWindow = 50 * time.Millisecond

// fairLimit is the p99 that a small par.Sum on a busy pool should stay under.
const fairLimit = 3 * time.Millisecond

// skewedLeaf is W3's element with its steps scaled by k instead of 4000:
// element i of n takes 1 + i*i*k/(n*n) steps, so the cost climbs towards the
// end of the range.
func skewedLeaf(n, k int) func(lo, hi int) uint64 {
	return func(lo, hi int) uint64 {
		var s uint64
		m := uint64(n)
		for i := lo; i < hi; i++ {
			u := uint64(i)
			acc := u
			for t := 1 + (u*u*uint64(k))/(m*m); t > 0; t-- {
				acc = acc*31 + 7
			}
			s += acc
		}
		return s
	}
}

func addU64(a, b uint64) uint64 { return a + b }

// calibrate picks the large call's k so that it takes about cfg.big alone on
// the default pool, and returns k, the sequential result and the call's
// median length alone.
func (cfg *fairConfig) calibrate() (n, k int, want uint64, alone time.Duration) {
	n = 100_000
	if cfg.bigN > 0 {
		n = cfg.bigN
	}
	k = cfg.bigK
	if k == 0 {
		k = 4000
		t0 := time.Now()
		par.ReduceRange(n, 0, skewedLeaf(n, k), addU64)
		d := time.Since(t0)
		k = max(1, int(float64(k)*float64(cfg.big)/float64(max(d, time.Microsecond))))
	}
	want = skewedLeaf(n, k)(0, n)
	var ds []time.Duration
	for range 3 {
		t0 := time.Now()
		par.ReduceRange(n, 0, skewedLeaf(n, k), addU64)
		ds = append(ds, time.Since(t0))
	}
	slices.Sort(ds)
	return n, k, want, ds[1]
}

// runFair measures every kind of small call on an idle pool and beside the
// large call, and returns the report.
func runFair(cfg fairConfig, prog *progress) *fairReport {
	xs := make([]int64, cfg.n)
	for i := range xs {
		xs[i] = int64(i)*7 - 3
	}
	rep := &fairReport{Callers: cfg.callers, N: cfg.n, GOMAXPROCS: runtime.GOMAXPROCS(0),
		Workers: par.DefaultWorkers(), Limit: fairLimit}
	rep.Load[0] = loadAverage()
	prog.show("fair: calibrating the large call")
	n, k, want, alone := cfg.calibrate()
	rep.BigN, rep.BigK, rep.BigAlone = n, k, alone
	bigLeaf := skewedLeaf(n, k)
	for _, sk := range smallKinds(xs) {
		if cfg.kinds != nil && !slices.Contains(cfg.kinds, sk.name) {
			continue
		}
		prog.show("fair: %s on an idle pool", sk.name)
		idle := newLatencies(cfg.callers)
		idle.run(sk, xs, func() { time.Sleep(max(alone, fairMinWindow)) })
		rep.Rows = append(rep.Rows, idle.row(sk, false))

		busy := newLatencies(cfg.callers)
		leaf := busy.watch(bigLeaf)
		var bigs []time.Duration
		for r := range cfg.rounds {
			prog.show("fair: %s beside the large call (%d/%d)", sk.name, r+1, cfg.rounds)
			busy.run(sk, xs, func() {
				for start := time.Now(); ; {
					t0 := time.Now()
					got := par.ReduceRange(n, 0, leaf, addU64)
					bigs = append(bigs, time.Since(t0))
					if got != want {
						rep.BigErrors++
					}
					if time.Since(start) >= fairMinWindow {
						break
					}
				}
			})
		}
		row := busy.row(sk, true)
		slices.Sort(bigs)
		row.Big = bigs[len(bigs)/2]
		rep.Rows = append(rep.Rows, row)
	}
	rep.Load[1] = loadAverage()
	return rep
}

// latencies collects the times of small calls made by several goroutines.
type latencies struct {
	per        [][]time.Duration // one slice per goroutine
	mismatches atomic.Int64

	// What the small callers' goroutines spent in the large call's leaves,
	// by goroutine id: a leaf looks itself up, since a library call gives no
	// other way to tell which goroutine runs it.
	mu      sync.Mutex
	foreign map[uint64]*atomic.Int64
	// hijacked are the calls during which foreign grew, and by how much.
	hijacked    int
	foreignSum  time.Duration
	hijackedMax time.Duration
}

func newLatencies(callers int) *latencies {
	return &latencies{per: make([][]time.Duration, callers), foreign: map[uint64]*atomic.Int64{}}
}

// goid returns the id of the calling goroutine, from the first line of its
// stack ("goroutine 18 [running]:"). About a microsecond: for the large
// call's leaves only, which are far longer.
func goid() uint64 {
	var b [64]byte
	f := bytes.Fields(b[:runtime.Stack(b[:], false)])
	if len(f) < 2 {
		return 0
	}
	id, _ := strconv.ParseUint(string(f[1]), 10, 64)
	return id
}

// watch wraps a leaf of the large call so that the time it runs on a small
// caller's goroutine is counted for that goroutine.
func (l *latencies) watch(leaf func(lo, hi int) uint64) func(lo, hi int) uint64 {
	return func(lo, hi int) uint64 {
		l.mu.Lock()
		c := l.foreign[goid()]
		l.mu.Unlock()
		if c == nil {
			return leaf(lo, hi)
		}
		t0 := time.Now()
		r := leaf(lo, hi)
		c.Add(int64(time.Since(t0)))
		return r
	}
}

// run starts the small callers, calls during (the large call, or a sleep of
// the same length on an idle pool), and stops them when it returns. Only calls
// that start while during runs are timed.
func (l *latencies) run(sk smallKind, xs []int64, during func()) {
	var on, stop atomic.Bool
	var started, wg sync.WaitGroup
	started.Add(len(l.per))
	wg.Add(len(l.per))
	for g := range l.per {
		go func() {
			defer wg.Done()
			lat := l.per[g]
			foreign := new(atomic.Int64)
			l.mu.Lock()
			l.foreign[goid()] = foreign
			l.mu.Unlock()
			var hijacked int
			var foreignSum, hijackedMax time.Duration
			started.Done()
			for !stop.Load() {
				timed := on.Load()
				f0 := foreign.Load()
				t0 := time.Now()
				got := sk.run(xs)
				d := time.Since(t0)
				if got != sk.want {
					l.mismatches.Add(1)
				}
				if !timed {
					continue
				}
				lat = append(lat, d)
				if f := foreign.Load() - f0; f > 0 {
					hijacked++
					foreignSum += time.Duration(f)
					hijackedMax = max(hijackedMax, d)
				}
			}
			l.mu.Lock()
			l.per[g] = lat
			l.hijacked += hijacked
			l.foreignSum += foreignSum
			l.hijackedMax = max(l.hijackedMax, hijackedMax)
			l.mu.Unlock()
		}()
	}
	started.Wait()
	on.Store(true)
	during()
	on.Store(false)
	stop.Store(true)
	wg.Wait()
}

func (l *latencies) row(sk smallKind, busy bool) fairRow {
	var all []time.Duration
	for _, p := range l.per {
		all = append(all, p...)
	}
	slices.Sort(all)
	r := fairRow{Kind: sk.name, About: sk.about, Busy: busy, Calls: len(all), Mismatches: int(l.mismatches.Load()),
		Hijacked: l.hijacked, Foreign: l.foreignSum, HijackedMax: l.hijackedMax}
	if len(all) == 0 {
		return r
	}
	q := func(p float64) time.Duration {
		i := int(p*float64(len(all))+0.999999) - 1
		return all[min(max(i, 0), len(all)-1)]
	}
	r.P50, r.P90, r.P99, r.P999, r.Max = q(0.50), q(0.90), q(0.99), q(0.999), all[len(all)-1]
	return r
}

// failed reports whether the measurement found wrong results.
func (r *fairReport) failed() bool {
	if r.BigErrors > 0 {
		return true
	}
	for _, row := range r.Rows {
		if row.Mismatches > 0 {
			return true
		}
	}
	return false
}

func (r *fairReport) write(w io.Writer) {
	fmt.Fprintf(w, "Fairness: small calls over %d ints from %d goroutines, on an idle default pool and\n", r.N, r.Callers)
	fmt.Fprintf(w, "while another goroutine runs a large call (par.ReduceRange of W3-shaped work over %d\n", r.BigN)
	fmt.Fprintf(w, "elements, the last one %d steps; %s alone). GOMAXPROCS %d, default pool of %d workers;\n",
		r.BigK+1, fmtDur(r.BigAlone), r.GOMAXPROCS, r.Workers)
	fmt.Fprintf(w, "load average %.2f at the start, %.2f at the end.\n\n", r.Load[0], r.Load[1])
	fmt.Fprintf(w, "%-10s %-5s %9s %9s %9s %9s %9s %9s %10s\n", "call", "pool", "calls", "p50", "p90", "p99", "p99.9", "max", "large call")
	for _, row := range r.Rows {
		pool, big := "idle", ""
		if row.Busy {
			pool, big = "busy", fmtDur(row.Big)
		}
		fmt.Fprintf(w, "%-10s %-5s %9d %9s %9s %9s %9s %9s %10s\n", row.Kind, pool, row.Calls,
			fmtDur(row.P50), fmtDur(row.P90), fmtDur(row.P99), fmtDur(row.P999), fmtDur(row.Max), big)
	}
	fmt.Fprintln(w)
	seen := map[string]bool{}
	for _, row := range r.Rows {
		if !seen[row.Kind] {
			seen[row.Kind] = true
			fmt.Fprintf(w, "  %-10s %s\n", row.Kind, row.About)
		}
	}
	fmt.Fprintln(w)
	for _, row := range r.Rows {
		if row.Busy && row.Hijacked > 0 {
			fmt.Fprintf(w, "%s: %d calls (%.3f%%) ran pieces of the large call on their goroutine, %s in all; the longest took %s\n",
				row.Kind, row.Hijacked, 100*float64(row.Hijacked)/float64(max(1, row.Calls)), fmtDur(row.Foreign), fmtDur(row.HijackedMax))
		}
	}
	for _, row := range r.Rows {
		if row.Kind == "sum" && row.Busy {
			verdict := "yes"
			if row.P99 >= r.Limit {
				verdict = "NO"
			}
			fmt.Fprintf(w, "p99 of par.Sum over %d ints beside the large call: %s; under %s: %s\n",
				r.N, fmtDur(row.P99), fmtDur(r.Limit), verdict)
		}
	}
	bad := 0
	for _, row := range r.Rows {
		bad += row.Mismatches
	}
	if bad > 0 || r.BigErrors > 0 {
		fmt.Fprintf(w, "WRONG RESULTS: %d small calls, %d large calls\n", bad, r.BigErrors)
	}
}

// runFairCmd is `go run ./bench -fair`: it prints the report, or with -json
// writes it as JSON, and returns 1 if a call gave a wrong result.
func runFairCmd(f *flags) (int, error) {
	prog := newProgress(f.progress)
	rep := runFair(defaultFairConfig(), prog)
	prog.clear()
	return finishMode(f, rep)
}

// modeReport is the report of a mode that replaces the suite (-soak, -fair).
type modeReport interface {
	write(w io.Writer)
	failed() bool
}

// finishMode prints rep, or writes it as JSON with -json ("-": to standard
// output only), and returns the exit code: 1 if rep failed.
func finishMode(f *flags, rep modeReport) (int, error) {
	if f.jsonPath != "-" {
		rep.write(os.Stdout)
	}
	if f.jsonPath != "" {
		if err := writeJSONValue(f.jsonPath, rep); err != nil {
			return 0, err
		}
	}
	if rep.failed() {
		return 1, nil
	}
	return 0, nil
}
