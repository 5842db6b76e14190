package sched

import (
	"time"

	"github.com/weftgo/weft/split"
)

// Timing of the contention rule (contend.go).
const (
	YieldStall   = split.PrefixBudget / 2 // split.Stalled on a pool whose wake-up is not measured
	StallStreak  = 2                      // stalled yields in a row that mark the pool (split.Marks)
	SearchRounds = split.SearchRounds
)

// Yield is a participant's yield, which counts its stalls and reports
// whether it marked the pool (see yield). Owner only.
func (w *Worker) Yield() bool { return w.yield() }

// ContendedUntil returns the clock until which p is marked contended, or 0.
func (p *Pool) ContendedUntil() int64 { return p.contended.Load() }

// MarkLength is how long p's k-th contention mark in a row lasts, at the
// wake-up p measured (split.MarkLength).
func (p *Pool) MarkLength(k int) time.Duration {
	return split.MarkLength(k, time.Duration(p.wakeUp.Load()))
}
