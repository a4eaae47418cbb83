package results

import (
	"math"
	"testing"
)

func TestMeanCI(t *testing.T) {
	// Hand computation: mean 3, s² = (4+1+0+1+4)/4 = 2.5, s = 1.5811388,
	// t(0.975, 4) = 2.7764451 (table value), half-width = 2.7764451 ·
	// 1.5811388 / √5 = 1.9632432.
	s := MeanCI([]float64{1, 2, 3, 4, 5}, 0.95)
	if s.N != 5 || s.Mean != 3 || math.Abs(s.SD-1.5811388) > 1e-7 || math.Abs(s.HalfWidth-1.9632432) > 1e-6 {
		t.Fatalf("MeanCI = %+v", s)
	}
	// Two values: t(0.975, 1) = 12.7062047; s = √2/2·|a−b|… for {10, 12}:
	// mean 11, s = √2, half-width = 12.7062047·√2/√2 = 12.7062047.
	s = MeanCI([]float64{10, 12}, 0.95)
	if math.Abs(s.HalfWidth-12.7062047) > 1e-6 || s.Low() > s.Mean || s.High() < s.Mean {
		t.Fatalf("MeanCI(10, 12) = %+v", s)
	}
	if s := MeanCI([]float64{7}, 0.95); s.Mean != 7 || !math.IsNaN(s.HalfWidth) {
		t.Fatalf("single value: %+v", s)
	}
	if s := MeanCI([]float64{4, 4, 4}, 0.95); s.HalfWidth != 0 {
		t.Fatalf("constant values: %+v", s)
	}
}
