package seed002

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/workload/internal/dist"
)

// Interval is a range [Lo, Hi].
type Interval struct{ Lo, Hi float64 }

// Lifetime classes of Table 3 (fraction of short-lived jobs).
const (
	ClassNone = ""    // sizes uniform over Size
	Class1    = "8:2" // 80% short
	Class2    = "5:5"
	Class3    = "2:8"
)

// Arrival-rate regimes: how Table 2's "1.67 jobs/sec" is read.
const (
	// Literal reads ArrivalRate in jobs per second, as printed: with 30–50
	// resources of 100–500 flops/s and jobs of 0.1–1 Mflops the resources
	// serve about 0.02 jobs/s, so 1.67 jobs/s is about 60–100 times their
	// capacity and every run drains a backlog.
	Literal = "literal"
	// Calibrated reads ArrivalRate in jobs per minute: 1.67 jobs/min is 100
	// jobs an hour, two mGA batches of 50 per one-hour cycle (Table 2's
	// batch size and interval), and an offered load of about 1.0 on the 50
	// resources of Fig. 7.
	Calibrated = "calibrated"
)

// Params configure a Generator. Start from Default.
type Params struct {
	Jobs      int
	Resources int
	// ArrivalRate is the mean arrival rate in jobs per second (Regime
	// Literal) or per minute (Calibrated).
	ArrivalRate float64
	Regime      string
	// Load, when > 0, sets the arrival rate instead: the offered load
	// Load = rate × mean job size / Σ resource speed (the fault-free
	// service demand against the capacity of the drawn resources).
	Load              float64
	Availability      Interval // resource speed, flops/s
	Bandwidth         Interval // Mbps
	FailureCoeff      Interval // λ per second
	AvailabilityLevel Interval // RAL
	Size              Interval // Mflops (no class)
	DataSize          Interval // MB
	ServiceDemand     Interval // SDV
	DeadlineSlack     Interval // deadline = submit + slack·size·1e6/mean availability
	// Class is ClassNone or one of Table 3's ratios; Short and Long are the
	// size ranges of the two kinds.
	Class       string
	Short, Long Interval
}

// Default returns Table 2's configuration with 50 resources and 10,000 jobs.
func Default() Params {
	return Params{
		Jobs: 10000, Resources: 50, ArrivalRate: 1.67, Regime: Literal,
		Availability: Interval{100, 500}, Bandwidth: Interval{10, 50},
		FailureCoeff: Interval{1e-5, 1e-4}, AvailabilityLevel: Interval{0, 1},
		Size: Interval{0.1, 1}, DataSize: Interval{300, 1000}, ServiceDemand: Interval{0, 1},
		DeadlineSlack: Interval{1.5, 3},
		Short:         Interval{0.1, 0.15}, Long: Interval{0.85, 1},
	}
}

// ShortFraction returns the share of short-lived jobs of a class.
func ShortFraction(class string) (float64, bool) {
	switch class {
	case Class1:
		return 0.8, true
	case Class2:
		return 0.5, true
	case Class3:
		return 0.2, true
	}
	return 0, false
}

// Validate reports every invalid field.
func (p Params) Validate() error {
	var errs []error
	iv := func(f string, v Interval, lo float64) {
		if !(v.Lo >= lo && v.Hi >= v.Lo) || math.IsInf(v.Hi, 0) {
			errs = append(errs, fmt.Errorf("seed002: %s = %v, want %g ≤ Lo ≤ Hi < ∞", f, v, lo))
		}
	}
	if p.Jobs < 1 {
		errs = append(errs, fmt.Errorf("seed002: Jobs = %d, want ≥ 1", p.Jobs))
	}
	if p.Resources < 1 {
		errs = append(errs, fmt.Errorf("seed002: Resources = %d, want ≥ 1", p.Resources))
	}
	if !(p.ArrivalRate > 0) || math.IsInf(p.ArrivalRate, 0) {
		errs = append(errs, fmt.Errorf("seed002: ArrivalRate = %g, want a finite value > 0 jobs/s", p.ArrivalRate))
	}
	if p.Regime != Literal && p.Regime != Calibrated {
		errs = append(errs, fmt.Errorf("seed002: Regime = %q, want %q or %q", p.Regime, Literal, Calibrated))
	}
	if !(p.Load >= 0) || math.IsInf(p.Load, 0) {
		errs = append(errs, fmt.Errorf("seed002: Load = %g, want 0 (use the arrival rate) or a finite offered load > 0", p.Load))
	}
	iv("Availability", p.Availability, 1e-9)
	iv("Bandwidth", p.Bandwidth, 1e-9)
	iv("FailureCoeff", p.FailureCoeff, 0)
	iv("AvailabilityLevel", p.AvailabilityLevel, 0)
	iv("Size", p.Size, 1e-12)
	iv("DataSize", p.DataSize, 0)
	iv("ServiceDemand", p.ServiceDemand, 0)
	iv("DeadlineSlack", p.DeadlineSlack, 0)
	iv("Short", p.Short, 1e-12)
	iv("Long", p.Long, 1e-12)
	if _, ok := ShortFraction(p.Class); !ok && p.Class != ClassNone {
		errs = append(errs, fmt.Errorf("seed002: Class = %q, want \"\", %q, %q or %q", p.Class, Class1, Class2, Class3))
	}
	return errors.Join(errs...)
}

// Resource is one computing resource.
type Resource struct {
	ID                int     `json:"id"`
	Availability      float64 `json:"availability"`       // flops/s
	Bandwidth         float64 `json:"bandwidth"`          // Mbps
	FailureCoeff      float64 `json:"failure_coeff"`      // λ
	AvailabilityLevel float64 `json:"availability_level"` // RAL
}

// Job is one job.
type Job struct {
	ID            int     `json:"id"`
	Submit        float64 `json:"submit"`    // seconds
	Size          float64 `json:"size"`      // Mflops
	DataSize      float64 `json:"data_size"` // MB
	ServiceDemand float64 `json:"sdv"`
	Deadline      float64 `json:"deadline"` // absolute, seconds
	Long          bool    `json:"long"`     // long-lived (Table 3 classes only)
}

// MeanSize is the expected job size in Mflops: the middle of Size, or of
// Table 3's short and long ranges weighted by the class.
func (p Params) MeanSize() float64 {
	mid := func(iv Interval) float64 { return (iv.Lo + iv.Hi) / 2 }
	f, ok := ShortFraction(p.Class)
	if !ok {
		return mid(p.Size)
	}
	return f*mid(p.Short) + (1-f)*mid(p.Long)
}

// Generator draws the resources at creation, then streams jobs.
type Generator struct {
	p     Params
	rng   *rand.Rand
	res   []Resource
	short float64
	rate  float64 // jobs per second
	t     float64
	n     int
}

// New validates p, draws the resources and returns the generator.
func New(p Params, rng *rand.Rand) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, errors.New("seed002: nil *rand.Rand")
	}
	g := &Generator{p: p, rng: rng}
	g.short, _ = ShortFraction(p.Class)
	for i := 0; i < p.Resources; i++ {
		g.res = append(g.res, Resource{ID: i + 1,
			Availability: g.u(p.Availability), Bandwidth: g.u(p.Bandwidth),
			FailureCoeff: g.u(p.FailureCoeff), AvailabilityLevel: g.u(p.AvailabilityLevel)})
	}
	switch {
	case p.Load > 0:
		speed := 0.0
		for _, r := range g.res {
			speed += r.Availability
		}
		g.rate = p.Load * speed / (p.MeanSize() * 1e6)
	case p.Regime == Calibrated:
		g.rate = p.ArrivalRate / 60
	default:
		g.rate = p.ArrivalRate
	}
	return g, nil
}

// Rate returns the mean arrival rate in jobs per second.
func (g *Generator) Rate() float64 { return g.rate }

func (g *Generator) u(iv Interval) float64 { return dist.Uniform(g.rng, iv.Lo, iv.Hi) }

// Resources returns the resources.
func (g *Generator) Resources() []Resource { return append([]Resource(nil), g.res...) }

// Next returns the next job, or io.EOF after Params.Jobs.
func (g *Generator) Next() (Job, error) {
	if g.n >= g.p.Jobs {
		return Job{}, io.EOF
	}
	g.n++
	g.t += dist.Exp(g.rng, 1/g.rate)
	j := Job{ID: g.n, Submit: g.t}
	switch {
	case g.p.Class == ClassNone:
		j.Size = g.u(g.p.Size)
	case g.rng.Float64() < g.short:
		j.Size = g.u(g.p.Short)
	default:
		j.Size = g.u(g.p.Long)
		j.Long = true
	}
	j.DataSize = g.u(g.p.DataSize)
	j.ServiceDemand = g.u(g.p.ServiceDemand)
	meanAvail := (g.p.Availability.Lo + g.p.Availability.Hi) / 2
	j.Deadline = j.Submit + g.u(g.p.DeadlineSlack)*j.Size*1e6/meanAvail
	return j, nil
}
