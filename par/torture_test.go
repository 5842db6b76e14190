package par_test

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
)

// The torture tests run random cases (fork-join trees in torture_tree_test.go,
// calls in torture_calls_test.go, passes over sequences in
// torture_seq_test.go, calls that fail or are cancelled in
// torture_err_test.go, pipelines in torture_pipe_test.go) from many
// goroutines at once, on pools of 1, 2, 4, 8 and 16 workers and on the
// default pool, with panics, errors, cancellations and early exits injected
// at random places, and calls nested inside the functions of other calls, on
// the same pool or another. Every case derives everything it does from its
// own seed and compares what the library did with a sequential model of the
// same seed, and with what package par promises where timing leaves a choice
// (doc.go: a panic reaches the caller with its original value once every
// started task has finished; tasks not started are skipped; the pool stays
// usable). TestTortureClose (torture_close_test.go) closes pools under load.
// The machinery they share with internal/sched's torture test (flags, seeds,
// rounds, the watchdog, the rules of a tree) is package internal/torture.
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

// tortureEnv is what the cases of a round share: the pools (nil for the
// default one), and the failures.
type tortureEnv struct {
	torture.Log
	pools  []*par.Pool
	runs   atomic.Int64 // cases run, nested ones included
	nested atomic.Int64 // cases run inside a callback of another case
	panics atomic.Int64 // calls that ended with an injected panic, as planned
}

func newTortureEnv(master uint64) *tortureEnv {
	e := &tortureEnv{Log: torture.Log{Master: master}, pools: []*par.Pool{nil}}
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

// tortureKind is one kind of case: run does the case of a seed and reports
// what went wrong through e.Errorf. depth counts the cases it is nested in.
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
	rr := newRand(torture.Mix(master, round))
	e := newTortureEnv(master)
	g := 8 + rr.IntN(maxG-7)
	per := 2 + rr.IntN(6)
	if !torture.Round(master, round, g, per, e.Failed, func(seed uint64) { tortureRunCase(e, kinds, seed, 0) }) {
		t.FailNow()
	}
	e.close()
	e.Report(t)
	require.False(t, e.Failed(), "master seed %d round %d", master, round)
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

// runTorture is the body of a torture test: rounds until the budget is
// spent, or a replay of -torture.case.
func runTorture(t *testing.T, normal time.Duration, kinds []tortureKind, maxG int) {
	seed, reps, replay, err := torture.Replay()
	require.NoError(t, err, "-torture.case")
	if replay {
		e := newTortureEnv(torture.Seed())
		defer e.close()
		for range reps {
			tortureRunCase(e, kinds, seed, 0)
		}
		e.Report(t)
		t.Logf("case %#x (%s) run %d times: %d cases with the nested ones, %d ended by a panic",
			seed, kinds[seed%uint64(len(kinds))].name, reps, e.runs.Load(), e.panics.Load())
		return
	}
	master := torture.Master()
	var cases, nested, panics int64
	rounds, took := torture.Rounds(torture.Budget(normal, !full()), t.Failed, func(round uint64) {
		c, n, p := tortureRound(t, master, round, kinds, maxG)
		cases, nested, panics = cases+c, nested+n, panics+p
	})
	t.Logf("master seed %d: %d rounds, %d cases (%d nested, %d ended by a panic) in %v",
		master, rounds, cases, nested, panics, took)
}

// tortureMaxG is the most goroutines a round runs cases from.
func tortureMaxG() int {
	if raceEnabled {
		return 16 // the race detector slows every goroutine; fewer keep rounds short
	}
	return 64
}

// tortureAll is every kind of case, for nested cases; set in init, since the
// cases refer to it.
var tortureAll []tortureKind

func init() {
	tortureAll = append(append([]tortureKind(nil), treeKinds...), callKinds...)
}

// tortureNested runs the case of seed as a nested case: it checks itself and
// catches its own panics, so the enclosing call sees none of them.
func tortureNested(e *tortureEnv, seed uint64, depth int) {
	tortureRunCase(e, tortureAll, seed, depth)
}

func TestTorture(t *testing.T) {
	runTorture(t, 5*time.Second, tortureAll, tortureMaxG())
}
