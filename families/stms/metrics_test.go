package stms

import "testing"

// Item 6 of issue 21 (§5.4 eq. 12): cost effectiveness as printed and
// relative to STMS's utilisation. STMS: v_s = 0.5, c_s = 2; a scheme with
// v_i = 0.6 at c_i = 1.5:
//
//	eq. 12:   (0.6 · 2 / 1.5 − 0.5) · 100 = (0.8 − 0.5) · 100 = 30
//	relative: (0.6 · 2 / (1.5 · 0.5) − 1) · 100 = (1.6 − 1) · 100 = 60
//
// The relative form does not depend on the utilisation's level: with every
// utilisation halved (v_s = 0.25, v_i = 0.3) eq. 12 halves to 15 while the
// relative form stays 60.
func TestCostEffectivenessRelative(t *testing.T) {
	abs, rel := costEffectiveness(0.6, 1.5, &Baseline{Utilization: 0.5, CostOverhead: 2})
	near(t, "eq. 12", abs, 30)
	near(t, "relative", rel, 60)
	abs, rel = costEffectiveness(0.3, 1.5, &Baseline{Utilization: 0.25, CostOverhead: 2})
	near(t, "eq. 12, half the utilisation", abs, 15)
	near(t, "relative, half the utilisation", rel, 60)
	if abs, rel := costEffectiveness(0.6, 1.5, nil); abs != 0 || rel != 0 {
		t.Errorf("without a baseline: %g, %g", abs, rel)
	}
}
