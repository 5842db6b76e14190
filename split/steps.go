package split

import "time"

// LeafSteps sets the blind first step of an adaptive leaf: a LeafSteps-th of
// it. A leaf sized by the pace of a cheap start can take thousands of times
// longer than planned where cost climbs (a sixteenth of W3's last leaf at the
// full size ran 12 ms blind, in the model of TestLeafStepsFollowTheClock); with
// the clock's help a uniform leaf still takes three steps in all.
const LeafSteps = 256

// StepTarget is about how long a step of a running leaf takes: long enough
// that what a leaf pays at each step (a pipe's buffers, CountBy's map,
// MapInit's value) is paid rarely (W9 of `go run ./bench` opens a pipe per
// step), short enough that a hungry participant gets its half soon.
const StepTarget = 100 * time.Microsecond

// StepGrowth bounds how much longer a step may be than the one before it, so
// that a quick first step, or cost that climbs along the range, cannot make
// the next one run far past StepTarget.
const StepGrowth = 16

// TreeSteps is about how many nodes of its canonical tree a leaf of a fixed
// tree is walked in: it cannot follow the clock, since its nodes are fixed.
const TreeSteps = 16

// Step returns the length of the blind first step of a leaf of length n, a
// piece that TrySplit declined to cut: n itself for a fixed grain (its leaves
// run whole, as the caller asked), else n/LeafSteps and no less than Min. A
// leaf runs in steps only if this is less than n.
func (s Splitter) Step(n int) int {
	if s.refill == 0 {
		return n
	}
	return max(s.min, n/LeafSteps)
}

// FirstStep returns the length of the first step of a leaf of n elements.
// before is the pace of the step before it on the same goroutine if that step
// was of the same range and ended where this leaf begins, else the zero Pace:
// with it, the step takes about StepTarget at that pace, or the whole leaf;
// without, it is Step(n), blind.
func (s Splitter) FirstStep(n int, before Pace) int {
	step := s.Step(n)
	if before.N > 0 && before.D > 0 {
		step = int(min(int64(n), int64(before.N)*int64(StepTarget)/int64(before.D)))
	}
	return s.fit(step, n)
}

// NextStep returns the length of the step of a running leaf after one of step
// elements that took el, with rest elements left: all of them if they should
// take no longer than StepTarget at the last step's pace, else about
// StepTarget's worth, never more than StepGrowth times the last step, and
// StepGrowth times it if the clock was too coarse to tell (el <= 0).
func (s Splitter) NextStep(step int, el time.Duration, rest int) int {
	switch {
	case el <= 0:
		step *= StepGrowth
	case rest <= step*StepGrowth && int64(rest) <= int64(step)*int64(StepTarget)/int64(el):
		step = rest
	default:
		step = int(min(int64(step)*StepGrowth, int64(step)*int64(StepTarget)/int64(el)))
	}
	return s.fit(step, rest)
}

// fit returns a step of a leaf with rest elements left, given the step
// wanted: at least Min (and 1), and all the rest if what it would leave is
// shorter than Min.
func (s Splitter) fit(step, rest int) int {
	step = max(step, s.min, 1)
	if rest-step < s.min {
		return rest
	}
	return step
}

// TreeStep returns the length of the nodes that a leaf of n elements of a
// fixed tree runs whole: about n/TreeSteps, and no less than Step(n).
func (s Splitter) TreeStep(n int) int { return max(s.Step(n), n/TreeSteps) }

// TailTarget is the least work, at the pace of the step before, that a step
// of a running leaf takes when TailStep halves it.
const TailTarget = StepTarget / 16

// TailStep returns the step to run next, of a leaf with rest elements left
// whose participant has no job of its own left for a thief and whose pool
// has no hungry participant yet, given step, the one that FirstStep or
// NextStep planned at pace: at most half of what is left, but no less than
// TailTarget's worth at pace. A participant that runs out of work meanwhile
// so finds the leaf looking again soon whether to give it half, where a step
// sized to take StepTarget ran to the leaf's end alone, the longer for a
// pace that erred towards cheap elements (W2's body over 5,000 elements in
// calls back to back: 254.8 µs a call, 227.3 with this; go test ./par -run
// '^$' -bench CallStream, 10 runs of each alternating, benchstat). Without a
// pace, step is blind and small already. A pool that has a hungry
// participant already gets half at the leaf's next look, and one whose
// hunger is parked workers (more workers than processors) gained nothing
// from more looks but forks: W1 and W2 on 8 and 16 workers took 4.5-5.0
// steals a run before this step, 5.2-6.2 with it for every leaf, and 4.5-4.9
// with it for the leaves of a pool with no hunger (go run ./bench -w W1,W2
// -c none -sweep=false, 30 runs of each alternating, medians).
func (s Splitter) TailStep(step int, pace Pace, rest int) int {
	half := rest / 2
	if step <= half || pace.N <= 0 {
		return step
	}
	floor := pace.N
	if pace.D > 0 {
		floor = pace.elems(TailTarget)
	}
	return s.fit(min(step, max(half, floor)), rest)
}
