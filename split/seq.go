package split

import "time"

// Sequences: only the caller may pull an iter.Seq, so par's ...Seq functions
// (par/seqrun.go) cut its work in time. A pass either processes each element
// at once on the caller, as the plain loop would (alone), or copies runs of
// elements into pieces that the pool's workers and the caller process and
// the caller hands over in order (on the pool). The engine measures what an
// element costs either way, and these rules decide between the two.

// SeqCosts are what a pass measures, in nanoseconds an element.
type SeqCosts struct {
	// Alone is an element processed at once on the caller: pulled, through
	// f and handed over.
	Alone float64
	// Serial is the caller's own part on the pool, which no participant
	// shares: pulling an element and copying it into a piece, and handing
	// its result over.
	Serial float64
	// Work is an element's work in a piece.
	Work float64
}

// SeqMargin is how far two costs must be apart for a pass to act on the
// difference: a bound must beat the time alone by it for the pool to be
// tried (SeqPays), and after the pool was judged not to pay, the time alone
// must grow by it before the pool is tried again within SeqMaxStint
// (SeqTry).
const SeqMargin = 1.25

// SeqPays reports whether pieces shared by p participants, the caller
// among them, may beat working alone at costs c: no pool hands elements
// over faster than max(Serial, (Serial+Work)/p) each, however it is
// scheduled. The costs are those of a dry piece, which the caller fills,
// processes and hands over itself, waking nobody: a cheap f is told apart
// at the cost of that piece's copies.
func SeqPays(c SeqCosts, p int) bool {
	bound := max(c.Serial, (c.Serial+c.Work)/float64(max(p, 1)))
	return bound*SeqMargin <= c.Alone
}

// SeqDry returns the verdict on the dry pieces of a try of the pool, with c
// the least costs over the pieces dry so far (a stall only makes a sample
// longer): whether the pool pays, and if not, whether one more dry piece is
// due. A verdict against the pool holds the pass alone for up to SeqMaxStint,
// so it is taken on two pieces: on one, a dry piece that a preemption
// stretched kept W13's element at 1,000 steps (1 µs) alone for most of a
// pass at GOMAXPROCS 2, as traces of the pass showed.
func SeqDry(c SeqCosts, p, pieces int) (pays, again bool) {
	if SeqPays(c, p) {
		return true, false
	}
	return false, pieces < 2
}

// SeqNeedsDry reports whether a try of the pool begins with dry pieces, at
// cost alone an element (0: not measured): unless an element alone takes
// MinStep or more, the least work a leaf holds. Such an element makes a piece
// by itself, of which a wake-up costs a small part, and whether the pool pays
// is then for the windows to judge (SeqKeep); a dry piece would only keep the
// pass alone a few elements longer, some 55 µs of a pass over 1,000
// elements of 11 µs (W13's element at 10,000 steps).
func SeqNeedsDry(alone float64) bool { return !seqDear(alone) }

// seqDear reports whether an element whose work is per nanoseconds is a
// piece by itself: MinStep or more, the least work a leaf holds.
func seqDear(per float64) bool { return per >= float64(MinStep) }

// SeqSample returns the cost alone, in nanoseconds an element, after a
// countdown of n elements that took d, given the least so far (0: none):
// the least of the samples, since a stall only makes one longer, counting
// a sample once it holds 2*PrefixGrowth elements (a countdown past the
// first two, of 1 and PrefixGrowth) or took PrefixBudget (a few cheap
// elements time the clock as much as themselves), or if it is the first.
func SeqSample(least float64, n int, d time.Duration) float64 {
	c := float64(d) / float64(max(n, 1))
	if least == 0 || c < least && (n >= 2*PrefixGrowth || d >= PrefixBudget) {
		return c
	}
	return least
}

// SeqStep returns the length of the countdown alone that follows one of n
// elements, which took d, with rest left of the stint: n grown
// PrefixGrowth-fold up to SeqMaxStep, as a range's prefix grows, but where an
// element of the countdown took a quarter of MinStep (1 µs, about the least
// piece worth giving away: MinPiece) or more, no more than rest holds
// (at least one). Cheap elements overshoot the stint by up to PrefixGrowth
// times what it held, which keeps a short sequence from ever trying the pool
// (capping every countdown made a 20 µs pass over 2,000 elements of 10 steps
// run at 0.57 of the loop's speed instead of 0.81); a dear element's
// overshoot only delays the pool: 3 elements of W13's 10,000 steps, some
// 30 µs alone, before the first try. The countdown's own time, not the
// least over the stint (SeqSample), which a first element slowed by the
// pass's start may hold until a countdown of 2*PrefixGrowth.
func SeqStep(n int, d, rest time.Duration) int {
	next := min(n*PrefixGrowth, SeqMaxStep)
	if d >= time.Duration(n)*MinStep/4 {
		next = max(1, min(next, int(rest*time.Duration(n)/max(d, 1))))
	}
	return next
}

// SeqMaxStep is the longest countdown alone, in elements: a few
// microseconds of the cheapest loop between two looks at the clock. Capped
// at a leaf's length of elements instead, W13's element at 1,000 steps ran
// at 0.97 of the speed it runs at with this cap, together with pieces a
// Steps-th of the try's age instead of twice that (-bench
// 'PairedSeq/^k=1000$/', alternated rounds).
const SeqMaxStep = 4096

// SeqPieceTime returns about how long the next piece of a pass on the pool
// takes, when the pass's stint on the pool has run age and an element's work
// is per nanoseconds, on a pool whose workers take wake from a wake-up to
// its work (Load.Wake; 0: not measured): LeafTarget, long enough that what a
// piece costs to publish, claim and hand over is paid rarely, short enough
// that the participant that takes the last piece does not keep the others
// waiting long; but while the stint is young, a step of it, a Steps-th of a
// participant's share (StepOf), the stint being taken to last twice its age,
// as long again as it has run; and no less than MinStep, the least work a
// leaf holds. A young stint, and a short pass, is so cut finer. Sized by the
// pass's age instead of the stint's, MapSeq and MapSeq2 over 50 elements ran
// about 7% slower (alternated par.test binaries, -test.bench
// 'PairedSeq/^k=50$/').
//
// An element of MinStep or more is a piece by itself, and pieces of a few
// such elements pay the caller's own part of a piece (the cache lines a
// piece's slot and results move between processors, the clock reads) too
// often: their pieces are a step of the stint within LeafTarget and the
// pool's linger (Linger: 160 µs here, 128 µs on the simulator's bare metal),
// a piece no longer than a worker searches before it parks, so that a
// worker waiting for the next piece is still searching when it comes.
// With LeafTarget's cap and the young stint's finer pieces, W13's element at
// 10,000 steps ran at 0.92 of the batches' speed at GOMAXPROCS 2; within
// LeafTarget and 4 LeafTargets, 0.96 (go run ./bench -w W13 -c none
// -scaling=false -sweep=false -reps 3, 4 alternated rounds); within the
// linger, level with 4 LeafTargets (0.99-1.03 of the time at GOMAXPROCS 2
// and 8, alone and beside a busy process, 27-47 alternated rounds; -bench
// 'PairedSeq/^k=10000$/src=fast/' 0.99-1.01). Cheap elements keep
// LeafTarget's cap: pieces of 4 LeafTargets at 100 steps (2,000 elements,
// 32 KiB) ran that part at 0.81 of the batches' speed instead of 0.90.
func SeqPieceTime(age time.Duration, per float64, wake time.Duration) time.Duration {
	step := max(MinStep, 2*age/Steps)
	if seqDear(per) {
		return max(LeafTarget, min(step, Linger(wake)))
	}
	return min(LeafTarget, step)
}

// SeqPieceBytes bounds the memory of one piece of a pass on the pool, its
// elements and their per-element results, whatever the timing says: with the
// ring of pieces, it bounds the memory of a pass.
const SeqPieceBytes = 64 << 10

// SeqMaxStint returns the longest stint alone between two tries of the
// pool, on a pool whose workers take wake from a wake-up to its work
// (Load.Wake; 0: not measured): 64 lingers of its workers (Linger). After a
// try that failed, stints double up to it, so a pass whose f is too cheap
// spends almost all its time in the plain loop. A try that fails costs
// about a linger: the worker it wakes searches that long after its last
// piece, and the dry pieces' copies cost less; so a pass that the pool never
// pays loses under 2% to its tries. Where a wake-up takes 5 µs or more,
// 10.24 ms; on the simulator's bare metal (4 µs), 8.19 ms.
func SeqMaxStint(wake time.Duration) time.Duration { return 64 * Linger(wake) }

// SeqTry reports whether a stint alone of length stint, now over, ends with
// a try of the pool, at cost alone an element, when failed is the cost alone
// at which a dry piece last judged the pool not to pay (0: never), on a pool
// whose wake-up is wake: unless the cost alone is within SeqMargin of failed
// and the stint is shorter than SeqMaxStint.
func SeqTry(stint time.Duration, alone, failed float64, wake time.Duration) bool {
	return failed == 0 || alone >= SeqMargin*failed || stint >= SeqMaxStint(wake)
}

// SeqNextStint returns the length of the stint alone after one of length
// stint that ended in a failed try, or that SeqTry kept alone, on a pool
// whose wake-up is wake.
func SeqNextStint(stint, wake time.Duration) time.Duration {
	return min(2*stint, SeqMaxStint(wake))
}

// SeqWindowPieces is the fewest pieces in a window (SeqWindowDone).
const SeqWindowPieces = 8

// SeqWindowDone reports whether a window of the pool that has lasted el and
// handed pieces over is long enough to judge: SeqWindowPieces pieces, and as
// long as that many pieces of LeafTarget, so that a preemption or a slow
// wake-up weighs little in it.
func SeqWindowDone(el time.Duration, pieces int) bool {
	return pieces >= SeqWindowPieces && el >= SeqWindowPieces*LeafTarget
}

// SeqWindow is what a pass measured over a window of the pool (SeqKeep).
type SeqWindow struct {
	// El is how long the window lasted, and Elements how many elements the
	// pass handed over in it.
	El       time.Duration
	Elements int
	// Stalled is how much of the caller's own part in the window (filling
	// pieces, processing them, handing them over) a stall took (SeqStall).
	Stalled time.Duration
	// Helped: a worker handed a piece over in it.
	Helped bool
}

// SeqKeep reports whether a pass stays on the pool after window w, at cost
// alone nanoseconds an element: if a worker handed a piece over in it, and
// the elements came no slower than alone once the caller's stalls are set
// aside. Without a worker the caller only did alone what it does alone,
// with the copies on top: the pool's workers are busy elsewhere or their
// processors taken. Whatever held the caller up would have held up a pass
// alone as long: a stall of the whole process inside a window made it
// slower than alone, and the pass left, drained and ramped its pieces up
// again. With the stalls set aside, W13's elements at 100 and 1,000 steps
// ran at 1.09 and 1.14 times the speed at GOMAXPROCS 8, 1.10 and 1.04
// beside a busy process, level at GOMAXPROCS 2 (go run ./bench -w W13 -c
// none -scaling=false -sweep=false -reps 3, 8-14 alternated rounds). A
// window begins again when the first worker of a try hands a piece over, so
// that the wake-up is not judged. slow reports a window that a worker took
// part in and that came slower than alone (SeqFailed).
func SeqKeep(w SeqWindow, alone float64) (keep, slow bool) {
	pool := float64(w.El-w.Stalled) / float64(max(w.Elements, 1))
	return w.Helped && pool <= alone, w.Helped && pool > alone
}

// SeqStall returns how much of a span of the caller's own, d for n
// elements, a stall took, where such spans took least nanoseconds an
// element at the least in the try (0: none yet): what it took past
// SeqMargin times the least, so that the spread of pieces that share a
// machine is not counted.
func SeqStall(d time.Duration, n int, least float64) time.Duration {
	if least == 0 {
		return 0
	}
	return max(0, d-time.Duration(SeqMargin*least*float64(n)))
}

// SeqFailed reports whether slows windows in a row, each ending a try,
// that a worker took part in and that came slower than alone (SeqKeep)
// judge that the pool does not pay at this cost, as a failed dry piece does
// (SeqTry). A worker that shares the cache lines the caller writes, through
// f's captured variables, makes every element dearer on the pool than alone
// however often the pass tries (MapSeq2 at 50 ns an element in -bench
// PairedSeq). The verdict is taken on two, as SeqDry's: taken on one, a
// window that a busy moment of the machine stretched held W13's element at
// 10,000 steps alone for the rest of its pass, and the pass ran at 1.48-1.79
// times the loop's speed instead of 1.80-1.83 (-bench 'PairedSeq/^k=10000$/',
// one round each).
func SeqFailed(slows int) bool { return slows >= 2 }
