package pipe_test

// zero is the init of the folds of ints in the tests.
func zero() int { return 0 }
