package deque

// Cap reports the capacity of w's current buffer. Owner only.
func Cap[T any](w Worker[T]) int { return int(w.d.buf.Load().mask + 1) }

// MinCap is the capacity of the first buffer New allocates.
const MinCap = minCap
