package stats

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

func TestSummary(t *testing.T) {
	var a Accumulator
	sizes := []int64{1, 2, 3, 4, 8, 9, 200, 64}
	for i, n := range sizes {
		j := workload.NewJob()
		j.ID = int64(i + 1)
		j.Submit = float64(10 * i)
		j.RunTime = 100
		j.AllocProcs = n
		j.ReqTime = 200
		if i == 0 {
			j.ReqTime = 50
		}
		a.Add(&j)
	}
	s := a.Summary(256)
	want := [9]int64{1, 1, 2, 1, 1, 0, 1, 0, 1}
	if s.SizeBins != want {
		t.Errorf("bins %v, want %v", s.SizeBins, want)
	}
	if math.Abs(s.Pow2Fraction-5.0/8) > 1e-12 || math.Abs(s.MeanInterarrival-10) > 1e-12 {
		t.Errorf("pow2 %g interarrival %g", s.Pow2Fraction, s.MeanInterarrival)
	}
	if wantLoad := 100 * 291.0 / (256 * 70); math.Abs(s.Load-wantLoad) > 1e-12 {
		t.Errorf("load %g, want %g", s.Load, wantLoad)
	}
	if s.UnderestimateFraction != 1.0/8 || s.AtMaxEstimateFraction != 7.0/8 {
		t.Errorf("under %g at max %g", s.UnderestimateFraction, s.AtMaxEstimateFraction)
	}
	var b bytes.Buffer
	s.WriteText(&b)
	if !strings.Contains(b.String(), "(64,128]") || !strings.Contains(b.String(), "offered load") {
		t.Error(b.String())
	}
}
