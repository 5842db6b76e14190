package main

import "github.com/weftgo/weft/par"

// weftSort is W6's weft entry: par.Sort on the call's pool.
func weftSort(s []uint64, opts []par.Option) { par.Sort(s, opts...) }
