package split

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSeqPays(t *testing.T) {
	for _, c := range []struct {
		name string
		c    SeqCosts
		p    int
		pays bool
	}{
		// W13's element at 1,000 steps: about 1 µs of work, 10 ns of pulling.
		{"costly f, two participants", SeqCosts{Alone: 1000, Serial: 10, Work: 1000}, 2, true},
		{"costly f, one participant", SeqCosts{Alone: 1000, Serial: 10, Work: 1000}, 1, false},
		// f of a step: the copies cost more than f.
		{"cheap f", SeqCosts{Alone: 2, Serial: 6, Work: 1}, 2, false},
		{"cheap f, many participants", SeqCosts{Alone: 2, Serial: 6, Work: 1}, 64, false},
		// 50 steps: max(10, 60/2) = 30, and 30*1.25 <= 50.
		{"f of 50 ns", SeqCosts{Alone: 50, Serial: 10, Work: 50}, 2, true},
		// The serial part bounds the pool whatever p is: 40*1.25 = 50.
		{"serial part at the margin", SeqCosts{Alone: 50, Serial: 40, Work: 10}, 64, true},
		{"serial part past the margin", SeqCosts{Alone: 50, Serial: 41, Work: 10}, 64, false},
		{"slow to pull", SeqCosts{Alone: 1500, Serial: 510, Work: 1000}, 2, true},
		{"no participant counts as one", SeqCosts{Alone: 1000, Serial: 10, Work: 1000}, 0, false},
	} {
		assert.Equal(t, c.pays, SeqPays(c.c, c.p), c.name)
	}
}

func TestSeqDry(t *testing.T) {
	costly := SeqCosts{Alone: 1000, Serial: 10, Work: 1000}
	stalled := SeqCosts{Alone: 1000, Serial: 600, Work: 2500}
	pays, again := SeqDry(costly, 2, 1)
	assert.True(t, pays)
	assert.False(t, again)
	pays, again = SeqDry(stalled, 2, 1)
	assert.False(t, pays)
	assert.True(t, again, "a verdict against the pool waits for a second dry piece")
	pays, again = SeqDry(stalled, 2, 2)
	assert.False(t, pays)
	assert.False(t, again, "two dry pieces against the pool end the try")
}

func TestSeqSample(t *testing.T) {
	assert.Equal(t, 100.0, SeqSample(0, 1, 100*time.Nanosecond), "the first sample counts, however short")
	assert.Equal(t, 100.0, SeqSample(100, 8, 400*time.Nanosecond), "a few elements in less than PrefixBudget do not count")
	assert.Equal(t, 50.0, SeqSample(100, 2*PrefixGrowth, time.Duration(2*PrefixGrowth)*50), "2*PrefixGrowth elements count")
	assert.Equal(t, 2500.0, SeqSample(5000, 8, 8*2500), "PrefixBudget counts")
	assert.Equal(t, 100.0, SeqSample(100, 4096, 4096*300), "a stall only makes a sample longer: the least is kept")
}

func TestSeqTry(t *testing.T) {
	const wake = 70 * time.Microsecond
	assert.True(t, SeqTry(PrefixBudget, 5, 0, wake), "no try has failed")
	assert.False(t, SeqTry(PrefixBudget, 5, 5, wake), "the cost alone at which the pool did not pay")
	assert.False(t, SeqTry(PrefixBudget, 6, 5, wake), "within the margin")
	assert.True(t, SeqTry(PrefixBudget, 6.25, 5, wake), "grown by the margin")
	assert.True(t, SeqTry(SeqMaxStint(wake), 5, 5, wake), "a stint of SeqMaxStint ends with a try")
	assert.Equal(t, 40*time.Microsecond, SeqNextStint(20*time.Microsecond, wake))
	assert.Equal(t, SeqMaxStint(wake), SeqNextStint(SeqMaxStint(wake)*3/4, wake))
	assert.Equal(t, SeqMaxStint(wake), SeqNextStint(SeqMaxStint(wake), wake))
	assert.Equal(t, 64*Linger(wake), SeqMaxStint(wake), "64 lingers: a failed try costs about one")
	assert.Equal(t, 10240*time.Microsecond, SeqMaxStint(0), "unmeasured: lingers of PrefixBudget")
	assert.Less(t, SeqMaxStint(4*time.Microsecond), SeqMaxStint(wake), "a faster wake-up, shorter stints")
}

func TestSeqNeedsDry(t *testing.T) {
	assert.True(t, SeqNeedsDry(0), "not measured")
	assert.True(t, SeqNeedsDry(float64(MinStep)-1))
	assert.False(t, SeqNeedsDry(float64(MinStep)), "a piece by itself")
}

func TestSeqWindow(t *testing.T) {
	long := SeqWindowPieces * LeafTarget
	assert.False(t, SeqWindowDone(long-1, 100), "too short")
	assert.False(t, SeqWindowDone(10*long, SeqWindowPieces-1), "too few pieces")
	assert.True(t, SeqWindowDone(long, SeqWindowPieces))
	us := time.Microsecond
	for _, c := range []struct {
		name       string
		w          SeqWindow
		keep, slow bool
	}{
		// Two participants at W13's element of 1,000 steps, 1 µs alone:
		// 800 elements in 400 µs, 500 ns each.
		{"faster than alone", SeqWindow{El: 400 * us, Elements: 800, Helped: true}, true, false},
		{"level", SeqWindow{El: 800 * us, Elements: 800, Helped: true}, true, false},
		{"slower than alone, with a worker", SeqWindow{El: 880 * us, Elements: 800, Helped: true}, false, true},
		{"no worker took part", SeqWindow{El: 400 * us, Elements: 800}, false, false},
		{"slower, but no worker took part", SeqWindow{El: 880 * us, Elements: 800}, false, false},
		// A stall of the whole process, 450 µs, held up the caller's own
		// part as much as the pool's: alone, the pass would have lost as
		// much.
		{"slower, but for the caller's stall", SeqWindow{El: 850 * us, Elements: 800, Stalled: 450 * us, Helped: true}, true, false},
		{"slower by more than the caller's stall", SeqWindow{El: 850 * us, Elements: 800, Stalled: 40 * us, Helped: true}, false, true},
		{"a stall, but no worker took part", SeqWindow{El: 850 * us, Elements: 800, Stalled: 450 * us}, false, false},
	} {
		keep, slow := SeqKeep(c.w, 1000)
		assert.Equal(t, c.keep, keep, c.name)
		assert.Equal(t, c.slow, slow, c.name)
	}
	assert.False(t, SeqFailed(1), "a verdict against the pool waits for a second slow window")
	assert.True(t, SeqFailed(2))
}

func TestSeqStall(t *testing.T) {
	us := time.Microsecond
	assert.Equal(t, time.Duration(0), SeqStall(50*us, 50, 0), "no least yet")
	assert.Equal(t, time.Duration(0), SeqStall(62*us, 50, 1000), "within SeqMargin of the least")
	assert.Equal(t, 400*us-62500*time.Nanosecond, SeqStall(400*us, 50, 1000), "a piece of 50 µs stretched to 400 µs")
}

func TestSeqStep(t *testing.T) {
	us := time.Microsecond
	for _, c := range []struct {
		name string
		n    int
		d    time.Duration
		rest time.Duration
		want int
	}{
		{"cheap: grows past the stint", 64, 2 * us, us, 512},
		{"cheap: up to SeqMaxStep", 4096, 100 * us, time.Millisecond, SeqMaxStep},
		{"dear: what the rest holds", 8, 8800 * time.Nanosecond, 10 * us, 9},
		{"dear: grows within the rest", 1, 1100 * time.Nanosecond, 19 * us, 8},
		{"dear: at least one", 1, 11 * us, 9 * us, 1},
		{"dear: none left", 1, 11 * us, -us, 1},
	} {
		assert.Equal(t, c.want, SeqStep(c.n, c.d, c.rest), c.name)
	}
}

func TestSeqPieceTime(t *testing.T) {
	const wake = 70 * time.Microsecond
	cheap, dear := float64(MinStep-1), float64(MinStep)
	assert.Equal(t, MinStep, SeqPieceTime(0, cheap, wake), "no less than MinStep")
	assert.Equal(t, 10*time.Microsecond, SeqPieceTime(Steps*5*time.Microsecond, cheap, wake), "a step of a young stint, taken to last twice its age")
	assert.Equal(t, LeafTarget, SeqPieceTime(time.Second, cheap, wake), "no more than LeafTarget")
	assert.Equal(t, LeafTarget, SeqPieceTime(0, dear, wake), "an element of MinStep: no less than LeafTarget")
	assert.Equal(t, 3*LeafTarget/2, SeqPieceTime(Steps*3*LeafTarget/4, dear, wake), "a step of the stint")
	assert.Equal(t, 160*time.Microsecond, SeqPieceTime(time.Second, dear, wake), "no more than the pool's linger")
	assert.Equal(t, Linger(0), SeqPieceTime(time.Second, dear, 0), "unmeasured: the linger of PrefixBudget")
	assert.Equal(t, 128*time.Microsecond, SeqPieceTime(time.Second, dear, 4*time.Microsecond), "bare metal's linger")
	assert.Equal(t, LeafTarget, SeqPieceTime(time.Second, dear, 500*time.Nanosecond), "a linger under LeafTarget: LeafTarget")
}
