package pipe

import "math/bits"

// Fields finds its separators, the six ASCII space bytes, 64 bytes at a
// time: spaces64 makes a word with a bit per byte, and the fields begin and
// end where the bits change, which a count reads with a population count and
// a cut with trailing-zero counts. The byte loop it replaced, a table lookup
// and a branch a byte, mispredicted a branch at each end of a field. Count
// over 4 MiB of words took 1.1-1.2 ms with it, and 0.56 ms with the words of
// bits; Collect, whose time the collector's pacing moves, 0.84-0.99 of
// strings.Fields' time, and 0.31-0.61 (medians of two sets of 4 runs of go
// test -run '^$' -bench 'TextSources/.*/Fields/words' ./par/pipe).

const (
	ones8 = 0x0101010101010101 // 1 in each byte
	high8 = 0x8080808080808080 // the high bit of each byte
	// gather8 moves the bits 0, 8, ..., 56 of a word to its top byte, in
	// order: every product of a bit and gather8's lands on its own place.
	gather8 = 0x0102040810204080
)

// spaces8 returns a bit for each byte of w (the lowest byte first, at bit 0)
// that is an ASCII space: ' ', or '\t' to '\r' (9 to 13). Each byte's test
// is exact: no carry crosses from one byte into the next.
func spaces8(w uint64) uint64 {
	low := w &^ high8 // each byte's low 7 bits: adding under 128 to one does not carry out of it
	d := w ^ (ones8 * ' ')
	blank := ^(((d &^ high8) + (high8 - ones8)) | d) // high bit where the byte is ' '
	ge9 := low + (0x80-9)*ones8                      // high bit where the low 7 bits are 9 or more
	ge14 := (low + (0x80-14)*ones8) | w              // high bit where the byte is 14 or more
	f := (blank | ge9&^ge14) & high8
	return (f >> 7) * gather8 >> 56
}

// spaces64 returns a bit for each byte of s[at:at+64] that is an ASCII
// space (see spaces8), where the bytes past the end of s count as spaces.
func spaces64(s string, at int) uint64 {
	if at+64 > len(s) {
		m := ^uint64(0)
		for k := range len(s) - at {
			if !asciiSpace[s[at+k]] {
				m &^= 1 << k
			}
		}
		return m
	}
	b, m := s[at:at+64], uint64(0)
	for k := 0; k < 64; k += 8 {
		w := uint64(b[k]) | uint64(b[k+1])<<8 | uint64(b[k+2])<<16 | uint64(b[k+3])<<24 |
			uint64(b[k+4])<<32 | uint64(b[k+5])<<40 | uint64(b[k+6])<<48 | uint64(b[k+7])<<56
		m |= spaces8(w) << k
	}
	return m
}

// countFields returns how many fields start in [lo, hi): at the bytes that
// are not spaces and begin the text or follow a space.
func (t *text[S]) countFields(lo, hi int) int {
	s, k := t.str, 0
	prev := uint64(1) // the bit of the byte before: 1 for a space, or at the start of the text
	if lo > 0 && !asciiSpace[s[lo-1]] {
		prev = 0
	}
	for at := lo; at < hi; at += 64 {
		m := spaces64(s, at)
		starts := ^m & (m<<1 | prev)
		if hi-at < 64 {
			starts &= 1<<(hi-at) - 1
		}
		k += bits.OnesCount64(starts)
		prev = m >> 63
	}
	return k
}

// cutFields is cutSep for Fields: it writes into dst the fields that start
// in [i, hi), beginning with the first at or after i, where i is a space or
// the start of a field. The end it returns is the last byte it had to read:
// the block of 64 that holds it may reach up to 63 bytes further.
func (t *text[S]) cutFields(i, hi int, dst []S, pos []int) (k, next, end int) {
	s, n := t.str, len(t.str)
	if len(dst) == 0 {
		return 0, i, min(i, n) - 1
	}
	start := -1 // the start of the field being read, or -1 outside one
	prev := uint64(1)
	for at := i; at < n; at += 64 {
		m := spaces64(s, at)
		edges := m ^ (m<<1 | prev) // where a field starts or ends, by turns
		prev = m >> 63
		for edges != 0 {
			p := at + bits.TrailingZeros64(edges)
			edges &= edges - 1
			if start < 0 {
				if p >= hi { // the field at p is the next range's
					return k, p, min(p, hi)
				}
				start = p
				continue
			}
			if p-start >= gapMin {
				t.noteGap(start, p)
			}
			dst[k] = t.piece(start, p)
			if pos != nil {
				pos[k] = start
			}
			if k++; k == len(dst) {
				return k, p, p
			}
			start = -1
		}
		if start < 0 && at+64 >= hi {
			return k, max(hi, at), min(n, max(hi, at)) - 1
		}
	}
	if start >= 0 { // a field that ends the text
		if n-start >= gapMin {
			t.noteGap(start, n)
		}
		dst[k] = t.piece(start, n)
		if pos != nil {
			pos[k] = start
		}
		k++
	}
	return k, n, n - 1
}
