package par

import "github.com/weftgo/weft/internal/sched"

// CrowdLen is the number of unstolen forks after which a worker's forks run
// as plain calls.
const CrowdLen = sched.CrowdLen

// UnstolenForks returns how many forks of w wait in its deque unstolen.
func UnstolenForks(w *Worker) int { return w.sched().Len() }
