package par_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

// TestJoinNilWorkerMessage checks a fixed bug in join.go: Join2 and Worker.Join
// given a nil *Worker (a handle not passed down, a zero value) die with a
// nil pointer dereference inside the library, which names neither the
// function nor the parameter, where every other bad argument of par gets a
// message. Spawner.Spawn already checks its w.
//
// Input: par.Join2(nil, fa, 1, fb, 2); var w *par.Worker; w.Join(a, b).
// Expected: panics "par: Join2: w is nil" and "par: Worker.Join: w is nil".
// Was: runtime error: invalid memory address or nil pointer dereference.
func TestJoinNilWorkerMessage(t *testing.T) {
	leaf := func(*par.Worker, int) int { return 0 }
	noop := func(*par.Worker) {}
	var nilWorker *par.Worker
	assert.Equal(t, "par: Join2: w is nil", panicValue(t, func() { par.Join2(nil, leaf, 1, leaf, 2) }))
	assert.Equal(t, "par: Worker.Join: w is nil", panicValue(t, func() { nilWorker.Join(noop, noop) }))
	requireUsable(t, nil)
}
