package cpuusage

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSeed000Rule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	p := Default()
	if u := p.Draw(1, rng); u.Actual[0] != 1 || u.Estimated[0] != 1 {
		t.Errorf("single process: %+v", u)
	}
	sum, n := 0.0, 0
	for i := 0; i < 10000; i++ {
		u := p.Draw(16, rng)
		for k, a := range u.Actual {
			if a < 0.4 || a > 1 || u.Estimated[k] != a {
				t.Fatalf("usage %g estimate %g", a, u.Estimated[k])
			}
			sum += a
			n++
		}
	}
	// Uniform [0.4, 1]: sd 0.173, 160k draws → se 0.0004.
	if m := sum / float64(n); math.Abs(m-0.7) > 0.003 {
		t.Errorf("mean usage %.4f, want 0.70", m)
	}
	full := p.WithMean(1)
	if u := full.Draw(8, rng); u.Actual[3] != 1 {
		t.Errorf("mean 100%%: %v", u.Actual)
	}
	noisy := Default()
	noisy.Estimate, noisy.Error = Noisy, 0.2
	for i := 0; i < 1000; i++ {
		u := noisy.Draw(4, rng)
		for k, a := range u.Actual {
			if e := u.Estimated[k]; e > 1 || e < MinUsage || math.Abs(e-a) > 0.2*a+1e-12 {
				t.Fatalf("estimate %g for %g", e, a)
			}
		}
	}
	none := Default()
	none.Estimate = None
	if u := none.Draw(4, rng); u.Estimated != nil {
		t.Error("no-information mode returned estimates")
	}
	bad := Params{Low: 0.9, High: 0.5, Estimate: "x", Error: 2}
	err := bad.Validate()
	for _, f := range []string{"Low/High", "Estimate", "Error"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("%v does not name %s", err, f)
		}
	}
}
