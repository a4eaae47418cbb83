package stms

import (
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/schedfarm/schedfarm/ga"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

// meanCI95 returns the mean of xs and the half-width of its 95% Student-t
// confidence interval.
func meanCI95(xs []float64) (mean, half float64) {
	mean, sd := stat.MeanStdDev(xs, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(0.975)
	return mean, t * sd / math.Sqrt(float64(len(xs)))
}

// snap is one mGA batch as a run met it: the batch's jobs, the time and
// the resources' expected free times.
type snap struct {
	jobs []*jstate
	now  float64
	free []float64
}

// benchWorld draws a seed002 workload (λ in [1e-4, 1e-3]/s) with the given
// offered load.
func benchWorld(tb testing.TB, seed uint64, jobsN, resN int, class string, load float64) ([]Resource, []Job, []*sim.Job) {
	tb.Helper()
	p := seed002.Default()
	p.Jobs, p.Resources, p.Class, p.Load = jobsN, resN, class, load
	p.FailureCoeff = seed002.Interval{Lo: 1e-4, Hi: 1e-3}
	g, err := seed002.New(p, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		tb.Fatal(err)
	}
	var res []Resource
	for _, r := range g.Resources() {
		res = append(res, Resource{Speed: r.Availability, Bandwidth: r.Bandwidth, Lambda: r.FailureCoeff, RAL: r.AvailabilityLevel})
	}
	var attrs []Job
	var jobs []*sim.Job
	for {
		j, err := g.Next()
		if err == io.EOF {
			break
		}
		attrs = append(attrs, Job{Size: j.Size, Data: j.DataSize, SDV: j.ServiceDemand, Deadline: j.Deadline})
		jobs = append(jobs, sim.NewJob(int64(len(jobs)+1), j.Submit, []int{1}, j.Size*1e4/3, j.Size*1e6, 0))
	}
	return res, attrs, jobs
}

// batchesOf runs STMS (Table 2 settings) on a workload and returns the
// scheduler and every mGA batch it met.
func batchesOf(tb testing.TB, res []Resource, attrs []Job, jobs []*sim.Job) (*Scheduler, []snap) {
	tb.Helper()
	cfg := DefaultConfig(STMS)
	cfg.FailureSeed = [2]uint64{1, 7}
	s, err := New(cfg, res, attrs, rand.New(rand.NewPCG(1, 3)))
	if err != nil {
		tb.Fatal(err)
	}
	var snaps []snap
	s.batchHook = func(p *planner, free []float64) {
		snaps = append(snaps, snap{jobs: slices.Clone(p.jobs), now: p.now, free: slices.Clone(free)})
	}
	if _, _, err := sim.Run(Platform(len(res)), s, sim.NewSliceStream(jobs), nil); err != nil {
		tb.Fatal(err)
	}
	s.batchHook = nil
	return s, snaps
}

// BenchmarkMGABatch times one mGA batch at Table 2's settings (population
// 30, 100 generations, batches of 50) on 50 resources: the Min-Min
// template, the GA and the decoding of its best genome, over the batches a
// run at offered load 0.6 meets.
func BenchmarkMGABatch(b *testing.B) {
	res, attrs, jobs := benchWorld(b, 1, 1500, 50, seed002.ClassNone, 0.6)
	s, snaps := batchesOf(b, res, attrs, jobs)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sn := snaps[i%len(snaps)]
		s.plan.load(sn.jobs, sn.now)
		s.mga(sn.free)
	}
	b.ReportMetric(float64(len(snaps)), "batches")
}

// BenchmarkGAEffect measures what the mGA does to the objective it
// optimises (eq. 10), over every batch of a fixed workload (3,000 jobs, 50
// resources, offered load 0.6, Table 2 settings): at generations 0, 10, 50
// and 100, the best fitness of the population with eq. 7's normalisation
// frozen at generation 0 (so generations are comparable; generation 0 holds
// the Min-Min template and 29 random genomes), and for the final best the
// change of planned makespan and utilisation against the Min-Min template.
// Means and 95% confidence half-widths are over batches.
//
//	go test -run XXX -bench GAEffect -benchtime 1x ./families/stms
func BenchmarkGAEffect(b *testing.B) {
	res, attrs, jobs := benchWorld(b, 1, 3000, 50, seed002.ClassNone, 0.6)
	s, snaps := batchesOf(b, res, attrs, jobs)
	gens := []int{0, 10, 50, 100}
	for i := 0; i < b.N; i++ {
		gain := make([][]float64, len(gens))
		var dMs, dAu []float64
		improved := 0
		for bi, sn := range snaps {
			s.plan.load(sn.jobs, sn.now)
			ev, seed := s.plan.evaluator(sn.free)
			tmpl := ev.Evaluate(seed)
			cfg := s.cfg.GA
			cfg.Jobs, cfg.Resources = len(sn.jobs), len(res)
			var hist [][]ga.Objectives
			cfg.Observe = func(_ int, objs []ga.Objectives) { hist = append(hist, slices.Clone(objs)) }
			r, err := ga.Run(cfg, ev, []ga.Genome{seed}, rand.New(rand.NewPCG(uint64(bi), 9)))
			if err != nil {
				b.Fatal(err)
			}
			frozen := frozenFitness(hist[0], cfg.Weights)
			base := frozen(hist[0])
			for k, g := range gens {
				gain[k] = append(gain[k], frozen(hist[g])-base)
			}
			if frozen([]ga.Objectives{r.Objectives}) > frozen([]ga.Objectives{tmpl})+1e-12 {
				improved++
			}
			dMs = append(dMs, 100*(r.Objectives.Makespan-tmpl.Makespan)/tmpl.Makespan)
			dAu = append(dAu, 100*(r.Objectives.Util-tmpl.Util)/tmpl.Util)
		}
		if i > 0 {
			continue
		}
		b.Logf("%d mGA batches of a 3,000-job run (50 resources, offered load 0.6)", len(snaps))
		for k, g := range gens {
			m, h := meanCI95(gain[k])
			b.Logf("generation %3d: best fitness (eq. 7 frozen at generation 0) %+.4f ± %.4f over generation 0", g, m, h)
		}
		m, h := meanCI95(dMs)
		b.Logf("final best vs Min-Min template: planned makespan %+.2f%% ± %.2f", m, h)
		b.ReportMetric(m, "makespan-%")
		m, h = meanCI95(dAu)
		b.Logf("final best vs Min-Min template: planned utilisation %+.2f%% ± %.2f", m, h)
		b.ReportMetric(m, "util-%")
		b.Logf("batches where the GA beats the template: %d of %d", improved, len(snaps))
		m, _ = meanCI95(gain[len(gens)-1])
		b.ReportMetric(m, "fitness-gain")
	}
}

// frozenFitness returns a function giving the best eq.-10 fitness of a
// population with eq. 7's normalisation fixed to the ranges of pop0.
func frozenFitness(pop0 []ga.Objectives, w ga.Weights) func([]ga.Objectives) float64 {
	msMin, msMax, auMin, auMax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, o := range pop0 {
		msMin, msMax = min(msMin, o.Makespan), max(msMax, o.Makespan)
		auMin, auMax = min(auMin, o.Util), max(auMax, o.Util)
	}
	norm := func(v, lo, hi float64) float64 {
		if hi > lo {
			return (v - lo) / (hi - lo)
		}
		return 1
	}
	return func(pop []ga.Objectives) float64 {
		best := math.Inf(-1)
		for _, o := range pop {
			f := w.Delta*norm(msMax-o.Makespan+msMin, msMin, msMax) + w.Omega*norm(o.Util, auMin, auMax) + w.Kappa*o.Unfair - w.Rho*o.Penalty
			best = max(best, f)
		}
		return best
	}
}

// On batches small enough to enumerate — 5 jobs on 3 failing resources,
// chains of up to 2 resources (9 choices per job, 59,049 mappings; the
// order of a batch does not change its plan's makespan) — the mGA with
// fitness = normalised makespan (δ = 1, ω = κ = 0) finds the optimal
// planned makespan. Instances are drawn until Min-Min misses the optimum by
// more than 1%, so the GA has something to find; over 20 GA seeds per
// instance it must reach the optimum (within 0.01%) in at least 16.
func TestMGAFindsExhaustiveOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	found := 0
	for inst := 0; found < 3 && inst < 500; inst++ {
		res, attrs := randomWorld(rng, 3, 5)
		cfg := DefaultConfig(STMS)
		cfg.MaxChain, cfg.GA.MaxGenesPerJob = 2, 2
		cfg.GA.Delta, cfg.GA.Omega, cfg.GA.Kappa, cfg.GA.Rho = 1, 0, 0, 0
		p := loadedPlanner(t, cfg, res, attrs, 0)
		s := p.s
		free := make([]float64, len(res))
		out := make([]float64, len(res))
		makespan := func(order []int, chains [][]int) float64 {
			return p.plan(order, chains, free, out, nil).Makespan
		}
		// Exhaustive: choice c of job j is primary c/3 and, for c%3 ≠ 0, a
		// backup (c/3 + c%3) mod 3.
		order := []int{0, 1, 2, 3, 4}
		chains := make([][]int, 5)
		best := math.Inf(1)
		for code := 0; code < 59049; code++ {
			c := code
			for j := range chains {
				k := c % 9
				c /= 9
				chains[j] = chains[j][:0]
				chains[j] = append(chains[j], k/3)
				if k%3 != 0 {
					chains[j] = append(chains[j], (k/3+k%3)%3)
				}
			}
			best = min(best, makespan(order, chains))
		}
		mmOrder, mmChains := p.minMin(free)
		mm := makespan(mmOrder, mmChains)
		if mm <= best*1.01 {
			continue
		}
		found++
		hits := 0
		for seed := uint64(0); seed < 20; seed++ {
			s.gaRng = rand.New(rand.NewPCG(seed, uint64(inst)))
			o, ch := s.mga(free)
			if makespan(o, ch) <= best*(1+1e-4) {
				hits++
			}
		}
		t.Logf("instance %d: optimum %.1f s, Min-Min %.1f s (+%.1f%%), GA at the optimum in %d of 20 seeds", inst, best, mm, 100*(mm/best-1), hits)
		if hits < 16 {
			t.Errorf("instance %d: GA reached the optimum in %d of 20 seeds, want ≥ 16", inst, hits)
		}
	}
	if found < 3 {
		t.Fatalf("only %d instances where Min-Min misses the optimum", found)
	}
}
