package claims

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
)

// The verdict rule's error rates, by simulation: synthetic paired samples
// with a known truth are fed to the judge (decide, and Wants for the
// sequential design) many times, with a fixed seed, and the rates of a
// false "does not hold" and a false "holds" must be at most the documented
// α = 0.05, up to three Monte Carlo standard errors. The power where an
// effect exists is logged (go test -run ErrorRates -v). The same scenarios
// under the rule this package used before (a claim holds when every 95%
// interval lies on its side or the mean lies in the band, and fails on any
// interval entirely on the other side) must exceed α: the test can tell a
// loose judge from a sound one.

const mcAlpha = 0.05

// mcTrials is the number of simulated claims per scenario.
const mcTrials = 4000

// mcLimit is the largest rate accepted for a true rate of mcAlpha: α plus
// three binomial standard errors of the estimate.
var mcLimit = mcAlpha + 3*math.Sqrt(mcAlpha*(1-mcAlpha)/mcTrials)

// scenario is a claim of points with a known true mean per point.
type scenario struct {
	name   string
	check  Check
	truth  []float64 // true mean of the paired difference per point
	sd     float64
	reps   int
	wrong  string // the verdict that would be an error ("" none)
	power  string // the verdict whose rate is the power ("" none)
	looser bool   // the old rule must exceed α here
}

// simulatedResult draws one claim's samples and judges them: point i's
// replications are the stream PCG(seed, i), so a point judged again with
// more replications keeps its earlier samples (as the farm adds
// replication indices); reps gives each point's count (nil: sc.reps).
func simulatedResult(sc scenario, seed uint64, rule Rule, reps []int) Result {
	r := Result{Claim: &Claim{ID: sc.name}, Looks: rule.looks(&Claim{Check: sc.check}), Checks: []CheckResult{{Check: sc.check}}}
	r.Alpha = rule.Alpha / float64(r.Looks)
	for i, mu := range sc.truth {
		n := sc.reps
		if reps != nil {
			n = reps[i]
		}
		p := Point{Label: fmt.Sprintf("x=%d", i), grid: [][]runner.Param{{{Name: "x", Value: int64(i)}}}}
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		for range n {
			p.Samples = append(p.Samples, mu+sc.sd*rng.NormFloat64())
		}
		r.Checks[0].Points = append(r.Checks[0].Points, p)
	}
	decide(&r, rule)
	return r
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestErrorRates(t *testing.T) {
	below := Check{Experiment: "sim", Kind: "diff", Expect: "below", A: map[string]any{"scheduler": "a"}, B: map[string]any{"scheduler": "b"}}
	band := Check{Experiment: "sim", Kind: "diff", Expect: "within", Band: []float64{-1, 1}, A: below.A, B: below.B}
	oneOff := func(rest, odd float64) []float64 { t := repeat(rest, 30); t[17] = odd; return t }
	scenarios := []scenario{
		// No effect at any of 30 points: "does not hold" would be false
		// (no point is on the other side), and so would "holds".
		{name: "no effect at 30 points", check: below, truth: repeat(0, 30), sd: 1, reps: 5, wrong: DoesNotHold, looser: true},
		{name: "no effect at 30 points (holds)", check: below, truth: repeat(0, 30), sd: 1, reps: 5, wrong: Holds},
		// The claimed effect at every point: the power of "holds".
		{name: "effect 1.5 sd at every point", check: below, truth: repeat(-1.5, 30), sd: 1, reps: 5, wrong: DoesNotHold, power: Holds},
		{name: "effect 3 sd at every point", check: below, truth: repeat(-3, 30), sd: 1, reps: 5, wrong: DoesNotHold, power: Holds},
		// The effect everywhere but at one point, where there is none: the
		// claim is false, so "holds" is an error.
		{name: "effect at 29 points, none at one", check: below, truth: oneOff(-3, 0), sd: 1, reps: 5, wrong: Holds},
		// An opposite effect at one point only: the power of "does not
		// hold"; "holds" is an error.
		{name: "opposite effect at one point only", check: below, truth: oneOff(0, 3), sd: 1, reps: 5, wrong: Holds, power: DoesNotHold},
		// A band: the true mean on the edge (not inside) with a wide
		// interval must rarely hold; just inside, it must rarely fail.
		{name: "band: mean on the edge, wide interval", check: band, truth: []float64{1}, sd: 2, reps: 5, wrong: Holds},
		{name: "band: mean just outside, wide interval", check: band, truth: []float64{1.05}, sd: 2, reps: 5, wrong: Holds, looser: true},
		{name: "band: mean just inside, wide interval", check: band, truth: []float64{0.95}, sd: 2, reps: 5, wrong: DoesNotHold},
		{name: "band: mean in the middle", check: band, truth: []float64{0}, sd: 0.5, reps: 5, wrong: DoesNotHold, power: Holds},
	}
	for si, sc := range scenarios {
		wrong, power, oldWrong := 0, 0, 0
		for trial := range mcTrials {
			r := simulatedResult(sc, uint64(si)<<32|uint64(trial), DefaultRule, nil)
			if r.Verdict == sc.wrong {
				wrong++
			}
			if sc.power != "" && r.Verdict == sc.power {
				power++
			}
			if PreviousRule(r) == sc.wrong {
				oldWrong++
			}
		}
		rate, old := float64(wrong)/mcTrials, float64(oldWrong)/mcTrials
		msg := fmt.Sprintf("%s: false %q %.4f (old rule %.4f)", sc.name, sc.wrong, rate, old)
		if sc.power != "" {
			msg += fmt.Sprintf(", power (%q) %.4f", sc.power, float64(power)/mcTrials)
		}
		t.Log(msg)
		if rate > mcLimit {
			t.Errorf("%s: false %q rate %.4f > %.4f (α %.2f + 3 MC s.e.)", sc.name, sc.wrong, rate, mcLimit, mcAlpha)
		}
		if sc.looser && old <= mcLimit {
			t.Errorf("%s: the old rule's false %q rate %.4f ≤ %.4f: the scenario no longer tells the rules apart", sc.name, sc.wrong, old, mcLimit)
		}
	}
}

// The sequential design: points still undecided get more replications
// (Wants, at the schedule's looks 3, 6, 12) and the claim is judged again
// at α/3 per look. Across all looks the false rates stay at most α.
func TestSequentialErrorRates(t *testing.T) {
	below := Check{Experiment: "sim", Kind: "diff", Expect: "below", A: map[string]any{"scheduler": "a"}, B: map[string]any{"scheduler": "b"}}
	band := Check{Experiment: "sim", Kind: "diff", Expect: "within", Band: []float64{-1, 1}, A: below.A, B: below.B}
	sched := Schedule{Min: 3, Max: 12}
	if got := sched.Stages(); fmt.Sprint(got) != "[3 6 12]" {
		t.Fatalf("stages %v; want [3 6 12]", got)
	}
	rule := Rule{Alpha: mcAlpha, Beta: 0.2, Looks: map[string]int{"sim": sched.Looks()}}
	scenarios := []scenario{
		{name: "no effect at 30 points", check: below, truth: repeat(0, 30), sd: 1, wrong: DoesNotHold},
		{name: "effect at 29 points, none at one", check: below, truth: oneOffAt(-2, 0, 30, 11), sd: 1, wrong: Holds},
		{name: "band: mean on the edge", check: band, truth: []float64{1}, sd: 2, wrong: Holds},
		{name: "band: mean just inside", check: band, truth: []float64{0.95}, sd: 2, wrong: DoesNotHold},
		{name: "effect 1 sd at 10 points", check: below, truth: repeat(-1, 10), sd: 1, wrong: DoesNotHold, power: Holds},
	}
	const trials = mcTrials / 2
	limit := mcAlpha + 3*math.Sqrt(mcAlpha*(1-mcAlpha)/trials)
	for si, sc := range scenarios {
		wrong, power, cells, atCap := 0, 0, 0, 0
		for trial := range trials {
			// Each point's replications are one stream, drawn as needed:
			// a later look extends the earlier samples (as the farm adds
			// replication indices).
			seed := uint64(si)<<32 | uint64(trial)
			reps := repeatInt(sched.Min, len(sc.truth))
			var r Result
			for look := 0; ; look++ {
				r = simulatedResult(sc, seed^0x5eed, rule, reps)
				ws := Wants([]Result{r}, map[string]Schedule{"sim": sched})
				if len(ws) == 0 {
					break
				}
				if look >= sched.Looks() {
					t.Fatalf("%s: more than %d looks", sc.name, sched.Looks())
				}
				for _, w := range ws {
					i := int(w.Where["x"].(int64))
					reps[i] = max(reps[i], w.Replications)
				}
			}
			if r.Verdict == sc.wrong {
				wrong++
			}
			if sc.power != "" && r.Verdict == sc.power {
				power++
			}
			for _, n := range reps {
				cells += 2 * n
			}
			atCap += 2 * sched.Max * len(reps)
		}
		rate := float64(wrong) / trials
		msg := fmt.Sprintf("%s: false %q %.4f; cells %.1f%% of running every point at the cap", sc.name, sc.wrong, rate, 100*float64(cells)/float64(atCap))
		if sc.power != "" {
			msg += fmt.Sprintf("; power (%q) %.4f", sc.power, float64(power)/trials)
		}
		t.Log(msg)
		if rate > limit {
			t.Errorf("%s: false %q rate %.4f > %.4f", sc.name, sc.wrong, rate, limit)
		}
	}
}

func oneOffAt(rest, odd float64, n, at int) []float64 {
	t := repeat(rest, n)
	t[at] = odd
	return t
}

func repeatInt(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}
