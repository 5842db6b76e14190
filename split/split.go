// Package split decides how a parallel call cuts its range into tasks.
//
// A range is cut in halves while a budget of splits remains. The budget starts
// at the number of workers and halves with each cut, so an undisturbed call
// makes about two pieces per worker and costs little more than a loop. When a
// piece is stolen, the thief's budget is refilled to the number of workers: a
// thief is evidence of an idle worker, so the pieces that thieves take keep
// splitting while demand lasts and stop when it ends (Rayon's thief-splitting).
// No piece is cut below a minimum length, and a maximum length forces cuts
// where a call asks for a fixed grain.
package split

import "fmt"

// Splitter is the splitting state of one piece of a range. It is a value:
// each half of a cut gets its own copy.
type Splitter struct {
	splits  int // cuts this piece may still make without being stolen
	workers int // the budget a stolen piece is refilled to
	min     int // no half shorter than this
	max     int // pieces longer than this are cut regardless of the budget; 0: no limit
}

// New returns the splitter of a whole range for a pool of the given number of
// workers. minLen is the shortest piece worth a task (at least 1); maxLen, if
// positive, is the longest piece a leaf may have.
func New(workers, minLen, maxLen int) Splitter {
	if workers < 1 {
		panic(fmt.Sprintf("split: workers = %d, want at least 1", workers))
	}
	if minLen < 1 {
		minLen = 1
	}
	if maxLen > 0 && maxLen < minLen {
		maxLen = minLen
	}
	return Splitter{splits: workers, workers: workers, min: minLen, max: maxLen}
}

// Fixed returns a splitter that cuts every piece longer than grain and no other,
// whatever the demand: the leaves are all between grain/2 and grain long.
func Fixed(grain int) Splitter {
	if grain < 1 {
		grain = 1
	}
	return Splitter{min: (grain + 1) / 2, max: grain}
}

// TrySplit reports whether a piece of length n should be cut in two, and if
// so updates s to be the state of each half. stolen says whether the piece
// runs on another worker than the one that made it.
func (s *Splitter) TrySplit(n int, stolen bool) bool {
	if n/2 < s.min {
		return false
	}
	if s.max > 0 && n > s.max {
		s.splits /= 2
		return true
	}
	if stolen && s.workers > 0 {
		s.splits = max(s.workers, s.splits/2)
		return true
	}
	if s.splits > 0 {
		s.splits /= 2
		return true
	}
	return false
}

// Min returns the shortest piece s will make.
func (s Splitter) Min() int { return s.min }

// LeafSteps sets the first step of a leaf of an adaptive call: a LeafSteps-th
// of the leaf. Between two steps the leaf looks once whether another worker is
// hungry, and if so gives away half of what it has left; the steps after the
// first follow the clock (package par). The first step runs blind, so it is
// short: a leaf sized by the pace of a cheap start can take thousands of times
// longer than planned where cost climbs (a sixteenth of W3's last leaf ran
// 12 ms blind in the model of package par's TestLeafStepsFollowTheClock); with
// the clock's help a uniform leaf still takes three steps in all.
const LeafSteps = 256

// Step returns the length of the first step of a leaf of length n, a piece that
// TrySplit declined to cut: n itself for a splitter of a fixed grain (Fixed:
// its leaves are as the caller asked), else n/LeafSteps and no less than the
// shortest piece. A running leaf may cut what it has left only into pieces of
// at least Min.
func (s Splitter) Step(n int) int {
	if s.workers == 0 {
		return n
	}
	return max(s.min, n/LeafSteps)
}
