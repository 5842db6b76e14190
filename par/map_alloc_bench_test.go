package par_test

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/weftgo/weft/par"
)

// BenchmarkMapAlloc is W7 of DESIGN.md (strconv.Itoa over [0, n) into an
// ordered []string): a map whose every element allocates, so that the
// garbage collector runs during the call. Beside it, the sequential loop and
// blocks taken from an atomic counter by one goroutine per core.
func BenchmarkMapAlloc(b *testing.B) {
	for _, n := range []int{200_000, 1_000_000} {
		in := make([]int, n)
		for i := range in {
			in[i] = i
		}
		b.Run(fmt.Sprintf("n=%d/impl=seq", n), func(b *testing.B) {
			for b.Loop() {
				out := make([]string, n)
				for i, x := range in {
					out[i] = strconv.Itoa(x)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=weft", n), func(b *testing.B) {
			for b.Loop() {
				par.Map(in, strconv.Itoa)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=blocks", n), func(b *testing.B) {
			for b.Loop() {
				out := make([]string, n)
				const blocks = 128
				size := (n + blocks - 1) / blocks
				var next atomic.Int64
				var wg sync.WaitGroup
				wg.Add(2)
				for range 2 {
					go func() {
						defer wg.Done()
						for {
							c := int(next.Add(1) - 1)
							if c >= blocks {
								return
							}
							for i := c * size; i < min(n, (c+1)*size); i++ {
								out[i] = strconv.Itoa(in[i])
							}
						}
					}()
				}
				wg.Wait()
			}
		})
	}
}
