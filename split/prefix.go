package split

import "time"

// PrefixBudget is the prefix's budget while its pool's wake-up is not
// measured, and the most it is (Budget): how long a call works alone on a
// prefix of its range before it involves the pool. A call that ends within
// its budget costs what the plain loop costs, and a longer one has done at
// most about this much work (plus one chunk) before the rest runs in
// parallel. Every other time of the prefix is a fixed fraction or multiple
// of its budget (see the package doc, "The timed prefix"). 20 µs is half of
// a 40 µs wake-up; this VM's measured 47-105 µs (go test -bench Wake
// ./internal/sched) is no reason to run alone longer, since the rest a
// prefix hands over hides it (LongRest). W8 of `go run ./bench` shows the
// effect.
const PrefixBudget = 20 * time.Microsecond

// PrefixGrowth is the factor by which the prefix's chunks grow at most: the
// clock is read once a chunk, so about log8(n) times while elements are cheap.
// Twofold from the start, W8m (a Map of 1,000 elements, 2-3 µs) took
// 1.12-1.13 times as long at GOMAXPROCS 8 (go run ./bench -w W8 -c none
// -scaling=false -sweep=false -reps 3, 18 alternated rounds).
const PrefixGrowth = 8

// Budget returns the prefix's budget on a pool whose workers take wake from
// a wake-up to the work it was for (Load.Wake): four wake-ups, never over
// PrefixBudget nor under MinStep (so that an eighth of it still holds
// several clock reads); PrefixBudget while unmeasured (wake <= 0). On a VM
// whose wake-up is 47-105 µs it is PrefixBudget; on the simulator's bare
// metal (a wake-up of 4 µs) it is 16 µs, where calls of W2's body of 20 µs
// to 2 ms back to back run 1-8% faster than under PrefixBudget and none
// slower (go run ./bench -sim, "Calls of 20 µs to 2 ms"; bench/RESULTS.md,
// "The budget follows the wake-up", with the budgets tried and dropped).
func Budget(wake time.Duration) time.Duration {
	if wake <= 0 {
		return PrefixBudget
	}
	return min(max(4*wake, MinStep), PrefixBudget)
}

// LongRest is the rest that ends a prefix, once it has timed an eighth of
// its budget, on a pool whose workers take wake from a wake-up to its work
// (Load.Wake): twice that wake-up, so that the rest run in parallel hides
// it, never under twice the warm look (the least a warm prefix hands over,
// half the budget) nor over four budgets (longCall).
// Unmeasured (wake <= 0), it is four times PrefixBudget, which suits a
// wake-up of 40 µs or more (some 70 µs on a small VM: go test -bench Wake
// ./internal/sched).
func LongRest(wake time.Duration) time.Duration {
	b := Budget(wake)
	if wake <= 0 {
		return longCall(b)
	}
	return min(max(2*wake, 2*warmLook(b)), longCall(b))
}

// longCall is how long the rest of a call must promise to take, at the pace
// of a prefix that has timed an eighth of its budget b, for the prefix to
// end there and not spend the rest of its budget alone: four budgets.
func longCall(b time.Duration) time.Duration { return 4 * b }

// warmLook is when a warm prefix with budget b, of a call that begins while
// a worker of its pool is searching (Prefix.Warm), hands the rest to the
// pool: a quarter of the budget. That worker takes a fork within a round of
// its search, with no wake-up to hide, so the pool pays for a far shorter
// rest. A warm prefix ends as soon as its last chunk took an eighth of its
// warm look or more and, at that chunk's pace, the rest promises twice the
// warm look or more; otherwise it goes on as a cold one. The last chunk's
// pace, not the prefix's: the first chunks are a few elements each, whose
// time is mostly the clock's own (some 70 ns a read here), and a cheap body
// timed by them looks several times dearer than it is (W1's x*x over 10,000
// elements, 4 µs, went to the pool and took twice as long). The pool's
// workers search for a while after their last task before they park, so
// calls that come in a stream are warm: calls of 20 to 100 µs show the
// effect (W11 of go run ./bench).
func warmLook(b time.Duration) time.Duration { return b / 4 }

// firstLook is how much work, at the pace that calls of the same site
// measured before (Prefix.Expect), the first chunk of a prefix holds, a
// quarter of the budget it is planned with (PrefixBudget: the pool is not
// looked up yet): calls that the pace says are short run in one chunk and
// read the clock twice (each read costs some 35 ns here: go test -bench
// Clock ./par), where a first chunk of one element grows eightfold and
// reads it four or five times in a call of a few microseconds. A fraction
// of the budget, not all of it, so that a call whose elements have become
// dearer than its site's pace says runs alone at most shortCall times that
// factor (a thousand times dearer: about 11 ms) before its prefix sees the
// change.
func firstLook(b time.Duration) time.Duration { return b / 4 }

// shortCall is the longest call that no prefix with budget b hands a rest
// over from, at its pace: a warm one's least first chunk (an eighth of the
// warm look and a quarter more) and twice the warm look, some 10.8 µs of
// PrefixBudget. Expect plans a call that its pace says is no longer as one
// chunk, which package par runs untimed but for one call in eight, where
// two chunks read the clock three times and look up the pool (W2's body
// over 300 elements, 10 µs, in W11 of go run ./bench).
func shortCall(b time.Duration) time.Duration {
	return warmLook(b)/8*5/4 + 2*warmLook(b)
}

// Prefix is the plan of a call's timed prefix: the chunks [0, End()) that the
// caller has been told to run alone so far. Its methods take the time of a
// clock that the caller reads once a chunk.
type Prefix struct {
	n, first    int
	end, last   int       // where the chunks reach, and the last one's length
	start, prev time.Time // when the prefix and the last chunk began
	el          time.Duration
	budget      time.Duration // PrefixBudget, or Budget of its pool's wake-up (Meet)
	look        time.Duration // the budget, or its warm look once Warm
	expect      Pace          // as told by Expect
	stays       int           // chunks that Stay planned
	long        time.Duration // the rest that ends a prefix: LongRest of its pool's wake-up
}

// NewPrefix begins the prefix of a call of n elements, none of whose pieces
// may be shorter than minLen, at time now; the first chunk is [0, End()).
func NewPrefix(n, minLen int, now time.Time) Prefix {
	first := max(1, minLen)
	end := min(n, first)
	if n-end < first {
		end = n
	}
	return Prefix{n: n, first: first, end: end, last: end, start: now, prev: now, budget: PrefixBudget, look: PrefixBudget, long: LongRest(0)}
}

// Begin sets when the prefix began to now, for a plan that NewPrefix and
// Expect made before the clock was read, so that a call that its plan says
// is short can run untimed.
func (p *Prefix) Begin(now time.Time) { p.start, p.prev = now, now }

// Expect sizes the first chunk, before it runs, by pace, what calls of the
// same site measured before (the zero Pace: nothing known, the first chunk
// stays as NewPrefix made it): a quarter of the budget's worth at that pace
// (firstLook), or the whole call if it takes shortCall or less or what
// would be left is under a quarter of that, or an eighth of the budget's
// worth and a quarter more if the rest then promises four budgets
// (longCall), which Next hands over.
func (p *Prefix) Expect(pace Pace) {
	if pace.N <= 0 || pace.D <= 0 || p.end >= p.n {
		return
	}
	p.expect = pace
	k := max(p.first, pace.elems(firstLook(p.budget)))
	if k8 := max(p.first, pace.elems(p.budget/8*5/4)+1); p.n-k8 >= pace.elems(longCall(p.budget)) {
		// A long call: Next hands the rest over once it has timed an eighth
		// of the budget, and a quarter more keeps a pace that errs a little
		// towards dear elements from timing just short of it (W1's body at
		// 100 to 300 µs a call then ran a second chunk of 5 µs on about
		// half of the calls).
		k = k8
	}
	end := min(p.n, k)
	if p.n-end < max(p.first, k/4) || p.n <= pace.elems(shortCall(p.budget)) {
		end = p.n
	}
	p.end, p.last = end, end
}

// Warm tells the prefix, before its first call of Next, that a worker of the
// pool is searching (see warmLook). After Expect, and before the first chunk
// runs, it also shortens that chunk to an eighth of the warm look and a quarter
// more (as for a long call in Expect) at the expected pace if the rest then
// promises twice the warm look: about the least that times the pace, after which
// Next hands the rest over (a first chunk of firstLook kept calls of 25 to
// 45 µs alone twice as long as the warm rule needs).
func (p *Prefix) Warm() {
	w := warmLook(p.budget)
	p.look = w
	if p.expect.D <= 0 || p.end >= p.n {
		return
	}
	if k := max(p.first, p.expect.elems(w/8*5/4)+1); k < p.end && p.n-k >= p.expect.elems(2*w) {
		p.end, p.last = k, k
	}
}

// Meet tells the prefix, before its first call of Next, the load of the pool
// it would hand its rest to: its budget becomes Budget of the pool's
// wake-up and the rest that ends it LongRest of it, and it is warm (Warm) if
// the pool has a spare worker. The first chunk, planned before (Expect),
// stays as planned unless Warm shortens it.
func (p *Prefix) Meet(l Load) {
	p.budget, p.look, p.long = Budget(l.Wake), Budget(l.Wake), LongRest(l.Wake)
	if l.Spare() > 0 {
		p.Warm()
	}
}

// End returns where the chunks planned so far end.
func (p *Prefix) End() int { return p.end }

// Cover tells the prefix that the chunks done reach e, past End(): the
// stretch from End() to e was covered by the work of the chunks before it
// and cost next to nothing (a long line that a chunk read to its end; see
// package par's body.cover). The stretch counts in the prefix's pace, not in
// the length of its last chunk, which stays what was timed.
func (p *Prefix) Cover(e int) {
	if e > p.end {
		p.end = min(e, p.n)
	}
}

// Next is called at time now, once the chunks up to End have run and End is
// short of n. It reports false if the prefix ends there, the rest going to the
// pool: it has spent its budget, or it has timed an eighth of it and the rest
// promises four budgets or more (LongRest of the pool's wake-up, once Meet
// has told it), or it is warm and its rest promises enough (see
// warmLook), and the rest holds two MinPiece or more at the pace so far
// (a shorter one is the last chunk). Otherwise it plans the next chunk,
// [old End, End()):
// PrefixGrowth times the last while the prefix is young, then twice, and
// never past what is left of the budget (or of the warm look, before a warm prefix
// has timed it) at the last chunk's pace, since cost that climbs along the
// range (W3 of `go run ./bench`) made a chunk grown eightfold run for
// milliseconds while the pool waited; in a warm prefix whose last chunk took
// less than an eighth of the warm look, never past that eighth at its pace, all
// that warmRest needs. No chunk, and no rest, is shorter than the minimum
// length.
func (p *Prefix) Next(now time.Time) bool {
	p.el = now.Sub(p.start)
	d := now.Sub(p.prev)
	left := p.budget - p.el
	if p.n-p.end > p.first && (left < p.budget/8 || p.el >= p.budget/8 && p.Long() || p.warmRest(d)) {
		if p.RestAtLeast(2 * pieceOf(p.budget)) { // two pieces of MinPiece
			return false
		}
		// A rest that makes no two pieces would run on the caller all the
		// same, after the pool's seat and a fork: it is the last chunk.
		p.prev = now
		p.last, p.end = p.n-p.end, p.n
		return true
	}
	if p.el < p.look {
		left = p.look - p.el // a warm prefix's chunks end by its look
	}
	k := p.last * PrefixGrowth
	if p.el > p.look/16 {
		k = p.last * 2
	}
	if d > 0 {
		k = min(k, int(int64(p.last)*int64(left)/int64(d))+1)
		if p.look < p.budget && d < p.look/8 {
			// Warm: the next chunk is the one that times an eighth of
			// the warm look at this pace, which warmRest needs, and no longer.
			k = min(k, int(int64(p.last)*int64(p.look/8)/int64(d))+1)
		}
	}
	p.prev = now
	lo := p.end
	p.end = min(p.n, lo+max(k, p.first))
	if p.n-p.end < p.first {
		p.end = p.n
	}
	p.last = p.end - lo
	return true
}

// Stay plans one more chunk, [old End, End()), after Next reported at time
// now that the prefix ends, for a call that goes on alone instead (its pool
// has no processor to spare): its budget's worth at the pace so far, and
// twice as much at each Stay after it up to four budgets' worth, so that the
// call looks again that often whether to hand the rest over. A look costs
// more than its read of the clock, since each chunk ends a run of the body:
// W2's body over 3,000 elements run alone took 286.6 µs a call where the
// loop took 264.7 with chunks of PrefixBudget, and 262.5 where it took
// 262.4 with chunks that grow (go test ./par -run '^$' -bench CallAlone,
// 10 alternated runs, benchstat).
func (p *Prefix) Stay(now time.Time) {
	p.prev = now
	lo := p.end
	k := p.first
	if p.el > 0 {
		look := min(p.budget<<p.stays, longCall(p.budget))
		k = max(k, int(int64(p.end)*int64(look)/int64(p.el)))
	}
	p.stays = min(p.stays+1, 8)
	p.end = min(p.n, lo+k)
	if p.n-p.end < p.first {
		p.end = p.n
	}
	p.last = p.end - lo
}

// ShortRest reports, after Next said that the prefix ends, whether the rest
// takes its budget or less at the pace so far: a rest that a call whose
// pool has a call in progress for every processor runs alone, since no
// processor is free to share it unless a call ends first, and its fork and
// the wait for it cost more than such a call can gain (package par's
// prefix; W2's body over 700 to 1,000 elements from 4 callers on 2
// processors ran at 0.92-0.93 of the loop's speed handing such rests over,
// and 0.96 alone: W11 of go run ./bench).
func (p *Prefix) ShortRest() bool {
	return float64(p.el)*float64(p.n-p.end) <= float64(p.budget)*float64(p.end)
}

// RestAtLeast reports, after Next said that the prefix ends, whether the
// rest takes d or more at the pace so far.
func (p *Prefix) RestAtLeast(d time.Duration) bool {
	return float64(p.el)*float64(p.n-p.end) >= float64(d)*float64(p.end)
}

// Long reports whether the rest takes LongRest of the pool's wake-up (four
// budgets until Meet) or more at the pace so far: after Next said that the
// prefix ends, a rest the pool's parked workers can join in time. The pieces
// of a shorter one wake no more workers than it takes to have one searching
// (Wakes).
func (p *Prefix) Long() bool { return p.RestAtLeast(p.long) }

// warmRest reports whether the prefix is warm, its last chunk took d, an
// eighth of its warm look or more, and the rest takes twice that look or
// more at that chunk's pace.
func (p *Prefix) warmRest(d time.Duration) bool {
	return p.look < p.budget && d >= p.look/8 &&
		float64(d)*float64(p.n-p.end) >= float64(2*p.look)*float64(p.last)
}

// Budget returns the prefix's budget: PrefixBudget, or Budget of its pool's
// wake-up once Meet has told it. A prefix that hands its rest over teaches
// its site the pace it measured.
func (p *Prefix) Budget() time.Duration { return p.budget }

// Expected returns the pace that Expect was told, or the zero Pace.
func (p *Prefix) Expected() Pace { return p.expect }

// Pace returns the pace the prefix measured: End() elements in the time up to
// the last call of Next.
func (p *Prefix) Pace() Pace { return Pace{N: p.end, D: p.el} }

// Measured returns the pace of the whole prefix once the chunks up to End
// have run, at time now: End() elements since it began. Its early chunks'
// clock reads count in it, so it errs towards dear elements, which make the
// next call's first chunk (Expect) shorter, never longer.
func (p *Prefix) Measured(now time.Time) Pace { return Pace{N: p.end, D: now.Sub(p.start)} }

// LastChunk returns the pace of the prefix's last chunk, once it has run,
// at time now: what the step after it, on the same goroutine, is sized by.
func (p *Prefix) LastChunk(now time.Time) Pace { return Pace{N: p.last, D: now.Sub(p.prev)} }

// Pace is a measured rate: N elements took D. The zero Pace is unknown.
type Pace struct {
	N int
	D time.Duration
}

// elems returns about how many elements take d at p, counting D as at least
// a nanosecond.
func (p Pace) elems(d time.Duration) int {
	return int(int64(p.N) * int64(d) / max(int64(p.D), 1))
}
