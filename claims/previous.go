package claims

import "github.com/schedfarm/schedfarm/results"

// PreviousRule returns the verdict the rule this package used until
// November 2026 gives a result, kept to attribute the changes between
// reports (a verdict that moved under the same results moved because of
// the rule): per point a 95% Student-t interval; above/below held when it
// lay on the claimed side and failed when it lay on the other; within held
// when the mean lay in the band, whatever the interval, and failed when
// the interval lay outside; a claim failed on any failing point and held
// when every point held. Its false "does not hold" over 30 points with no
// effect is about 54%, and a band's edge held about half the time
// (errorrate_test.go).
func PreviousRule(r Result) string {
	var vs []string
	for _, cr := range r.Checks {
		k := cr.Check
		for _, p := range cr.Points {
			if len(p.Samples) == 0 {
				vs = append(vs, NoData)
				continue
			}
			s := results.MeanCI(p.Samples, 0.95)
			m, h := s.Mean, s.HalfWidth
			if len(p.Samples) < 2 {
				vs = append(vs, Inconclusive)
				continue
			}
			if k.Expect == "within" {
				switch {
				case m >= k.Band[0] && m <= k.Band[1]:
					vs = append(vs, Holds)
				case m+h < k.Band[0] || m-h > k.Band[1]:
					vs = append(vs, DoesNotHold)
				default:
					vs = append(vs, Inconclusive)
				}
				continue
			}
			d := m - k.Than
			if k.Expect == "below" {
				d = -d
			}
			switch {
			case d-h > 0:
				vs = append(vs, Holds)
			case d+h < 0:
				vs = append(vs, DoesNotHold)
			default:
				vs = append(vs, Inconclusive)
			}
		}
	}
	return combine(vs)
}
