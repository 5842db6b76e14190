package split

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSearches(t *testing.T) {
	const wake = 50 * time.Microsecond
	l := Linger(wake)
	assert.True(t, Searches(1, 0, wake, false), "the first round")
	assert.True(t, Searches(SearchRounds-1, l, wake, true), "the rounds are made even past the linger and while closing")
	assert.True(t, Searches(SearchRounds, l-1, wake, false), "within the linger")
	assert.False(t, Searches(SearchRounds, l, wake, false), "rounds made and the linger out")
	assert.False(t, Searches(SearchRounds, 0, wake, true), "a closing pool does not wait out the linger")
}

func TestLinger(t *testing.T) {
	assert.Equal(t, 8*PrefixBudget, Linger(0), "unmeasured: eight budgets of PrefixBudget")
	assert.Equal(t, 8*PrefixBudget, Linger(50*time.Microsecond), "a slow wake-up: the budget is PrefixBudget")
	assert.Equal(t, 8*Budget(4*time.Microsecond), Linger(4*time.Microsecond), "a fast one: eight of its budgets")
	assert.Less(t, Linger(4*time.Microsecond), Linger(0))
}

func TestYields(t *testing.T) {
	var yields []int
	for r := 1; r <= 3*LookEvery; r++ {
		if Yields(r) {
			yields = append(yields, r)
		}
	}
	assert.Equal(t, []int{LookEvery, 2 * LookEvery, 3 * LookEvery}, yields)
}

func TestWakes(t *testing.T) {
	assert.True(t, Wakes(0, 0, true), "nobody searches: a push wakes one")
	assert.False(t, Wakes(1, 1, true), "a searcher for the job")
	assert.True(t, Wakes(1, 2, true), "more jobs than searchers")
	assert.False(t, Wakes(3, 2, true), "more searchers than jobs")
	assert.True(t, Wakes(0, 0, false), "a short rest: nobody searches, a push still wakes one")
	assert.False(t, Wakes(1, 2, false), "a short rest: one searcher is enough, however many jobs wait")
}

func TestCrowded(t *testing.T) {
	assert.False(t, Crowded(RecordDepth-1))
	assert.True(t, Crowded(RecordDepth))
}
