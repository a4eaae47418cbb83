package claims

import (
	"math"

	"github.com/schedfarm/schedfarm/stats"
)

// decide sets every point's statistics and verdict, each check's and the
// claim's (see the package doc, "Verdicts"): a point holds when its test of
// the claimed side rejects at α′ = Alpha/Looks; the points decided
// opposite are those Holm's procedure at α′ rejects among all the claim's
// points (every check's, for this split); a check and the claim then
// combine their points.
func decide(r *Result, rule Rule) {
	a := r.Alpha
	type ref struct{ c, p int }
	var family []ref
	var popp []float64
	first := true
	for ci := range r.Checks {
		cr := &r.Checks[ci]
		for pi := range cr.Points {
			p := &cr.Points[pi]
			n := len(p.Samples)
			if n == 0 {
				p.Verdict = NoData
				if p.Note == "" {
					p.Note = "no paired records"
				}
				continue
			}
			if first || n < r.MinReps {
				r.MinReps = n
			}
			r.MaxReps = max(r.MaxReps, n)
			first = false
			testPoint(p, cr.Check, a)
			family = append(family, ref{ci, pi})
			popp = append(popp, p.POpp)
		}
	}
	opp := stats.Holm(popp, a)
	for i, at := range family {
		p := &r.Checks[at.c].Points[at.p]
		switch {
		case opp[i]:
			p.Verdict = DoesNotHold
		case p.PClaim <= a:
			p.Verdict = Holds
		default:
			p.Verdict = Inconclusive
			p.Need = need(p, r.Checks[at.c].Check, a, len(family), rule.Beta)
		}
	}
	var vs []string
	for ci := range r.Checks {
		cr := &r.Checks[ci]
		var pv []string
		for _, p := range cr.Points {
			pv = append(pv, p.Verdict)
		}
		cr.Verdict = combine(pv)
		vs = append(vs, cr.Verdict)
	}
	r.Verdict = combine(vs)
}

// testPoint sets a point's mean, interval and the p-values of the claim's
// side and of its opposite at level a.
func testPoint(p *Point, k Check, a float64) {
	s := stats.Summarize(p.Samples)
	p.Mean, p.SD, p.Half = s.Mean, s.SD, s.HalfWidth(a)
	switch k.Expect {
	case "within":
		lo, hi := k.Band[0], k.Band[1]
		p.PClaim, p.POpp = s.Band(lo, hi)
	case "below":
		p.POpp, p.PClaim = s.Sides(k.Than)
	default: // above
		p.PClaim, p.POpp = s.Sides(k.Than)
	}
}

// need estimates the replications that would decide an inconclusive point
// at the observed mean and spread: the claimed side at level a, or the
// opposite at Holm's strictest level a/m (a/(2m) for outside a band, whose
// test splits its level between the two sides). It is at least one more
// than the point has; 0 when the mean sits on the boundary.
func need(p *Point, k Check, a float64, m int, beta float64) int {
	var d, level float64
	switch k.Expect {
	case "within":
		lo, hi := k.Band[0], k.Band[1]
		if p.Mean > lo && p.Mean < hi {
			d, level = math.Min(p.Mean-lo, hi-p.Mean), a
		} else {
			d, level = math.Max(lo-p.Mean, p.Mean-hi), a/float64(2*m)
		}
	default:
		sign := 1.0
		if k.Expect == "below" {
			sign = -1
		}
		d, level = sign*(p.Mean-k.Than), a
		if d < 0 {
			d, level = -d, a/float64(m)
		}
	}
	n := stats.Need(d, p.SD, level, beta)
	if n == 0 {
		return 0
	}
	return max(n, len(p.Samples)+1)
}
