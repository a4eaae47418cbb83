package ktier

import "github.com/schedfarm/schedfarm/sim"

// Sharing is the K-tier generalisation of seed 000's two-tier sharing model
// (sim.TwoTier): every processor (node) runs one foreground VM (tier 0,
// high CPU priority) and K−1 background VMs (tiers 1…K−1, low priority,
// equal among themselves).
//
//   - A foreground process loses the fraction loss of its speed when at
//     least one background VM of its processor is busy (one loss, however
//     many are busy: the loss is the cost of running a low-priority tier
//     beside it at all, and seed 000 measured it for one).
//   - The background VMs share the CPU the foreground leaves idle,
//     idle = 1 − (foreground usage), or all of it when the foreground VM
//     is idle, max-min fairly (water-filling): each busy background VM gets
//     its usage if that fits its equal share, and what the lighter ones
//     leave is split equally among the heavier. A background process that
//     gets a share s of its usage u runs at eff·s/u beside a busy
//     foreground (eff: seed 000's background efficiency, the cost of
//     virtualisation and of being preempted by the foreground) and at s/u
//     when the foreground VM is idle.
//
// Why this rule: background VMs have equal priority, and a proportional-
// share CPU scheduler with equal weights (Xen's credit scheduler, Linux
// CFS) gives max-min fair shares; eff is a property of running at low
// priority beside a busy foreground, so it multiplies, it is not divided.
// With one busy background VM the share is min(u, idle), so for K = 2 the
// rule is exactly sim.TwoTier (eff when idle ≥ u, eff·idle/u otherwise, 1
// beside an idle foreground) — TestTwoTiersAreSeed000 checks it on random
// occupancies.
//
// Each job draws its loss and eff once, as sim.TwoTier does (same seed,
// same job: same draws), so K = 2 runs are identical to seed 000's
// platform.
type Sharing struct {
	*sim.TwoTier
}

// NewSharing returns the K-tier model with seed 000's constants.
func NewSharing(seed uint64) *Sharing { return &Sharing{TwoTier: sim.NewTwoTier(seed)} }

// Speed implements sim.Sharing.
func (m *Sharing) Speed(j *sim.Job, i, tier int, occ []float64) float64 {
	if len(occ) <= 2 {
		return m.TwoTier.Speed(j, i, tier, occ) // K = 2: seed 000's model itself
	}
	if tier == 0 {
		for _, u := range occ[1:] {
			if u > 0 {
				loss, _ := m.Draws(j)
				return 1 - loss
			}
		}
		return 1
	}
	_, eff := m.Draws(j)
	idle, factor := 1.0, 1.0
	if fg := occ[0]; fg > 0 {
		idle, factor = max(0, 1-fg), eff
	}
	req := j.CPU(i)
	if req <= 0 {
		return factor
	}
	sum, busy := 0.0, 0
	for _, u := range occ[1:] {
		if u > 0 {
			sum += u
			busy++
		}
	}
	switch {
	case sum <= idle: // every background process gets its usage
		return factor
	case busy == 1: // only this one: min(u, idle) = idle (sim.TwoTier)
		return factor * idle / req
	}
	got := WaterFill(idle, req, occ[1:])
	if got >= req {
		return factor
	}
	return factor * got / req
}

// WaterFill returns the max-min fair share of capacity that a demand of
// req gets among the positive demands in all (req among them): demands are
// served lightest first, each getting min(its demand, what is left / how
// many are left). It allocates nothing for up to sim.MaxTiers demands.
func WaterFill(capacity, req float64, all []float64) float64 {
	var buf [sim.MaxTiers]float64
	d := buf[:0]
	for _, u := range all {
		if u > 0 {
			// insertion in ascending order: K ≤ sim.MaxTiers
			d = append(d, u)
			for b := len(d) - 1; b > 0 && d[b] < d[b-1]; b-- {
				d[b], d[b-1] = d[b-1], d[b]
			}
		}
	}
	left := capacity
	for k, u := range d {
		share := left / float64(len(d)-k)
		if u >= req {
			if share < req {
				return share
			}
			return req
		}
		if u < share {
			share = u
		}
		left -= share
	}
	if left < req {
		return left
	}
	return req
}
