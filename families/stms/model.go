package stms

import (
	"math"
)

// Resource is one heterogeneous, failing resource (Table 1, §2.1).
type Resource struct {
	// Speed is the availability RA in flops/s (Table 2: 100–500).
	Speed float64
	// Bandwidth is AB in Mbps (Table 2: 10–50).
	Bandwidth float64
	// Lambda is the failure coefficient λ per second.
	Lambda float64
	// RAL is the resource availability level.
	RAL float64
}

// Job holds the attributes of a job that the scheduler knows (the side
// table of a sim.Job). The engine's hidden work is the job's actual size in
// flops, which differs from Size when the workload has a runtime-estimate
// error: the scheduler plans with Size and observes only the work done so
// far (the state traces), never the actual size.
type Job struct {
	// Size in Mflops as the scheduler knows it (Table 2: 0.1–1).
	Size float64
	// Data is the job's data size JD in MB (Table 2: 300–1,000).
	Data float64
	// SDV is the service demand value.
	SDV float64
	// Deadline is absolute, in seconds.
	Deadline float64
}

// Model holds the constants of the runtime estimation and of migration
// (§2.3).
type Model struct {
	// TraceInterval and TraceOverhead give the state-tracking overhead
	// SO = (ET / TraceInterval) · TraceOverhead: one state trace per
	// TraceInterval seconds of execution, each costing TraceOverhead
	// seconds. A job that is restarted rather than migrated (IRS) is not
	// traced.
	TraceInterval, TraceOverhead float64
	// MigrationCost is a fixed delay in seconds every migration pays on top
	// of its data movement (re-dispatch, state restore); TransferFactor
	// multiplies the data-movement delay DM (1: eq. 3's DM as it stands).
	// Both are the farm's migration-cost axis; the paper has neither.
	MigrationCost, TransferFactor float64
	// FallbackBandwidth is the bandwidth (Mbps) assumed for a migration
	// beyond a job's chain, to a resource not known yet (New sets it to the
	// resources' mean when 0).
	FallbackBandwidth float64
}

// Transfer is the delay of migrating a job with remaining Mflops of state
// and data MB of data from x to y: MigrationCost + TransferFactor·DM.
func (m Model) Transfer(remaining, data float64, x, y Resource) float64 {
	return m.MigrationCost + m.TransferFactor*DM(remaining, data, x, y)
}

// Hazard returns the failure rate of job j on resource r: λ·(SDV − RAL)
// per second when SDV > RAL, else 0 (eq. 1 read as the hazard of an
// exponential law, P(fail within t) = 1 − e^(−λ t (SDV − RAL))).
func Hazard(j Job, r Resource) float64 {
	if j.SDV <= r.RAL {
		return 0
	}
	return r.Lambda * (j.SDV - r.RAL)
}

// FailProb is eq. 1: the probability that job j fails within t seconds on
// resource r.
func FailProb(j Job, r Resource, t float64) float64 {
	h := Hazard(j, r)
	if h == 0 || t <= 0 {
		return 0
	}
	return 1 - math.Exp(-h*t)
}

// ET is the execution time of size Mflops on r (ET = RJ / RA).
func ET(size float64, r Resource) float64 { return size * 1e6 / r.Speed }

// SO is the state-tracking overhead of an execution of et seconds.
func (m Model) SO(et float64) float64 {
	if m.TraceInterval <= 0 {
		return 0
	}
	return et / m.TraceInterval * m.TraceOverhead
}

// Efficiency is the share of a traced job's time spent on its work:
// TraceInterval / (TraceInterval + TraceOverhead).
func (m Model) Efficiency() float64 {
	if m.TraceInterval <= 0 {
		return 1
	}
	return m.TraceInterval / (m.TraceInterval + m.TraceOverhead)
}

// DM is the data-movement delay of a migration (§2.3.1): (RJ + JD) / AB,
// with the remaining state RJ counted as one MB per Mflop, JD in MB and
// AB_{x,y} the mean of the two resources' bandwidths in Mbps (8 bits per
// byte).
func DM(remaining, data float64, x, y Resource) float64 {
	ab := (x.Bandwidth + y.Bandwidth) / 2
	return 8 * (remaining + data) / ab
}

// PETIRS is eq. 4 for a job restarted on the same resource after every
// failure: ET + Σ_f P^f · ET/2, the f-th failure having probability P^f,
// summed to infinity: ET·(1 + P / (2(1 − P))), with P = FailProb over ET
// (capped at 0.99 so the value stays finite).
func PETIRS(j Job, size float64, r Resource) float64 {
	et := ET(size, r)
	p := math.Min(FailProb(j, r, et), 0.99)
	return et * (1 + p/(2*(1-p)))
}

// Stage is one resource of a job's chain as the estimation sees it.
type Stage struct {
	// Load is the expected time the stage occupies its resource.
	Load float64
	// Reach is the probability that the job runs on this stage at all.
	Reach float64
}

// PETChain is eqs. 2–3 summed over a chain of resources (the primary, then
// the backups it migrates to after failures), for size Mflops still to do.
// Stage s with remaining size S_s, ET_s = S_s/RA, SO_s, failure probability
// P_s = FailProb over ET_s and reach probability P_w (1 for the primary, the
// product of the previous P's after):
//
//	eet_s = P_w · (1 − P_s) · (ET_s + SO_s)
//	ewt_s = P_w · P_s · (ET_s/2 + SO_s + DM_{s,s+1})
//
// A failure strikes on average half-way (§2.3.1), so S_{s+1} = S_s/2 and
// DM moves S_s/2 plus the data. After the last stage of a chain a failed
// job still migrates with its state (STMS), to a resource the scheduler
// picks then: that fallback is taken as fast as the last stage and reached
// over the platform's mean bandwidth (FallbackBandwidth), so the last stage
// adds P_w·P·(DM_fb + ET/2 + SO/2) for the transfer and the other half. A
// stage occupies its resource for P_w·((1 − P)(ET + SO) + P(ET/2 + SO));
// stages (if non-nil) receives each stage's occupation.
func (m Model) PETChain(j Job, size float64, chain []Resource, stages []Stage) (pet float64, out []Stage) {
	out = stages[:0]
	pw := 1.0
	s := size
	for k, r := range chain {
		et := ET(s, r)
		so := m.SO(et)
		p := FailProb(j, r, et)
		load := pw * ((1-p)*(et+so) + p*(et/2+so))
		out = append(out, Stage{Load: load, Reach: pw})
		if k == len(chain)-1 {
			pet += load + pw*p*(m.Transfer(s/2, j.Data, r, Resource{Bandwidth: m.FallbackBandwidth})+et/2+so/2)
			break
		}
		pet += load + pw*p*m.Transfer(s/2, j.Data, r, chain[k+1])
		pw *= p
		s /= 2
	}
	return pet, out
}

// PP is eq. 5, the preemption priority of a job that would wait wait
// seconds for re-allocation if it lost and still needs remaining seconds:
// (t_w + t_r) / t_r.
func PP(wait, remaining float64) float64 {
	if remaining <= 0 {
		return math.Inf(1)
	}
	return (wait + remaining) / remaining
}
