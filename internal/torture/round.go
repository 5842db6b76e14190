package torture

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// hangAfter is how long Round and WaitOrDump wait before they call a round
// hung. Only a hang takes minutes; the bound keeps a broken scheduler from
// hanging CI, it times nothing.
const hangAfter = 3 * time.Minute

// Round runs cases from g goroutines at once, per cases each: case j of
// goroutine i has the seed Mix(Mix(master, round), i*1000+j), and run does it.
// A goroutine stops early once stop reports true (a case failed). If the
// cases take minutes, which only a hang does, Round prints the seeds of the
// cases in progress and the stacks of every goroutine, and returns false.
func Round(master, round uint64, g, per int, stop func() bool, run func(seed uint64)) bool {
	current := make([]atomic.Uint64, g) // the case each goroutine runs, read by the hang report while the goroutines run: atomic, ordering nothing
	var wg sync.WaitGroup
	for i := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range per {
				if stop() {
					return
				}
				seed := Mix(Mix(master, round), uint64(i*1000+j))
				current[i].Store(seed)
				run(seed)
			}
			current[i].Store(0)
		}()
	}
	return WaitOrDump(&wg, func() string {
		var s []string
		for i := range current {
			if c := current[i].Load(); c != 0 {
				s = append(s, fmt.Sprintf("%#x", c))
			}
		}
		return fmt.Sprintf("master seed %d, round %d: cases in progress %s", master, round, strings.Join(s, " "))
	})
}

// WaitOrDump waits for wg; if it takes minutes, which only a hang does, it
// prints what says and the stacks of every goroutine, and returns false.
func WaitOrDump(wg *sync.WaitGroup, says func() string) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(hangAfter):
	}
	buf := make([]byte, 1<<24)
	buf = buf[:runtime.Stack(buf, true)]
	fmt.Fprintf(os.Stderr, "torture: hang: %s\n%s\n", says(), buf)
	return false
}

// WaitGoroutines polls until at most n goroutines remain and returns the last
// count. Exiting goroutines take a moment to be uncounted; the loop is bounded
// by a number of rounds (about 5 s in all), not by a time limit that a test
// asserts on.
func WaitGoroutines(n int) int {
	got := runtime.NumGoroutine()
	for i := 0; i < 1000 && got > n; i++ {
		time.Sleep(5 * time.Millisecond)
		got = runtime.NumGoroutine()
	}
	return got
}

// Rounds calls round with 0, 1, 2, ... until budget has passed (at least
// once) or failed reports true, and returns how many rounds ran and how long
// they took.
func Rounds(budget time.Duration, failed func() bool, round func(k uint64)) (rounds uint64, took time.Duration) {
	start := time.Now()
	for ; rounds == 0 || time.Since(start) < budget; rounds++ {
		round(rounds)
		if failed() {
			rounds++
			break
		}
	}
	return rounds, time.Since(start).Round(time.Millisecond)
}
