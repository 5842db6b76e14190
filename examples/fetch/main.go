// Command fetch looks up a list of keys in a simulated remote service with
// par.MapErr, under a context.WithTimeout, three times: once when every
// lookup succeeds, once when a key is missing, and once when some lookups are
// slower than the deadline. It shows that the first error is returned, that
// the lookups not yet started never start, and that those in flight see
// their context cancelled and return early.
//
// The lookups spend their time waiting, not computing, which is not what par
// is tuned for, and two options adapt it:
//   - par.OnPool with a pool of its own with more workers than cores
//     (par.NewPool(par.Workers(32))): a worker blocked in a lookup is a
//     worker that cannot start another, so the workers bound the lookups in
//     flight, as errgroup's SetLimit would;
//   - par.WithGrain(1): every lookup is a task of its own, started as soon as
//     a worker is free. Without it, the call first runs lookups alone on the
//     calling goroutine until about 20 µs have passed (which pays for cheap
//     elements, that then never touch the pool), so a slow first lookup would
//     delay all the others; and a piece of several lookups would run them one
//     after the other.
//
// No network is used: a lookup sleeps for a latency drawn from its key.
//
//	go run ./examples/fetch
//	go run ./examples/fetch -n 500 -workers 64 -timeout 200ms
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

func main() {
	var c config
	flag.IntVar(&c.n, "n", 200, "look up `n` keys")
	flag.IntVar(&c.workers, "workers", 32, "run the lookups on a pool of `k` workers")
	flag.DurationVar(&c.timeout, "timeout", 100*time.Millisecond, "the deadline of the third batch (the first two have a second)")
	flag.DurationVar(&c.minLatency, "min", 5*time.Millisecond, "the shortest latency of a lookup")
	flag.DurationVar(&c.maxLatency, "max", 40*time.Millisecond, "the longest latency of a normal lookup")
	flag.DurationVar(&c.slowLatency, "slow", time.Second, "the latency of the slow lookups of the third batch")
	flag.Parse()
	if err := run(os.Stdout, c); err != nil {
		fmt.Fprintln(os.Stderr, "fetch:", err)
		os.Exit(1)
	}
}

// relaxed is the deadline of the first two batches, which should not hit it.
const relaxed = time.Second

type config struct {
	n, workers                          int
	timeout                             time.Duration
	minLatency, maxLatency, slowLatency time.Duration
}

var errNotFound = errors.New("not found")

// record is what the service returns for a key.
type record struct {
	key   string
	value uint64
}

// service is the simulated remote service, with counters of what its
// lookups did.
type service struct {
	minLatency, maxLatency time.Duration
	missing                map[string]bool          // keys it does not have
	slow                   map[string]time.Duration // keys it is slow for

	started   atomic.Int64 // lookups that began
	ok        atomic.Int64 // lookups that returned a record
	failed    atomic.Int64 // lookups that returned errNotFound
	cancelled atomic.Int64 // lookups that gave up because ctx ended
	inFlight  atomic.Int64
	maxFlight atomic.Int64 // the most lookups in flight at once
	// afterStop counts the lookups that began after the first failure.
	afterStop atomic.Int64
	stopped   atomic.Bool
}

// lookup waits for the latency of key, or until ctx ends, and returns the
// key's record.
func (s *service) lookup(ctx context.Context, key string) (record, error) {
	s.started.Add(1)
	if s.stopped.Load() {
		s.afterStop.Add(1)
	}
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for m := s.maxFlight.Load(); n > m && !s.maxFlight.CompareAndSwap(m, n); m = s.maxFlight.Load() {
	}

	h := hash(key)
	latency, ok := s.slow[key]
	if !ok {
		latency = s.minLatency + time.Duration(h%uint64(s.maxLatency-s.minLatency+1))
	}
	timer := time.NewTimer(latency)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		s.cancelled.Add(1)
		return record{}, fmt.Errorf("lookup %s: %w", key, context.Cause(ctx))
	case <-timer.C:
	}
	if s.missing[key] {
		s.stopped.Store(true)
		s.failed.Add(1)
		return record{}, fmt.Errorf("lookup %s: %w", key, errNotFound)
	}
	s.ok.Add(1)
	return record{key: key, value: h}, nil
}

func hash(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// outcome is what one batch of lookups gave.
type outcome struct {
	records []record
	err     error
	elapsed time.Duration
	// The service's counters after the batch.
	started, ok, failed, cancelled, maxFlight, afterStop int64
}

// batch looks up keys on pool with a deadline of timeout.
func batch(pool *par.Pool, s *service, keys []string, timeout time.Duration) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	records, err := par.MapErr(ctx, keys, s.lookup, par.OnPool(pool), par.WithGrain(1))
	return outcome{
		records: records, err: err, elapsed: time.Since(start),
		started: s.started.Load(), ok: s.ok.Load(), failed: s.failed.Load(), cancelled: s.cancelled.Load(),
		maxFlight: s.maxFlight.Load(), afterStop: s.afterStop.Load(),
	}
}

// keys returns n keys.
func keys(n int) []string {
	ks := make([]string, n)
	for i := range ks {
		ks[i] = fmt.Sprintf("user-%03d", i)
	}
	return ks
}

// run looks up c.n keys three times and prints what happened each time.
func run(out io.Writer, c config) error {
	_, err := runBatches(out, c)
	return err
}

// runBatches is run, returning the three outcomes.
func runBatches(out io.Writer, c config) ([3]outcome, error) {
	var res [3]outcome
	if c.n < 1 || c.workers < 1 || c.timeout <= 0 || c.minLatency < 0 || c.maxLatency < c.minLatency || c.slowLatency < 0 {
		return res, errors.New("need n, workers >= 1, timeout > 0 and 0 <= min <= max, slow >= 0")
	}
	pool := par.NewPool(par.Workers(c.workers))
	defer pool.Close()
	ks := keys(c.n)
	newService := func() *service {
		return &service{minLatency: c.minLatency, maxLatency: c.maxLatency}
	}
	fmt.Fprintf(out, "%d lookups of %v to %v each, on a pool of %d workers\n",
		c.n, c.minLatency, c.maxLatency, c.workers)

	// 1. Every key is there.
	s := newService()
	o := batch(pool, s, ks, relaxed)
	res[0] = o
	if o.err != nil {
		return res, fmt.Errorf("the first batch should succeed: %w", o.err)
	}
	fmt.Fprintf(out, "all there, deadline %v: %d records in order (first %s, last %s) in %v; at most %d lookups in flight\n",
		relaxed, len(o.records), o.records[0].key, o.records[len(o.records)-1].key, o.elapsed.Round(time.Millisecond), o.maxFlight)

	// 2. A key in the middle is missing.
	s = newService()
	missing := ks[c.n/2]
	s.missing = map[string]bool{missing: true}
	o = batch(pool, s, ks, relaxed)
	res[1] = o
	fmt.Fprintf(out, "%s missing, deadline %v: error %q after %v, records: %s\n",
		missing, relaxed, errString(o.err), o.elapsed.Round(time.Millisecond), nilOr(o.records))
	fmt.Fprintf(out, "  %d of %d lookups started (%d after the failure), %d never did; %d found, %d failed, %d cancelled in flight\n",
		o.started, c.n, o.afterStop, int64(c.n)-o.started, o.ok, o.failed, o.cancelled)

	// 3. Every 50th key, from the 25th, is slower than the deadline.
	s = newService()
	s.slow = map[string]time.Duration{}
	for i := 25; i < c.n; i += 50 {
		s.slow[ks[i]] = c.slowLatency
	}
	o = batch(pool, s, ks, c.timeout)
	res[2] = o
	fmt.Fprintf(out, "%d slow keys (%v), deadline %v: error %q after %v, records: %s\n",
		len(s.slow), c.slowLatency, c.timeout, errString(o.err), o.elapsed.Round(time.Millisecond), nilOr(o.records))
	fmt.Fprintf(out, "  %d of %d lookups started, %d never did; %d found, %d cancelled in flight\n",
		o.started, c.n, int64(c.n)-o.started, o.ok, o.cancelled)
	return res, nil
}

func nilOr(records []record) string {
	if records == nil {
		return "nil"
	}
	return fmt.Sprintf("%d", len(records))
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
