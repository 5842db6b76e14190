package main

import (
	"testing"

	"github.com/weftgo/weft/internal/leakcheck"
)

// idleWorker is in the stack of a weft pool worker waiting for work and of no
// other goroutine: the default pool's workers live as long as the process, so
// the check ignores them when idle, and nothing else.
const idleWorker = "github.com/weftgo/weft/internal/sched.(*Worker).findWork"

// TestMain fails the package if a test leaves a goroutine behind. Besides
// idle weft workers it ignores the goroutines there before any test ran:
// ants starts a default pool (a purge and a clock goroutine) when its package
// is initialized, which lives as long as the process. The pools of the other
// libraries that a suite starts must be released by it.
func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m, leakcheck.IgnoreCurrent(), leakcheck.IgnoreAnyFunction(idleWorker))
}
