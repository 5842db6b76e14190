package par_test

import (
	"context"
	"testing"

	"github.com/weftgo/weft/par"
)

// BenchmarkScopeErr is the cost of a fallible scope beside Scope: an empty
// call, and a complete binary tree of 1,023 empty tasks spawned by the tasks
// themselves, without a bound and with one.
//
//	go test -run '^$' -bench 'Scope(Err)?$' -benchmem ./par
func BenchmarkScopeErr(b *testing.B) {
	ctx := context.Background()
	b.Run("empty/Scope", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			par.Scope(func(*par.Spawner, *par.Worker) {})
		}
	})
	b.Run("empty/ScopeErr", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = par.ScopeErr(ctx, func(context.Context, *par.Group, *par.Worker) error { return nil })
		}
	})
	const depth = 9 // 2^10-2 tasks
	b.Run("tree=1022/Scope", func(b *testing.B) {
		b.ReportAllocs()
		var node func(s *par.Spawner, w *par.Worker, d int)
		node = func(s *par.Spawner, w *par.Worker, d int) {
			if d == 0 {
				return
			}
			s.Spawn(w, func(w *par.Worker) { node(s, w, d-1) })
			s.Spawn(w, func(w *par.Worker) { node(s, w, d-1) })
		}
		for b.Loop() {
			par.Scope(func(s *par.Spawner, w *par.Worker) { node(s, w, depth) })
		}
	})
	for _, limit := range []int{0, 2} {
		name := "tree=1022/ScopeErr"
		if limit > 0 {
			name += "-limit2"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var node func(g *par.Group, w *par.Worker, d int) error
			node = func(g *par.Group, w *par.Worker, d int) error {
				if d == 0 {
					return nil
				}
				g.Spawn(w, func(_ context.Context, w *par.Worker) error { return node(g, w, d-1) })
				g.Spawn(w, func(_ context.Context, w *par.Worker) error { return node(g, w, d-1) })
				return nil
			}
			for b.Loop() {
				_ = par.ScopeErr(ctx, func(_ context.Context, g *par.Group, w *par.Worker) error {
					if limit > 0 {
						g.SetLimit(limit)
					}
					return node(g, w, depth)
				})
			}
		})
	}
}
