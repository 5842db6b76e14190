package leakcheck

import (
	"os"
	"os/signal"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { VerifyTestMain(m) }

//go:noinline
func blockedOn(c chan struct{}) { <-c }

func TestFindReportsALeftGoroutine(t *testing.T) {
	before := IgnoreCurrent()
	release := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); blockedOn(release) }()
	err := Find(before)
	if err == nil {
		t.Fatal("Find: a goroutine blocked on a channel was not reported")
	}
	if !strings.Contains(err.Error(), "leakcheck.blockedOn") {
		t.Errorf("Find's error does not show the goroutine's stack:\n%v", err)
	}
	if err := Find(before, IgnoreAnyFunction("github.com/weftgo/weft/internal/leakcheck.blockedOn")); err != nil {
		t.Errorf("IgnoreAnyFunction did not ignore the goroutine: %v", err)
	}
	close(release)
	<-done
	VerifyNone(t, before)
}

func TestFindWaitsForGoroutinesThatEnd(t *testing.T) {
	before := IgnoreCurrent()
	release := make(chan struct{})
	go func() { blockedOn(release) }()
	close(release) // the goroutine may still be running when Find looks first
	VerifyNone(t, before)
}

func TestSubtestsAreNotLeaks(t *testing.T) {
	t.Run("inner", func(t *testing.T) {
		VerifyNone(t) // the parent test waits in testing.(*T).Run
	})
}

// TestSignalLoopIsNotALeak: signal.Notify starts a goroutine that lives as
// long as the process, and go test -fuzz calls it.
func TestSignalLoopIsNotALeak(t *testing.T) {
	before := IgnoreCurrent()
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	defer signal.Stop(ch)
	VerifyNone(t, before)
}

func TestParse(t *testing.T) {
	rec := "goroutine 42 [chan receive, 3 minutes]:\n" +
		"example.com/p.(*Pool[...]).wait(0xc000012345, {0x1, 0x2})\n" +
		"\t/src/p/pool.go:10 +0x1f\n" +
		"example.com/p.F[...](...)\n" +
		"\t/src/p/f.go:3\n" +
		"created by example.com/p.Start in goroutine 1\n" +
		"\t/src/p/start.go:7 +0x55"
	g, ok := parse(rec)
	if !ok {
		t.Fatal("parse refused a record")
	}
	if g.id != 42 || g.state != "chan receive, 3 minutes" {
		t.Errorf("parse: id %d, state %q", g.id, g.state)
	}
	want := []string{"example.com/p.(*Pool[...]).wait", "example.com/p.F[...]"}
	if strings.Join(g.funcs, "|") != strings.Join(want, "|") {
		t.Errorf("parse: funcs %q, want %q", g.funcs, want)
	}
	if _, ok := parse("not a goroutine"); ok {
		t.Error("parse accepted a record without a header")
	}
}
