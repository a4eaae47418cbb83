package jwload

import (
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

var seedBins = [9]int64{1, 2, 4, 8, 16, 32, 64, 128, math.MaxInt64}

// table1 is seed 000 Table 1, JWload row (percent; it sums to 100.1).
var table1 = [9]float64{40.8, 7.4, 12.2, 10.9, 13.6, 7.9, 5.2, 1.4, 0.7}

func binOf(n int64) int {
	for i, hi := range seedBins {
		if n <= hi {
			return i
		}
	}
	return 8
}

// Seed 000 Table 1 and §3.1: bins within ±1.5 percentage points over 100k
// jobs, mean parallelism 10.5 and mean runtime 11267.0 s within ±3% (the
// tolerances of issue 4).
func TestCalibration(t *testing.T) {
	p := Default()
	if m := p.MeanSize(); math.Abs(m-10.5) > 0.01 {
		t.Errorf("analytic mean size %.4f, want 10.5", m)
	}
	g, err := New(p, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var bins [9]float64
	var size, rt float64
	var m workload.LoadMeter
	n, prev, sorted, maxSize := 0, -1.0, true, int64(0)
	for {
		j, err := g.Next()
		if err == io.EOF {
			break
		}
		n++
		if j.Submit < prev || j.ID != int64(n) {
			sorted = false
		}
		prev = j.Submit
		bins[binOf(j.AllocProcs)]++
		size += float64(j.AllocProcs)
		rt += j.RunTime
		maxSize = max(maxSize, j.AllocProcs)
		m.Add(&j)
	}
	for i := range bins {
		bins[i] = 100 * bins[i] / float64(n)
		if math.Abs(bins[i]-table1[i]) > 1.5 {
			t.Errorf("bin %d: %.2f%%, want %.1f%% ± 1.5", i, bins[i], table1[i])
		}
	}
	size /= float64(n)
	rt /= float64(n)
	t.Logf("bins %.2f", bins)
	t.Logf("mean size %.3f (10.5 ± 3%%), mean runtime %.1f (11267.0 ± 3%%), load %.3f (analytic %.3f)", size, rt, m.Load(p.Procs), p.Load())
	if math.Abs(size-10.5) > 0.03*10.5 || math.Abs(rt-11267) > 0.03*11267 {
		t.Errorf("mean size %.3f (10.5), mean runtime %.1f (11267)", size, rt)
	}
	if math.Abs(m.Load(p.Procs)-p.Load()) > 0.05*p.Load() {
		t.Errorf("load %.3f, analytic %.3f", m.Load(p.Procs), p.Load())
	}
	if !sorted || n != p.Jobs || maxSize > 320 {
		t.Errorf("sorted %v, %d jobs, max size %d", sorted, n, maxSize)
	}
}

func TestHyperErlangFit(t *testing.T) {
	for _, c := range []struct{ mean, cv float64 }{{100, 2}, {100, 1}, {10, 4}} {
		h := Balanced(c.mean, c.cv, 1)
		if math.Abs(h.Mean()-c.mean) > 1e-9*c.mean || math.Abs(h.CV()-c.cv) > 1e-9 {
			t.Errorf("%+v: mean %g cv %g", h, h.Mean(), h.CV())
		}
	}
	h := WithShortBranch(11267, 0.45, 600, 1)
	if math.Abs(h.Mean()-11267) > 1e-6 {
		t.Errorf("mean %g", h.Mean())
	}
}

func TestTargetLoadAndValidate(t *testing.T) {
	p := Default()
	p.Jobs = 20000
	p.Procs = 128
	p.TargetLoad = 0.6
	if l := p.Load(); math.Abs(l-0.6) > 1e-9 {
		t.Errorf("analytic load %g", l)
	}
	g, err := New(p, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	jobs, _ := workload.ReadAll(g)
	for _, j := range jobs {
		if j.AllocProcs > 128 {
			t.Fatalf("size %d on 128", j.AllocProcs)
		}
	}
	bad := Default()
	bad.Jobs = 0
	bad.Runtime.P = 2
	err = bad.Validate()
	for _, f := range []string{"Jobs", "Runtime.P"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("error %v does not name %s", err, f)
		}
	}
}
