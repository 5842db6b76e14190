package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/weftgo/weft/par"
)

// result is the measurement of one implementation of one workload.
type result struct {
	Impl  string `json:"impl"`
	Kind  kind   `json:"kind"`
	About string `json:"about,omitempty"`
	// Skip says why it did not run; the other fields are then empty, but for
	// Projected, the time a run was projected to take when that is why.
	Skip      string        `json:"skip,omitempty"`
	Projected time.Duration `json:"projected_ns,omitempty"`
	// Capped says why it ran fewer times than asked (its warm-up was over
	// the time cap); its median is then of those runs.
	Capped   string          `json:"capped,omitempty"`
	Calls    int             `json:"calls_per_run"` // calls per timed run: 1 except for W8
	Times    []time.Duration `json:"times_ns"`      // each timed run
	Median   time.Duration   `json:"median_ns"`     // per call for W8
	Min      time.Duration   `json:"min_ns"`        // per call for W8
	Allocs   float64         `json:"allocs_per_call"`
	Bytes    float64         `json:"bytes_per_call"`
	CPU      time.Duration   `json:"cpu_per_call_ns,omitempty"` // the process's CPU time per call, median over runs
	Checksum string          `json:"checksum"`
	Speedup  float64         `json:"speedup,omitempty"` // sequential median over this one
	VsWeft   float64         `json:"vs_weft,omitempty"` // this median over weft's: above 1, weft is faster
	// Paired is the median over rounds of this run's time per call over
	// weft's in the same round: as VsWeft, with the machine's drift between
	// rounds taken out (see pairedRatio). 0 unless both ran every round.
	Paired float64 `json:"paired_vs_weft,omitempty"`
	// Wins is in how many of those rounds its time per call was below
	// weft's.
	Wins int          `json:"rounds_faster_than_weft,omitempty"`
	Util *utilization `json:"utilization,omitempty"` // weft only
}

// utilization is the busy time of weft's pool over the wall time of the timed
// runs, and its event counts per run.
type utilization struct {
	Wall    time.Duration `json:"wall_ns"`
	Workers []float64     `json:"workers"` // busy over wall, per worker
	Caller  float64       `json:"caller"`  // the calling goroutine's seat
	Tasks   float64       `json:"tasks_per_run"`
	Steals  float64       `json:"steals_per_run"`
	Tries   float64       `json:"steal_tries_per_run"`
}

// measurer runs implementations.
type measurer struct {
	warmup, reps int
	// budget, if set, keeps the rounds going past reps until they have
	// taken this long, up to maxReps rounds.
	budget     time.Duration
	maxReps    int
	cap        time.Duration // longest a competitor's run may take
	callTarget time.Duration // how long a timed run of a per-call workload lasts
	pool       *par.Pool     // weft's, for its statistics
	prog       *progress
	// cpu is the process's CPU time during the last run that once made.
	cpu time.Duration
}

// probeFunc times an implementation on smaller inputs and returns the time
// projected at full size, and how it was found; it may stop early once the
// projection is far over limit.
type probeFunc func(limit time.Duration) (time.Duration, string)

// measure is measureAll of one implementation.
func (m *measurer) measure(label string, perCall bool, im impl, probe probeFunc) result {
	return *m.measureAll(label, perCall, []impl{im}, []probeFunc{probe})[0]
}

// measureAll times the implementations of one workload: first, one after
// the other, each one's probe (if it starts a goroutine or task per element
// and probes[i] is not nil), its calibration (per-call workloads) and its
// warm-up runs; then reps rounds (more while m.budget lasts, see measurer)
// in which every implementation still in makes one timed run, each after a
// garbage collection, with its allocations and checksum. Interleaving the
// rounds, and turning their order, spreads a change in the machine's load
// over every implementation alike instead of charging it to one.
func (m *measurer) measureAll(label string, perCall bool, impls []impl, probes []probeFunc) []*result {
	rs := make([]*result, len(impls))
	var active []int
	weft := -1
	limit := m.cap
	for i, im := range impls {
		rs[i] = &result{Impl: im.name, Kind: im.kind, About: im.about, Calls: 1}
		ok, warm := m.prepare(label, perCall, im, probes[i], rs[i], limit)
		if im.kind == kindSeq {
			// A competitor within a few times the sequential loop is always
			// measured in full, however slow the machine is today.
			limit = max(limit, seqCapFactor*warm)
		}
		if ok {
			active = append(active, i)
			if im.kind == kindWeft {
				// Util is for one weft entry alone on its pool (not the sweep's).
				if weft == -1 {
					weft = i
				} else {
					weft = -2
				}
			}
		}
	}
	var before par.Stats
	if weft >= 0 {
		before = m.settle()
	}
	allocs := make([]uint64, len(impls))
	bytes := make([]uint64, len(impls))
	cpus := make([][]time.Duration, len(impls))
	reps := m.reps
	if m.budget > 0 {
		reps = max(reps, m.maxReps)
	}
	started := time.Now()
	for rep := range reps {
		if rep >= m.reps && time.Since(started) >= m.budget {
			break
		}
		for k := range active {
			// Each round starts one implementation later than the round
			// before: a run inherits the state the run before it left (a
			// collection to finish, memory the runtime has returned to the
			// system and must fault in again), and a fixed order would
			// charge the same one with it every round.
			i := active[(k+rep)%len(active)]
			im, r := impls[i], rs[i]
			m.prog.show("%s run %d/%d: %s", label, rep+1, reps, im.name)
			d, a, b, c := m.once(im, r.Calls)
			if r.Checksum == "" {
				r.Checksum = c
			} else if c != r.Checksum && !strings.HasPrefix(r.Checksum, "unstable") {
				r.Checksum = fmt.Sprintf("unstable: %s, then %s", r.Checksum, c)
			}
			r.Times = append(r.Times, d)
			cpus[i] = append(cpus[i], m.cpu)
			allocs[i] += a
			bytes[i] += b
		}
	}
	if weft >= 0 {
		// Only weft's runs use its pool, so the difference is theirs.
		rs[weft].Util = utilizationOf(before, m.settle(), rs[weft].Times)
	}
	for _, i := range active {
		r := rs[i]
		n := float64(r.Calls * len(r.Times))
		r.Allocs = float64(allocs[i]) / n
		r.Bytes = float64(bytes[i]) / n
		r.Median = median(r.Times) / time.Duration(r.Calls)
		r.Min = slices.Min(r.Times) / time.Duration(r.Calls)
		r.CPU = median(cpus[i]) / time.Duration(r.Calls)
	}
	return rs
}

// prepare decides whether im takes part in the timed rounds: not if it is
// skipped, if its probe projects a run over the cap, or if a warm-up run
// takes longer than the cap (it is then reported from that one run, marked).
// It calibrates the calls per run of a per-call workload.
// It returns the duration of the last warm-up run (per call).
func (m *measurer) prepare(label string, perCall bool, im impl, probe probeFunc, r *result, limit time.Duration) (bool, time.Duration) {
	if im.skip != "" {
		r.Skip = im.skip
		return false, 0
	}
	competitor := im.kind == kindHand || im.kind == kindLib
	if probe != nil && competitor && im.perElement {
		m.prog.show("%s %s: probing on a smaller input", label, im.name)
		projected, how := probe(limit)
		if projected > limit {
			r.Projected = projected
			r.Skip = fmt.Sprintf("one goroutine or task per element: projected %s a run (%s), over the %s cap",
				roundDur(projected), how, roundDur(limit))
			return false, 0
		}
	}
	if perCall {
		m.prog.show("%s %s: calibrating", label, im.name)
		r.Calls = m.calibrate(im)
	}
	var warm time.Duration
	for i := range m.warmup {
		m.prog.show("%s %s: warm-up %d/%d", label, im.name, i+1, m.warmup)
		d, a, b, c := m.once(im, r.Calls)
		r.Checksum = c
		warm = d / time.Duration(r.Calls)
		if competitor && d > limit {
			r.Capped = fmt.Sprintf("warm-up took %s, over the %s cap: 1 run, not repeated", roundDur(d), roundDur(limit))
			r.Times = []time.Duration{d}
			r.Median, r.Min = warm, warm
			r.Allocs, r.Bytes = float64(a)/float64(r.Calls), float64(b)/float64(r.Calls)
			return false, warm
		}
	}
	return true, warm
}

// seqCapFactor: the cap of a workload's competitors is at least this many
// times the sequential loop's warm-up run.
const seqCapFactor = 3

// once makes one timed run of im: its duration, allocations and bytes
// allocated, and its checksum; m.cpu gets the CPU time it took.
func (m *measurer) once(im impl, calls int) (time.Duration, uint64, uint64, string) {
	if im.setup != nil {
		im.setup()
	}
	runtime.GC()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	c0 := cpuTime()
	t0 := time.Now()
	im.run(calls)
	d := time.Since(t0)
	m.cpu = cpuTime() - c0
	runtime.ReadMemStats(&ms1)
	return d, ms1.Mallocs - ms0.Mallocs, ms1.TotalAlloc - ms0.TotalAlloc, im.check()
}

// calibrate returns how many calls make a timed run of callTarget.
func (m *measurer) calibrate(im impl) int {
	calls := 1
	for {
		d, _, _, _ := m.once(im, calls)
		if d >= m.callTarget/4 || calls >= 1<<24 {
			return max(1, int(float64(calls)*float64(m.callTarget)/float64(max(d, 1))))
		}
		calls *= 4
	}
}

// settle waits for weft's pool to go idle, so that every worker has
// published its counts, and returns its statistics.
func (m *measurer) settle() par.Stats {
	time.Sleep(2 * time.Millisecond)
	return m.pool.Stats()
}

func utilizationOf(before, after par.Stats, times []time.Duration) *utilization {
	var wall time.Duration
	for _, d := range times {
		wall += d
	}
	u := &utilization{Wall: wall}
	for i := range after.Workers {
		busy := after.Workers[i].Busy - before.Workers[i].Busy
		u.Workers = append(u.Workers, float64(busy)/float64(wall))
	}
	u.Caller = float64(after.Callers.Busy-before.Callers.Busy) / float64(wall)
	t0, t1 := before.Total(), after.Total()
	runs := float64(len(times))
	u.Tasks = float64(t1.Tasks+t1.Inline-t0.Tasks-t0.Inline) / runs
	u.Steals = float64(t1.Steals-t0.Steals) / runs
	u.Tries = float64(t1.StealTries-t0.StealTries) / runs
	return u
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// roundDur rounds d to three significant digits for reading.
func roundDur(d time.Duration) time.Duration {
	switch {
	case d >= 100*time.Second:
		return d.Round(time.Second)
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 100*time.Millisecond:
		return d.Round(time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= 100*time.Microsecond:
		return d.Round(time.Microsecond)
	case d >= 10*time.Microsecond:
		return d.Round(100 * time.Nanosecond)
	case d >= time.Microsecond:
		return d.Round(10 * time.Nanosecond)
	}
	return d
}
