// Package leakcheck finds the goroutines that a test left running: tests call
// VerifyNone at the end of a test or VerifyTestMain around a package's tests.
// A goroutine counts as leaked unless it was running when the check's
// snapshot was taken (IgnoreCurrent), has a given function in its stack
// (IgnoreAnyFunction), is the checking goroutine, belongs to the testing
// package itself (a parent test waiting for its subtests), or is the one that
// delivers signals, which the first signal.Notify starts for the life of the
// process (go test -fuzz calls it).
//
// Goroutines take a moment to end after the work that started them is done, so
// a check looks several times, backing off up to about two seconds in all,
// before it reports.
package leakcheck

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// An Option narrows what a check reports.
type Option func(*config)

type config struct {
	ignoreIDs   map[uint64]bool
	ignoreFuncs []string
	cleanup     func(code int)
}

// IgnoreCurrent ignores the goroutines running when it is called.
func IgnoreCurrent() Option {
	ids := map[uint64]bool{}
	for _, g := range goroutines() {
		ids[g.id] = true
	}
	return func(c *config) {
		for id := range ids {
			c.ignoreIDs[id] = true
		}
	}
}

// IgnoreAnyFunction ignores the goroutines that have the function f (its full
// name as a stack trace prints it, such as "pkg/path.(*T).Method") in any
// frame of their stack.
func IgnoreAnyFunction(f string) Option {
	return func(c *config) { c.ignoreFuncs = append(c.ignoreFuncs, f) }
}

// Cleanup makes VerifyTestMain call f with the exit code instead of calling
// os.Exit; f is expected to exit.
func Cleanup(f func(code int)) Option {
	return func(c *config) { c.cleanup = f }
}

// Find returns an error listing the stacks of the goroutines left running
// that the options do not ignore, or nil if there are none.
func Find(opts ...Option) error {
	c := config{ignoreIDs: map[uint64]bool{}}
	for _, o := range opts {
		o(&c)
	}
	var left []goroutine
	wait := time.Microsecond
	for try := 0; ; try++ {
		left = left[:0]
		for _, g := range goroutines() {
			if !c.ignores(g) {
				left = append(left, g)
			}
		}
		if len(left) == 0 {
			return nil
		}
		if try == 20 {
			break
		}
		runtime.Gosched()
		time.Sleep(wait)
		wait = min(2*wait, 100*time.Millisecond)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "leakcheck: %d goroutine(s) left running:", len(left))
	for _, g := range left {
		b.WriteString("\n\n")
		b.WriteString(g.stack)
	}
	return fmt.Errorf("%s", b.String())
}

// VerifyNone fails t if Find reports goroutines.
func VerifyNone(t testing.TB, opts ...Option) {
	t.Helper()
	if err := Find(opts...); err != nil {
		t.Error(err)
	}
}

// VerifyTestMain runs the package's tests, then, if they passed, fails the
// package if Find reports goroutines; it exits with the resulting code (or
// hands it to the Cleanup option's function).
func VerifyTestMain(m *testing.M, opts ...Option) {
	code := m.Run()
	if code == 0 {
		if err := Find(opts...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	c := config{ignoreIDs: map[uint64]bool{}}
	for _, o := range opts {
		o(&c)
	}
	if c.cleanup != nil {
		c.cleanup(code)
		return
	}
	os.Exit(code)
}

func (c *config) ignores(g goroutine) bool {
	if g.self || c.ignoreIDs[g.id] || g.testing() || slices.Contains(g.funcs, "os/signal.loop") {
		return true
	}
	for _, f := range c.ignoreFuncs {
		if slices.Contains(g.funcs, f) {
			return true
		}
	}
	return false
}

// A goroutine is one goroutine's record in runtime.Stack's dump.
type goroutine struct {
	id    uint64
	state string   // "running", "chan receive", "select", ...
	funcs []string // the function of each frame, innermost first
	stack string   // the record as printed
	self  bool     // the goroutine that took the dump
}

// testing reports whether g is the testing package's own: a test waiting
// for its subtests or for its parallel siblings, or the main test loop.
func (g goroutine) testing() bool {
	if len(g.funcs) == 0 {
		return false
	}
	switch g.funcs[0] {
	case "testing.RunTests", "testing.(*T).Run", "testing.(*T).Parallel",
		"testing.(*F).Fuzz", "testing.runFuzzing", "testing.runFuzzTests",
		"testing.tRunner.func1", "testing.(*testState).waitParallel":
		return strings.HasPrefix(g.state, "chan receive") || strings.HasPrefix(g.state, "sync.Cond.Wait") ||
			strings.HasPrefix(g.state, "select") || strings.HasPrefix(g.state, "semacquire")
	}
	return false
}

// goroutines parses a dump of every goroutine's stack.
func goroutines() []goroutine {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var gs []goroutine
	for i, rec := range strings.Split(strings.TrimSpace(string(buf)), "\n\n") {
		if g, ok := parse(rec); ok {
			g.self = i == 0 // runtime.Stack prints the caller's goroutine first
			gs = append(gs, g)
		}
	}
	return gs
}

// parse reads one record: "goroutine 7 [chan receive]:" then, for each
// frame, a line with the function and its arguments and a line with the file,
// and last a "created by" line.
func parse(rec string) (goroutine, bool) {
	lines := strings.Split(rec, "\n")
	head, ok := strings.CutPrefix(lines[0], "goroutine ")
	if !ok {
		return goroutine{}, false
	}
	idText, rest, ok := strings.Cut(head, " [")
	if !ok {
		return goroutine{}, false
	}
	id, err := strconv.ParseUint(idText, 10, 64)
	if err != nil {
		return goroutine{}, false
	}
	g := goroutine{id: id, stack: rec}
	g.state, _, _ = strings.Cut(rest, "]")
	for _, l := range lines[1:] {
		if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "created by ") ||
			strings.HasPrefix(l, "...") {
			continue
		}
		if i := strings.LastIndexByte(l, '('); i > 0 && strings.HasSuffix(l, ")") {
			l = l[:i]
		}
		g.funcs = append(g.funcs, l)
	}
	return g, true
}
