package split

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSearches(t *testing.T) {
	assert.True(t, Searches(1, 0, false), "the first round")
	assert.True(t, Searches(SearchRounds-1, Linger, true), "the rounds are made even past the linger and while closing")
	assert.True(t, Searches(SearchRounds, Linger-1, false), "within the linger")
	assert.False(t, Searches(SearchRounds, Linger, false), "rounds made and the linger out")
	assert.False(t, Searches(SearchRounds, 0, true), "a closing pool does not wait out the linger")
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
	assert.True(t, Wakes(0, 0), "nobody searches: a push wakes one")
	assert.False(t, Wakes(1, 1), "a searcher for the job")
	assert.True(t, Wakes(1, 2), "more jobs than searchers")
	assert.False(t, Wakes(3, 2), "more searchers than jobs")
}

func TestCrowded(t *testing.T) {
	assert.False(t, Crowded(RecordDepth-1))
	assert.True(t, Crowded(RecordDepth))
}
