package par_test

import (
	"context"
	"fmt"
	"runtime/pprof"

	"github.com/weftgo/weft/par"
)

// A request handler labels its work, so that a CPU profile shows the pool's
// time under the request: go tool pprof -tagfocus=request=checkout cpu.prof.
// pprof.Do labels the handler's own goroutine; WithLabels the work that the
// pool's workers do for the call.
func ExampleWithLabels() {
	prices := []int{120, 80, 45, 300}
	ctx := context.Background()
	pprof.Do(ctx, pprof.Labels("request", "checkout"), func(ctx context.Context) {
		withTax := par.Map(prices, func(p int) int { return p * 120 / 100 }, par.WithLabels(ctx))
		fmt.Println(withTax)
	})
	// Output: [144 96 54 360]
}
