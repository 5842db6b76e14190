package par_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// The torture tests run random cases (fork-join trees in torture_tree_test.go,
// calls and pipelines in torture_calls_test.go) from many goroutines at once,
// on pools of 1, 2, 4, 8 and 16 workers and on the default pool, with panics,
// errors, cancellations and early exits injected at random places, and calls
// nested inside the functions of other calls, on the same pool or another.
// Every case derives everything it does from its own seed and compares what
// the library did with a sequential model of the same seed, and with what
// package par promises where timing leaves a choice (doc.go: a panic reaches
// the caller with its original value once every started task has finished;
// tasks not started are skipped; the pool stays usable).
//
// A failure names the seed of its case and the master seed of the run:
//
//	go test ./par -run Torture -torture.case=0x1234    # replay one case, alone
//	go test ./par -run Torture -torture.seed=42        # the same rounds again
//	go test ./par -run Torture -torture.dur=5m         # a long run
//
// A case replayed alone runs without the load of the others, so a failure
// that depends on timing may need the whole round (the master seed) and
// several tries.

var (
	tortureSeed = flag.Uint64("torture.seed", 0, "master seed of the torture tests; 0 picks one from the clock")
	tortureDur  = flag.Duration("torture.dur", 0, "how long the torture tests run; 0 means a few seconds")
	tortureCase = flag.String("torture.case", "", "replay only the torture case of this seed (as printed by a failure)")
	tortureReps = flag.Int("torture.reps", 20, "how many times -torture.case runs its case")
)

// tortureBudget is how long a torture test runs rounds: -torture.dur, or a few
// seconds, fewer under -short and the race detector. It bounds the work, it
// is not a measurement: the test passes whatever a round takes.
func tortureBudget(normal time.Duration) time.Duration {
	if *tortureDur > 0 {
		return *tortureDur
	}
	if !full() {
		return normal / 3
	}
	return normal
}

// tortureMaster returns the master seed of a run.
func tortureMaster() uint64 {
	if *tortureSeed != 0 {
		return *tortureSeed
	}
	return uint64(time.Now().UnixNano())
}

// mix derives a seed from a seed and a number (splitmix64's finalizer).
func mix(seed, k uint64) uint64 {
	z := seed + 0x9E3779B97F4A7C15*(k+1)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// tortureBoom is an injected panic value: a pointer, so that the value that
// reaches a caller can be compared by identity with the one injected, and
// never mistaken for the value of another case.
type tortureBoom struct {
	seed  uint64
	where string
}

func (b *tortureBoom) String() string { return fmt.Sprintf("boom %#x %s", b.seed, b.where) }

// tortureEnv is what the cases of a round share: the pools (nil for the
// default one), and the first failure.
type tortureEnv struct {
	pools  []*par.Pool
	master uint64
	failed atomic.Bool
	mu     sync.Mutex
	errs   []string
	runs   atomic.Int64 // cases run, nested ones included
	nested atomic.Int64 // cases run inside a callback of another case
	panics atomic.Int64 // calls that ended with an injected panic, as planned
}

func newTortureEnv(master uint64) *tortureEnv {
	e := &tortureEnv{master: master, pools: []*par.Pool{nil}}
	for _, n := range []int{1, 2, 4, 8, 16} {
		e.pools = append(e.pools, par.NewPool(par.Workers(n)))
	}
	return e
}

func (e *tortureEnv) close() {
	for _, p := range e.pools[1:] {
		p.Close()
	}
}

// errorf records a failure of the case of the given seed. Any goroutine.
func (e *tortureEnv) errorf(seed uint64, format string, args ...any) {
	msg := fmt.Sprintf("case %#x (master seed %d): ", seed, e.master) + fmt.Sprintf(format, args...)
	e.mu.Lock()
	if len(e.errs) < 20 {
		e.errs = append(e.errs, msg)
	}
	e.mu.Unlock()
	e.failed.Store(true)
}

// opts returns the options of a call: a random pool, and sometimes a grain
// or a minimum length.
func (e *tortureEnv) opts(r *rand.Rand) []par.Option {
	var o []par.Option
	if p := e.pools[r.IntN(len(e.pools))]; p != nil {
		o = append(o, par.OnPool(p))
	}
	switch r.IntN(6) {
	case 0:
		o = append(o, par.WithGrain(1+r.IntN(8)))
	case 1:
		o = append(o, par.WithGrain(1+r.IntN(300)))
	case 2:
		o = append(o, par.WithMinLen(1+r.IntN(100)))
	}
	return o
}

// poolOpt returns only a random pool.
func (e *tortureEnv) poolOpt(r *rand.Rand) []par.Option {
	if p := e.pools[r.IntN(len(e.pools))]; p != nil {
		return []par.Option{par.OnPool(p)}
	}
	return nil
}

// catch calls f and returns what it panicked with. A runtime.Goexit is not
// caught: no torture case injects one.
func catch(f func()) (v any, panicked bool) {
	normal := false
	defer func() {
		if !normal {
			panicked = true
			v = recover()
		}
	}()
	f()
	normal = true
	return nil, false
}

// tortureKind is one kind of case: run does the case of a seed and reports
// what went wrong through e.errorf. depth counts the cases it is nested in.
type tortureKind struct {
	name string
	run  func(e *tortureEnv, seed uint64, depth int)
}

// tortureRound runs cases of the given kinds from many goroutines on a fresh
// set of pools, closes the pools and checks that no goroutine is left. It
// returns how many cases ran.
func tortureRound(t *testing.T, master, round uint64, kinds []tortureKind, maxG int) (cases, nested, panics int64) {
	t.Helper()
	par.Do(func(*par.Worker) {}) // the default pool starts on first use, and stays
	before := runtime.NumGoroutine()
	rr := newRand(mix(master, round))
	e := newTortureEnv(master)
	g := 8 + rr.IntN(maxG-7)
	per := 2 + rr.IntN(6)
	current := make([]atomic.Uint64, g) // the case each goroutine runs, for a hang report
	var wg sync.WaitGroup
	for i := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range per {
				if e.failed.Load() {
					return
				}
				seed := mix(mix(master, round), uint64(i*1000+j))
				current[i].Store(seed)
				tortureRunCase(e, kinds, seed, 0)
			}
			current[i].Store(0)
		}()
	}
	if !waitOrDump(&wg, func() string {
		var s []string
		for i := range current {
			if c := current[i].Load(); c != 0 {
				s = append(s, fmt.Sprintf("%#x", c))
			}
		}
		return fmt.Sprintf("master seed %d, round %d: cases in progress %s", master, round, strings.Join(s, " "))
	}) {
		t.FailNow()
	}
	e.close()
	for _, msg := range e.errs {
		t.Error(msg)
	}
	require.False(t, e.failed.Load(), "master seed %d round %d", master, round)
	got := waitGoroutines(before)
	require.LessOrEqual(t, got, before, "goroutines left after round %d of master seed %d", round, master)
	return e.runs.Load(), e.nested.Load(), e.panics.Load()
}

// tortureRunCase runs the case of a seed: its kind is the first choice the
// seed makes.
func tortureRunCase(e *tortureEnv, kinds []tortureKind, seed uint64, depth int) {
	e.runs.Add(1)
	if depth > 0 {
		e.nested.Add(1)
	}
	k := kinds[seed%uint64(len(kinds))]
	k.run(e, seed, depth)
}

// waitOrDump waits for wg; if it takes minutes, which only a hang does, it
// prints what says prints and the stacks of every goroutine, and returns
// false. The bound keeps a broken scheduler from hanging CI; it times nothing.
func waitOrDump(wg *sync.WaitGroup, says func() string) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(3 * time.Minute):
	}
	buf := make([]byte, 1<<24)
	buf = buf[:runtime.Stack(buf, true)]
	fmt.Fprintf(os.Stderr, "torture: hang: %s\n%s\n", says(), buf)
	return false
}

// runTorture is the body of a torture test: rounds until the budget is
// spent, or a replay of -torture.case.
func runTorture(t *testing.T, normal time.Duration, kinds []tortureKind, maxG int) {
	if *tortureCase != "" {
		seed, err := strconv.ParseUint(*tortureCase, 0, 64)
		require.NoError(t, err, "-torture.case")
		e := newTortureEnv(*tortureSeed)
		defer e.close()
		for range *tortureReps {
			tortureRunCase(e, kinds, seed, 0)
		}
		for _, msg := range e.errs {
			t.Error(msg)
		}
		t.Logf("case %#x (%s) run %d times: %d cases with the nested ones, %d ended by a panic",
			seed, kinds[seed%uint64(len(kinds))].name, *tortureReps, e.runs.Load(), e.panics.Load())
		return
	}
	master := tortureMaster()
	budget := tortureBudget(normal)
	start := time.Now()
	var cases, nested, panics int64
	round := uint64(0)
	for ; round == 0 || time.Since(start) < budget; round++ {
		c, n, p := tortureRound(t, master, round, kinds, maxG)
		cases, nested, panics = cases+c, nested+n, panics+p
		if t.Failed() {
			break
		}
	}
	t.Logf("master seed %d: %d rounds, %d cases (%d nested, %d ended by a panic) in %v",
		master, round, cases, nested, panics, time.Since(start).Round(time.Millisecond))
}

// tortureMaxG is the most goroutines a round runs cases from.
func tortureMaxG() int {
	if raceEnabled {
		return 16 // the race detector slows every goroutine; fewer keep rounds short
	}
	return 64
}

func TestTorture(t *testing.T) {
	runTorture(t, 5*time.Second, tortureAll, tortureMaxG())
}
