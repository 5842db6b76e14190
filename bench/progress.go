package main

import (
	"fmt"
	"os"
	"time"
)

// progress shows on one line of a terminal what the suite is doing, with the
// time since it started. It is silent when standard error is not a terminal,
// so that redirected output holds only the report.
type progress struct {
	on    bool
	start time.Time
	last  time.Time
}

func newProgress(force bool) *progress {
	fi, err := os.Stderr.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	return &progress{on: tty || force, start: time.Now()}
}

// show replaces the progress line, at most every 50 ms.
func (p *progress) show(format string, args ...any) {
	if p == nil || !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 50*time.Millisecond {
		return
	}
	p.last = now
	msg := fmt.Sprintf(format, args...)
	if len(msg) > 70 {
		msg = msg[:70]
	}
	fmt.Fprintf(os.Stderr, "\r\033[K[%5.1fs] %s", now.Sub(p.start).Seconds(), msg)
}

// clear removes the progress line before the report is printed.
func (p *progress) clear() {
	if p == nil || !p.on {
		return
	}
	fmt.Fprint(os.Stderr, "\r\033[K")
	p.last = time.Time{}
}
