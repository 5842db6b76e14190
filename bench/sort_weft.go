package main

import "github.com/weftgo/weft/par"

// weftSort is W6's weft entry: par.Sort, with the signature
//
//	func Sort[S ~[]E, E cmp.Ordered](s S, opts ...Option)
//
// par.Sort is not in the library yet, so the entry is nil and W6 reports weft
// as "pending par.Sort". When it lands, wiring it is this one line:
//
//	var weftSort func(s []uint64, opts ...par.Option) = par.Sort[[]uint64]
var weftSort func(s []uint64, opts ...par.Option) = nil

// weftSortPending is the reason W6 gives while weftSort is nil.
const weftSortPending = "pending par.Sort"
