package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weftgo/weft/internal/sim"
)

// loads are the suite's shapes at small sizes, for the invariants.
func loads() []sim.Load {
	c := sim.DefaultCosts
	return []sim.Load{c.W1Load(1_000_000), c.W2Load(100_000), c.W3Load(20_000), c.W2Load(1_000), c.W2Load(3)}
}

// TestDeterministic: the same configuration and seed give the same run.
func TestDeterministic(t *testing.T) {
	for _, l := range loads() {
		for _, p := range []int{2, 8, 64} {
			cfg := sim.Config{Machine: sim.VM, P: p, Seed: 7}
			a, b := sim.Calls(cfg, l, 3), sim.Calls(cfg, l, 3)
			require.Equal(t, a, b, "%s P=%d", l.Name, p)
		}
	}
}

// TestConservation: every element is folded exactly once, whatever the
// participants and the machine.
func TestConservation(t *testing.T) {
	for _, m := range []sim.Machine{sim.VM, sim.Bare} {
		for _, l := range loads() {
			for _, p := range []int{1, 2, 3, 16, 64} {
				for seed := range uint64(3) {
					name := fmt.Sprintf("%s/%s n=%d/P=%d/seed=%d", m.Name, l.Name, l.N, p, seed)
					for _, r := range sim.Calls(sim.Config{Machine: m, P: p, Seed: seed, Check: true}, l, 2) {
						require.Equal(t, l.N, r.Folded, name)
						covered := make([]bool, l.N)
						for _, sp := range r.Spans {
							for i := sp[0]; i < sp[1]; i++ {
								require.False(t, covered[i], "%s: element %d folded twice", name, i)
								covered[i] = true
							}
						}
					}
				}
			}
		}
	}
}

// TestBounds: no run beats T1/P or the span, and the work it charges is at
// least T1.
func TestBounds(t *testing.T) {
	for _, m := range []sim.Machine{sim.VM, sim.Bare} {
		for _, l := range loads() {
			for _, p := range []int{1, 2, 8, 64} {
				for _, r := range sim.Calls(sim.Config{Machine: m, P: p, Seed: 1}, l, 3) {
					name := fmt.Sprintf("%s/%s n=%d/P=%d", m.Name, l.Name, l.N, p)
					assert.GreaterOrEqual(t, r.T, r.T1/sim.Dur(p), name)
					assert.GreaterOrEqual(t, r.T, sim.Dur(l.Max()), name)
					assert.GreaterOrEqual(t, r.Busy, r.T1-sim.Dur(l.N)/1000, name) // rounding: under 1 ns a step
					assert.LessOrEqual(t, r.Busy, r.T*sim.Dur(p), name)
					assert.LessOrEqual(t, r.Worked, p, name)
				}
			}
		}
	}
}

func TestPrint(t *testing.T) {
	c := sim.DefaultCosts
	for _, l := range []sim.Load{c.W1Load(10_000_000), c.W2Load(400_000), c.W3Load(20_000)} {
		for _, p := range []int{2, 4, 8, 16, 32, 64} {
			for _, m := range []sim.Machine{sim.VM, sim.Bare} {
				r := sim.Call(sim.Config{Machine: m, P: p, Seed: 1}, l)
				t.Logf("%s %s P=%d T=%v T1=%v speedup %.2f eff %.2f forks %d steals %d wakes %d ramp %v worked %d", m.Name, l.Name, p, r.T, r.T1, r.Speedup(), r.Efficiency(), r.Forks, r.Steals, r.Wakes, r.Ramp, r.Worked)
			}
		}
	}
}
