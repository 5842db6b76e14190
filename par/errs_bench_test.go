package par_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

var errBenchSink error

// errInterleaved times the plain loop, the call without errors and the call
// with them in turn within each iteration, rotating their order, so that the
// three share whatever else the machine is doing; it reports the time of the
// error call over each of the others.
func errInterleaved(b *testing.B, loop, plain, withErr func()) {
	fs := [3]func(){loop, plain, withErr}
	var t [3]time.Duration
	r := 0
	for b.Loop() {
		for k := range 3 {
			j := (r + k) % 3
			start := time.Now()
			fs[j]()
			t[j] += time.Since(start)
		}
		r++
	}
	b.ReportMetric(float64(t[2])/float64(t[0]), "err/loop")
	b.ReportMetric(float64(t[2])/float64(t[1]), "err/plain")
	b.ReportMetric(0, "ns/op") // an iteration runs all three
}

// errBenchRuns runs the sub-benchmarks of n elements: each of the plain
// loop, the call without errors and the call with them (fs, named by names)
// alone, then the three interleaved, then the loop and the two calls made
// with WithGrain(n), plainCaller and errCaller, interleaved: WithGrain(n) runs
// both calls on the caller alone, so what is left over the loop is the cost
// per element of each path, without the pool.
func errBenchRuns(b *testing.B, n int, names [3]string, fs [3]func(), plainCaller, errCaller func()) {
	for i, f := range fs {
		b.Run(fmt.Sprintf("n=%d/%s", n, names[i]), func(b *testing.B) {
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
		})
	}
	b.Run(fmt.Sprintf("n=%d/interleaved", n), func(b *testing.B) { errInterleaved(b, fs[0], fs[1], fs[2]) })
	b.Run(fmt.Sprintf("n=%d/interleaved-caller", n), func(b *testing.B) { errInterleaved(b, fs[0], plainCaller, errCaller) })
}

// BenchmarkForEachErr compares ForEachErr with the plain loop and with
// ForEach, all calling the same cheap f through a func value, to show what the
// error path (the stop flag, the poll of ctx', the error result) costs. The
// interleaved sub-benchmarks report the ratios measured in one loop, which a
// busy machine disturbs less than it does separate runs.
func BenchmarkForEachErr(b *testing.B) {
	errNeg := errors.New("negative")
	f := func(_ context.Context, x int) error {
		if x < 0 {
			return errNeg
		}
		return nil
	}
	g := func(x int) {
		if x < 0 {
			errBenchSink = errNeg
		}
	}
	ctx := context.Background()
	for _, n := range []int{1000, 1_000_000} {
		s := errInput(n)
		loop := func() {
			var err error
			for _, x := range s {
				if err = f(ctx, x); err != nil {
					break
				}
			}
			errBenchSink = err
		}
		plain := func() { par.ForEach(s, g) }
		withErr := func() { errBenchSink = par.ForEachErr(ctx, s, f) }
		errBenchRuns(b, n, [3]string{"loop", "ForEach", "ForEachErr"}, [3]func(){loop, plain, withErr},
			func() { par.ForEach(s, g, par.WithGrain(n)) },
			func() { errBenchSink = par.ForEachErr(ctx, s, f, par.WithGrain(n)) })
	}
}

// BenchmarkMapErr compares MapErr with the plain loop and with Map, as
// BenchmarkForEachErr does.
func BenchmarkMapErr(b *testing.B) {
	errNeg := errors.New("negative")
	f := func(_ context.Context, x int) (int, error) {
		if x < 0 {
			return 0, errNeg
		}
		return x * 2, nil
	}
	g := func(x int) int { return x * 2 }
	ctx := context.Background()
	for _, n := range []int{1000, 1_000_000} {
		s := errInput(n)
		var sink []int
		loop := func() {
			out := make([]int, n)
			var err error
			for i, x := range s {
				if out[i], err = f(ctx, x); err != nil {
					out = nil
					break
				}
			}
			sink, errBenchSink = out, err
		}
		plain := func() { sink = par.Map(s, g) }
		withErr := func() { sink, errBenchSink = par.MapErr(ctx, s, f) }
		errBenchRuns(b, n, [3]string{"loop", "Map", "MapErr"}, [3]func(){loop, plain, withErr},
			func() { sink = par.Map(s, g, par.WithGrain(n)) },
			func() { sink, errBenchSink = par.MapErr(ctx, s, f, par.WithGrain(n)) })
		_ = sink
	}
}

// line is a numbered line of input, as a program reading a file of records
// holds them, so that an error can name the record.
type line struct {
	n    int
	text []byte
}

// jsonRec is a record of jsonRecords.
type jsonRec struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Score float64  `json:"score"`
	Tags  []string `json:"tags"`
}

// jsonRecords returns n lines, each a JSON record, except that the lines at
// the indices bad are cut short, which json.Unmarshal rejects.
func jsonRecords(n int, bad ...int) []line {
	out := make([]line, n)
	for i := range out {
		r := jsonRec{ID: i, Name: "user-" + strconv.Itoa(i), Score: float64(i%1000) / 7, Tags: []string{"a", "bc", strconv.Itoa(i % 13)}}
		b, err := json.Marshal(r)
		if err != nil {
			panic(err)
		}
		out[i] = line{n: i, text: b}
	}
	for _, i := range bad {
		out[i].text = out[i].text[:len(out[i].text)/2]
	}
	return out
}

// parseRecord decodes one line, or says which record failed.
func parseRecord(_ context.Context, l line) (jsonRec, error) {
	var r jsonRec
	if err := json.Unmarshal(l.text, &r); err != nil {
		return r, fmt.Errorf("record %d: %w", l.n, err)
	}
	return r, nil
}

// parseRecordsLoop is the plain loop: it stops at the first error in order.
func parseRecordsLoop(ls []line) ([]jsonRec, error) {
	out := make([]jsonRec, len(ls))
	for i, l := range ls {
		r, err := parseRecord(context.Background(), l)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// BenchmarkPairedErrLowestIndex times MapErr over 200,000 JSON records with
// invalid ones at 50,000 and 150,000, with and without LowestIndexError,
// beside the plain loop, in turn within each round (see paired): the cost of
// an error that does not depend on timing. first-default is the share of the
// default's calls that returned the error at 50,000, the loop's; the option's
// always does (TestErrLowestIndexRecords). With no invalid record, it shows
// what the option costs a call that does not fail.
//
//	go test -run '^$' -bench PairedErrLowestIndex -benchtime 10x -count 10 ./par
func BenchmarkPairedErrLowestIndex(b *testing.B) {
	const n = 200_000
	for _, c := range []struct {
		name string
		bad  []int
	}{{"bad=50000,150000", []int{50_000, 150_000}}, {"bad=none", nil}} {
		recs := jsonRecords(n, c.bad...)
		_, want := parseRecordsLoop(recs)
		ctx := context.Background()
		first, calls := 0, 0
		b.Run(c.name, func(b *testing.B) {
			paired(b, true,
				contender{"default", func() {
					_, err := par.MapErr(ctx, recs, parseRecord)
					calls++
					if err == nil || err.Error() == want.Error() {
						first++
					}
					errBenchSink = err
				}},
				contender{"lowest", func() {
					_, err := par.MapErr(ctx, recs, parseRecord, par.LowestIndexError())
					if (err == nil) != (want == nil) || err != nil && err.Error() != want.Error() {
						b.Fatalf("LowestIndexError returned %v, the loop %v", err, want)
					}
					errBenchSink = err
				}},
				contender{"loop", func() { _, errBenchSink = parseRecordsLoop(recs) }},
			)
			b.ReportMetric(float64(first)/float64(calls), "first-default")
		})
	}
}
