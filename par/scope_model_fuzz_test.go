package par_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// FuzzScopeErr builds a random tree of tasks, some of which fail (an error, a
// panic, or the cancellation of the parent context) after spawning part of
// their children, runs it with ScopeErr on a pool and under a bound drawn
// from the input, and checks what ran and what came out against a
// sequential model of the tree:
//
//   - the tasks that ran are tasks of the model whose parent ran and had
//     spawned them before failing, each ran once, and if any task of the
//     model's run was left out, some task that stops the scope ran;
//
//   - a panic reaches the caller with the value of a task that ran and
//     panicked; otherwise the error is that of a task that ran and failed, or
//     the parent's cause once a task that cancels it ran, and nil only if
//     every task of the model ran and none failed; with exactly one task in
//     the model that stops the scope, the result is that task's, every run;
//
//   - an error returned came before the parent's end, and every task that
//     found the scope's context ended found that error as its cause;
//
//   - no task began after the stop but one per goroutine of the pool, and no
//     more ran at once than the bound.
//
//     go test -run '^$' -fuzz FuzzScopeErr ./par
func FuzzScopeErr(f *testing.F) {
	pools := scopePoolsTB(f)
	for _, s := range []struct {
		seed        uint64
		size        uint16
		stops, mode uint8
	}{
		{1, 1, 0, 0}, {2, 50, 0, 0}, {3, 200, 0, 7}, {4, 300, 1, 0}, {5, 300, 1, 1}, {6, 300, 1, 2},
		{7, 300, 3, 0}, {8, 300, 4, 3}, {9, 120, 2, 13}, {10, 250, 5, 22}, {11, 300, 1, 30},
		{12, 64, 2, 31}, {13, 300, 1, 5}, {14, 300, 2, 9}, {15, 5, 1, 0}, {16, 300, 4, 26},
	} {
		f.Add(s.seed, s.size, s.stops, s.mode)
	}
	f.Fuzz(func(t *testing.T, seed uint64, size uint16, stops, mode uint8) {
		m := newScopeModel(seed, int(size)%300+1, int(stops)%6, mode&1 != 0, mode&2 != 0)
		p := pools[int(mode>>2)%len(pools)]
		limit := []int{0, 1, 2, 3}[int(mode>>4)%4]
		m.check(t, p, limit)
	})
}

// scopePoolsTB is scopePools for a fuzz target.
func scopePoolsTB(tb testing.TB) []scopePool {
	out := []scopePool{{name: "default", participants: int64(par.DefaultWorkers() + 1)}}
	for _, n := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(n))
		tb.Cleanup(p.Close)
		out = append(out, scopePool{name: fmt.Sprintf("pool%d", n), participants: int64(n + 1), opts: []par.Option{par.OnPool(p)}})
	}
	return out
}

// fate is what a node of the model does once it has spawned the first at of
// its children.
type fate uint8

const (
	succeeds fate = iota
	errs
	panics
	cancelsParent // cancels the parent with the model's cause, and returns nil
)

type modelNode struct {
	kids  []int
	useGo []bool // spawn kid k with Go rather than Spawn
	fate  fate
	at    int // children spawned before the fate; len(kids) for succeeds
	spin  int // runtime.Gosched calls before returning, for timing variety
}

// scopeModel is a tree of tasks; node 0 is the scope's body.
type scopeModel struct {
	nodes []modelNode
	cause error
}

func newScopeModel(seed uint64, size, stops int, withPanics, withCancels bool) *scopeModel {
	r := rand.New(rand.NewPCG(seed, uint64(size)))
	m := &scopeModel{nodes: make([]modelNode, size), cause: errors.New("parent cancelled by a task")}
	// Random recursive tree: each node's parent is an earlier node, drawn
	// toward the recent ones now and then for deep chains.
	for id := 1; id < size; id++ {
		parent := r.IntN(id)
		if r.IntN(3) == 0 {
			parent = max(0, id-1-r.IntN(3))
		}
		m.nodes[parent].kids = append(m.nodes[parent].kids, id)
		m.nodes[parent].useGo = append(m.nodes[parent].useGo, r.IntN(4) == 0)
	}
	for id := range m.nodes {
		n := &m.nodes[id]
		n.at = len(n.kids)
		n.spin = r.IntN(8)
	}
	fates := []fate{errs}
	if withPanics {
		fates = append(fates, panics)
	}
	if withCancels {
		fates = append(fates, cancelsParent)
	}
	for range stops {
		n := &m.nodes[r.IntN(size)]
		n.fate = fates[r.IntN(len(fates))]
		n.at = r.IntN(len(n.kids) + 1)
	}
	return m
}

// reachable returns the nodes that run when no node stops the scope: those
// whose parent ran and spawned them.
func (m *scopeModel) reachable() []bool {
	in := make([]bool, len(m.nodes))
	var walk func(id int)
	walk = func(id int) {
		in[id] = true
		for _, k := range m.nodes[id].kids[:m.nodes[id].at] {
			walk(k)
		}
	}
	walk(0)
	return in
}

type modelErr struct{ id int }

func (e modelErr) Error() string { return fmt.Sprintf("node %d failed", e.id) }

type modelPanic struct{ id int }

// check runs m with ScopeErr on p under limit and compares with the model.
func (m *scopeModel) check(t *testing.T, p scopePool, limit int) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	ran := make(counts, len(m.nodes))
	var seq atomic.Int64
	errSeq := make([]atomic.Int64, len(m.nodes))
	var cancelSeq atomic.Int64 // of the first cancellation of the parent
	var afterStop atomic.Int64
	var fl inFlight
	var mu sync.Mutex
	var causes []error

	var visit func(ctx context.Context, g *par.Group, w *par.Worker, id int) error
	visit = func(ctx context.Context, g *par.Group, w *par.Worker, id int) error {
		ran[id].Add(1)
		if id > 0 {
			fl.enter()
			defer fl.leave()
			if ctx.Err() != nil {
				afterStop.Add(1)
				mu.Lock()
				causes = append(causes, context.Cause(ctx))
				mu.Unlock()
			}
		}
		n := &m.nodes[id]
		for k, kid := range n.kids[:n.at] {
			task := func(ctx context.Context, w *par.Worker) error { return visit(ctx, g, w, kid) }
			if n.useGo[k] {
				g.Go(task)
			} else {
				g.Spawn(w, task)
			}
		}
		for range n.spin {
			runtime.Gosched()
		}
		switch n.fate {
		case errs:
			errSeq[id].Store(seq.Add(1))
			return modelErr{id}
		case panics:
			panic(modelPanic{id})
		case cancelsParent:
			cancel(m.cause)
			cancelSeq.CompareAndSwap(0, seq.Add(1))
		}
		return nil
	}
	var err error
	how, v := runOn(func() {
		err = par.ScopeErr(ctx, func(ctx context.Context, g *par.Group, w *par.Worker) error {
			if limit > 0 {
				g.SetLimit(limit)
			}
			return visit(ctx, g, w, 0)
		}, p.opts...)
	})

	// What ran: each node once at most, only if its parent ran and had
	// spawned it.
	reach := m.reachable()
	did := make([]bool, len(m.nodes))
	all := true
	var stoppers, errNodes []int // of the model's run, and that ran
	modelStoppers := 0
	for id := range m.nodes {
		c := ran[id].Load()
		require.LessOrEqual(t, c, int32(1), "node %d ran %d times", id, c)
		did[id] = c == 1
		if did[id] {
			require.True(t, reach[id], "node %d ran but its parent never spawned it", id)
		}
		if reach[id] && !did[id] {
			all = false
		}
		if reach[id] && m.nodes[id].fate != succeeds {
			modelStoppers++
			if did[id] {
				stoppers = append(stoppers, id)
			}
		}
		if did[id] && m.nodes[id].fate == errs {
			errNodes = append(errNodes, id)
		}
	}
	for id := range m.nodes {
		for _, k := range m.nodes[id].kids {
			if did[k] {
				require.True(t, did[id], "node %d ran without its parent %d", k, id)
			}
		}
	}
	if !all {
		require.NotEmpty(t, stoppers, "tasks were skipped, yet no task that stops the scope ran")
	}
	require.LessOrEqual(t, afterStop.Load(), p.participants, "tasks begun after the stop")
	if limit > 0 {
		require.LessOrEqual(t, fl.most.Load(), int64(limit), "more tasks at once than the bound")
	}

	// What came out.
	var panickers []int
	for _, id := range stoppers {
		if m.nodes[id].fate == panics {
			panickers = append(panickers, id)
		}
	}
	if len(panickers) > 0 {
		require.Equal(t, panicked, how, "a task panicked")
		got, ok := v.(modelPanic)
		require.True(t, ok, "the panic value %v is not a task's", v)
		require.Contains(t, panickers, got.id, "the panic of a task that did not panic")
		return
	}
	require.Equal(t, returned, how, "ScopeErr %v (%v) with no panic", how, v)
	switch e := err.(type) {
	case nil:
		require.True(t, all, "nil, but tasks were skipped")
		require.Empty(t, errNodes, "nil, but tasks %v failed", errNodes)
	case modelErr:
		require.True(t, slices.Contains(errNodes, e.id), "the error of node %d, which did not fail", e.id)
		if c := cancelSeq.Load(); c != 0 {
			require.Less(t, errSeq[e.id].Load(), c, "an error that came after the parent's end")
		}
	default:
		require.Equal(t, m.cause, err)
		require.NotZero(t, cancelSeq.Load(), "the parent's cause, but no task cancelled it")
	}
	if err != nil { // with nil, a task may still have found the parent's late end
		for _, c := range causes {
			require.Equal(t, err, c, "a task found another cause than the error returned")
		}
	}
	if modelStoppers == 1 && len(stoppers) == 1 && m.nodes[stoppers[0]].fate == errs {
		require.Equal(t, modelErr{stoppers[0]}, err, "the only failure of the model")
	}
	if modelStoppers == 0 {
		require.NoError(t, err)
		require.True(t, all)
	}
}
