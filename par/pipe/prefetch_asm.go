//go:build amd64 || arm64

package pipe

import "unsafe"

// prefetchLines hints the lines >= 1 cache lines of 64 bytes from p.
//
//go:noescape
func prefetchLines(p unsafe.Pointer, lines int)
