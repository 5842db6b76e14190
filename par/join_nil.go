package par

import (
	"runtime"
	"strings"
	"sync"
)

// Join2's fast path has no room for nil checks within the compiler's
// inlining budget, so a nil w, fa or fb faults where Join2 uses it: the gate's
// load, or the call. The fault unwinds through the deferred call of a
// recorded fork (join2Slow) or of a stolen half (join2Job.Run), and every
// recursion records its first fork, so one of them is below any fast-path
// fork; there nilFault reads the stack the fault left, and if its top is a
// fault in Join2 (or in Worker.Forks, whose one load is the gate's), the
// deferred call replaces the runtime's message by one naming the function
// and the parameter. Other panics pass through untouched, with
// their value and their stack: nilFault only reads the stack, and only on
// the way out of a cut-short fork.

// nilFault returns the message of the panic in flight if it is the fault of
// a nil w, fa or fb in Join2's fast path or of a nil w in Worker.Forks, or
// "". Called by a deferred function while a panic (or runtime.Goexit)
// unwinds.
func nilFault() string {
	f, ok := faultFrame()
	if ok && f.Function == "github.com/weftgo/weft/par.(*Worker).Forks" {
		return "par: Worker.Forks: w is nil" // its one load: the gate
	}
	if !ok || !strings.HasPrefix(f.Function, "github.com/weftgo/weft/par.Join2[") {
		return ""
	}
	l := join2Lines()
	switch f.Line {
	case l.w:
		return "par: Join2: w is nil"
	case l.fa:
		return "par: Join2: fa is nil"
	case l.fb:
		return "par: Join2: fb is nil"
	}
	return ""
}

// faultFrame returns the frame where the panic in flight began, if it is a
// memory fault (runtime.sigpanic): under the race detector, the frame that
// called the atomic load that faulted. Called by a deferred function.
func faultFrame() (runtime.Frame, bool) {
	var pcs [32]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs[:])])
	for {
		f, more := frames.Next()
		if f.Function == "runtime.sigpanic" {
			for {
				f, more = frames.Next()
				if f.Function != "racecallatomic" && !strings.HasPrefix(f.Function, "sync/atomic.") || !more {
					return f, true
				}
			}
		}
		if !more {
			return runtime.Frame{}, false
		}
	}
}

// join2Lines returns the lines of Join2 where a nil w, fa or fb faults,
// found by making each fault once, the first time a fault needs naming.
func join2Lines() faultLines {
	linesOnce.Do(func() {
		zero := func(*Worker, int) int { return 0 }
		var w Worker // its gate is closed: plain calls
		lines.w = faultLine(func() { Join2(nil, zero, 0, zero, 0) })
		lines.fa = faultLine(func() { Join2[int, int, int, int](&w, nil, 0, zero, 0) })
		lines.fb = faultLine(func() { Join2[int, int, int, int](&w, zero, 0, nil, 0) })
	})
	return lines
}

type faultLines struct{ w, fa, fb int }

var (
	linesOnce sync.Once
	lines     faultLines // written once, under linesOnce
)

// faultLine calls f, which must fault in Join2, and returns Join2's line
// where it did.
func faultLine(f func()) (line int) {
	defer func() {
		fr, _ := faultFrame()
		line = fr.Line
		recover()
	}()
	f()
	return 0
}
