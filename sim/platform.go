package sim

import "fmt"

// Pool is one type of resource with a fixed number of interchangeable units:
// the processors of a classic machine, or one resource type of seed 004's
// cloud.
type Pool struct {
	Name     string
	Capacity int
}

// Platform describes the machine a simulation runs on. Today it is a list of
// typed pools; a job's Demand has one entry per pool. Later platform models
// (K tiers of VMs per processor, per-node speed, availability, failures and
// attribute capacities) extend this type; schedulers that only count units
// keep working on the pools.
type Platform struct {
	Pools []Pool
	// Tiers > 1 splits every processor of the (single) pool into Tiers
	// virtual machines with strict CPU priority, tier 0 the highest (seed
	// 000: a foreground and a background VM per processor). Jobs are then
	// placed on explicit processors of a tier (Cluster.StartOn,
	// Cluster.Relocate) and progress at the speed Sharing gives them. 0 or
	// 1 is the dedicated machine.
	Tiers int
	// Sharing is the CPU-sharing model of a tiered platform; required when
	// Tiers > 1.
	Sharing Sharing
}

// Tiered reports whether the platform splits processors into VM tiers.
func (p Platform) Tiered() bool { return p.Tiers > 1 }

// Processors returns the classic platform: one pool "procs" of p identical
// processors.
func Processors(p int) Platform {
	return Platform{Pools: []Pool{{Name: "procs", Capacity: p}}}
}

// Validate reports a platform that cannot be simulated.
func (p Platform) Validate() error {
	if len(p.Pools) == 0 {
		return fmt.Errorf("platform: no resource pools; accepted: at least one pool with capacity > 0")
	}
	for i, pool := range p.Pools {
		if pool.Capacity <= 0 {
			return fmt.Errorf("platform: pool %d (%q): capacity %d; accepted: > 0", i, pool.Name, pool.Capacity)
		}
	}
	if p.Tiers < 0 || p.Tiers > MaxTiers {
		return fmt.Errorf("platform: %d tiers; accepted: 0 or 1 (dedicated processors) up to %d", p.Tiers, MaxTiers)
	}
	if p.Tiers > 1 && len(p.Pools) != 1 {
		return fmt.Errorf("platform: %d tiers over %d pools; accepted: tiers need exactly one processor pool", p.Tiers, len(p.Pools))
	}
	if p.Tiers > 1 && p.Sharing == nil {
		return fmt.Errorf("platform: %d tiers without a sharing model; accepted: a Sharing such as NewTwoTier", p.Tiers)
	}
	return nil
}

// Capacities returns the capacity of every pool, in pool order.
func (p Platform) Capacities() []int {
	c := make([]int, len(p.Pools))
	for i, pool := range p.Pools {
		c[i] = pool.Capacity
	}
	return c
}
