package par

// PoolOf returns the pool that opts direct a call at, nil for the default
// pool.
func PoolOf(opts ...Option) *Pool { return configure(opts).pool }
