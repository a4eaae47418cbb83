package dist

import (
	"math"
	"testing"
)

// PowerPMF over 1..3 with a = 1: weights 1, 1/2, 1/3 over their sum 11/6.
func TestPowerPMF(t *testing.T) {
	want := []float64{6.0 / 11, 3.0 / 11, 2.0 / 11}
	got := PowerPMF(1, 3, 1)
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("P(%d) = %v; want %v", i+1, got[i], want[i])
		}
	}
	// lo > 1 shifts the index: P(n)/P(n+1) = ((n+1)/n)^a.
	p := PowerPMF(4, 8, 2)
	if r := p[0] / p[1]; math.Abs(r-25.0/16) > 1e-12 {
		t.Errorf("P(4)/P(5) = %v; want 25/16", r)
	}
}
