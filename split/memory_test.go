package split

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSplitPace(t *testing.T) {
	cheap, dear := Pace{N: 1000, D: time.Microsecond}, Pace{N: 1, D: time.Millisecond}
	assert.Equal(t, cheap, SplitPace(dear, cheap), "the record, cheaper")
	assert.Equal(t, cheap, SplitPace(cheap, dear), "the measure, cheaper")
	few := Pace{N: 1, D: time.Millisecond}
	assert.Equal(t, few, SplitPace(few, Pace{}), "no record: the measure, however few its elements")
}

// ns is a pace of d nanoseconds an element, measured over n elements.
func ns(n int, d time.Duration) Pace { return Pace{N: n, D: time.Duration(n) * d} }

func TestLearn(t *testing.T) {
	m, changed := Learn(Memory{}, ns(1000, 10), false)
	assert.True(t, changed)
	assert.Equal(t, Memory{PS: 10_000}, m, "a first measure settles")
	assert.Equal(t, ns(1000, 10), m.Pace())

	same, changed := Learn(m, Pace{N: 1000, D: 10_500}, false)
	assert.False(t, changed, "within an eighth: no write")
	assert.Equal(t, m, same)

	near, changed := Learn(m, ns(1000, 15), false)
	assert.True(t, changed)
	assert.Equal(t, Memory{PS: 15_000}, near, "within twofold: settled at the new pace")

	sus, changed := Learn(m, ns(1000, 50), false)
	assert.True(t, changed)
	assert.Equal(t, Memory{PS: 10_000, Suspect: true}, sus, "one far dearer measure: suspect, its pace kept")
	assert.Equal(t, m.Pace(), sus.Pace(), "a suspect record still predicts")
	again, _ := Learn(sus, ns(1000, 50), false)
	assert.Equal(t, Memory{PS: 50_000, Unsettled: true}, again, "dearer twice: unsettled")
	assert.Equal(t, Pace{}, again.Pace(), "an unsettled record predicts nothing")
	back, _ := Learn(sus, ns(1000, 11), false)
	assert.Equal(t, Memory{PS: 11_000}, back, "a suspect record confirmed settles")
	settled, _ := Learn(again, ns(1000, 60), false)
	assert.Equal(t, Memory{PS: 60_000}, settled, "an unsettled record confirmed settles")

	cheaper, _ := Learn(m, ns(1000, 2), false)
	assert.Equal(t, Memory{PS: 2_000, Unsettled: true}, cheaper, "far cheaper: unsettled at once")

	// A short call that ended in its prefix, short at both paces, settles
	// whatever the ratio: its clock reads weigh on what it measured.
	short, _ := Learn(Memory{PS: 1_000}, ns(10, 5), true)
	assert.Equal(t, Memory{PS: 5_000}, short)

	_, changed = Learn(m, Pace{}, false)
	assert.False(t, changed, "nothing measured")
	huge, _ := Learn(Memory{}, Pace{N: 1, D: time.Hour}, false)
	assert.Equal(t, uint64(MaxPS), huge.PS, "paces beyond MaxPS are clamped")
}

func TestMemoryShort(t *testing.T) {
	m := Memory{PS: 10_000} // 10 ns an element
	short := shortCall(PrefixBudget)
	assert.True(t, m.Short(int(short/(10*time.Nanosecond))))
	assert.False(t, m.Short(int(short/(10*time.Nanosecond))+1))
	assert.False(t, Memory{}.Short(1), "nothing recorded")
	assert.False(t, Memory{PS: 1, Unsettled: true}.Short(1), "unsettled")
}

// TestShortPS: the constant a short call is told by is shortCall of
// PrefixBudget, in picoseconds.
func TestShortPS(t *testing.T) {
	assert.Equal(t, uint64(shortCall(PrefixBudget))*1000, shortPS)
}
