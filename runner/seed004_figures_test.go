package runner_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies/twotier"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

var (
	figures  = flag.Bool("seed004.figures", false, "run the seed-004 Figure 8–12 experiments (minutes)")
	figProj  = flag.Int("seed004.projects", 1000, "projects per replication for -seed004.figures")
	figReps  = flag.Int("seed004.reps", 5, "replications for -seed004.figures")
	figWorks = flag.Int("seed004.workers", 2, "parallel simulations for -seed004.figures")
)

// itas are the mean project interarrival times of Figures 8–12.
var itas = []float64{10, 20, 40, 80, 160}

// cell is one simulation of the figure experiments.
type cell struct {
	ita    float64
	rep    int
	sched  string
	params map[string]any
	high   float64 // fraction of high-priority projects
}

func (c cell) key() string {
	return fmt.Sprintf("%g/%d/%s/%v/%g", c.ita, c.rep, c.sched, c.params, c.high)
}

// runCells simulates cells on workers goroutines; a cell's workload depends
// only on (ita, rep, high), so every scheduler sees the same projects.
func runCells(t *testing.T, cells []cell) map[string]twotier.Metrics {
	out := make(map[string]twotier.Metrics, len(cells))
	var mu sync.Mutex
	ch := make(chan cell)
	var wg sync.WaitGroup
	for range max(1, *figWorks) {
		wg.Go(func() {
			for c := range ch {
				p := seed004.Default()
				p.Projects, p.MeanInterarrival = *figProj, c.ita
				rng := rand.New(rand.NewPCG(uint64(c.ita*1000)+uint64(c.rep), 0x004))
				plat, jobs, err := runner.Seed004Workload(p, c.high, rng)
				if err != nil {
					t.Error(err)
					continue
				}
				res, err := runner.RunJobs(runner.JobsConfig{Platform: plat, Jobs: jobs, Scheduler: c.sched, SchedulerParams: c.params})
				if err != nil {
					t.Errorf("%s: %v", c.key(), err)
					continue
				}
				mu.Lock()
				out[c.key()] = res.Projects
				mu.Unlock()
			}
		})
	}
	for _, c := range cells {
		ch <- c
	}
	close(ch)
	wg.Wait()
	return out
}

// mean averages f over the replications of a (scheduler, params, ita) cell.
func mean(res map[string]twotier.Metrics, c cell, f func(twotier.Metrics) float64) float64 {
	s := 0.0
	for r := range *figReps {
		c.rep = r
		s += f(res[c.key()])
	}
	return s / float64(*figReps)
}

func pct(base, x float64) string { return fmt.Sprintf("%+.1f%%", 100*(x-base)/base) }

// TestSeed004Figures reproduces Figures 8–12 of seed 004 (Table 6
// parameters, 5 replications × 1000 projects by default) and prints the
// numbers next to the thesis's claims. It runs only with -seed004.figures:
//
//	go test ./runner -run Seed004Figures -seed004.figures -v -timeout 0
func TestSeed004Figures(t *testing.T) {
	if !*figures {
		t.Skip("needs -seed004.figures")
	}
	var cells []cell
	add := func(ita float64, sched string, params map[string]any, high float64) cell {
		c := cell{ita: ita, sched: sched, params: params, high: high}
		for r := range *figReps {
			c.rep = r
			cells = append(cells, c)
		}
		c.rep = 0
		return c
	}
	type row struct{ tsb, tfb, sf cell }
	var fig8 []row
	for _, ita := range itas {
		fig8 = append(fig8, row{
			add(ita, "2tsb", nil, 0),
			add(ita, "2tfb", nil, 0),
			add(ita, "2tfb-sf", map[string]any{"sf": 0.5, "pl": "unlimited"}, 0),
		})
	}
	sfs := []float64{0.2, 0.5, 1.0, 2.0}
	fig10 := map[float64][]cell{}
	for _, ita := range []float64{10, 40, 160} {
		for _, sf := range sfs {
			fig10[ita] = append(fig10[ita], add(ita, "2tfb-sf", map[string]any{"sf": sf, "pl": "unlimited"}, 0))
		}
	}
	type prow struct {
		label    string
		tsb, tpb cell
	}
	var fig11, fig12 []prow
	for i, ita := range itas {
		sf := []float64{0.2, 0.4, 0.6, 0.8, 1.0}[i]
		fig11 = append(fig11, prow{fmt.Sprintf("(ita %g, SF %g)", ita, sf),
			add(ita, "2tsb", nil, 0.2), add(ita, "2tpb", map[string]any{"sf": sf, "pl": "unlimited"}, 0.2)})
		pl := []any{int64(1), int64(2), int64(4), int64(8), "unlimited"}[i]
		fig12 = append(fig12, prow{fmt.Sprintf("(ita %g, PL %v)", ita, pl),
			add(ita, "2tsb", nil, 0.2), add(ita, "2tpb", map[string]any{"sf": 0.5, "pl": pl}, 0.2)})
	}
	// Deduplicate (the 2TSB baselines of Figures 11 and 12 coincide).
	seen := map[string]bool{}
	uniq := cells[:0]
	for _, c := range cells {
		if !seen[c.key()] {
			seen[c.key()] = true
			uniq = append(uniq, c)
		}
	}
	res := runCells(t, uniq)
	pta := func(m twotier.Metrics) float64 { return m.PTA }
	jta := func(m twotier.Metrics) float64 { return m.JTA }
	wait := func(m twotier.Metrics) float64 { return m.Waiting }
	run := func(m twotier.Metrics) float64 { return m.Running }
	high := func(m twotier.Metrics) float64 { return m.HighPTA }
	low := func(m twotier.Metrics) float64 { return m.LowPTA }

	var b strings.Builder
	fmt.Fprintf(&b, "\nseed 004, %d replications × %d projects, Table 6 parameters\n", *figReps, *figProj)
	fmt.Fprintf(&b, "\nFigures 8–9 (2TFB-SF: SF 0.5, PL ∞); change vs 2TSB\n")
	fmt.Fprintf(&b, "%5s | %9s %9s %9s | %9s %9s %9s | %9s %9s\n", "ita", "JTA 2TSB", "2TFB", "2TFB-SF", "PTA 2TSB", "2TFB", "2TFB-SF", "wait SF", "run SF")
	for i, r := range fig8 {
		j0, j1, j2 := mean(res, r.tsb, jta), mean(res, r.tfb, jta), mean(res, r.sf, jta)
		p0, p1, p2 := mean(res, r.tsb, pta), mean(res, r.tfb, pta), mean(res, r.sf, pta)
		w0, w2 := mean(res, r.tsb, wait), mean(res, r.sf, wait)
		u0, u2 := mean(res, r.tsb, run), mean(res, r.sf, run)
		fmt.Fprintf(&b, "%5g | %9.0f %9s %9s | %9.0f %9s %9s | %9s %9s\n", itas[i], j0, pct(j0, j1), pct(j0, j2), p0, pct(p0, p1), pct(p0, p2), pct(w0, w2), pct(u0, u2))
	}
	fmt.Fprintf(&b, "\nFigure 10 (2TFB-SF, PL ∞): JTA / PTA by SF\n")
	for _, ita := range []float64{10, 40, 160} {
		fmt.Fprintf(&b, "ita %5g:", ita)
		for i, c := range fig10[ita] {
			fmt.Fprintf(&b, "  SF %.1f %6.0f / %6.0f", sfs[i], mean(res, c, jta), mean(res, c, pta))
		}
		b.WriteString("\n")
	}
	for _, f := range []struct {
		name string
		rows []prow
	}{{"Figure 11 (2TPB, PL ∞) vs 2TSB, 1/5 high-priority", fig11}, {"Figure 12 (2TPB, SF 0.5) vs 2TSB, 1/5 high-priority", fig12}} {
		fmt.Fprintf(&b, "\n%s: PTA change\n", f.name)
		fmt.Fprintf(&b, "%-22s %9s %9s %9s\n", "", "high", "low", "all")
		for _, r := range f.rows {
			h0, h1 := mean(res, r.tsb, high), mean(res, r.tpb, high)
			l0, l1 := mean(res, r.tsb, low), mean(res, r.tpb, low)
			a0, a1 := mean(res, r.tsb, pta), mean(res, r.tpb, pta)
			if math.IsNaN(h0) || math.IsNaN(l0) {
				t.Errorf("%s: an empty priority class", r.label)
			}
			fmt.Fprintf(&b, "%-22s %9s %9s %9s\n", r.label, pct(h0, h1), pct(l0, l1), pct(a0, a1))
		}
	}
	t.Log(b.String())
}
