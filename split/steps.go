package split

import "time"

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
