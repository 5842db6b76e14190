package pipe

// Opaque returns a pipe with p's items whose source positions are unknown, as
// a stage or source that keeps no positions would make: it is not one-to-one
// and has no positional recipe.
func Opaque[T any](p Pipe[T]) Pipe[T] { return Pipe[T]{n: p.n, open: p.open} }
