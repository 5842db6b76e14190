package deque_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: the stress
// tests' owners and thieves must all have returned.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
