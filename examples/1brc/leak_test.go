package main

import (
	"testing"

	"github.com/weftgo/weft/internal/leakcheck"
)

// idleWorker is in the stack of a weft pool worker waiting for work and of no
// other goroutine: the default pool's workers live as long as the process, so
// the check ignores them when idle, and nothing else.
const idleWorker = "github.com/weftgo/weft/internal/sched.(*Worker).findWork"

func TestMain(m *testing.M) {
	leakcheck.VerifyTestMain(m, leakcheck.IgnoreAnyFunction(idleWorker))
}
