package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

// The soak (-soak DURATION): many goroutines call the library at once, each
// looping over a random mix of calls (see soak_ops.go), and every result is
// checked against a sequential computation. It reports the throughput per
// interval, the goroutines, the live heap and the resident set over time, and
// compares the quiescent state before and after: after the same mix has run
// for minutes, a library that leaks nothing is back where it started.

// soakConfig is what -soak runs.
type soakConfig struct {
	duration   time.Duration
	warmup     time.Duration // the mix runs this long before the baseline is taken
	goroutines int
	interval   time.Duration // one row of the table per interval
	maxN       int           // the largest input of a call
	rotate     time.Duration // how often the shared private pool is replaced
	seed       uint64
	// corrupt makes the oracle of Sum wrong, so that a test can see the
	// checks count mismatches.
	corrupt bool
}

func defaultSoakConfig(d time.Duration) soakConfig {
	return soakConfig{
		duration:   d,
		warmup:     min(d/10, 10*time.Second),
		goroutines: 24,
		interval:   max(d/20, 50*time.Millisecond),
		maxN:       1_000_000,
		rotate:     max(d/100, 50*time.Millisecond),
		seed:       uint64(time.Now().UnixNano()),
	}
}

// soak is the state shared by the goroutines of one run.
type soak struct {
	cfg      soakConfig
	ops      []soakOp
	counts   []opCount // by op
	calls    atomic.Int64
	bad      atomic.Int64 // mismatches
	panics   atomic.Int64 // injected panics that reached their caller as they should
	errMu    sync.Mutex
	firstErr []string // the first few mismatches

	// priv is the private pool that the "private" op shares; a rotator
	// replaces it every cfg.rotate. Callers hold mu for reading.
	privMu    sync.RWMutex
	priv      *par.Pool
	privStats par.WorkerStats // summed over the private pools closed
	privPools atomic.Int64    // private pools started, shared and per-call
}

type opCount struct {
	calls, bad atomic.Int64
	nanos      atomic.Int64
	_          [40]byte
}

// soakInterval is one row of the throughput table.
type soakInterval struct {
	End        time.Duration `json:"end_ns"` // since the start of the measured run
	Calls      int64         `json:"calls"`
	Rate       float64       `json:"calls_per_s"`
	Mismatches int64         `json:"mismatches"`
	Panics     int64         `json:"panics"`
	Goroutines int           `json:"goroutines"`
	HeapLive   uint64        `json:"heap_live_bytes"` // as of the last GC
	RSS        uint64        `json:"rss_bytes"`
	GCs        uint64        `json:"gcs"`
}

// soakMem is the quiescent state: no call in progress, after a GC.
type soakMem struct {
	Goroutines int    `json:"goroutines"`
	HeapLive   uint64 `json:"heap_live_bytes"`
	HeapInuse  uint64 `json:"heap_inuse_bytes"`
	RSS        uint64 `json:"rss_bytes"`
}

type soakOpRow struct {
	Name       string        `json:"name"`
	Calls      int64         `json:"calls"`
	Mismatches int64         `json:"mismatches"`
	Mean       time.Duration `json:"mean_ns"`
}

type soakReport struct {
	Duration   time.Duration  `json:"duration_ns"`
	Elapsed    time.Duration  `json:"elapsed_ns"`
	Goroutines int            `json:"goroutines"`
	GOMAXPROCS int            `json:"gomaxprocs"`
	Workers    int            `json:"workers"`
	Seed       uint64         `json:"seed"`
	Intervals  []soakInterval `json:"intervals"`
	Ops        []soakOpRow    `json:"ops"`
	Calls      int64          `json:"calls"`
	Mismatches int64          `json:"mismatches"`
	Panics     int64          `json:"panics"`
	Errors     []string       `json:"errors"` // the first mismatches
	Start      soakMem        `json:"start"`
	End        soakMem        `json:"end"`
	// Default is the default pool's counters over the measured run.
	Default par.Stats `json:"default_pool"`
	// Private sums the counters of the private pools, closed by the end.
	Private      par.WorkerStats `json:"private_pools"`
	PrivatePools int64           `json:"private_pools_started"`
	// Flags name what grew between Start and End; Leak the ones that make
	// the run fail.
	Flags []string `json:"flags"`
	Leak  bool     `json:"leak"`
	// Load is the machine's one-minute load average at the start and the
	// end (Linux): other processes on the cores lower the throughput.
	Load [2]float64 `json:"load_average,omitempty"`
}

func (r *soakReport) failed() bool { return r.Mismatches > 0 || r.Leak }

// runSoak runs the mix for the warm-up, takes the baseline, runs it for the
// configured duration, and takes the final state.
func runSoak(cfg soakConfig, prog *progress) *soakReport {
	s := &soak{cfg: cfg, ops: soakOps()}
	s.counts = make([]opCount, len(s.ops))
	rep := &soakReport{Duration: cfg.duration, Goroutines: cfg.goroutines,
		GOMAXPROCS: runtime.GOMAXPROCS(0), Workers: par.DefaultWorkers(), Seed: cfg.seed}

	prog.show("soak: warming up")
	s.phase(cfg.warmup, cfg.seed, nil)
	// The warm-up's counts are not the run's.
	s.calls.Store(0)
	s.bad.Store(0)
	s.panics.Store(0)
	s.counts = make([]opCount, len(s.ops))
	s.privStats = par.WorkerStats{}
	s.privPools.Store(0)
	s.errMu.Lock()
	warmErrs := s.firstErr
	s.firstErr = nil
	s.errMu.Unlock()

	rep.Start = quiescent(0)
	rep.Load[0] = loadAverage()
	before := par.DefaultStats()
	start := time.Now()
	s.phase(cfg.duration, cfg.seed+1, func(stop <-chan struct{}) {
		t := time.NewTicker(cfg.interval)
		defer t.Stop()
		var last int64
		lastT := start
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				c := s.calls.Load()
				row := sample(now.Sub(start))
				row.Calls = c - last
				row.Rate = float64(c-last) / now.Sub(lastT).Seconds()
				row.Mismatches, row.Panics = s.bad.Load(), s.panics.Load()
				rep.Intervals = append(rep.Intervals, row)
				last, lastT = c, now
				prog.show("soak: %s of %s, %.0f calls/s, %d mismatches", fmtDur(row.End), fmtDur(cfg.duration), row.Rate, row.Mismatches)
			}
		}
	})
	rep.Elapsed = time.Since(start)
	rep.Load[1] = loadAverage()
	rep.End = quiescent(rep.Start.Goroutines)
	rep.Default = statsDelta(par.DefaultStats(), before)

	rep.Calls, rep.Mismatches, rep.Panics = s.calls.Load(), s.bad.Load(), s.panics.Load()
	rep.Private, rep.PrivatePools = s.privStats, s.privPools.Load()
	for i, op := range s.ops {
		c := &s.counts[i]
		row := soakOpRow{Name: op.name, Calls: c.calls.Load(), Mismatches: c.bad.Load()}
		if row.Calls > 0 {
			row.Mean = time.Duration(c.nanos.Load() / row.Calls)
		}
		rep.Ops = append(rep.Ops, row)
	}
	rep.Errors = s.firstErr
	if len(warmErrs) > 0 {
		// A mismatch in the warm-up is a mismatch all the same.
		rep.Mismatches += int64(len(warmErrs))
		for _, e := range warmErrs {
			rep.Errors = append(rep.Errors, "warm-up: "+e)
		}
	}
	rep.judge()
	return rep
}

// phase runs the mix on cfg.goroutines goroutines, and the rotator of the
// shared private pool, for d; monitor, if not nil, runs beside them until they
// stop. It returns once every goroutine it started has returned and the
// private pool is closed.
func (s *soak) phase(d time.Duration, seed uint64, monitor func(stop <-chan struct{})) {
	s.priv = par.NewPool(par.Workers(2))
	s.privPools.Add(1)
	deadline := time.Now().Add(d)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range s.cfg.goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := newSoakG(s, seed*0x9E3779B97F4A7C15+uint64(g)+1, g)
			for time.Now().Before(deadline) {
				st.step()
			}
		}()
	}
	var side sync.WaitGroup
	side.Add(1)
	go func() { // the rotator
		defer side.Done()
		t := time.NewTicker(s.cfg.rotate)
		defer t.Stop()
		n := 1
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				n = n%3 + 1
				s.privMu.Lock()
				s.closePriv()
				s.priv = par.NewPool(par.Workers(n))
				s.privPools.Add(1)
				s.privMu.Unlock()
			}
		}
	}()
	if monitor != nil {
		side.Add(1)
		go func() {
			defer side.Done()
			monitor(stop)
		}()
	}
	wg.Wait()
	close(stop)
	side.Wait()
	s.privMu.Lock()
	s.closePriv()
	s.privMu.Unlock()
}

// closePriv closes the shared private pool and adds up its counters, which
// are exact once its workers have exited. Under privMu.
func (s *soak) closePriv() {
	s.priv.Close()
	s.addPrivStats(s.priv.Stats())
}

func (s *soak) addPrivStats(st par.Stats) {
	t := st.Total()
	s.errMu.Lock()
	p := &s.privStats
	p.Tasks += t.Tasks
	p.Inline += t.Inline
	p.StealTries += t.StealTries
	p.Steals += t.Steals
	p.Injected += t.Injected
	p.Parks += t.Parks
	p.Busy += t.Busy
	s.errMu.Unlock()
}

// mismatch records a wrong result of op i.
func (s *soak) mismatch(i int, err error) {
	s.bad.Add(1)
	first := s.counts[i].bad.Add(1) == 1
	s.errMu.Lock()
	if len(s.firstErr) < 10 || first { // the first few, and the first of each op
		s.firstErr = append(s.firstErr, s.ops[i].name+": "+err.Error())
	}
	s.errMu.Unlock()
}

// sample reads the goroutines, heap and resident set without stopping the
// world: the live heap is as of the last GC.
func sample(at time.Duration) soakInterval {
	ms := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(ms)
	row := soakInterval{End: at, Goroutines: runtime.NumGoroutine(), RSS: rss()}
	if ms[0].Value.Kind() == metrics.KindUint64 {
		row.HeapLive = ms[0].Value.Uint64()
	}
	if ms[1].Value.Kind() == metrics.KindUint64 {
		row.GCs = ms[1].Value.Uint64()
	}
	return row
}

// quiescent measures the state with no call in progress: after a GC that
// returns what it can to the operating system, and, if want > 0, once the
// goroutines have come down to want (those of closed pools and cancelled
// contexts exit a moment after their owners return), or after a second.
func quiescent(want int) soakMem {
	for i := 0; want > 0 && i < 100 && runtime.NumGoroutine() > want; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	runtime.GC()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return soakMem{Goroutines: runtime.NumGoroutine(), HeapLive: m.HeapAlloc, HeapInuse: m.HeapInuse, RSS: rss()}
}

// rss returns the resident set of the process in bytes, or 0 where
// /proc/self/statm cannot be read.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// statsDelta returns the counters of a over those of b, for the same pool.
func statsDelta(a, b par.Stats) par.Stats {
	d := a
	d.Workers = make([]par.WorkerStats, len(a.Workers))
	for i := range a.Workers {
		d.Workers[i] = a.Workers[i]
		if i < len(b.Workers) {
			d.Workers[i] = subStats(a.Workers[i], b.Workers[i])
		}
	}
	d.Callers = subStats(a.Callers, b.Callers)
	d.Submitted = a.Submitted - b.Submitted
	d.Uptime = a.Uptime - b.Uptime
	return d
}

func subStats(a, b par.WorkerStats) par.WorkerStats {
	return par.WorkerStats{Tasks: a.Tasks - b.Tasks, Inline: a.Inline - b.Inline,
		StealTries: a.StealTries - b.StealTries, Steals: a.Steals - b.Steals,
		Injected: a.Injected - b.Injected, Parks: a.Parks - b.Parks, Busy: a.Busy - b.Busy}
}

// heapTrend returns the mean live heap of the first and the last quarter of
// the intervals: what the calls in progress hold, which a leak proportional
// to the calls made would make climb.
func (r *soakReport) heapTrend() (first, last uint64) {
	n := len(r.Intervals)
	q := max(1, n/4)
	if n < 2 {
		return 0, 0
	}
	mean := func(ivs []soakInterval) uint64 {
		var t uint64
		for _, iv := range ivs {
			t += iv.HeapLive
		}
		return t / uint64(len(ivs))
	}
	return mean(r.Intervals[:q]), mean(r.Intervals[n-q:])
}

// Growth limits. The goroutines must come back exactly; the heap may differ
// by what a GC leaves in its accounting, and the resident set by what the
// scavenger has not yet returned, so only a growth that is large both as a
// ratio and in bytes is flagged, and only the heap's fails the run.
const (
	heapGrowRatio = 1.5
	heapGrowBytes = 8 << 20
	rssGrowRatio  = 1.5
	rssGrowBytes  = 64 << 20
)

// judge flags what grew between the baseline and the end.
func (r *soakReport) judge() {
	if r.End.Goroutines > r.Start.Goroutines {
		r.Flags = append(r.Flags, fmt.Sprintf("goroutines %d -> %d", r.Start.Goroutines, r.End.Goroutines))
		r.Leak = true
	}
	if grew(r.Start.HeapLive, r.End.HeapLive, heapGrowRatio, heapGrowBytes) {
		r.Flags = append(r.Flags, fmt.Sprintf("heap %s -> %s", fmtBytes(r.Start.HeapLive), fmtBytes(r.End.HeapLive)))
		r.Leak = true
	}
	if grew(r.Start.RSS, r.End.RSS, rssGrowRatio, rssGrowBytes) {
		r.Flags = append(r.Flags, fmt.Sprintf("RSS %s -> %s (not failing: the scavenger returns memory lazily)",
			fmtBytes(r.Start.RSS), fmtBytes(r.End.RSS)))
	}
}

func grew(a, b uint64, ratio float64, bytes uint64) bool {
	return a > 0 && float64(b) > ratio*float64(a) && b > a+bytes
}

func ratio(a, b uint64) string {
	if a == 0 {
		return "-"
	}
	return fmt.Sprintf("x%.2f", float64(b)/float64(a))
}

func fmtBytes(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

func (r *soakReport) write(w io.Writer) {
	fmt.Fprintf(w, "Soak: %s of mixed calls from %d goroutines (seed %d), GOMAXPROCS %d, default pool of %d workers\n\n",
		fmtDur(r.Duration), r.Goroutines, r.Seed, r.GOMAXPROCS, r.Workers)
	fmt.Fprintf(w, "%9s %10s %9s %10s %7s %10s %10s %10s %6s\n",
		"time", "calls", "calls/s", "mismatches", "panics", "goroutines", "heap live", "RSS", "GCs")
	for _, iv := range r.Intervals {
		fmt.Fprintf(w, "%9s %10d %9.0f %10d %7d %10d %10s %10s %6d\n", fmtDur(iv.End), iv.Calls, iv.Rate,
			iv.Mismatches, iv.Panics, iv.Goroutines, fmtBytes(iv.HeapLive), fmtBytes(iv.RSS), iv.GCs)
	}
	if n := len(r.Intervals); n >= 2 {
		lo, hi := r.Intervals[0].Rate, r.Intervals[0].Rate
		for _, iv := range r.Intervals {
			lo, hi = min(lo, iv.Rate), max(hi, iv.Rate)
		}
		fmt.Fprintf(w, "calls/s: first interval %.0f, last %.0f (last/first %.2f), lowest %.0f, highest %.0f\n",
			r.Intervals[0].Rate, r.Intervals[n-1].Rate, r.Intervals[n-1].Rate/r.Intervals[0].Rate, lo, hi)
	}

	fmt.Fprintf(w, "\n%-14s %10s %10s %10s\n", "operation", "calls", "mismatches", "mean")
	for _, op := range r.Ops {
		fmt.Fprintf(w, "%-14s %10d %10d %10s\n", op.Name, op.Calls, op.Mismatches, fmtDur(op.Mean))
	}
	fmt.Fprintf(w, "%-14s %10d %10d\n", "all", r.Calls, r.Mismatches)
	fmt.Fprintf(w, "injected panics recovered by their callers: %d\n", r.Panics)

	if first, last := r.heapTrend(); first > 0 {
		fmt.Fprintf(w, "heap live during the run: %s in the first quarter of the intervals, %s in the last (%s)\n",
			fmtBytes(first), fmtBytes(last), ratio(first, last))
	}
	if r.Load[0] > 0 || r.Load[1] > 0 {
		fmt.Fprintf(w, "load average: %.2f at the start, %.2f at the end\n", r.Load[0], r.Load[1])
	}

	fmt.Fprintf(w, "\nQuiescent, after a GC: before (after the warm-up) and after the run\n")
	fmt.Fprintf(w, "  goroutines   %10d -> %-10d\n", r.Start.Goroutines, r.End.Goroutines)
	fmt.Fprintf(w, "  heap live    %10s -> %-10s %s\n", fmtBytes(r.Start.HeapLive), fmtBytes(r.End.HeapLive), ratio(r.Start.HeapLive, r.End.HeapLive))
	fmt.Fprintf(w, "  heap in use  %10s -> %-10s %s\n", fmtBytes(r.Start.HeapInuse), fmtBytes(r.End.HeapInuse), ratio(r.Start.HeapInuse, r.End.HeapInuse))
	fmt.Fprintf(w, "  RSS          %10s -> %-10s %s\n", fmtBytes(r.Start.RSS), fmtBytes(r.End.RSS), ratio(r.Start.RSS, r.End.RSS))

	d := r.Default
	t := d.Total()
	fmt.Fprintf(w, "\nDefault pool over the run (%d workers, and the callers' seats, whose busy time adds up\nover the seats in use at once):\n", len(d.Workers))
	fmt.Fprintf(w, "  %-8s %12s %12s %12s %12s %10s %10s %8s\n", "", "tasks", "inline", "steal tries", "steals", "injected", "parks", "busy")
	line := func(name string, s par.WorkerStats) {
		busy := ""
		if d.Uptime > 0 {
			busy = fmt.Sprintf("%.0f%%", 100*float64(s.Busy)/float64(d.Uptime))
		}
		fmt.Fprintf(w, "  %-8s %12d %12d %12d %12d %10d %10d %8s\n", name, s.Tasks, s.Inline, s.StealTries, s.Steals, s.Injected, s.Parks, busy)
	}
	for i, ws := range d.Workers {
		line(fmt.Sprintf("worker %d", i), ws)
	}
	line("callers", d.Callers)
	fmt.Fprintf(w, "  total: %d tasks, %d steals of %d tries, %d parks, %d submitted\n", t.Tasks, t.Steals, t.StealTries, t.Parks, d.Submitted)
	p := r.Private
	fmt.Fprintf(w, "Private pools: %d started and closed; %d tasks, %d steals of %d tries, %d parks\n",
		r.PrivatePools, p.Tasks, p.Steals, p.StealTries, p.Parks)

	fmt.Fprintln(w)
	for _, e := range r.Errors {
		fmt.Fprintln(w, "MISMATCH", e)
	}
	for _, f := range r.Flags {
		fmt.Fprintln(w, "GROWTH", f)
	}
	switch {
	case r.failed():
		fmt.Fprintf(w, "FAIL: %d mismatches in %d calls; leak: %v\n", r.Mismatches, r.Calls, r.Leak)
	default:
		fmt.Fprintf(w, "PASS: %d calls, no mismatch, goroutines back to %d, quiescent heap within %.1fx or %s of the start\n",
			r.Calls, r.End.Goroutines, heapGrowRatio, fmtBytes(heapGrowBytes))
	}
}

// runSoakCmd is `go run ./bench -soak DURATION`.
func runSoakCmd(f *flags) (int, error) {
	prog := newProgress(f.progress)
	rep := runSoak(defaultSoakConfig(f.soak), prog)
	prog.clear()
	return finishMode(f, rep)
}
