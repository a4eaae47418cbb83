package stms

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

// Eq. 1–5 against values worked out by hand.
func TestFormulas(t *testing.T) {
	j := Job{Size: 0.001, Data: 10, SDV: 0.8}
	r := Resource{Speed: 200, Bandwidth: 10, Lambda: 0.01, RAL: 0.3}
	// hazard 0.01 · 0.5 = 0.005; P(10 s) = 1 − e^−0.05
	near(t, "Hazard", Hazard(j, r), 0.005)
	near(t, "FailProb", FailProb(j, r, 10), 1-math.Exp(-0.05))
	if FailProb(Job{SDV: 0.2}, r, 10) != 0 {
		t.Error("SDV ≤ RAL must never fail")
	}
	// ET = 1000 flops / 200 = 5 s; eq. 4 with P = 1 − e^−0.025:
	// 5·(1 + P/(2(1−P))).
	p := 1 - math.Exp(-0.025)
	near(t, "PETIRS", PETIRS(j, 0.001, r), 5*(1+p/(2*(1-p))))
	// DM: (0.0006 MB state + 10 MB) · 8 / mean(10, 30) Mbps.
	near(t, "DM", DM(0.0006, 10, r, Resource{Bandwidth: 30}), 8*10.0006/20)
	// Two-stage chain, SO = ET/600·6 = 1% of ET:
	//   stage 1 on r: ET1 = 5, SO1 = 0.05, P1 = 1 − e^−0.025
	//   stage 2 on y (speed 100, never fails): S2 = 0.0005, ET2 = 5, SO2 = 0.05
	//   DM = 8·(0.0005 + 10)/20
	//   PET = (1−P1)(5.05) + P1(2.5 + 0.05 + DM) + P1·(5.05)
	y := Resource{Speed: 100, Bandwidth: 30}
	m := Model{TraceInterval: 600, TraceOverhead: 6, TransferFactor: 1, FallbackBandwidth: 30}
	dm := 8 * 10.0005 / 20
	want := (1-p)*5.05 + p*(2.5+0.05+dm) + p*5.05
	pet, st := m.PETChain(j, 0.001, []Resource{r, y}, nil)
	near(t, "PETChain", pet, want)
	near(t, "stage 1 load", st[0].Load, (1-p)*5.05+p*2.55)
	near(t, "stage 2 load", st[1].Load, p*5.05)
	near(t, "stage 2 reach", st[1].Reach, p)
	// One stage: on r (1−P)(ET+SO) + P(ET/2+SO); after a failure the other
	// half moves to a fallback as fast as r over the mean bandwidth 30:
	// P·(8·(0.0005 + 10)/mean(10, 30) + 2.5 + 0.025).
	pet, _ = m.PETChain(j, 0.001, []Resource{r}, nil)
	near(t, "PETChain single", pet, (1-p)*5.05+p*2.55+p*(8*10.0005/20+2.5+0.025))
	// Eq. 5: (t_w + t_r)/t_r.
	near(t, "PP", PP(100, 50), 3)
}

// testRun simulates jobs (attrs with submit times) on res under cfg; fail
// gives the failure delays (nil: never).
func testRun(t *testing.T, cfg Config, res []Resource, attrs []Job, submits []float64, fail func(id int64, r int) float64) (*Scheduler, []*sim.Job) {
	t.Helper()
	return testRunHook(t, cfg, res, attrs, submits, fail, nil)
}

// testRunHook is testRun with every batch or window mapped by hook (nil:
// the scheduler's own mapping).
func testRunHook(t *testing.T, cfg Config, res []Resource, attrs []Job, submits []float64, fail func(id int64, r int) float64, hook func(*planner) ([]int, [][]int)) (*Scheduler, []*sim.Job) {
	t.Helper()
	s, err := New(cfg, res, attrs, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if fail == nil {
		fail = func(int64, int) float64 { return math.Inf(1) }
	}
	s.failHook = fail
	s.mapHook = hook
	var jobs []*sim.Job
	for i, a := range attrs {
		jobs = append(jobs, sim.NewJob(int64(i+1), submits[i], []int{1}, a.Size*1e6/100, a.Size*1e6, 0))
	}
	out, _, err := sim.Run(Platform(len(res)), s, sim.NewSliceStream(jobs), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, out
}

func plainConfig(sc Scheme) Config {
	c := DefaultConfig(sc)
	c.TraceInterval, c.TraceOverhead = 0, 0
	c.Alpha, c.Interval, c.Batch = 1, 100, 10
	return c
}

// One job on a fast failing resource R0 (200 flops/s) with a slower safe
// R1 (100 flops/s); it starts at the cycle t = 100 and fails after 2 s
// with 600 of its 1,000 flops left.
//
//	STMS: moves with its state to R1: DM = 8·(0.0006 + 10)/mean(10, 30)
//	      = 4.00024 s, then 600/100 = 6 s: ends at 112.00024.
//	IR-STMS (one gene): restarts on R0 from scratch: ends at 102 + 5 = 107.
func TestFailureMigrationVersusRestart(t *testing.T) {
	res := []Resource{{Speed: 200, Bandwidth: 10, Lambda: 0.01, RAL: 0}, {Speed: 100, Bandwidth: 30}}
	attrs := []Job{{Size: 0.001, Data: 10, SDV: 1, Deadline: 1000}}
	first := true
	fail := func(id int64, r int) float64 {
		if r == 0 && first {
			first = false
			return 2
		}
		return math.Inf(1)
	}
	s, jobs := testRun(t, plainConfig(STMS), res, attrs, []float64{0}, fail)
	j := jobs[0]
	near(t, "STMS end", j.End(), 112.00024)
	if j.Start() != 100 || s.cnt.Migrations != 1 || s.cnt.Restarts != 0 || s.jobs[0].res != 1 {
		t.Errorf("STMS: start %g, counters %+v, last resource %d", j.Start(), s.cnt, s.jobs[0].res)
	}
	near(t, "transfer", s.cnt.TransferTime, 4.00024)

	first = true
	s, jobs = testRun(t, plainConfig(IRSTMS), res, attrs, []float64{0}, fail)
	near(t, "IR-STMS end", jobs[0].End(), 107)
	if s.cnt.Restarts != 1 || s.cnt.Migrations != 0 {
		t.Errorf("IR-STMS counters %+v", s.cnt)
	}
	// Busy time: STMS 2 s on R0 + 6 s on R1; IRS 2 + 5 s on R0.
	near(t, "STMS busy", s.rs[0].busy+s.rs[1].busy, 7)
}

// SPS by hand. R0: 100 flops/s, failing; R1: 200 flops/s, safe; cycles at
// 100, 200, …. Job A (100,000 flops, submitted at 0) is mapped at 100 to
// R1 (500 s there, 1,000+ s on R0) and runs to 600. Job B (1,000 flops,
// submitted at 101) is mapped at 200 to R0 (10 s; R1 is busy until 600),
// fails at 204 with 600 flops left, moves to R1 (no data: DM =
// 8·0.0006/20 = 0.00024 s) and arrives at 204.00024, when t_r(A) =
// 600 − 204.00024 = 395.99976 s and t_r(B) = 600/200 = 3 s:
//
//	PF = PP(B)/PP(A) = [(395.99976 + 3)/3] / [(3 + 395.99976)/395.99976] = 131.99992
//
// With c = 131 B preempts: it ends at 207.00024 and A, resumed, at 603.
// With c = 133 B waits, and its PP rises as it waits while A's falls at
// the same rate, 1/t_r(B) = 1/3 per second (§3.3 after eq. 6): at the
// re-check 300 s later (504.00024) PP(B) = 132.99992 + 100 = 232.99992 and
// PP(A) = max(1, 1.0075756 − 100) = 1, so PF ≈ 233 > 133: B preempts, ends
// at 507.00024, and A (95.99976 s left) ends at 603. With c = 1000 B is
// still below c at 504.00024 (PF ≈ 233) and A ends first, at 600: B at 603.
func TestSelectivePreemptionByHand(t *testing.T) {
	res := []Resource{{Speed: 100, Bandwidth: 10, Lambda: 0.01, RAL: 0.5}, {Speed: 200, Bandwidth: 30}}
	attrs := []Job{
		{Size: 0.1, SDV: 1, Deadline: 1e6},     // A
		{Size: 0.001, SDV: 0.6, Deadline: 1e6}, // B
	}
	submits := []float64{0, 101}
	fail := func(id int64, r int) float64 {
		if id == 2 && r == 0 {
			return 4
		}
		return math.Inf(1)
	}
	tm, tp := 3.0, 600-204.00024
	near(t, "PF", PP(tp, tm)/PP(tm, tp), 131.99992)
	for _, tc := range []struct {
		c          float64
		endA, endB float64
		preempt    int
	}{{131, 603, 207.00024, 1}, {133, 603, 507.00024, 1}, {1000, 600, 603, 0}} {
		cfg := plainConfig(SPSTMS)
		cfg.C = tc.c
		s, jobs := testRun(t, cfg, res, attrs, submits, fail)
		if s.jobs[0].chain[0] != 1 || s.jobs[1].chain[0] != 0 {
			t.Fatalf("Min-Min mapped A to %v, B to %v; the scenario needs R1, R0", s.jobs[0].chain, s.jobs[1].chain)
		}
		near(t, "A end", jobs[0].End(), tc.endA)
		near(t, "B end", jobs[1].End(), tc.endB)
		if s.cnt.Preemptions != tc.preempt {
			t.Errorf("c = %g: %d preemptions, want %d", tc.c, s.cnt.Preemptions, tc.preempt)
		}
	}
	// The deadline guard: with c = 131 but A due at 601 (met if B waits,
	// missed if B preempts), B does not preempt.
	attrs[0].Deadline = 601
	cfg := plainConfig(SPSTMS)
	cfg.C = 131
	s, jobs := testRun(t, cfg, res, attrs, submits, fail)
	if s.cnt.Preemptions != 0 || jobs[0].End() != 600 {
		t.Errorf("deadline guard: %d preemptions, A ends %g", s.cnt.Preemptions, jobs[0].End())
	}
}

// GBS fills a void only under Condition 2. One safe resource at 100
// flops/s, cycles at 100, 200, 300. J1 (15,000 flops, submitted at 0; 150 s,
// too long for the void before the first cycle) is mapped at 100 and runs
// to 250; J2 arrives at 205, after the cycle at 200, so at 250 the void
// lasts until the cycle at 300: 50 s.
//
//	J2 of 4,000 flops (α·PET = 40 ≤ 50): backfilled at 250 (GB-STMS); under
//	STMS it waits for the cycle at 300.
//	J2 of 6,000 flops (60 > 50), or 4,000 flops with α = 2 (80 > 50): not
//	backfilled; it starts at 300.
func TestGreedyBackfillCondition2(t *testing.T) {
	res := []Resource{{Speed: 100, Bandwidth: 10}}
	for _, tc := range []struct {
		scheme Scheme
		size   float64
		alpha  float64
		start  float64
	}{
		{GBSTMS, 0.004, 1, 250},
		{STMS, 0.004, 1, 300},
		{GBSTMS, 0.006, 1, 300},
		{GBSTMS, 0.004, 2, 300},
	} {
		cfg := plainConfig(tc.scheme)
		cfg.Alpha = tc.alpha
		attrs := []Job{{Size: 0.015, Deadline: 1e6}, {Size: tc.size, Deadline: 1e6}}
		s, jobs := testRun(t, cfg, res, attrs, []float64{0, 205}, nil)
		if jobs[0].Start() != 100 || jobs[1].Start() != tc.start {
			t.Errorf("%s size %g α %g: J1 starts at %g, J2 at %g; want 100, %g", tc.scheme, tc.size, tc.alpha, jobs[0].Start(), jobs[1].Start(), tc.start)
		}
		if bf := s.cnt.Backfilled; (bf == 1) != (tc.start == 250) {
			t.Errorf("%s size %g α %g: %d backfilled", tc.scheme, tc.size, tc.alpha, bf)
		}
	}
}

// GBS judges a void by the PET on the void's own resource (§3.2,
// Condition 2). A fast R0 (1,000 flops/s) and a slow R1 (10 flops/s),
// cycles at 100, 200, 300. J1 (150,000 flops, submitted at 0) fits no void
// before the first cycle (150 s on R0, 15,000 s on R1, against 100 s) and
// is mapped at 100 to R0, where it runs to 250. J2 (4,000 flops) arrives
// at 205: R0 is busy, R1 idle until the cycle at 300, a void of 95 s, but
// J2 takes 400 s on R1, so it is not backfilled there (on R0 it would take
// 4 s). At 250 R0's void lasts until 300, 50 s ≥ 4 s: J2 is backfilled on
// R0 at 250. Read with R0's PET for R1's void, J2 would start at 205.
func TestGreedyBackfillUsesTheVoidsResource(t *testing.T) {
	res := []Resource{{Speed: 1000, Bandwidth: 10}, {Speed: 10, Bandwidth: 10}}
	attrs := []Job{{Size: 0.15, Deadline: 1e6}, {Size: 0.004, Deadline: 1e6}}
	s, jobs := testRun(t, plainConfig(GBSTMS), res, attrs, []float64{0, 205}, nil)
	if jobs[0].Start() != 100 || jobs[0].End() != 250 || jobs[1].Start() != 250 || jobs[1].End() != 254 {
		t.Errorf("J1 runs %g–%g, J2 %g–%g; want 100–250 and 250–254 (J2 backfilled on R0)", jobs[0].Start(), jobs[0].End(), jobs[1].Start(), jobs[1].End())
	}
	if s.cnt.Backfilled != 1 {
		t.Errorf("%d backfilled; want 1", s.cnt.Backfilled)
	}
}

// checker wraps a Scheduler and checks after every pass that every
// resource runs at most one job, that the engine's running jobs are
// exactly the resources' jobs, and that no job runs before its submit time.
type checker struct {
	t *testing.T
	s *Scheduler
}

func (k *checker) Pass(c *sim.Cluster, ch sim.Changes) {
	k.s.Pass(c, ch)
	on := map[int64]int{}
	for r := range k.s.rs {
		if js := k.s.rs[r].run; js != nil {
			if _, dup := on[js.sj.ID]; dup {
				k.t.Fatalf("t=%g: job %d on two resources", c.Now(), js.sj.ID)
			}
			on[js.sj.ID] = r
			if js.res != r || js.sj.State() != sim.Running {
				k.t.Fatalf("t=%g: job %d on resource %d records %d, state %s", c.Now(), js.sj.ID, r, js.res, js.sj.State())
			}
		}
	}
	if len(c.Running()) != len(on) {
		k.t.Fatalf("t=%g: engine runs %d jobs, resources %d", c.Now(), len(c.Running()), len(on))
	}
	for _, j := range c.Running() {
		if _, ok := on[j.ID]; !ok || j.Start() < j.Submit {
			k.t.Fatalf("t=%g: job %d running on no resource or before its submit", c.Now(), j.ID)
		}
	}
}

// randomRun simulates a small seed002 workload with frequent failures.
func randomRun(t *testing.T, sc Scheme, seed uint64, check bool) (*Scheduler, []*sim.Job) {
	t.Helper()
	res, attrs, jobs := benchWorld(t, seed, 300, 6, seed002.Class2, 0)
	cfg := DefaultConfig(sc)
	cfg.Batch, cfg.GA.Generations = 20, 20
	cfg.FailureSeed = [2]uint64{seed, 7}
	s, err := New(cfg, res, attrs, rand.New(rand.NewPCG(seed, 3)))
	if err != nil {
		t.Fatal(err)
	}
	var sched sim.Scheduler = s
	if check {
		sched = &checker{t: t, s: s}
	}
	out, _, err := sim.Run(Platform(len(res)), sched, sim.NewSliceStream(jobs), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, out
}

// Invariants on random workloads under every scheme: one job per resource
// at a time, every job finishes, none starts before its submit time or
// ends before it started, busy time never exceeds capacity; the same seed
// gives identical metrics.
func TestInvariantsRandom(t *testing.T) {
	for sc := STMS; sc <= SPSTMS; sc++ {
		for seed := uint64(1); seed <= 2; seed++ {
			s, jobs := randomRun(t, sc, seed, true)
			for _, j := range jobs {
				js := s.jobs[j.ID-1]
				if j.State() != sim.Finished || js.firstStart < j.Submit || j.End() < js.firstStart {
					t.Fatalf("%s seed %d: job %d %s submit %g start %g end %g", sc, seed, j.ID, j.State(), j.Submit, js.firstStart, j.End())
				}
			}
			m := s.Metrics(jobs, nil)
			if len(m) != len(MetricNames()) {
				t.Fatalf("%d metrics, %d names", len(m), len(MetricNames()))
			}
			get := func(n string) float64 {
				for _, x := range m {
					if x.Name == n {
						return x.Value
					}
				}
				t.Fatalf("no metric %s", n)
				return 0
			}
			if u := get("utilization"); !(u > 0 && u <= 1+1e-9) {
				t.Errorf("%s: utilization %g", sc, u)
			}
			if get("failures") == 0 {
				t.Errorf("%s seed %d: no failures; the workload is meant to have some", sc, seed)
			}
			if sc == SPSTMS && seed == 1 {
				s2, jobs2 := randomRun(t, sc, seed, false)
				if !reflect.DeepEqual(m, s2.Metrics(jobs2, nil)) {
					t.Errorf("%s: same seed, different metrics", sc)
				}
			}
			t.Logf("%s seed %d: %v", sc, seed, m[:9])
		}
	}
}

// Every job meets the same failure draws under every scheme (paired
// comparison): the first draw of a job's stream depends only on the seed
// and the job.
func TestFailureStreamsPaired(t *testing.T) {
	res := []Resource{{Speed: 100, Bandwidth: 10, Lambda: 1, RAL: 0}}
	var draws [2]float64
	for i, sc := range []Scheme{STMS, SPSTMS} {
		cfg := DefaultConfig(sc)
		cfg.FailureSeed = [2]uint64{42, 7}
		s, err := New(cfg, res, []Job{{Size: 1, SDV: 1}, {Size: 1, SDV: 1}}, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		js := &s.jobs[1]
		js.sj = sim.NewJob(2, 0, []int{1}, 1, 1, 0)
		draws[i] = s.failDelay(js, 0)
	}
	if draws[0] != draws[1] || math.IsInf(draws[0], 0) {
		t.Errorf("draws %v", draws)
	}
}

func TestConfigAndRegistryErrors(t *testing.T) {
	c := DefaultConfig(STMS)
	c.Alpha, c.Batch, c.C, c.Interval = 0.5, 1, -1, 0
	err := c.Validate()
	for _, f := range []string{"Alpha", "Batch", "C", "Interval"} {
		if err == nil || !contains(err.Error(), f) {
			t.Errorf("%v does not name %s", err, f)
		}
	}
	r := Registry()
	err = r.Check("sp-stms", map[string]any{"c": -1.0, "population": 1, "bogus": 1})
	for _, f := range []string{"c", "population", "bogus"} {
		if err == nil || !contains(err.Error(), f) {
			t.Errorf("%v does not name %s", err, f)
		}
	}
	if err := r.Check("stms", map[string]any{"c": 2.0}); err == nil {
		t.Error("c accepted for stms")
	}
	if _, err := r.New("stms", Platform(1), nil); err == nil {
		t.Error("built without a world")
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// The planner's table-driven estimate (place) equals Model.PETChain for
// every chain of up to MaxChain resources, and eq. 4 for IR-STMS's single
// resource jobs; stage occupations land on the chain's resources.
func TestPlannerMatchesPETChain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	res, attrs := randomWorld(rng, 6, 8)
	for _, sc := range []Scheme{STMS, IRSTMS} {
		cfg := DefaultConfig(sc)
		cfg.MigrationCost, cfg.TransferFactor = 30, 1.5
		p := loadedPlanner(t, cfg, res, attrs, 100)
		s := p.s
		f := make([]float64, len(res))
		for it := 0; it < 200; it++ {
			j := rng.IntN(len(attrs))
			ch := rng.Perm(len(res))[:1+rng.IntN(cfg.MaxChain)]
			clear(f)
			pet, last := p.place(j, ch, 100, f, nil)
			var want float64
			var stages []Stage
			if sc == IRSTMS && len(ch) == 1 {
				want = PETIRS(attrs[j], attrs[j].Size, res[ch[0]])
				stages = []Stage{{Load: want}}
			} else {
				var rs []Resource
				for _, r := range ch {
					rs = append(rs, res[r])
				}
				want, stages = s.cfg.PETChain(attrs[j], attrs[j].Size, rs, nil)
			}
			near(t, fmt.Sprintf("%s job %d chain %v PET", sc, j, ch), pet, want)
			latest := math.Inf(-1)
			for k, r := range ch {
				near(t, fmt.Sprintf("%s job %d chain %v stage %d", sc, j, ch, k), f[r], 100+cfg.Alpha*stages[k].Load)
				latest = max(latest, f[r])
			}
			if last != latest {
				t.Fatalf("%s job %d chain %v: place's latest free time %v, the chain's %v", sc, j, ch, last, latest)
			}
			// With backlogs, a backup may end last.
			for r := range f {
				f[r] = 100 + 5000*rng.Float64()
			}
			_, last = p.place(j, ch, 100, f, nil)
			latest = math.Inf(-1)
			for _, r := range ch {
				latest = max(latest, f[r])
			}
			if last != latest {
				t.Fatalf("%s job %d chain %v with backlogs: place's latest free time %v, the chain's %v", sc, j, ch, last, latest)
			}
		}
	}
}

// placeOne, the one-resource place that plan inlines, gives bit for bit
// what place's chain loop gave a chain of one resource before it was
// split off (eqs. 2–3 with k = 0 and the survival factor pw = 1; eq. 4
// under IR-STMS), so the schedules are unchanged: chainLoop below is that
// loop as it stood, over the same tables.
func TestPlaceOneIsTheChainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	res, attrs := randomWorld(rng, 7, 9)
	chainLoop := func(p *planner, j, r int, start float64, f []float64) (pet, last float64) {
		if p.s.cfg.Scheme == IRSTMS {
			pet = p.irs[j*p.nr+r]
			f[r] = start + p.s.cfg.Alpha*pet
			return pet, f[r]
		}
		last, pw := math.Inf(-1), 1.0
		st := &p.stages[(j*p.nr+r)*p.nk]
		load := pw * st.load
		pet += load + pw*st.pf*st.last
		f[r] = start + p.s.cfg.Alpha*load
		if v := f[r]; v > last || v != v {
			last = v
		}
		return pet, last
	}
	checked := 0
	for _, sc := range []Scheme{STMS, IRSTMS, GBSTMS, SPSTMS} {
		cfg := DefaultConfig(sc)
		cfg.MigrationCost, cfg.TransferFactor, cfg.Alpha = 30, 1.5, 1.3
		p := loadedPlanner(t, cfg, res, attrs, 100)
		f, g := make([]float64, len(res)), make([]float64, len(res))
		for j := range attrs {
			for r := range res {
				for range 3 {
					for i := range f {
						f[i] = 100 + 5000*rng.Float64()
					}
					copy(g, f)
					start := atLeast(f[r], 100)
					pet, last := p.placeOne(j, r, start, f)
					wpet, wlast := chainLoop(p, j, r, start, g)
					if math.Float64bits(pet) != math.Float64bits(wpet) || math.Float64bits(last) != math.Float64bits(wlast) || !slices.Equal(f, g) {
						t.Fatalf("%s job %d on %d from %v: placeOne gives PET %v, last %v, free %v; the chain loop %v, %v, %v", sc, j, r, start, pet, last, f, wpet, wlast, g)
					}
					// place routes a chain of one through placeOne, and
					// writes the start as the stage's slot.
					slots := []float64{-1}
					if pet2, last2 := p.place(j, []int{r}, start, f, slots); pet2 != pet || slots[0] != start || last2 != f[r] {
						t.Fatalf("%s job %d on %d: place gives %v (slot %v), placeOne %v", sc, j, r, pet2, slots[0], pet)
					}
					checked++
				}
			}
		}
	}
	if checked != 4*9*7*3 {
		t.Fatalf("checked %d placements", checked)
	}
}

// place's chain loop, which reads each migration's DM numerator from the
// stage tables (stage.moved) and the bandwidths from the planner, gives bit
// for bit what it gave when it called Model.Transfer with the resources
// (eq. 3's DM = 8·(S_k/2 + JD)/AB, MigrationCost + TransferFactor·DM), so
// the schedules are unchanged: modelLoop below is that loop as it stood,
// over the same tables, for every chain length up to MaxChain.
func TestPlaceChainIsTheModelTransferLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	res, attrs := randomWorld(rng, 7, 9)
	modelLoop := func(p *planner, j int, ch []int, start float64, f, slots []float64) (pet, last float64) {
		s := p.s
		alpha := s.cfg.Alpha
		last = math.Inf(-1)
		js := p.jobs[j]
		pw := 1.0
		for k, r := range ch {
			st := &p.stages[(j*p.nr+r)*p.nk+k]
			pf := st.pf
			load := pw * st.load
			if k == len(ch)-1 {
				pet += load + pw*pf*st.last
			} else {
				half := js.a.Size / float64(int(2)<<k) // S_k / 2
				pet += load + pw*pf*s.cfg.Transfer(half, js.a.Data, s.res[r], s.res[ch[k+1]])
				pw *= pf
			}
			at := start
			if k > 0 {
				at = atLeast(f[r], p.now)
			}
			slots[k] = at
			f[r] = at + alpha*load
			if v := f[r]; v > last || v != v {
				last = v
			}
		}
		return pet, last
	}
	checked := 0
	for _, sc := range []Scheme{STMS, IRSTMS, GBSTMS, SPSTMS} {
		for _, costs := range [][2]float64{{0, 1}, {30, 1.5}, {7, 0}} {
			cfg := DefaultConfig(sc)
			cfg.MigrationCost, cfg.TransferFactor, cfg.Alpha = costs[0], costs[1], 1.3
			p := loadedPlanner(t, cfg, res, attrs, 100)
			f, g := make([]float64, len(res)), make([]float64, len(res))
			for j := range attrs {
				for n := 2; n <= cfg.MaxChain; n++ {
					for range 5 {
						ch := rng.Perm(len(res))[:n]
						for i := range f {
							f[i] = 100 + 5000*rng.Float64()
						}
						copy(g, f)
						start := atLeast(f[ch[0]], 100)
						slots, wslots := make([]float64, n), make([]float64, n)
						pet, last := p.place(j, ch, start, f, slots)
						wpet, wlast := modelLoop(p, j, ch, start, g, wslots)
						if math.Float64bits(pet) != math.Float64bits(wpet) || math.Float64bits(last) != math.Float64bits(wlast) ||
							!slices.Equal(f, g) || !slices.Equal(slots, wslots) {
							t.Fatalf("%s (cost %v, factor %v) job %d on %v from %v: place gives PET %v, last %v, free %v, slots %v; the loop with Model.Transfer %v, %v, %v, %v",
								sc, costs[0], costs[1], j, ch, start, pet, last, f, slots, wpet, wlast, g, wslots)
						}
						checked++
					}
				}
			}
		}
	}
	if want := 4 * 3 * 9 * (DefaultConfig(STMS).MaxChain - 1) * 5; checked != want || checked == 0 {
		t.Fatalf("checked %d placements, want %d", checked, want)
	}
}

// randomWorld draws nr resources and then nj jobs for the planner's tests
// (speeds 100–500, bandwidths 10–50 Mbps, λ below 1e-3 per second, sizes
// 0.1–1, data 300–1,000 MB, deadlines that never bind).
func randomWorld(rng *rand.Rand, nr, nj int) ([]Resource, []Job) {
	res := make([]Resource, nr)
	for r := range res {
		res[r] = Resource{Speed: 100 + 400*rng.Float64(), Bandwidth: 10 + 40*rng.Float64(), Lambda: 1e-3 * rng.Float64(), RAL: rng.Float64()}
	}
	attrs := make([]Job, nj)
	for j := range attrs {
		attrs[j] = Job{Size: 0.1 + 0.9*rng.Float64(), Data: 300 + 700*rng.Float64(), SDV: rng.Float64(), Deadline: 1e9}
	}
	return res, attrs
}

// loadedPlanner returns the planner of a new scheduler under cfg on res,
// with every job of attrs loaded as one batch planned at now (its
// scheduler is the planner's s).
func loadedPlanner(tb testing.TB, cfg Config, res []Resource, attrs []Job, now float64) *planner {
	tb.Helper()
	s, err := New(cfg, res, attrs, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		tb.Fatal(err)
	}
	batch := make([]*jstate, len(attrs))
	for j := range batch {
		s.jobs[j].sj = sim.NewJob(int64(j+1), 0, []int{1}, 1, 1, 0)
		batch[j] = &s.jobs[j]
	}
	s.plan.load(batch, now)
	return s.plan
}
