package split_test

import (
	"testing"

	"github.com/weftgo/weft/internal/leakcheck"
)

// TestMain fails the package if a test leaves a goroutine behind. split starts
// none of its own.
func TestMain(m *testing.M) { leakcheck.VerifyTestMain(m) }
