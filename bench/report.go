package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// report is everything one run of the suite found; -json writes it as is.
type report struct {
	GoVersion  string        `json:"go_version"`
	OS         string        `json:"os"`
	Arch       string        `json:"arch"`
	CPUs       int           `json:"cpus"`
	GOMAXPROCS int           `json:"gomaxprocs"`
	Workers    int           `json:"workers"`
	Full       bool          `json:"full"`
	Warmup     int           `json:"warmup"`
	Reps       int           `json:"reps"`
	Cap        time.Duration `json:"cap_ns"`
	Started    time.Time     `json:"started"`
	// Load is the machine's one-minute load average at the start and the
	// end (Linux), since other processes on the cores skew every time.
	Load      [2]float64    `json:"load_average,omitempty"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	Workloads []*wlReport   `json:"workloads"`
	Sweep     []*sweepRow   `json:"grain_sweep,omitempty"`
	Scaling   []*scaleRow   `json:"scaling,omitempty"`
	Calls     []*callsCurve `json:"calls,omitempty"` // W11`
	Faster    []faster      `json:"faster_than_weft"`
	Errors    []string      `json:"errors"`
}

type wlReport struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Def      string    `json:"definition"`
	N        int       `json:"n"`
	FullN    int       `json:"full_n"`
	Size     string    `json:"size"`
	PerCall  bool      `json:"per_call"`
	Checksum string    `json:"checksum"`
	Ref      string    `json:"reference,omitempty"`
	RefOK    *bool     `json:"reference_ok,omitempty"` // nil: not checked (not at full size)
	Results  []*result `json:"results"`
	Notes    []string  `json:"notes,omitempty"` // what else the workload measured (W10's bandwidth)
}

// faster is a competitor that beat weft on a workload.
type faster struct {
	Workload string  `json:"workload"`
	Impl     string  `json:"impl"`
	Ratio    float64 `json:"ratio"` // its time over weft's: paired where it can be, else the medians'
	// Wins of Rounds: in how many rounds it was faster than weft; 0 of 0
	// where only the medians compare.
	Wins   int  `json:"rounds_faster"`
	Rounds int  `json:"rounds"`
	Sure   bool `json:"sure"` // see fasterThanWeft
}

func (w *wlReport) result(name string) *result {
	for _, r := range w.Results {
		if r.Impl == name {
			return r
		}
	}
	return nil
}

// finish derives the speedups, the ratios to weft and the checksum verdicts,
// and returns the errors found.
func (w *wlReport) finish() []string {
	var errs []string
	seq, wf := w.result("sequential"), w.result("weft")
	if seq != nil && seq.Skip == "" {
		w.Checksum = seq.Checksum
	}
	for _, r := range w.Results {
		if r.Skip != "" || r.Median == 0 {
			continue
		}
		if seq != nil && seq.Median > 0 {
			r.Speedup = float64(seq.Median) / float64(r.Median)
		}
		if wf != nil && wf.Skip == "" && wf.Median > 0 {
			r.VsWeft = float64(r.Median) / float64(wf.Median)
			if len(r.Times) == len(wf.Times) && len(r.Times) >= 3 {
				r.Paired = pairedRatio(r.Times, wf.Times) * float64(wf.Calls) / float64(r.Calls)
				r.Wins = 0
				for k := range r.Times {
					if r.Times[k]*time.Duration(wf.Calls) < wf.Times[k]*time.Duration(r.Calls) {
						r.Wins++
					}
				}
			}
		}
		if r.Checksum != w.Checksum {
			errs = append(errs, fmt.Sprintf("%s: %s's checksum %q differs from the sequential %q",
				w.ID, r.Impl, r.Checksum, w.Checksum))
		}
	}
	if w.Ref != "" && w.N == w.FullN && w.Checksum != "" {
		ok := w.Checksum == w.Ref || strings.HasPrefix(w.Checksum, w.Ref+",")
		w.RefOK = &ok
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: checksum %q, but docs/DESIGN.md's reference is %q", w.ID, w.Checksum, w.Ref))
		}
	}
	return errs
}

// fasterThanWeft lists the competitors that beat weft, by workload: by the
// paired ratio where there is one, else by the medians. One with a paired
// ratio is Sure only if it was faster in so many rounds that a coin tossed
// for each would rarely match it (signP at most sureLevel): with 5 rounds,
// in all of them. Two implementations as fast as each other split the
// rounds, and one of them has the lower median half of the time.
func fasterThanWeft(ws []*wlReport) []faster {
	var out []faster
	for _, w := range ws {
		for _, r := range w.Results {
			ratio := r.VsWeft
			if r.Paired > 0 {
				ratio = r.Paired
			}
			if (r.Kind == kindHand || r.Kind == kindLib) && ratio > 0 && ratio < 1 {
				f := faster{Workload: w.ID, Impl: r.Impl, Ratio: ratio, Sure: true}
				if r.Paired > 0 {
					f.Wins, f.Rounds = r.Wins, len(r.Times)
					f.Sure = signP(f.Wins, f.Rounds) <= sureLevel
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// sureLevel is the most that the verdict "faster than weft" may be given,
// by chance, to an implementation as fast as weft.
const sureLevel = 0.05

// signP is the chance of k or more heads in n tosses of a fair coin: the
// one-sided sign test of an implementation faster than weft in k rounds of n.
func signP(k, n int) float64 {
	p, c := 0.0, 1.0 // c: n choose i
	for i := 0; i <= n; i++ {
		if i >= k {
			p += c
		}
		c = c * float64(n-i) / float64(i+1)
	}
	return p / math.Pow(2, float64(n))
}

func writeJSON(path string, r *report) error { return writeJSONValue(path, r) }

// writeJSONValue writes v as indented JSON to path, or to standard output if
// path is "-".
func writeJSONValue(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if path == "-" {
		_, err = os.Stdout.Write(b)
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// fmtDur prints a duration with three significant digits in a fixed width.
func fmtDur(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < time.Microsecond:
		return fmt.Sprintf("%.0fns", float64(d))
	case d < time.Millisecond:
		return trim3(float64(d)/1e3) + "µs"
	case d < time.Second:
		return trim3(float64(d)/1e6) + "ms"
	}
	return trim3(float64(d)/1e9) + "s"
}

func trim3(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

func fmtRatio(x float64) string {
	switch {
	case x == 0:
		return "-"
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	case x >= 0.1:
		return fmt.Sprintf("%.2f", x)
	}
	// Two significant digits, without an exponent.
	return fmt.Sprintf("%.*f", int(math.Ceil(-math.Log10(x)))+1, x)
}

// fmtPaired formats a paired ratio with three decimals below 10, where the
// percent it tells apart matters.
func fmtPaired(x float64) string {
	if x > 0 && x < 10 {
		return fmt.Sprintf("%.3f", x)
	}
	return fmtRatio(x)
}

func fmtCount(x float64) string {
	switch {
	case x >= 10e6:
		return fmt.Sprintf("%.0fM", x/1e6)
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 10e3:
		return fmt.Sprintf("%.0fk", x/1e3)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	case x >= 10 || x == 0:
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// bar draws a fraction in [0, 1] as width cells of block characters.
func bar(frac float64, width int) string {
	frac = min(max(frac, 0), 1)
	eighths := int(frac*float64(width*8) + 0.5)
	parts := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	s := strings.Repeat("█", eighths/8)
	if eighths/8 < width {
		s += parts[eighths%8]
	}
	return s + strings.Repeat(" ", max(0, width-(eighths+7)/8))
}

// loadAverage returns the one-minute load average, or 0 where it cannot be
// read.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b) + " 0")[0], 64)
	return f
}

// writeText prints the report as tables for a person at a terminal.
func writeText(out io.Writer, r *report) {
	p := func(format string, args ...any) { fmt.Fprintf(out, format, args...) }
	mode := "quick sizes (the default; -full runs docs/DESIGN.md's sizes)"
	if r.Full {
		mode = "docs/DESIGN.md's full sizes"
	}
	p("weft benchmark suite: %s, %s/%s, %d CPUs, GOMAXPROCS %d, %d workers\n", r.GoVersion, r.OS, r.Arch, r.CPUs, r.GOMAXPROCS, r.Workers)
	p("%s; median of %d interleaved runs after %d warm-up; a competitor's run is capped at %s or 3x the sequential one\n", mode, r.Reps, r.Warmup, r.Cap)
	if r.Load[0] > 0 || r.Load[1] > 0 {
		p("load average %.1f at the start, %.1f at the end", r.Load[0], r.Load[1])
		if max(r.Load[0], r.Load[1]) > float64(r.CPUs)/2 {
			p(": other processes are using the cores, and the times suffer for it")
		}
		p("\n")
	}
	p("speedup: sequential median / this median.  vs weft: this median / weft's (above 1: weft is faster).\n")
	p("paired: the median over rounds of this run / weft's in the same round (the machine's drift taken out).\n")
	p("cpu: the process's CPU time per call (median).  allocs: allocations per call.  sum: the checksum agrees with the sequential one.\n")
	for _, w := range r.Workloads {
		p("\n%s %s: %s\n", w.ID, w.Name, w.Def)
		size := w.Size
		if w.N != w.FullN {
			size += fmt.Sprintf(" (quick; docs/DESIGN.md: %s)", commas(w.FullN))
		}
		ref := ""
		switch {
		case w.RefOK != nil && *w.RefOK:
			ref = " = docs/DESIGN.md's reference"
		case w.RefOK != nil:
			ref = " != docs/DESIGN.md's reference " + w.Ref
		case w.Ref != "":
			ref = " (the reference is for the full size)"
		}
		p("  %s   checksum %s%s\n", size, w.Checksum, ref)
		unit := "median"
		if w.PerCall {
			unit = "per call"
		}
		wide := len("implementation") + 2 // the names' column: the longest name run, at least this
		for _, x := range w.Results {
			if x.Skip == "" {
				wide = max(wide, len(x.Impl))
			}
		}
		p("  %-*s %9s %9s %8s %8s %7s %9s %9s  %s\n", wide, "implementation", unit, "min", "speedup", "vs weft", "paired", "cpu", "allocs", "sum")
		var notes []string
		skips := map[string][]string{}
		var order []string
		for _, x := range w.Results {
			if x.Skip != "" {
				if _, seen := skips[x.Skip]; !seen {
					order = append(order, x.Skip)
				}
				skips[x.Skip] = append(skips[x.Skip], x.Impl)
				continue
			}
			mark := ""
			if x.Capped != "" {
				mark = "*"
				notes = append(notes, fmt.Sprintf("* %s: %s", x.Impl, x.Capped))
			}
			sum := "ok"
			if x.Checksum != w.Checksum {
				sum = "MISMATCH: " + x.Checksum
			}
			p("  %-*s %9s %9s %8s %8s %7s %9s %9s  %s\n", wide, x.Impl, fmtDur(x.Median)+mark, fmtDur(x.Min),
				fmtRatio(x.Speedup), fmtRatio(x.VsWeft), fmtPaired(x.Paired), fmtDur(x.CPU), fmtCount(x.Allocs), sum)
		}
		for _, n := range notes {
			p("  %s\n", n)
		}
		for _, why := range order {
			p("  not run: %s: %s\n", strings.Join(skips[why], ", "), why)
		}
		for _, n := range w.Notes {
			p("  %s\n", n)
		}
		if wf := w.result("weft"); wf != nil && wf.Util != nil {
			u := wf.Util
			if u.Tasks == 0 && u.Tries == 0 {
				p("  weft utilization: no task reached the pool; every call ran on the caller alone\n")
				continue
			}
			p("  weft utilization, busy / wall over %d runs (%s):\n", len(wf.Times), fmtDur(u.Wall))
			for i, f := range u.Workers {
				p("    worker %-3d |%s| %3.0f%%\n", i, bar(f, 40), 100*f)
			}
			p("    caller     |%s| %3.0f%%\n", bar(u.Caller, 40), 100*u.Caller)
			p("    per run: %s tasks, %s steals in %s tries\n", fmtCount(u.Tasks), fmtCount(u.Steals), fmtCount(u.Tries))
		}
	}
	writeSweepText(out, r.Sweep)
	writeScalingText(out, r.Scaling)
	writeCallsText(out, r.Calls)
	p("\n")
	writeFasterText(p, r.Faster)
	p("Elapsed %s.\n", r.Elapsed.Round(100*time.Millisecond))
	if len(r.Errors) > 0 {
		p("\nERRORS:\n")
		for _, e := range r.Errors {
			p("  %s\n", e)
		}
	}
}

// writeFasterText prints who beat weft: first those faster in enough rounds
// to be sure, then those ahead by the paired median alone.
func writeFasterText(p func(string, ...any), all []faster) {
	fs := append([]faster(nil), all...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Ratio < fs[j].Ratio })
	list := func(sure bool) string {
		var b strings.Builder
		for _, f := range fs {
			if f.Sure != sure {
				continue
			}
			if b.Len() > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %s %s %.2f", f.Workload, f.Impl, f.Ratio)
			if f.Rounds > 0 {
				fmt.Fprintf(&b, " (%d of %d)", f.Wins, f.Rounds)
			} else {
				b.WriteString(" (medians)")
			}
		}
		return b.String()
	}
	if l := list(true); l != "" {
		p("Faster than weft (its time over weft's, paired where it ran every round; in how many rounds it was faster):%s\n", l)
	} else {
		p("No competitor beat weft in enough rounds to tell (a sign test at %.0f%%, paired, or by the medians where a competitor missed rounds).\n", 100*sureLevel)
	}
	if l := list(false); l != "" {
		p("Ahead of weft by the paired median, in too few rounds to tell the two apart (a sign test at %.0f%%):%s\n", 100*sureLevel, l)
	}
}
