// Command bench runs docs/DESIGN.md's workloads W1..W12 sequentially, with weft,
// and with the other ways Go programs run them in parallel, and reports the
// median times, speedups, checksums and weft's per-worker utilization.
//
// Usage, from the repository root:
//
//	go run ./bench                  # quick sizes: about a minute and a half on 2 cores
//	go run ./bench -full            # docs/DESIGN.md's sizes
//	go run ./bench -w W2,W3 -c static,dynamic,conc -reps 10
//	go run ./bench -json=out.json -html out.html
//	go run ./bench -soak 10m        # checked mixed calls from 24 goroutines for 10 minutes
//	go run ./bench -fair            # small calls' latency on an idle pool and beside a large call
//	go run ./bench -sim             # weft's planner simulated on 2 to 64 participants
//
// Progress goes to standard error, as a line rewritten in place on a
// terminal and as a line every 5 seconds otherwise; the report goes to
// standard output.
//
// Every implementation of a workload must give the sequential checksum, and
// at full size the sequential checksum must be docs/DESIGN.md's reference: a
// mismatch makes the command exit with status 1.
//
// bench is a module of its own (see go.work at the root), so that the library
// never depends on the competitors it is measured against.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weftgo/weft/par"
)

type flags struct {
	workloads   string
	competitors string
	workers     int
	reps        int
	warmup      int
	full        bool
	sizes       string
	cap         time.Duration
	sweep       bool
	scaling     bool
	jsonPath    string
	htmlPath    string
	svgPath     string
	progress    bool
	list        bool
	soak        time.Duration
	fair        bool
	sim         bool
}

func parseFlags(args []string) (*flags, error) {
	f := &flags{}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&f.workloads, "w", "all", "workloads to run, comma-separated (W1,W2,W3,W4,W4c,W14,W5,W6,W7,W8s,W8m,W9,W10,W11,W12,W12f,W12h,W13k100,W13k1000,W13k10000,W13s; W4, W8, W12 and W13 select all their parts)")
	fs.StringVar(&f.competitors, "c", "all", "competitors, comma-separated, or all or none (see -list)")
	fs.StringVar(&f.workloads, "workloads", "all", "the same as -w")
	fs.StringVar(&f.competitors, "competitors", "all", "the same as -c")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "goroutines that work: every competitor's; weft's pool gets one fewer, since its caller works too")
	fs.IntVar(&f.reps, "reps", 5, "timed runs per implementation; the median is reported")
	fs.IntVar(&f.warmup, "warmup", 1, "untimed runs before the timed ones")
	fs.BoolVar(&f.full, "full", false, "run docs/DESIGN.md's sizes instead of the quick ones")
	fs.StringVar(&f.sizes, "n", "", "sizes by workload, e.g. W1=1000000,W4=30 (overrides -full)")
	fs.DurationVar(&f.cap, "cap", 0, "longest a competitor's run may take, or 3 times the sequential run if longer; per-element ones projected over it are skipped (default 300ms quick, 5s full)")
	fs.BoolVar(&f.sweep, "sweep", true, "run the grain sweep of W1..W3")
	fs.BoolVar(&f.scaling, "scaling", true, "run the scaling table of W1..W3 on 1, 2, 4, 8 and 16 workers")
	fs.Var((*jsonFlag)(&f.jsonPath), "json", "write the results as JSON: -json alone to standard output instead of the table, -json=FILE to FILE")
	fs.StringVar(&f.htmlPath, "html", "", "write a self-contained HTML chart to this file")
	fs.StringVar(&f.svgPath, "svg", "", "write the chart as a standalone SVG to this file")
	fs.BoolVar(&f.progress, "progress", true, "show progress on standard error: a line rewritten in place on a terminal, else a line every 5s (-progress=false: none)")
	fs.BoolVar(&f.list, "list", false, "list the workloads and competitors and exit")
	fs.DurationVar(&f.soak, "soak", 0, "instead of the suite, run mixed checked calls from many goroutines for this long and report throughput, memory and goroutines over time (see soak.go)")
	fs.BoolVar(&f.fair, "fair", false, "instead of the suite, time small calls on an idle pool and beside a large call (see fair.go)")
	fs.BoolVar(&f.sim, "sim", false, "instead of the suite, measure this machine's fork, steal and wake-up and simulate weft's planner on 2 to 64 participants (see sim.go)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHead)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if f.workers < 1 || f.reps < 1 || f.warmup < 0 {
		return nil, fmt.Errorf("-workers and -reps must be at least 1, -warmup at least 0")
	}
	if f.cap == 0 {
		f.cap = 300 * time.Millisecond
		if f.full {
			f.cap = 5 * time.Second
		}
	}
	return f, nil
}

// usageHead opens the help of -h. The duration is that of the default run,
// measured alone on a 2-core machine (82 and 88 s: the report's Elapsed).
const usageHead = `Usage: go run ./bench [flags]

Runs docs/DESIGN.md's workloads sequentially, with weft and with the other
ways Go programs run them in parallel, and prints the medians, speedups and
checksums. The default run, at quick sizes, takes about a minute and a half
on 2 cores. Progress goes to standard error, the report to standard output.

Flags:
`

// jsonFlag is -json: alone it means standard output ("-"), with =FILE a file.
type jsonFlag string

func (j *jsonFlag) String() string { return string(*j) }

func (j *jsonFlag) Set(v string) error {
	switch v {
	case "true", "-":
		*j = "-"
	case "false":
		*j = ""
	default:
		*j = jsonFlag(v)
	}
	return nil
}

// IsBoolFlag lets -json stand alone on the command line.
func (j *jsonFlag) IsBoolFlag() bool { return true }

func main() {
	f, err := parseFlags(os.Args[1:])
	if err != nil {
		if err != flag.ErrHelp {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(2)
	}
	code, err := run(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// selectWorkloads picks the workloads named in spec, in docs/DESIGN.md's order,
// and reports whether W11 (calls of every size, calls.go) is among them.
func selectWorkloads(spec string) ([]*workload, bool, error) {
	all := allWorkloads()
	if spec == "" || spec == "all" {
		return all, true, nil
	}
	want := map[string]bool{}
	calls := false
	for _, s := range strings.Split(spec, ",") {
		s = strings.ToUpper(strings.TrimSpace(s))
		if s == "W11" {
			calls = true
			continue
		}
		found := false
		for _, w := range all {
			id := strings.ToUpper(w.id)
			if id == s || strings.TrimRight(id, "CSMFH") == s || strings.HasPrefix(id, s+"K") {
				want[w.id], found = true, true
			}
		}
		if !found {
			return nil, false, fmt.Errorf("no workload %q (-list lists them)", s)
		}
	}
	var out []*workload
	for _, w := range all {
		if want[w.id] {
			out = append(out, w)
		}
	}
	return out, calls, nil
}

func selectStrategies(spec string) ([]*strategy, error) {
	all := append(handStrategies(), libStrategies()...)
	switch spec {
	case "", "all":
		return all, nil
	case "none":
		return nil, nil
	}
	var out []*strategy
	for _, s := range strings.Split(spec, ",") {
		s = strings.ToLower(strings.TrimSpace(s))
		i := slices.IndexFunc(all, func(st *strategy) bool { return st.name == s })
		if i < 0 {
			return nil, fmt.Errorf("no competitor %q (-list lists them)", s)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// parseSizes reads -n: comma-separated ID=N pairs.
func parseSizes(spec string) (map[string]int, error) {
	out := map[string]int{}
	if spec == "" {
		return out, nil
	}
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(v), "_", ""))
		if !ok || err != nil || n < 1 {
			return nil, fmt.Errorf("-n: want ID=N with N >= 1, got %q", kv)
		}
		out[strings.ToUpper(strings.TrimSpace(k))] = n
	}
	return out, nil
}

func list() {
	fmt.Println("Workloads (quick size / docs/DESIGN.md size):")
	for _, w := range allWorkloads() {
		fmt.Printf("  %-4s %-11s %s / %s: %s\n", w.id, w.name, w.size(w.quickN), w.size(w.fullN), w.def)
	}
	fmt.Printf("  %-4s %-11s %s\n", "W11", "calls", "W2's, W1's and W7's bodies at sizes of about 3 µs to 3 ms a call, back to back from 1 and 4 goroutines")
	fmt.Println("Competitors:")
	for _, s := range append(handStrategies(), libStrategies()...) {
		fmt.Printf("  %-11s %-12s %s\n", s.name, s.kind, s.about)
	}
}

func run(f *flags) (int, error) {
	if f.list {
		list()
		return 0, nil
	}
	if f.soak > 0 {
		return runSoakCmd(f)
	}
	if f.fair {
		return runFairCmd(f)
	}
	if f.sim {
		return runSimCmd(f)
	}
	ws, calls, err := selectWorkloads(f.workloads)
	if err != nil {
		return 0, err
	}
	sts, err := selectStrategies(f.competitors)
	if err != nil {
		return 0, err
	}
	over, err := parseSizes(f.sizes)
	if err != nil {
		return 0, err
	}
	sizes := map[string]int{}
	maxN := 0
	for _, w := range ws {
		n := w.quickN
		if f.full {
			n = w.fullN
		}
		if v, ok := over[strings.ToUpper(w.id)]; ok {
			n = v
		} else if v, ok := over[strings.TrimRight(strings.ToUpper(w.id), "CSMF")]; ok {
			n = v
		}
		sizes[w.id] = n
		if !w.perCall && !w.ownInput && w.id != "W4" && w.id != "W4c" {
			maxN = max(maxN, n)
		}
	}
	if calls {
		maxN = max(maxN, callsMaxN()) // the competitors' inputs
	}

	start := time.Now()
	prog := newProgress(f.progress)
	// As many busy goroutines for weft as for the competitors: the goroutine
	// that makes a weft call works on it, so the pool gets one worker fewer
	// (par.DefaultWorkers makes the same choice).
	pool := par.NewPool(par.Workers(max(1, f.workers-1)))
	defer pool.Close()
	e := newEnv(f.workers, maxN)
	defer e.close()
	s := &suite{env: e, pool: pool, opts: []par.Option{par.OnPool(pool)}, strategies: sts,
		sweepBudget: sweepBudgetQuick}
	defer func() {
		for _, f := range s.cleanups {
			f()
		}
	}()
	m := &measurer{warmup: f.warmup, reps: f.reps, cap: f.cap, pool: pool, prog: prog,
		callTarget: 5 * time.Millisecond}
	if f.full {
		m.callTarget = 20 * time.Millisecond
		s.sweepBudget = sweepBudgetFull
	}

	rep := &report{
		GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
		CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Workers: f.workers,
		Full: f.full, Warmup: f.warmup, Reps: f.reps, Cap: f.cap, Started: start,
	}
	rep.Load[0] = loadAverage()
	for i, w := range ws {
		n := sizes[w.id]
		label := fmt.Sprintf("%s (%d/%d)", w.id, i+1, len(ws))
		wr := &wlReport{ID: w.id, Name: w.name, Def: w.def, N: n, FullN: w.fullN, Size: w.size(n),
			PerCall: w.perCall, Ref: w.ref}
		prog.show("%s: preparing", label)
		impls := w.build(s, n)
		probes := make([]probeFunc, len(impls))
		for i, im := range impls {
			if im.perElement && len(w.probe(n)) > 0 {
				probes[i] = func(limit time.Duration) (time.Duration, string) { return s.probe(w, im.name, n, limit, m) }
			}
		}
		wr.Results = m.measureAll(label, w.perCall, impls, probes)
		rep.Errors = append(rep.Errors, wr.finish()...)
		if w.notes != nil {
			prog.show("%s: notes", label)
			wr.Notes = w.notes(s, n, m, wr)
		}
		rep.Workloads = append(rep.Workloads, wr)
	}
	var sums []*workload
	for _, w := range ws {
		if w.id == "W1" || w.id == "W2" || w.id == "W3" {
			sums = append(sums, w)
		}
	}
	if f.sweep {
		for _, w := range sums {
			row, errs := s.sweep(w, sizes[w.id], m)
			rep.Sweep = append(rep.Sweep, row)
			rep.Errors = append(rep.Errors, errs...)
		}
	}
	if f.scaling && len(sums) > 0 {
		rep.Scaling = s.scaling(sums, sizes, m)
	}
	if calls {
		var errs []string
		rep.Calls, errs = s.calls(max(f.reps, callsMinReps), prog)
		rep.Errors = append(rep.Errors, errs...)
	}
	rep.Faster = fasterThanWeft(rep.Workloads)
	rep.Elapsed = time.Since(start)
	rep.Load[1] = loadAverage()
	prog.clear()

	if f.jsonPath != "-" {
		writeText(os.Stdout, rep)
	}
	if f.jsonPath != "" {
		if err := writeJSON(f.jsonPath, rep); err != nil {
			return 0, err
		}
	}
	if f.htmlPath != "" {
		if err := os.WriteFile(f.htmlPath, []byte(chartHTML(rep)), 0o644); err != nil {
			return 0, err
		}
	}
	if f.svgPath != "" {
		if err := os.WriteFile(f.svgPath, []byte(chartSVG(rep)), 0o644); err != nil {
			return 0, err
		}
	}
	if len(rep.Errors) > 0 {
		if f.jsonPath == "-" {
			for _, e := range rep.Errors {
				fmt.Fprintln(os.Stderr, "bench:", e)
			}
		}
		return 1, nil
	}
	return 0, nil
}

// probe times one run of the named implementation at each of the workload's
// probe sizes for n in turn and projects it to n by the workload's units of
// work. It stops at the first size whose projection is over four times the
// cap: the implementation is out either way, and a larger probe would cost
// more than a run under the cap.
func (s *suite) probe(w *workload, name string, n int, limit time.Duration, m *measurer) (time.Duration, string) {
	var projected time.Duration
	var how string
	for _, pn := range w.probe(n) {
		if pn < 1 || pn >= n {
			continue
		}
		for _, im := range w.build(s, pn) {
			if im.name != name {
				continue
			}
			d, _, _, _ := m.once(im, 1)
			projected = time.Duration(float64(d) / w.units(pn) * w.units(n))
			how = fmt.Sprintf("%s on %s", fmtDur(d), w.size(pn))
		}
		if projected > 4*limit {
			break
		}
	}
	return projected, how
}
