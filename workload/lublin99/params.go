package lublin99

import (
	"errors"
	"fmt"
	"math"
)

// Model constants of the reference program (spec §3.2).
const (
	Buckets          = 48     // half-hour buckets per day
	SecondsInBucket  = 1800   // seconds per bucket
	CyclicDayStart   = 11     // first bucket index at which the daily gamma is evaluated
	TooMuchTime      = 12.0   // log-runtimes above this are redrawn
	TooMuchArrive    = 13.0   // log-interarrivals above this are redrawn
	MaxRuntime       = 162754 // (int)exp(12), the MaxRuntime header of the original
	ReferenceProcs   = 128    // machine size the published parameters describe
	referenceLog2Max = 7.0
)

// Job types as written to the SWF queue field (spec §3.7).
const (
	Interactive = 0 // the code's ACTIVE type; queue 0
	Batch       = 1 // queue 1
)

// TypeParams are the model parameters of one job type (spec §3.3).
type TypeParams struct {
	// Size, in the log2 domain.
	SerialProb float64 // probability of a serial job
	Pow2Prob   float64 // probability of a power-of-two job (besides serial)
	ULow       float64 // two-stage uniform low bound (log2 size)
	UMed       float64 // two-stage uniform middle point
	UHi        float64 // two-stage uniform high bound (log2 of the machine size)
	UProb      float64 // probability of the [ULow, UMed) stage
	// Runtime: ln(runtime) ~ hyper-gamma(A1,B1,A2,B2,p), p = PA·size + PB.
	A1, B1, A2, B2 float64
	PA, PB         float64
	// Arrivals: ln(interarrival) ~ Gamma(AArr·ARAR, BArr); the daily cycle
	// weights come from a Gamma(ANum, BNum) density.
	AArr, BArr, ANum, BNum, ARAR float64
}

// BatchParams returns the published batch-job parameters.
func BatchParams() TypeParams {
	return TypeParams{
		SerialProb: 0.2927, Pow2Prob: 0.6686, ULow: 1.2, UMed: 5, UHi: 7, UProb: 0.875,
		A1: 6.57, B1: 0.823, A2: 639.1, B2: 0.0156, PA: -0.003, PB: 0.6986,
		AArr: 6.0415, BArr: 0.8531, ANum: 6.1271, BNum: 5.2740, ARAR: 1.0519,
	}
}

// InteractiveParams returns the published interactive-job parameters.
func InteractiveParams() TypeParams {
	return TypeParams{
		SerialProb: 0.1541, Pow2Prob: 0.625, ULow: 1, UMed: 3, UHi: 5.5, UProb: 0.705,
		A1: 3.8351, B1: 0.6605, A2: 7.073, B2: 0.6856, PA: -0.0118, PB: 0.9156,
		AArr: 6.5510, BArr: 0.6621, ANum: 8.9186, BNum: 3.6680, ARAR: 0.9797,
	}
}

// TypelessParams returns the published parameters of the typeless variant.
func TypelessParams() TypeParams {
	return TypeParams{
		SerialProb: 0.244, Pow2Prob: 0.576, ULow: 0.8, UMed: 4.5, UHi: 7, UProb: 0.86,
		A1: 4.2, B1: 0.94, A2: 312, B2: 0.03, PA: -0.0054, PB: 0.78,
		AArr: 10.2303, BArr: 0.4871, ANum: 8.1737, BNum: 3.9631, ARAR: 1.0225,
	}
}

// Params configure a Generator. Start from Default.
type Params struct {
	// Jobs is the number of jobs to generate (N ≥ 1).
	Jobs int
	// Procs is the machine size P (≥ 1). Sizes are adapted by shifting u_med
	// and u_hi by log2(P) − 7 and redrawing sizes above P. Default 128.
	Procs int
	// Typed selects the two-type model (default). False gives the typeless
	// variant; every job is then labelled interactive (queue 0).
	Typed bool
	// LegacyClock reproduces the original program's truncation of the arrival
	// clock to whole seconds after each arrival (drifts ≈12 h per 100k jobs).
	LegacyClock bool
	// BitExact draws gammas with Jain's method in the original draw order, so
	// that a generator built on NewLegacyRand reproduces the C output.
	BitExact bool
	// ArrivalScale c > 0 multiplies the points of every interarrival: the mean
	// interarrival becomes c times the model's and the offered load 1/c times.
	// Default 1. Ignored when TargetLoad > 0.
	ArrivalScale float64
	// TargetLoad, when > 0, sets ArrivalScale = DefaultLoad/TargetLoad so the
	// analytic offered load on Procs processors equals TargetLoad.
	TargetLoad float64
	// SetReqProcs also writes the size to SWF field 8 (requested processors);
	// the original leaves it −1.
	SetReqProcs bool
	// Per-type parameters (for 128 processors; Procs shifts them).
	Batch, Interactive, Typeless TypeParams
}

// Default returns the published model: typed, 128 processors, 1000 jobs (the
// PWA program's SIZE), corrected clock, no scaling.
func Default() Params {
	return Params{
		Jobs: 1000, Procs: ReferenceProcs, Typed: true, ArrivalScale: 1,
		Batch: BatchParams(), Interactive: InteractiveParams(), Typeless: TypelessParams(),
	}
}

// Validate reports every invalid field at once.
func (p Params) Validate() error {
	var errs []error
	if p.Jobs < 1 {
		errs = append(errs, fmt.Errorf("lublin99: Jobs = %d, want ≥ 1", p.Jobs))
	}
	if p.Procs < 1 || p.Procs > 1<<30 {
		errs = append(errs, fmt.Errorf("lublin99: Procs = %d, want 1..2^30", p.Procs))
	}
	if !(p.ArrivalScale > 0) || math.IsInf(p.ArrivalScale, 0) {
		errs = append(errs, fmt.Errorf("lublin99: ArrivalScale = %g, want a finite value > 0", p.ArrivalScale))
	}
	if !(p.TargetLoad >= 0) || math.IsInf(p.TargetLoad, 0) {
		errs = append(errs, fmt.Errorf("lublin99: TargetLoad = %g, want 0 (off) or a finite value > 0", p.TargetLoad))
	}
	if p.Typed {
		errs = append(errs, p.Batch.validate("Batch")...)
		errs = append(errs, p.Interactive.validate("Interactive")...)
	} else {
		errs = append(errs, p.Typeless.validate("Typeless")...)
	}
	return errors.Join(errs...)
}

func (t TypeParams) validate(name string) []error {
	var errs []error
	bad := func(field string, v float64, want string) {
		errs = append(errs, fmt.Errorf("lublin99: %s.%s = %g, want %s", name, field, v, want))
	}
	prob := func(field string, v float64) {
		if !(v >= 0 && v <= 1) {
			bad(field, v, "a probability in [0, 1]")
		}
	}
	prob("SerialProb", t.SerialProb)
	prob("Pow2Prob", t.Pow2Prob)
	prob("UProb", t.UProb)
	if t.SerialProb+t.Pow2Prob > 1 {
		bad("Pow2Prob", t.Pow2Prob, fmt.Sprintf("≤ 1 − SerialProb = %g", 1-t.SerialProb))
	}
	if !(t.ULow < t.UMed && t.UMed < t.UHi) {
		errs = append(errs, fmt.Errorf("lublin99: %s.ULow/UMed/UHi = %g/%g/%g, want ULow < UMed < UHi", name, t.ULow, t.UMed, t.UHi))
	}
	pos := func(field string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			bad(field, v, "a finite value > 0")
		}
	}
	unit := func(field string, v float64) {
		if !(v > 0 && v < 1) {
			bad(field, v, "a gamma scale in (0, 1) (ln-seconds; needed for a finite mean)")
		}
	}
	pos("A1", t.A1)
	pos("A2", t.A2)
	unit("B1", t.B1)
	unit("B2", t.B2)
	pos("AArr", t.AArr)
	pos("ARAR", t.ARAR)
	unit("BArr", t.BArr)
	pos("ANum", t.ANum)
	pos("BNum", t.BNum)
	return errs
}

// shifted returns the parameters adapted to procs processors: u_med and u_hi
// move by log2(procs) − 7 (spec §3.10).
func (t TypeParams) shifted(procs int) TypeParams {
	if procs == ReferenceProcs {
		return t
	}
	d := math.Log2(float64(procs)) - referenceLog2Max
	t.UMed += d
	t.UHi += d
	if t.ULow >= t.UMed {
		t.ULow = t.UMed - 0.5
	}
	return t
}

// effective returns the batch and interactive parameters actually used for
// the given Params (typeless mode uses the typeless set for both).
func (p Params) effective() [2]TypeParams {
	var tp [2]TypeParams
	if p.Typed {
		tp[Batch] = p.Batch.shifted(p.Procs)
		tp[Interactive] = p.Interactive.shifted(p.Procs)
	} else {
		tp[Batch] = p.Typeless.shifted(p.Procs)
		tp[Interactive] = tp[Batch]
	}
	return tp
}
