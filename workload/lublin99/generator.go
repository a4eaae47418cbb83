package lublin99

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/internal/dist"
)

// arrival is the per-type state of the daily-cycle arrival clock (spec §3.5).
type arrival struct {
	bucket int
	points float64
	rem    float64
	t      float64 // the type's pending arrival time
}

// Generator streams the jobs of the model. It implements workload.Source.
type Generator struct {
	p     Params
	rng   *rand.Rand
	tp    [2]TypeParams
	w     [2][Buckets]float64
	st    [2]arrival
	scale float64
	n     int
}

// New validates p and returns a generator drawing from rng.
func New(p Params, rng *rand.Rand) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, fmt.Errorf("lublin99: nil *rand.Rand")
	}
	g := &Generator{p: p, rng: rng, tp: p.effective(), scale: Scale(p)}
	for i := range g.tp {
		g.w[i] = Weights(g.tp[i])
	}
	g.nextArrival(Batch)
	g.nextArrival(Interactive)
	if !p.Typed {
		g.st[Batch].t = math.Inf(1)
	}
	return g, nil
}

// NewLegacyRand returns a *rand.Rand whose Float64 is POSIX drand48 seeded as
// srand48(seed). With Params.BitExact and Params.LegacyClock it reproduces
// the PWA C program.
func NewLegacyRand(seed int64) *rand.Rand {
	return rand.New(dist.NewDrand48(seed))
}

// Scale is the arrival scale factor in effect.
func (g *Generator) Scale() float64 { return g.scale }

// Params returns the generator's parameters.
func (g *Generator) Params() Params { return g.p }

func (g *Generator) gamma(a, b float64) float64 {
	if g.p.BitExact {
		return dist.GammaJain(g.rng, a, b)
	}
	return dist.Gamma(g.rng, a, b)
}

// nextArrival advances the clock of type ty by one interarrival.
func (g *Generator) nextArrival(ty int) {
	t := &g.tp[ty]
	w := &g.w[ty]
	s := &g.st[ty]
	var lg float64
	for {
		lg = g.gamma(t.AArr*t.ARAR, t.BArr)
		if lg <= TooMuchArrive {
			break
		}
	}
	s.points += g.scale * math.Exp(lg) / SecondsInBucket
	adv := 0.0
	for s.points > w[s.bucket] {
		s.points -= w[s.bucket]
		s.bucket = (s.bucket + 1) % Buckets
		adv += SecondsInBucket
	}
	newrem := s.points / w[s.bucket]
	adv += SecondsInBucket * (newrem - s.rem)
	s.rem = newrem
	if g.p.LegacyClock {
		s.t = math.Floor(s.t + adv)
	} else {
		s.t += adv
	}
}

// size draws a job size for type t (spec §3.6 step 3).
func (g *Generator) size(t *TypeParams) int {
	for {
		u := g.rng.Float64()
		if u <= t.SerialProb {
			return 1
		}
		s := dist.TwoStageUniform(g.rng, t.ULow, t.UMed, t.UHi, t.UProb)
		var n int
		if u <= t.SerialProb+t.Pow2Prob {
			n = clampSize(math.Exp2(math.Floor(s + 0.5)))
		} else {
			n = clampSize(math.Floor(math.Exp2(s) + 0.5))
		}
		if n <= g.p.Procs {
			return n
		}
	}
}

// runtime draws a runtime in whole seconds for a job of size n (§3.6 step 4).
func (g *Generator) runtime(t *TypeParams, n int) float64 {
	p := branchProb(*t, n)
	for {
		var h float64
		if g.rng.Float64() <= p {
			h = g.gamma(t.A1, t.B1)
		} else {
			h = g.gamma(t.A2, t.B2)
		}
		if h <= TooMuchTime {
			return math.Floor(math.Exp(h))
		}
	}
}

// Next returns the next job, or io.EOF after Params.Jobs jobs.
func (g *Generator) Next() (workload.Job, error) {
	if g.n >= g.p.Jobs {
		return workload.Job{}, io.EOF
	}
	g.n++
	ty := Interactive
	if g.st[Batch].t < g.st[Interactive].t {
		ty = Batch
	}
	submit := math.Floor(g.st[ty].t)
	g.nextArrival(ty)
	t := &g.tp[ty]
	n := g.size(t)
	rt := g.runtime(t, n)

	j := workload.NewJob()
	j.ID = int64(g.n)
	j.Submit = submit
	j.RunTime = rt
	j.AllocProcs = int64(n)
	j.Status = 1
	j.Queue = int64(ty)
	if g.p.SetReqProcs {
		j.ReqProcs = int64(n)
	}
	return j, nil
}

// Notes lists the deviations from the original program that are in effect,
// one line each, for "; Note:" header lines.
func (g *Generator) Notes() []string {
	var notes []string
	if g.p.LegacyClock {
		notes = append(notes, "lublin99: legacy clock (arrival clock truncated to whole seconds per arrival, as the original C)")
	} else {
		notes = append(notes, "lublin99: corrected clock (float64 arrival clock, submit = floor(T)); the original truncates per arrival")
	}
	if !g.p.Typed {
		notes = append(notes, "lublin99: typeless variant (INCLUDE_JOBS_TYPE 0)")
	}
	if g.p.Procs != ReferenceProcs {
		notes = append(notes, fmt.Sprintf("lublin99: adapted to %d processors (u_med, u_hi shifted by log2(P)-7 = %.4f; sizes > P redrawn)", g.p.Procs, math.Log2(float64(g.p.Procs))-referenceLog2Max))
	}
	if g.scale != 1 {
		notes = append(notes, fmt.Sprintf("lublin99: interarrival points scaled by %.6g (analytic offered load %.4f -> %.4f)", g.scale, DefaultLoad(g.p), DefaultLoad(g.p)/g.scale))
	}
	if g.p.SetReqProcs {
		notes = append(notes, "lublin99: requested processors (field 8) set to the size; the original leaves -1")
	}
	return notes
}
