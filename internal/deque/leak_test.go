package deque_test

import (
	"testing"

	"github.com/weftgo/weft/internal/leakcheck"
)

// TestMain fails the package if a test leaves a goroutine behind: the stress
// tests' owners and thieves must all have returned.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
