package deque_test

import (
	"testing"
)

// Fuzz input encoding. The first byte picks the first capacity, 2<<(b&3); each
// later byte is one step: its low two bits the operation, the next three the
// count minus one.
const (
	opPush  = 0 // 1 also pushes, so that deques tend to grow
	opPop   = 2
	opSteal = 3
)

func step(op, count byte) byte { return (count-1)<<2 | op }

// FuzzOps runs sequences of Push, Pop and Steal on one goroutine and checks
// every result, Len and IsEmpty against the sequential model.
func FuzzOps(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{0, step(opPop, 1), step(opSteal, 1)})
	f.Add([]byte{0, step(opPush, 8), step(opPop, 8), step(opPush, 8), step(opSteal, 8)})
	f.Add([]byte{1, step(opPush, 2), step(opSteal, 1), step(opPop, 1), step(opPush, 2), step(opSteal, 1),
		step(opPop, 1), step(opPush, 2), step(opSteal, 1), step(opPop, 1)})
	f.Add([]byte{1, step(opPush, 3), step(opSteal, 2), step(opPush, 3), step(opSteal, 4)})
	f.Add([]byte{0, step(opPush, 8), step(opSteal, 5), step(opPush, 8), step(opPop, 3), step(opPush, 8),
		step(opSteal, 8), step(opPop, 8)})
	f.Add([]byte{3, step(opPush, 8), step(opPush, 8), step(opPush, 8), step(opSteal, 8), step(opPop, 8)})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		if len(data) > 1<<12 {
			data = data[:1<<12]
		}
		o := newOracle(t, 2<<(data[0]&3))
		for _, b := range data[1:] {
			n := int(b>>2&7) + 1
			for range n {
				switch b & 3 {
				case opPop:
					o.pop()
				case opSteal:
					o.steal()
				default:
					o.push()
				}
			}
		}
		o.drain()
	})
}
