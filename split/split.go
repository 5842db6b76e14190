package split

import (
	"fmt"
	"time"
)

// Splitter is the splitting state of one piece of a range. It is a value:
// each half of a cut gets its own copy.
type Splitter struct {
	splits int           // cuts this piece may still make without being stolen
	refill int           // the budget a stolen piece is refilled to; 0: leaves run whole (Fixed, ForWhole)
	min    int           // no half shorter than this
	cut    int           // nor from TrySplit shorter than this: MinPiece at the prefix's pace
	max    int           // pieces longer than this are cut regardless of the budget; 0: no limit
	step   int           // a step of a running leaf (Steps); 0: a Steps-th of the leaf
	piece  time.Duration // the least half a running leaf gives away (WorthHalving)
}

// Steps is how many steps a participant's share of a call is cut into: a
// step of a running leaf holds n/(participants*Steps) of the call's n
// elements, and a piece that holds two steps or more is cut, one that holds
// less is not (see the package doc, "Cutting"). A hungry participant so
// waits at most about a Steps-th of its share for a half, whatever the
// participants and the call's length. On 64 simulated participants with
// bare metal's costs, W1-W3 run at 0.89, 0.97 and 0.92 of T1/P (go test
// ./internal/sim -run StepsAtScale -v; 0.80, 0.92 and 0.87 while a range's
// cuts were crowded, see Crowded), where leaves of 50 µs, steps of
// 100 µs and stolen pieces halved down to MinPiece ran at 0.72, 0.89 and
// 0.82; on this machine's benchmarks, at GOMAXPROCS 2 and 8 and beside a
// busy process, level (go run ./bench -w W1,W2,W3,W9,W11,W12).
const Steps = 64

// MinStep is the least work, at the pace measured, that a leaf or a step
// holds, whatever Steps says: a step costs a clock read, a look for hunger
// and a call of the fold, some 40 ns, 1% of it, and a leaf a fork; a short
// call's share is too short for a Steps-th of it to pay for them. 8 and 16
// µs measured level with it on W11's calls of 3 µs to 3 ms (go run ./bench
// -w W11 -c none -sweep=false -scaling=false, 4 alternated rounds).
const MinStep = 4 * time.Microsecond

// LeafTarget is about how long a piece of a pass over a sequence takes
// (SeqWindowDone; par's seqrun): a range call's pieces are sized by Steps.
const LeafTarget = 50 * time.Microsecond

// StepOf returns the step of a call of n elements on participants: a
// Steps-th of a participant's share, rounded up, and at least 1.
func StepOf(n, participants int) int {
	k := participants * Steps
	q := n / k
	if n%k != 0 {
		q++ // rounded up without n+k, which overflows near the int limit
	}
	return max(q, 1)
}

// ForRange returns the splitter of a whole range of n elements that up to
// participants goroutines may work on at once: a call over a slice or a range
// counts the pool's workers and its caller, a batch of a sequence the workers
// alone (see the package doc, "Cutting"). A positive grain fixes the leaves
// (Fixed). Otherwise no piece is shorter than minLen, a piece of two steps
// (StepOf) or more is cut and one of less is not; where a step would hold
// less than MinStep at the prefix's pace (prefix.N > 0), leaves hold up to
// MinStep, and below that demand cuts them (TrySplit), but into no halves of
// less than MinPiece of the pool's wake-up (wake, Load.Wake; 0: not
// measured), nor does a running leaf give one away (WorthHalving). With a
// budget of one for a pool of one worker, a call on two cores was cut into
// two pieces and its end waited for the slower one: hence the caller
// counts.
func ForRange(participants, n, minLen, grain int, prefix Pace, wake time.Duration) Splitter {
	if grain > 0 {
		return Fixed(grain)
	}
	step := StepOf(n, participants)
	piece := MinPiece(wake)
	leaf, cut := step, step
	if prefix.N > 0 {
		leaf = max(step, prefix.elems(MinStep))
		cut = max(step, prefix.elems(piece))
	}
	s := New(participants, minLen, leaf)
	s.cut, s.step, s.piece = cut, step, piece
	return s
}

// ForWhole returns the splitter of a whole range of n elements whose leaves
// run whole, each through one call of the user's code that cannot be cut
// once it has started (ReduceRange's leaf): leaves of at most a
// RecordDepth-th of a participant's share, halved from the range, no shorter
// than minLen nor, at a measured prefix pace, than MinPiece's worth on a
// pool whose wake-up is wake (Load.Wake), and no other cut: a thief takes a
// piece whole. RecordDepth is how many pieces a participant keeps within
// thieves' reach, forks of a recursion (Crowded) or whole leaves here:
// enough that a participant that finishes early finds a piece left to take,
// few enough that a leaf that makes a value of its own (a map, a buffer) is
// called a handful of times per participant, whatever the call's length and
// its steals; a hungry participant waits at most a leaf. Eight leaves a
// participant ran no faster, and sixteen took up to 1.28 times as long at
// GOMAXPROCS 8 (go test ./par -run '^$' -bench ReduceRangeMapLeaf, and W12
// of go run ./bench, at GOMAXPROCS 2 and 8, alone and beside a busy process,
// 6-12 alternated rounds). A budget refilled on each steal, as ForRange's
// is, makes up to two leaves per participant a steal, and the steals grow
// with the call where processors outnumber CPUs: a leaf that makes a map
// over 4M elements was then called 750-1,050 times a call at GOMAXPROCS 8 on
// 2 cores, where whole leaves make 33 (GOMAXPROCS=8 go test ./par -run '^$'
// -bench ReduceRangeMapLeaf, leaves/op). A positive grain fixes the leaves
// (Fixed).
func ForWhole(participants, n, minLen, grain int, prefix Pace, wake time.Duration) Splitter {
	if grain > 0 {
		return Fixed(grain)
	}
	k := participants * RecordDepth
	maxLeaf := n / k
	if n%k != 0 {
		maxLeaf++ // rounded up without n+k, which overflows near the int limit
	}
	s := Fixed(maxLeaf).AtLeast(minLen)
	if prefix.N > 0 {
		s.cut = prefix.elems(MinPiece(wake))
	}
	return s
}

// MinPiece returns the least work, at the pace measured, that a cut or a
// running leaf gives away as a piece of its own (see the package doc,
// "Cutting"), on a pool whose workers take wake from a wake-up to its work
// (Load.Wake; 0: not measured): a sixteenth of the prefix's budget
// (Budget), which is a quarter of the wake-up between 0.25 and 1.25 µs.
// A piece given away costs its fork, steal and join, which the pool does
// not time but which are handoffs between processors as a wake-up is, and
// cheap where it is: on the simulator's bare metal (a wake-up of 4 µs, a
// steal of 0.2 µs) it is 1 µs, at which W3 over 100,000 elements on 64
// participants runs at 0.92 of T1/P, against 0.90 at 0.5 and 2 µs and 0.88
// at MinStep (go test ./internal/sim -run StepsAtScale -v); on this VM,
// whose wake-up is 47-105 µs, 1.25 µs, where a fork saved is worth some
// 0.45 µs (go test ./par -run '^$' -bench ForksShortCall). MinStep here
// forked less, but W1's body over 100,000 elements from one caller ran at
// 0.72-0.74 of the speed at GOMAXPROCS 2 (W11 of go run ./bench, 3 of 4
// alternated rounds). TrySplit judges by the prefix's pace (ForRange), and
// a running leaf by the pace of its last step (WorthHalving), which
// follows cost that climbs along the range.
func MinPiece(wake time.Duration) time.Duration { return pieceOf(Budget(wake)) }

// pieceOf returns MinPiece of a pool whose prefix budget is budget.
func pieceOf(budget time.Duration) time.Duration { return budget / 16 }

// WorthHalving reports whether a running leaf with rest elements left, whose
// last step of step elements took el, may give half of them away: the half
// holds MinPiece (of the wake-up ForRange was told; unmeasured for other
// splitters) or more at that pace, or the clock could not tell (el <= 0).
func (s Splitter) WorthHalving(rest, step int, el time.Duration) bool {
	return el <= 0 || float64(rest)*float64(el) >= float64(2*s.piece)*float64(step)
}

// New returns an adaptive splitter of a whole range with a budget of
// participants splits. minLen is the shortest piece worth a task (at least
// 1); maxLen, if positive, is the longest piece a leaf may have.
func New(participants, minLen, maxLen int) Splitter {
	if participants < 1 {
		panic(fmt.Sprintf("split: participants = %d, want at least 1", participants))
	}
	minLen = max(minLen, 1)
	if maxLen > 0 && maxLen < minLen {
		maxLen = minLen
	}
	return Splitter{splits: participants, refill: participants, min: minLen, max: maxLen, piece: MinPiece(0)}
}

// Fixed returns a splitter that cuts every piece longer than grain and no other,
// whatever the demand: the leaves are all between grain/2 and grain long, and
// run whole.
func Fixed(grain int) Splitter {
	grain = max(grain, 1)
	return Splitter{min: (grain + 1) / 2, max: grain}
}

// AtLeast returns s with no piece shorter than m, whatever else s says: for a
// range whose pieces must be whole blocks (SumSeq's batches).
func (s Splitter) AtLeast(m int) Splitter {
	s.min = max(s.min, m)
	if s.max > 0 {
		s.max = max(s.max, s.min)
	}
	return s
}

// TrySplit reports whether a piece of length n should be cut in two, and if
// so updates s to be the state of each half. stolen says whether the piece
// runs on another goroutine than the one that made it.
func (s *Splitter) TrySplit(n int, stolen bool) bool {
	if n/2 < max(s.min, s.cut) {
		return false
	}
	if s.max > 0 && n > s.max {
		s.splits /= 2
		return true
	}
	if stolen && s.refill > 0 {
		s.splits = max(s.refill, s.splits/2)
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

// CanHalve reports whether a running leaf with n elements left may give half
// of them away: neither half would be shorter than Min.
func (s Splitter) CanHalve(n int) bool { return n >= 2*s.min }
