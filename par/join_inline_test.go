package par_test

import (
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJoin2Inlines builds a recursion that forks with Join2 and requires the
// compiler to inline Join2 into it: the fast path of a fork is a load and
// two calls only when inlined, and fib(32) ran at 0.62-0.66 of the plain
// recursion when it was not. One more line in Join2 can cost the inlining:
// the compiler's budget is 80, and Join2 uses it all.
func TestJoin2Inlines(t *testing.T) {
	out := inliningReport(t)
	require.Regexp(t, regexp.MustCompile(`main\.go:15:\d+: inlining call to par\.Join2\[`), out,
		"Join2 is no longer inlined into its caller:\n%s", out)
}

// TestForksInlines requires Worker.Forks to be inlined into the recursion
// that tests it: its form is worth having only while the test costs a load,
// beside the direct calls it guards (fib(32) at 0.95 of the plain recursion
// on one processor, against Join2's 0.75).
func TestForksInlines(t *testing.T) {
	out := inliningReport(t)
	require.Regexp(t, regexp.MustCompile(`main\.go:24:\d+: inlining call to par\.\(\*Worker\)\.Forks`), out,
		"Worker.Forks is no longer inlined into its caller:\n%s", out)
}

var inlining struct {
	once sync.Once
	out  string
	err  error
}

// inliningReport returns the compiler's inlining report (-gcflags=-m) of
// testdata/join2inline, built once.
func inliningReport(t *testing.T) string {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	inlining.once.Do(func() {
		cmd := exec.Command(goTool, "build", "-o", os.DevNull, "-gcflags=-m", "./testdata/join2inline")
		out, err := cmd.CombinedOutput()
		inlining.out, inlining.err = string(out), err
	})
	require.NoError(t, inlining.err, "%s", inlining.out)
	return inlining.out
}
