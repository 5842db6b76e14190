package par

// ScanBlockLen is the block length of a scan of n elements, for the tests'
// blocked oracle of float scans.
func ScanBlockLen(n int) int { return scanBlockLen(n) }
