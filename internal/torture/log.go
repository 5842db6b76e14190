package torture

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// maxErrors is how many failures a Log keeps; the first ones name the case.
const maxErrors = 20

// Log collects the failures of the cases of a round, from any goroutine. The
// zero Log is ready to use; Master names the run in every message.
type Log struct {
	Master uint64

	failed atomic.Bool // set after a message is kept; read by the goroutines to stop early
	mu     sync.Mutex  // guards errs
	errs   []string
}

// Errorf records a failure of the case of the given seed. Any goroutine.
func (l *Log) Errorf(seed uint64, format string, args ...any) {
	msg := fmt.Sprintf("case %#x (master seed %d): ", seed, l.Master) + fmt.Sprintf(format, args...)
	l.mu.Lock()
	if len(l.errs) < maxErrors {
		l.errs = append(l.errs, msg)
	}
	l.mu.Unlock()
	l.failed.Store(true)
}

// Failed reports whether a failure was recorded. Any goroutine.
func (l *Log) Failed() bool { return l.failed.Load() }

// Report fails t with every message kept, and reports whether there was one.
// Call it once the cases have finished.
func (l *Log) Report(t testing.TB) bool {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, msg := range l.errs {
		t.Error(msg)
	}
	return l.failed.Load()
}
