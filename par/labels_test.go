package par_test

import (
	"bytes"
	"context"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// labelledElement is where the elements of the calls below wait, so that a
// goroutine profile finds them by name.
//
//go:noinline
func labelledElement(running *atomic.Int32, release <-chan struct{}) {
	running.Add(1)
	<-release
}

// goroutineLabels returns the label lines of the goroutines whose stacks hold
// labelledElement, from a goroutine profile.
func goroutineLabels(t *testing.T) []string {
	var buf bytes.Buffer
	require.NoError(t, pprof.Lookup("goroutine").WriteTo(&buf, 1))
	var out []string
	for _, rec := range strings.Split(buf.String(), "\n\n") {
		if !strings.Contains(rec, "labelledElement") {
			continue
		}
		label := "none"
		for _, line := range strings.Split(rec, "\n") {
			if strings.HasPrefix(line, "# labels: ") {
				label = strings.TrimPrefix(line, "# labels: ")
			}
		}
		out = append(out, label)
	}
	return out
}

// The work a pool worker does for a call carries the call's profiler labels:
// those of WithLabels, or of the ctx of MapErr and ForEachErr. The caller's
// goroutine keeps its own labels (here none).
func TestLabelsFollowTheCallOntoWorkers(t *testing.T) {
	ctx := pprof.WithLabels(context.Background(), pprof.Labels("request", "checkout"))
	calls := map[string]func(p *par.Pool, f func(int)){
		"WithLabels": func(p *par.Pool, f func(int)) {
			par.For(2, f, par.OnPool(p), par.WithGrain(1), par.WithLabels(ctx))
		},
		"ForEachErr": func(p *par.Pool, f func(int)) {
			err := par.ForEachErr(ctx, []int{0, 1}, func(_ context.Context, i int) error { f(i); return nil }, par.OnPool(p), par.WithGrain(1))
			require.NoError(t, err)
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			p := par.NewPool(par.Workers(1))
			defer p.Close()
			var running atomic.Int32
			release := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				call(p, func(int) { labelledElement(&running, release) })
			}()
			deadline := time.Now().Add(30 * time.Second)
			for running.Load() < 2 {
				require.False(t, time.Now().After(deadline), "watchdog: both elements did not start within 30 s")
				runtime.Gosched()
			}
			labels := goroutineLabels(t)
			close(release)
			<-done
			require.ElementsMatch(t, []string{`{"request":"checkout"}`, "none"}, labels,
				"the worker's element is labelled, the caller's keeps the caller's labels")

			// Once the call has ended, the worker carries no labels into other calls.
			running.Store(0)
			release = make(chan struct{})
			done = make(chan struct{})
			go func() {
				defer close(done)
				par.For(2, func(int) { labelledElement(&running, release) }, par.OnPool(p), par.WithGrain(1))
			}()
			for running.Load() < 2 {
				require.False(t, time.Now().After(deadline), "watchdog: both elements did not start within 30 s")
				runtime.Gosched()
			}
			labels = goroutineLabels(t)
			close(release)
			<-done
			require.Equal(t, []string{"none", "none"}, labels)
		})
	}
}

// A call without labels pays nothing for them; a labelled one pays at the
// pieces that workers take. go test -bench Labels -benchmem ./par
func BenchmarkLabels(b *testing.B) {
	ctx := pprof.WithLabels(context.Background(), pprof.Labels("request", "checkout"))
	xs := make([]uint64, 1<<16)
	body := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			acc := uint64(i)
			for range i%100 + 1 {
				acc = acc*31 + 7
			}
			xs[i] = acc
		}
	}
	for _, bc := range []struct {
		name string
		opts []par.Option
	}{
		{"none", nil},
		{"labelled", []par.Option{par.WithLabels(ctx)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				par.ForRange(len(xs), body, bc.opts...)
			}
		})
	}
}
