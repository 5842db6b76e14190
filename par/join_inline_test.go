package par_test

import (
	"os"
	"os/exec"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJoin2Inlines builds a recursion that forks with Join2 and requires the
// compiler to inline Join2 into it: the fast path of a fork is a load and
// two calls only when inlined, and fib(32) ran at 0.62-0.66 of the plain
// recursion when it was not. One more line in Join2 can cost the inlining:
// the compiler's budget is 80, and Join2 uses it all.
func TestJoin2Inlines(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	cmd := exec.Command(goTool, "build", "-o", os.DevNull, "-gcflags=-m", "./testdata/join2inline")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Regexp(t, regexp.MustCompile(`main\.go:\d+:\d+: inlining call to par\.Join2\[`), string(out),
		"Join2 is no longer inlined into its caller:\n%s", out)
}
