package stats

import (
	"math"
	"testing"
)

// With df = 2 Student's t has the closed form F(t) = 1/2 + t/(2√(2 + t²)),
// so the p-values of {1, 2, 3} are computed by hand: mean 2, s = 1,
// s/√3 = 0.577350.
func TestPValuesByHand(t *testing.T) {
	s := Summarize([]float64{1, 2, 3})
	if s.N != 3 || s.Mean != 2 || math.Abs(s.SD-1) > 1e-12 {
		t.Fatalf("summary %+v; want n 3, mean 2, sd 1", s)
	}
	F := func(t float64) float64 { return 0.5 + t/(2*math.Sqrt(2+t*t)) }
	se := 1 / math.Sqrt(3)
	cases := []struct {
		name      string
		got, want float64
	}{
		// t = 2/0.57735 = 3.4641: 1 − F = 0.037090
		{"Greater(0)", s.Greater(0), 1 - F(2/se)},
		{"Less(0)", s.Less(0), F(2 / se)},
		// t = (2 − 2.5)/0.57735 = −0.8660: F = 0.260
		{"Less(2.5)", s.Less(2.5), F(-0.5 / se)},
		// TOST on (1.5, 4): max(1 − F(0.866), F(−3.464)) = 1 − F(0.866)
		{"Within(1.5,4)", s.Within(1.5, 4), 1 - F(0.5/se)},
		// outside [2.5, 3]: 2·min(F(−0.866), 1 − F(−1.732)) = 2·F(−0.866)
		{"Outside(2.5,3)", s.Outside(2.5, 3), 2 * F(-0.5/se)},
	}
	for _, c := range cases {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s = %.6f; want %.6f", c.name, c.got, c.want)
		}
	}
	if got := s.Greater(0); math.Abs(got-0.037090) > 5e-6 {
		t.Errorf("Greater(0) = %.6f; want 0.037090 (hand: 1/2 − 3.4641/(2·√14))", got)
	}
	// t_{0.95,2} = 2.919986: the half-width of the 90% interval.
	if got := s.HalfWidth(0.05); math.Abs(got-2.919986*se) > 1e-5 {
		t.Errorf("HalfWidth(0.05) = %.6f; want %.6f", got, 2.919986*se)
	}
}

func TestDegenerateSamples(t *testing.T) {
	one := Summarize([]float64{5})
	if one.Greater(0) != 1 || one.Less(10) != 1 || one.Within(0, 10) != 1 || !math.IsNaN(one.HalfWidth(0.05)) {
		t.Error("one value: every p-value must be 1 and the interval NaN")
	}
	flat := Summarize([]float64{2, 2, 2})
	if flat.Greater(1) != 0 || flat.Greater(2) != 1 || flat.Less(2) != 1 || flat.Less(3) != 0 {
		t.Error("zero spread: p must be 0 strictly on the alternative's side, 1 otherwise")
	}
	if flat.Within(1, 3) != 0 || flat.Within(2, 3) != 1 || flat.Outside(0, 1) != 0 || flat.Outside(1, 3) != 1 {
		t.Error("zero spread: equivalence and outside tests")
	}
}

// Holm on four p-values at α = 0.05 by hand: sorted 0.005 ≤ 0.05/4, 0.01 ≤
// 0.05/3, 0.03 > 0.05/2 stops; so 0.04 is not rejected either although it
// is below 0.05.
func TestHolmByHand(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.005}, 0.05)
	want := []bool{true, false, false, true}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Holm = %v; want %v", got, want)
		}
	}
	if r := Holm([]float64{0.02, 0.04}, 0.05); !r[0] || !r[1] {
		t.Errorf("Holm(0.02, 0.04) = %v; want both (0.02 ≤ 0.025, then 0.04 ≤ 0.05)", r)
	}
	if len(Holm(nil, 0.05)) != 0 {
		t.Error("Holm of nothing")
	}
}

// Need at d = s, α = 0.05, β = 0.2: the normal approximation gives
// (1.6449 + 0.8416)² = 6.18; with t (tables): n = 7 gives (1.943 +
// 0.906)/√7 = 1.077 > 1, n = 8 gives (1.895 + 0.896)/√8 = 0.987 ≤ 1.
func TestNeedByHand(t *testing.T) {
	if n := Need(1, 1, 0.05, 0.2); n != 8 {
		t.Errorf("Need(1, 1) = %d; want 8", n)
	}
	if n := Need(0, 1, 0.05, 0.2); n != 0 {
		t.Errorf("Need at d = 0 = %d; want 0 (no n decides)", n)
	}
	if n := Need(1e-9, 1, 0.05, 0.2); n != MaxNeed {
		t.Errorf("Need at a tiny d = %d; want MaxNeed", n)
	}
	if n := Need(1, 0, 0.05, 0.2); n != 2 {
		t.Errorf("Need at sd 0 = %d; want 2", n)
	}
}
