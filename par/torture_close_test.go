package par_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
)

// TestTortureClose closes a pool while many goroutines make calls on it,
// some of them nested in the functions of others. Every call must either
// give the right result or panic with ErrClosed (a call made after Close, or a
// call nested in one that was already running); none may hang, Close must
// return once the calls in progress are done, and no goroutine is left.
func TestTortureClose(t *testing.T) {
	if _, _, replay, _ := torture.Replay(); replay {
		t.Skip("-torture.case replays the cases of TestTorture")
	}
	master := torture.Master()
	var calls, closedCalls int64
	rounds, took := torture.Rounds(torture.Budget(2*time.Second, !full()), t.Failed, func(round uint64) {
		c, cc := closeRound(t, master, round)
		calls, closedCalls = calls+c, closedCalls+cc
	})
	t.Logf("master seed %d: %d rounds, %d calls of which %d panicked with ErrClosed, in %v",
		master, rounds, calls, closedCalls, took)
}

// closeRound runs one round: goroutines calling on a fresh pool, and a Close
// after a random number of calls. It returns how many calls were made and
// how many ended with ErrClosed.
func closeRound(t *testing.T, master, round uint64) (calls, closed int64) {
	t.Helper()
	par.Do(func(*par.Worker) {}) // the default pool starts on first use, and stays
	before := runtime.NumGoroutine()
	seed := torture.Mix(master, 1000+round)
	r := newRand(seed)
	p := par.NewPool(par.Workers(1 + r.IntN(16)))
	other := par.NewPool(par.Workers(1 + r.IntN(4)))
	defer other.Close()
	g := 4 + r.IntN(tortureMaxG()-3)
	closeAfter := int64(r.IntN(g * 20)) // each goroutine makes about 15 calls
	var made, endedClosed atomic.Int64
	var closeOnce sync.Once
	closeDone := make(chan struct{})
	doClose := func() {
		closeOnce.Do(func() {
			go func() { p.Close(); close(closeDone) }()
		})
	}
	var mu sync.Mutex
	var errs []string
	errorf := func(format string, args ...any) {
		mu.Lock()
		if len(errs) < 10 {
			errs = append(errs, fmt.Sprintf("master seed %d round %d: ", master, round)+fmt.Sprintf(format, args...))
		}
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for i := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rg := newRand(torture.Mix(seed, uint64(i)))
			for range 1 + rg.IntN(30) {
				if made.Add(1) == closeAfter {
					doClose()
				}
				how := rg.IntN(5)
				n := rg.IntN(3000)
				v, panicked := torture.Catch(func() { closeCall(p, other, how, n, errorf) })
				if panicked {
					if err, ok := v.(error); !ok || !errors.Is(err, par.ErrClosed) {
						errorf("call %d on n=%d panicked with %v, want ErrClosed or none", how, n, v)
					}
					endedClosed.Add(1)
				}
			}
		}()
	}
	if !torture.WaitOrDump(&wg, func() string { return fmt.Sprintf("master seed %d close round %d", master, round) }) {
		t.FailNow()
	}
	doClose()
	select {
	case <-closeDone:
	case <-time.After(time.Minute): // only a hang gets here
		t.Fatalf("master seed %d round %d: Close did not return once every call was done", master, round)
	}
	for _, e := range errs {
		t.Error(e)
	}
	// After Close, a call panics with ErrClosed whatever it is.
	v := panicValue(t, func() { par.For(10, func(int) {}, par.OnPool(p)) })
	err, ok := v.(error)
	require.True(t, ok && errors.Is(err, par.ErrClosed), "got %v", v)
	other.Close()
	require.LessOrEqual(t, waitGoroutines(before), before, "goroutines left after round %d of master seed %d", round, master)
	return made.Load(), endedClosed.Load()
}

// closeCall makes one call on p and checks its result; some of its functions
// make calls nested on p or on other.
func closeCall(p, other *par.Pool, how, n int, errorf func(string, ...any)) {
	on := par.OnPool(p)
	switch how {
	case 0:
		out := par.Map(indices(n), func(i int) int { return 2*i + 1 }, on)
		for i, x := range out {
			if x != 2*i+1 {
				errorf("Map: out[%d] = %d", i, x)
				return
			}
		}
	case 1:
		var f int
		par.Do(func(w *par.Worker) { f = fib(w, 15) }, on)
		if f != 610 {
			errorf("fib(15) = %d", f)
		}
	case 2: // nested on p: the inner calls may be the ones to see Close
		var sum atomic.Int64
		par.For(n/10, func(i int) {
			sum.Add(int64(par.Sum(indices(i), on)))
		}, on, par.WithGrain(1))
		want := int64(0)
		for i := range n / 10 {
			want += int64(i * (i - 1) / 2)
		}
		if sum.Load() != want {
			errorf("nested Sum: %d, want %d", sum.Load(), want)
		}
	case 3: // nested on another pool, which stays open
		var count atomic.Int64
		par.Scope(func(s *par.Spawner, w *par.Worker) {
			for i := range n / 100 {
				s.Spawn(w, func(*par.Worker) {
					count.Add(int64(par.Count(indices(i), func(x int) bool { return x%2 == 0 }, par.OnPool(other))))
				})
			}
		}, on)
		want := int64(0)
		for i := range n / 100 {
			want += int64((i + 1) / 2)
		}
		if count.Load() != want {
			errorf("Scope: %d, want %d", count.Load(), want)
		}
	case 4:
		err := par.ForEachErr(context.Background(), indices(n), func(_ context.Context, i int) error { return nil }, on)
		if err != nil {
			errorf("ForEachErr: %v", err)
		}
	}
}
