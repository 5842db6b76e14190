package torture_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/internal/torture"
)

// fork3 is a Fork root with two leaf children, as a package's generator
// would make it; boom says which leaves panic on entry.
func fork3(boom0, boom1 bool) *torture.Tree {
	r := rand.New(rand.NewPCG(1, 2))
	t := torture.NewTree(r, 7, 3, []string{"leaf", "join", "scope"})
	root := t.Add(r, -1, -1)
	root.Kind, root.Rule = 1, torture.Fork
	for i, b := range []bool{boom0, boom1} {
		k := t.Add(r, root.ID, -1)
		k.Pre, k.Post = nil, nil
		if b {
			k.Pre = &torture.Boom{Seed: 7, Where: fmt.Sprint("leaf ", i)}
		}
		root.Kids = append(root.Kids, k)
	}
	root.Pre, root.Post = nil, nil
	t.AnyPanic = boom0 || boom1
	t.Seal()
	record(t)
	return t
}

// visit runs n as a package's visit does; order lists the children it
// runs, in the order it runs them.
func visit(t *torture.Tree, n *torture.Node, order []int) uint64 {
	return t.Visit(n, func() (sum uint64) {
		for _, i := range order {
			if i < len(n.Kids) {
				sum += visit(t, n.Kids[i], order)
			}
		}
		return sum
	})
}

// reports holds what each tree of these tests reported, run and check.
var reports sync.Map // *torture.Tree -> *[]string

// record makes t report into its list in reports.
func record(t *torture.Tree) {
	var errs []string
	var mu sync.Mutex
	reports.Store(t, &errs)
	t.Errorf = func(format string, args ...any) {
		mu.Lock()
		errs = append(errs, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
}

// errorsOf checks t's run and returns what the run and the check reported.
func errorsOf(t *torture.Tree, got any, panicked bool) []string {
	t.Check(got, panicked)
	errs, _ := reports.Load(t)
	return *errs.(*[]string)
}

// TestCheckPassesAFaithfulRun: a run that follows the rules breaks none.
func TestCheckPassesAFaithfulRun(t *testing.T) {
	for _, booms := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		tr := fork3(booms[0], booms[1])
		got, panicked := torture.Catch(func() { visit(tr, tr.Nodes[0], []int{0, 1}) })
		assert.Empty(t, errorsOf(tr, got, panicked), "booms %v", booms)
	}
}

// TestCheckCatchesBrokenRules: each way a scheduler can break the fork
// protocol is reported.
func TestCheckCatchesBrokenRules(t *testing.T) {
	t.Run("second half panics first", func(t *testing.T) {
		// Both halves panic and the second's value goes on: the first's must.
		tr := fork3(true, true)
		got, panicked := torture.Catch(func() { visit(tr, tr.Nodes[0], []int{1, 0}) })
		assert.NotEmpty(t, errorsOf(tr, got, panicked))
	})
	t.Run("second half skipped", func(t *testing.T) {
		tr := fork3(false, false)
		got, panicked := torture.Catch(func() { visit(tr, tr.Nodes[0], []int{0}) })
		assert.NotEmpty(t, errorsOf(tr, got, panicked))
	})
	t.Run("a half runs twice", func(t *testing.T) {
		tr := fork3(false, false)
		got, panicked := torture.Catch(func() { visit(tr, tr.Nodes[0], []int{0, 1, 1}) })
		assert.False(t, panicked, "%v", got)
		assert.Contains(t, fmt.Sprint(errorsOf(tr, got, panicked)), "entered twice")
	})
	t.Run("a half still running", func(t *testing.T) {
		tr := fork3(false, false)
		started, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
		go func() { // the second half, still running when the call returns
			defer close(done)
			tr.Visit(tr.Nodes[2], func() uint64 { close(started); <-release; return 0 })
		}()
		<-started
		got, panicked := torture.Catch(func() { visit(tr, tr.Nodes[0], []int{0}) })
		errs := errorsOf(tr, got, panicked)
		close(release)
		<-done
		assert.Contains(t, fmt.Sprint(errs), "exited 0 times")
	})
	t.Run("panic lost", func(t *testing.T) {
		tr := fork3(true, false)
		torture.Catch(func() { visit(tr, tr.Nodes[0], []int{0, 1}) })
		assert.NotEmpty(t, errorsOf(tr, nil, false), "the call returned normally though the root panicked")
	})
	t.Run("foreign value", func(t *testing.T) {
		tr := fork3(false, false)
		tr.Nodes[1].Pre = &torture.Boom{}
		got, panicked := torture.Catch(func() {
			tr.Visit(tr.Nodes[0], func() uint64 { panic("not a boom") })
		})
		assert.Contains(t, fmt.Sprint(errorsOf(tr, got, panicked)), "foreign")
	})
	t.Run("group returns despite a task's panic", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		tr := torture.NewTree(r, 7, 3, []string{"leaf", "join", "scope"})
		g := tr.Add(r, -1, -1)
		g.Kind, g.Rule, g.Pre, g.Post = 2, torture.Group, nil, nil
		k := tr.Add(r, g.ID, g.ID)
		k.Pre, k.Post = &torture.Boom{Where: "task"}, nil
		g.Kids = []*torture.Node{k}
		tr.AnyPanic = true
		tr.Seal()
		record(tr)
		tr.Visit(g, func() uint64 { // a group that loses its task's panic
			torture.Catch(func() { visit(tr, k, nil) })
			return 0
		})
		assert.Contains(t, fmt.Sprint(errorsOf(tr, nil, false)), "returned normally, yet a task")
	})
}
