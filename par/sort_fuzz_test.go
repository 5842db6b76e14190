package par_test

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/weftgo/weft/par"
)

// FuzzSort sorts the bytes read as int16 and as float32 (every bit pattern,
// NaNs of both signs and all payloads included) with Sort, on the caller and
// forced parallel, and compares with slices.Sort. When the first byte is a
// multiple of 8, the values are also tiled, with a shift per copy, to a length
// past the radix sort's cache leaf, so that its distribution passes run too
// (not under the race detector, where that is slow and other tests cover it).
func FuzzSort(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{0x00, 0x80, 0xFF, 0x7F, 0x00, 0x00, 0xC0, 0x7F, 0x01, 0x00, 0xC0, 0xFF, 0x00, 0x00, 0x80, 0x80})
	f.Add([]byte{8, 0, 0, 0x80, 0x7F, 0x80, 0xFF, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x80, 0xBF})
	f.Fuzz(func(t *testing.T, data []byte) {
		ints := make([]int16, len(data)/2)
		for i := range ints {
			ints[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
		}
		floats := make([]float32, len(data)/4)
		for i := range floats {
			floats[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		if !raceBuild && len(data) > 0 && data[0]%8 == 0 && len(ints) > 0 {
			const tiled = 1<<16 + 1000
			ti := make([]int16, tiled)
			for i := range ti {
				ti[i] = ints[i%len(ints)] + int16(i/len(ints))
			}
			ints = ti
			if len(floats) > 0 {
				tf := make([]float32, tiled)
				for i := range tf {
					tf[i] = math.Float32frombits(math.Float32bits(floats[i%len(floats)]) ^ uint32(i/len(floats)))
				}
				floats = tf
			}
		}
		for _, opts := range [][]par.Option{nil, {par.WithMinLen(1)}} {
			got := slices.Clone(ints)
			par.Sort(got, opts...)
			requireSorted(t, ints, got, true)
			gotf := slices.Clone(floats)
			par.Sort(gotf, opts...)
			requireSorted(t, floats, gotf, true)
		}
	})
}
