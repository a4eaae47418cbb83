package stats

import (
	"math"
	"testing"
)

// Wilson's interval at x = 0 has the closed form [0, z²/(n + z²)]; at
// x = n, [n/(n + z²), 1]; at x = n/2 it is symmetric about 1/2.
func TestWilsonByHand(t *testing.T) {
	const z = 1.959964
	z2 := z * z
	for _, c := range []struct {
		x, n   int
		lo, hi float64
	}{
		{0, 10, 0, z2 / (10 + z2)},  // 0.277533
		{10, 10, 10 / (10 + z2), 1}, // 0.722467
		// x = 5 of 10: 1/2 ± z·√10/(10 + z²)·√(1/4 + z²/40) = 1/2 ± 0.312869
		{5, 10, 0.5 - z*math.Sqrt(10)/(10+z2)*math.Sqrt(0.25+z2/40), 0.5 + z*math.Sqrt(10)/(10+z2)*math.Sqrt(0.25+z2/40)},
	} {
		lo, hi := Wilson(c.x, c.n, z)
		if math.Abs(lo-c.lo) > 1e-12 || math.Abs(hi-c.hi) > 1e-12 {
			t.Errorf("Wilson(%d, %d) = [%.6f, %.6f]; want [%.6f, %.6f]", c.x, c.n, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := Wilson(3, 2, z); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("Wilson(3, 2) = [%v, %v]; want NaNs (more successes than trials)", lo, hi)
	}
}

// The worked examples of Newcombe (1998), Statistics in Medicine 17:873–890,
// Table II, method 10 (the hybrid score interval), 95%, to his 4 decimals.
func TestNewcombeDiffPublished(t *testing.T) {
	for _, c := range []struct {
		x1, n1, x2, n2 int
		lo, hi         float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339},
		{9, 10, 3, 10, 0.1705, 0.8090},
		{6, 7, 2, 7, 0.0582, 0.8062},
		{5, 56, 0, 29, -0.0381, 0.1926},
		{0, 10, 0, 20, -0.1611, 0.2775},
		{0, 10, 0, 10, -0.2775, 0.2775},
		{10, 10, 0, 20, 0.6791, 1.0000},
		{10, 10, 0, 10, 0.6075, 1.0000},
	} {
		lo, hi := NewcombeDiff(c.x1, c.n1, c.x2, c.n2, 1.959964)
		if math.Abs(lo-c.lo) > 5e-5 || math.Abs(hi-c.hi) > 5e-5 {
			t.Errorf("NewcombeDiff(%d/%d − %d/%d) = [%.4f, %.4f]; want [%.4f, %.4f]", c.x1, c.n1, c.x2, c.n2, lo, hi, c.lo, c.hi)
		}
	}
}
