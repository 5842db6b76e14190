package split

import "time"

// TreeSteps is about how many nodes of its canonical tree a leaf of a fixed
// tree is walked in: it cannot follow the clock, since its nodes are fixed.
const TreeSteps = 16

// Step returns the length of the first step of a leaf of length n, a piece
// that TrySplit declined to cut: n itself for a fixed grain (its leaves run
// whole, as the caller asked), else the splitter's step (StepOf), or a
// Steps-th of the leaf for a splitter that ForRange did not make, and no
// less than Min. A leaf runs in steps only if this is less than n.
func (s Splitter) Step(n int) int {
	if s.refill == 0 {
		return n
	}
	step := s.step
	if step == 0 {
		step = n / Steps
	}
	return max(s.min, min(n, step))
}

// FirstStep returns the length of the first step of a leaf of n elements.
// before is the pace of the step before it on the same goroutine if that step
// was of the same range and ended where this leaf begins, else the zero Pace:
// with it, the step holds at least MinStep at that pace. It is Step(n) else.
func (s Splitter) FirstStep(n int, before Pace) int {
	step := s.Step(n)
	if before.N > 0 && before.D > 0 {
		step = max(step, before.elems(MinStep))
	}
	return s.fit(min(step, n), n)
}

// NextStep returns the length of the step of a running leaf after one of step
// elements that took el, with rest elements left: the splitter's step (or,
// for a splitter that ForRange did not make, the step before), but at least
// MinStep at the last step's pace if the clock could tell (el > 0).
func (s Splitter) NextStep(step int, el time.Duration, rest int) int {
	next := s.step
	if next == 0 {
		next = step
	}
	if el > 0 {
		next = max(next, Pace{N: step, D: el}.elems(MinStep))
	}
	return s.fit(min(next, rest), rest)
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

// TailStep returns the step to run next, of a leaf with rest elements left
// whose participant has no job of its own left for a thief and whose pool
// has no hungry participant yet, given step, the one that FirstStep or
// NextStep planned at pace: at most half of what is left, but no less than
// MinStep's worth at pace. A participant that runs out of work meanwhile
// so finds the leaf looking again soon whether to give it half, where a step
// sized to take 100 µs ran to the leaf's end alone, the longer for a
// pace that erred towards cheap elements (W2's body over 5,000 elements in
// calls back to back: 254.8 µs a call, 227.3 with this; go test ./par -run
// '^$' -bench CallStream, 10 runs of each alternating, benchstat). Without a
// pace, step stands. A pool that has a hungry participant already gets
// half at the leaf's next look, and one whose hunger is parked workers
// (more workers than processors) gained nothing from more looks but forks:
// W1 and W2 on 8 and 16 workers took 4.5-5.0 steals a run before this
// step, 5.2-6.2 with it for every leaf, and 4.5-4.9 with it for the leaves
// of a pool with no hunger (go run ./bench -w W1,W2 -c none -sweep=false,
// 30 runs of each alternating, medians).
func (s Splitter) TailStep(step int, pace Pace, rest int) int {
	half := rest / 2
	if step <= half || pace.N <= 0 {
		return step
	}
	floor := pace.N
	if pace.D > 0 {
		floor = pace.elems(MinStep)
	}
	return s.fit(min(step, max(half, floor)), rest)
}
