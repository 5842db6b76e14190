package split_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind. split starts
// none of its own.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
