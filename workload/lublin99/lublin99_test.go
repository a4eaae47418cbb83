package lublin99

import (
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func parseRow(s string) []float64 {
	var v []float64
	for _, f := range strings.Fields(s) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			panic(err)
		}
		v = append(v, x)
	}
	return v
}

// Reference weights, spec §3.4 (C program; checked there to 4 decimals).
var refWeights = map[string]string{
	"interactive": "0.5135 0.4588 0.4087 0.3629 0.3213 0.2836 0.2497 0.2193 0.1921 0.1679 0.1187 0.1797 0.2576 0.3524 0.4630 0.5874 0.7225 0.8647 1.0100 1.1542 1.2931 1.4229 1.5403 1.6427 1.7280 1.7949 1.8426 1.8711 1.8810 1.8732 1.8491 1.8103 1.7587 1.6962 1.6248 1.5463 1.4626 1.3755 1.2865 1.1970 1.1082 1.0212 0.9368 0.8557 0.7784 0.7054 0.6368 0.5728",
	"batch":       "0.5462 0.5011 0.4589 0.4194 0.3826 0.3483 0.3166 0.2873 0.2602 0.2354 0.3472 0.4484 0.5590 0.6760 0.7964 0.9172 1.0353 1.1480 1.2531 1.3484 1.4326 1.5044 1.5631 1.6085 1.6405 1.6594 1.6659 1.6607 1.6448 1.6190 1.5846 1.5427 1.4944 1.4408 1.3830 1.3219 1.2586 1.1938 1.1283 1.0628 0.9980 0.9342 0.8720 0.8116 0.7534 0.6977 0.6445 0.5939",
	"typeless":    "0.5078 0.4561 0.4085 0.3649 0.3250 0.2888 0.2560 0.2263 0.1997 0.1758 0.1649 0.2389 0.3293 0.4351 0.5543 0.6840 0.8208 0.9609 1.1002 1.2349 1.3615 1.4769 1.5785 1.6644 1.7332 1.7843 1.8174 1.8331 1.8321 1.8155 1.7848 1.7415 1.6874 1.6243 1.5538 1.4777 1.3976 1.3149 1.2310 1.1470 1.0640 0.9828 0.9040 0.8284 0.7563 0.6880 0.6238 0.5637",
}

var typeByName = map[string]TypeParams{
	"interactive": InteractiveParams(),
	"batch":       BatchParams(),
	"typeless":    TypelessParams(),
}

// Spec §3.11 test 1: weights to ±1e-4 (table printed to 4 decimals).
func TestWeights(t *testing.T) {
	for name, row := range refWeights {
		want := parseRow(row)
		got := Weights(typeByName[name])
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-4+1e-9 {
				t.Errorf("%s bucket %d: %.5f, want %.4f", name, i, got[i], want[i])
			}
		}
	}
}

// Spec §3.8 analytic table: moments per type on 128 processors and loads.
func TestAnalytic(t *testing.T) {
	cases := []struct {
		name               string
		ia, size, rt, work float64
	}{
		{"interactive", 619.30, 8.0450, 241.02, 2964.0},
		{"batch", 3516.93, 13.8933, 9492.3, 163479.7},
		{"typeless", 911.29, 12.1339, 4357.97, 84241.0},
	}
	for _, c := range cases {
		m := Moments(typeByName[c.name], 128)
		// The spec prints 4–6 significant digits; allow 0.05% relative.
		for _, q := range []struct {
			what      string
			got, want float64
		}{{"interarrival", m.MeanInterarrival, c.ia}, {"size", m.MeanSize, c.size}, {"runtime", m.MeanRuntime, c.rt}, {"work", m.MeanWork, c.work}} {
			if math.Abs(q.got-q.want) > 5e-4*q.want {
				t.Errorf("%s mean %s = %.4f, want %.4f", c.name, q.what, q.got, q.want)
			}
		}
	}
	p := Default()
	if l := DefaultLoad(p); math.Abs(l-0.4005) > 5e-4 {
		t.Errorf("typed load on 128 = %.4f, want 0.4005", l)
	}
	p.Typed = false
	if l := DefaultLoad(p); math.Abs(l-0.7222) > 5e-4 {
		t.Errorf("typeless load on 128 = %.4f, want 0.7222", l)
	}
	// Runtime-given-size table, E[r] before floor (spec §3.8).
	rts := []struct {
		name string
		n    int
		er   float64
	}{
		{"interactive", 1, 154.96}, {"interactive", 8, 240.45}, {"interactive", 32, 533.71},
		{"batch", 1, 8686.73}, {"batch", 8, 9124.49}, {"batch", 32, 10624.45}, {"batch", 128, 16609.91},
		{"typeless", 1, 3596.14}, {"typeless", 16, 4622.84}, {"typeless", 128, 12280.15},
	}
	for _, c := range rts {
		if got := MeanRuntime(typeByName[c.name], c.n); math.Abs(got-c.er) > 5e-4*c.er {
			t.Errorf("%s E[r|n=%d] = %.2f, want %.2f", c.name, c.n, got, c.er)
		}
	}
}

// Spec §3.11 test 2: size sampler — chi-square against the analytic pmf,
// mean within 0.5%, serial and pow2 fractions within ±0.002.
func TestSizeSampler(t *testing.T) {
	draws, k := 1_000_000, 1.0
	if testing.Short() {
		draws, k = 200_000, math.Sqrt(5) // 5× fewer draws: widen by √5
	}
	for _, name := range []string{"interactive", "batch", "typeless"} {
		tp := typeByName[name]
		p := Default()
		g, err := New(p, rand.New(rand.NewPCG(7, 11)))
		if err != nil {
			t.Fatal(err)
		}
		pmf := SizePMF(tp, 128)
		counts := make([]float64, len(pmf))
		sum, serial, pow2 := 0.0, 0, 0
		for i := 0; i < draws; i++ {
			n := g.size(&tp)
			counts[n]++
			sum += float64(n)
			if n == 1 {
				serial++
			} else if n&(n-1) == 0 {
				pow2++
			}
		}
		chi, df := 0.0, -1
		for n := 1; n < len(pmf); n++ {
			e := pmf[n] * float64(draws)
			if e < 5 {
				continue
			}
			chi += (counts[n] - e) * (counts[n] - e) / e
			df++
		}
		// p > 0.001: chi² < df + 3.1·sqrt(2df) + 10 is a conservative bound for df ≥ 20.
		if lim := float64(df) + 3.1*math.Sqrt(2*float64(df)) + 10; chi > lim {
			t.Errorf("%s chi² = %.1f with %d df, over %.1f", name, chi, df, lim)
		}
		meanPMF, serialPMF, pow2PMF := 0.0, pmf[1], 0.0
		for n := 1; n < len(pmf); n++ {
			meanPMF += float64(n) * pmf[n]
			if n > 1 && n&(n-1) == 0 {
				pow2PMF += pmf[n]
			}
		}
		if m := sum / float64(draws); math.Abs(m-meanPMF) > 0.005*k*meanPMF {
			t.Errorf("%s mean size %.4f, analytic %.4f", name, m, meanPMF)
		}
		if f := float64(serial) / float64(draws); math.Abs(f-serialPMF) > 0.002*k {
			t.Errorf("%s serial fraction %.4f, want %.4f", name, f, serialPMF)
		}
		if f := float64(pow2) / float64(draws); math.Abs(f-pow2PMF) > 0.002*k {
			t.Errorf("%s pow2 fraction %.4f, want %.4f", name, f, pow2PMF)
		}
	}
}

// Spec §3.11 test 3: log-runtime mean within ±0.01 of E[ln r], median of e^h
// within ±3%. Spec §3.11 test 4: E[g | g ≤ 13] within ±0.005, mean e^g ±4%.
func TestRuntimeAndInterarrivalSamplers(t *testing.T) {
	draws := 1_000_000
	if testing.Short() {
		draws = 100_000
	}
	rts := []struct {
		name        string
		n           int
		elnr, med   float64
		sloppyShort bool
	}{
		{"interactive", 1, 2.7542, 11.72, false}, {"interactive", 32, 3.5962, 26.67, false},
		{"batch", 1, 6.7662, 596.50, false}, {"batch", 128, 8.5247, 17037.06, false},
		{"typeless", 16, 5.5975, 123.74, false}, {"typeless", 128, 8.8788, 10797.10, false},
	}
	g, err := New(Default(), rand.New(rand.NewPCG(3, 5)))
	if err != nil {
		t.Fatal(err)
	}
	tol := 0.01
	if testing.Short() {
		tol = 0.03 // √10 fewer draws
	}
	for _, c := range rts {
		tp := typeByName[c.name]
		p := branchProb(tp, c.n)
		hs := make([]float64, draws)
		sum := 0.0
		for i := range hs {
			var h float64
			for {
				if g.rng.Float64() <= p {
					h = g.gamma(tp.A1, tp.B1)
				} else {
					h = g.gamma(tp.A2, tp.B2)
				}
				if h <= TooMuchTime {
					break
				}
			}
			hs[i] = h
			sum += h
		}
		if m := sum / float64(draws); math.Abs(m-c.elnr) > tol {
			t.Errorf("%s n=%d mean ln r = %.4f, want %.4f ± %g", c.name, c.n, m, c.elnr, tol)
		}
		slices.Sort(hs)
		med := math.Exp(hs[draws/2])
		if math.Abs(med-c.med) > 0.03*c.med*(1+2*boolf(testing.Short())) {
			t.Errorf("%s n=%d median r = %.2f, want %.2f ± 3%%", c.name, c.n, med, c.med)
		}
	}
	ias := []struct {
		name    string
		eg, eeg float64
	}{{"interactive", 4.2478, 619.30}, {"batch", 5.3909, 3516.93}, {"typeless", 5.0943, 911.29}}
	for _, c := range ias {
		tp := typeByName[c.name]
		sg, se := 0.0, 0.0
		for i := 0; i < draws; i++ {
			var x float64
			for {
				x = g.gamma(tp.AArr*tp.ARAR, tp.BArr)
				if x <= TooMuchArrive {
					break
				}
			}
			sg += x
			se += math.Exp(x)
		}
		egTol, eegTol := 0.005, 0.04
		if testing.Short() {
			egTol, eegTol = 0.015, 0.12
		}
		if m := sg / float64(draws); math.Abs(m-c.eg) > egTol {
			t.Errorf("%s E[g] = %.4f, want %.4f", c.name, m, c.eg)
		}
		if m := se / float64(draws); math.Abs(m-c.eeg) > eegTol*c.eeg {
			t.Errorf("%s E[e^g] = %.2f, want %.2f", c.name, m, c.eeg)
		}
	}
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// wholeStats summarises a generated workload.
type wholeStats struct {
	n                                            int
	batch, serial, pow2incl1                     float64
	meanSize, meanLnRT, medianRT, meanRT, meanIA float64
	load, maxRT                                  float64
	maxSize                                      int64
	hourly                                       [24]float64
	sorted                                       bool
}

func runWhole(t *testing.T, p Params, seed uint64) wholeStats {
	t.Helper()
	g, err := New(p, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
	if err != nil {
		t.Fatal(err)
	}
	var s wholeStats
	s.sorted = true
	rts := make([]float64, 0, p.Jobs)
	prev, work, last := -1.0, 0.0, 0.0
	for {
		j, err := g.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s.n++
		if j.ID != int64(s.n) {
			t.Fatalf("job %d has ID %d", s.n, j.ID)
		}
		if j.Submit < prev {
			s.sorted = false
		}
		prev, last = j.Submit, j.Submit
		if j.Queue == Batch {
			s.batch++
		}
		n := j.AllocProcs
		if n == 1 {
			s.serial++
		}
		if n&(n-1) == 0 {
			s.pow2incl1++
		}
		s.maxSize = max(s.maxSize, n)
		s.maxRT = math.Max(s.maxRT, j.RunTime)
		s.meanSize += float64(n)
		s.meanRT += j.RunTime
		s.meanLnRT += math.Log(j.RunTime)
		work += j.RunTime * float64(n)
		rts = append(rts, j.RunTime)
		s.hourly[int(math.Mod(j.Submit, 86400)/3600)]++
	}
	f := float64(s.n)
	s.batch /= f
	s.serial /= f
	s.pow2incl1 /= f
	s.meanSize /= f
	s.meanRT /= f
	s.meanLnRT /= f
	s.meanIA = last / f
	s.load = work / (float64(p.Procs) * last)
	for i := range s.hourly {
		s.hourly[i] /= f
	}
	slices.Sort(rts)
	s.medianRT = rts[len(rts)/2]
	return s
}

// Spec §3.11 test 5 (tolerances: mean ± 4 sd of 20 seeds of the original C,
// spec §3.8 empirical table) and test 6 (daily cycle, corrected clock).
func TestWholeGenerator(t *testing.T) {
	p := Default()
	p.Jobs = 100_000
	s := runWhole(t, p, 1)
	check := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.4f, want %.4f ± %g", what, got, want, tol)
		} else {
			t.Logf("%s = %.4f (target %.4f ± %g)", what, got, want, tol)
		}
	}
	check("batch fraction", s.batch, 0.149, 0.025)
	check("mean size", s.meanSize, 8.915, 0.23)
	check("serial fraction", s.serial, 0.1746, 0.006)
	check("pow2 incl. 1", s.pow2incl1, 0.864, 0.006)
	check("mean ln runtime", s.meanLnRT, 3.483, 0.12)
	check("median runtime", s.medianRT, 18, 2)
	check("mean runtime", s.meanRT, 1613, 280)
	check("mean interarrival (corrected clock)", s.meanIA, 526.6, 40)
	check("load on 128", s.load, 0.40, 0.07)
	if s.maxRT > MaxRuntime || s.maxSize > 128 {
		t.Errorf("max runtime %g (≤ %d), max size %d (≤ 128)", s.maxRT, MaxRuntime, s.maxSize)
	}
	if !s.sorted || s.n != p.Jobs {
		t.Errorf("sorted %v, jobs %d", s.sorted, s.n)
	}
	ref := parseRow("0.0205 0.0164 0.0130 0.0102 0.0079 0.0078 0.0147 0.0240 0.0349 0.0465 0.0573 0.0663 0.0727 0.0762 0.0767 0.0746 0.0704 0.0646 0.0579 0.0508 0.0437 0.0370 0.0308 0.0253")
	dev := 0.0
	for h := range ref {
		dev = math.Max(dev, math.Abs(s.hourly[h]-ref[h]))
	}
	if dev >= 0.006 {
		t.Errorf("hourly share max deviation %.4f, want < 0.006", dev)
	} else {
		t.Logf("hourly share max deviation %.4f (< 0.006)", dev)
	}
}

// Typeless variant (spec §3.8: 10 seeds of the original C) and the load
// option: TargetLoad rescales arrivals so the measured load follows.
func TestTypelessAndTargetLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	p := Default()
	p.Jobs = 100_000
	p.Typed = false
	s := runWhole(t, p, 2)
	if math.Abs(s.meanRT-4351) > 4*32+50 || math.Abs(s.meanSize-12.15) > 0.25 || math.Abs(s.serial-0.2438) > 0.006 || math.Abs(s.meanIA-911.3) > 60 {
		t.Errorf("typeless: mean rt %.1f (4351), size %.3f (12.15), serial %.4f (0.2438), ia %.1f (911.3)", s.meanRT, s.meanSize, s.serial, s.meanIA)
	}
	p = Default()
	p.Jobs = 100_000
	p.Procs = 320
	p.TargetLoad = 0.7
	s = runWhole(t, p, 3)
	// Sampling sd of the load over 100k jobs is ≈0.017 (spec §3.8); allow 4 sd.
	if math.Abs(s.load-0.7) > 0.07 || s.maxSize > 320 {
		t.Errorf("P=320 target 0.7: measured load %.4f, max size %d", s.load, s.maxSize)
	} else {
		t.Logf("P=320 target 0.7: measured load %.4f", s.load)
	}
}

func TestDeterministicAndValidate(t *testing.T) {
	p := Default()
	p.Jobs = 2000
	a, b := runWhole(t, p, 9), runWhole(t, p, 9)
	if a != b {
		t.Error("same seed, different output")
	}
	bad := Default()
	bad.Jobs = 0
	bad.Procs = 0
	bad.Batch.UProb = 2
	err := bad.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, f := range []string{"Jobs", "Procs", "Batch.UProb"} {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not name %s", err, f)
		}
	}
}
