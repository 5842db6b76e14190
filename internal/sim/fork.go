package sim

// forkState is a participant's recursion (W4), fork.go's.
type forkState struct{}

// recursion is a recursion's shared state.
type recursion struct{}

func (r *recursion) runJob(w *part, j *job) {}
