package main

import (
	"fmt"
	"os"
	"time"
)

// progress shows on standard error what the suite is doing, with the time
// since it started: on a terminal, one line rewritten in place; otherwise
// (a pipe, a file, CI's log) a plain line every lineEvery, so that a run
// whose output is captured still shows that it is alive and where it is.
// The report goes to standard output, so redirecting it alone keeps the
// terminal's line, and -progress=false silences both.
type progress struct {
	on    bool
	tty   bool
	start time.Time
	last  time.Time
}

// lineEvery is how often a progress line is printed when standard error is
// not a terminal: some 30 lines over the default run of the suite.
const lineEvery = 5 * time.Second

func newProgress(enabled bool) *progress {
	fi, err := os.Stderr.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	return &progress{on: enabled, tty: tty, start: time.Now()}
}

// show replaces the progress line, at most every 50 ms, on a terminal; it
// prints a new line at most every lineEvery otherwise.
func (p *progress) show(format string, args ...any) {
	if p == nil || !p.on {
		return
	}
	now := time.Now()
	every := 50 * time.Millisecond
	if !p.tty {
		every = lineEvery
	}
	if now.Sub(p.last) < every {
		return
	}
	p.last = now
	msg := fmt.Sprintf(format, args...)
	if !p.tty {
		fmt.Fprintf(os.Stderr, "bench: [%5.1fs] %s\n", now.Sub(p.start).Seconds(), msg)
		return
	}
	if len(msg) > 70 {
		msg = msg[:70]
	}
	fmt.Fprintf(os.Stderr, "\r\033[K[%5.1fs] %s", now.Sub(p.start).Seconds(), msg)
}

// clear removes the progress line before the report is printed, or, when
// standard error is not a terminal, prints how long the run took.
func (p *progress) clear() {
	if p == nil || !p.on {
		return
	}
	if !p.tty {
		fmt.Fprintf(os.Stderr, "bench: [%5.1fs] done\n", time.Since(p.start).Seconds())
	} else {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	p.last = time.Time{}
}
