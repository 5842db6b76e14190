package split

// The prefix's fractions of its budget, for the external tests.
var (
	LongCallOf  = longCall
	WarmLookOf  = warmLook
	FirstLookOf = firstLook
	ShortCallOf = shortCall
)
