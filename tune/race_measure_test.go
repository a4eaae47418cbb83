package tune

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/stats"
)

// countingRunner counts the distinct cells one search asks for, over a
// runner shared by many searches (whose cache makes a cell asked for by
// several searches run once: common random numbers make it the same cell).
type countingRunner struct {
	r     Runner
	asked map[string]bool
}

func (c *countingRunner) Run(ctx context.Context, cells []runner.Cell) (map[string]runner.CellResult, error) {
	for _, x := range cells {
		c.asked[x.ID] = true
	}
	return c.r.Run(ctx, cells)
}

// envRace returns the race arm's Race for a search of d parameters: min
// 2, max SCHEDFARM_RACE_MAX (R), alpha SCHEDFARM_RACE_ALPHA (0.05), the
// indifference zone SCHEDFARM_RACE_INDIFFERENCE (none; "1%": relative,
// "150": absolute), read as race.indifference is, and a final race of the
// elite to SCHEDFARM_RACE_FINAL replications (0: none) with
// SCHEDFARM_RACE_ELITE candidates (EliteDefault(d)).
func envRace(t *testing.T, R, d int) *Race {
	t.Helper()
	rc := &Race{Min: 2, Max: envInt(t, "SCHEDFARM_RACE_MAX", R), Alpha: 0.05}
	if a := os.Getenv("SCHEDFARM_RACE_ALPHA"); a != "" {
		var err error
		if rc.Alpha, err = strconv.ParseFloat(a, 64); err != nil || !(rc.Alpha > 0 && rc.Alpha <= 0.5) {
			t.Fatalf("SCHEDFARM_RACE_ALPHA=%q: want a level in (0, 0.5]", a)
		}
	}
	if d := os.Getenv("SCHEDFARM_RACE_INDIFFERENCE"); d != "" {
		rc.Indifference, rc.Relative = indifference(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: d})
		if rc.Indifference < 0 {
			t.Fatalf("SCHEDFARM_RACE_INDIFFERENCE=%q: want a number ≥ 0 or a percentage in (0%%, 100%%)", d)
		}
	}
	if rc.Final = envInt(t, "SCHEDFARM_RACE_FINAL", 0); rc.Final > 0 {
		if rc.Final <= rc.Max {
			t.Fatalf("SCHEDFARM_RACE_FINAL=%d: want more than the race's max %d", rc.Final, rc.Max)
		}
		rc.Elite = envInt(t, "SCHEDFARM_RACE_ELITE", EliteDefault(d))
	}
	return rc
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// TestRaceMeasure measures racing against fixed replications on search
// spaces small enough to grid exhaustively (opt-in: it runs thousands of
// cells): SCHEDFARM_RACE_MEASURE=1 go test -run TestRaceMeasure -v
// -timeout 0 ./tune. For each space and workload (base seed) the true
// optimum is found by evaluating every genome of the grid at
// SCHEDFARM_RACE_TRUTH (30) replications; then SCHEDFARM_RACE_SEARCHES
// (20) searches (search seeds SCHEDFARM_RACE_FIRST_SEED (1), the next, …) run with R fixed replications and
// as many racing with min 2, max R, alpha 0.05 (SCHEDFARM_RACE_ALPHA),
// the same budget. A search
// succeeds when its best genome lies inside the true optimum's paired 95%
// CI at the truth's replications (the CI of best − optimum per replication
// reaches 0: not decided worse). Reported per arm: the mean cells a search
// asked for, the mean cells it had asked for when its incumbent first lay
// inside that CI (searches that got there), and the success rate.
// SCHEDFARM_RACE_SPACES selects spaces by name (comma-separated),
// SCHEDFARM_RACE_R one R instead of each space's list; envRace says how
// the race arm is set.
func TestRaceMeasure(t *testing.T) {
	if os.Getenv("SCHEDFARM_RACE_MEASURE") == "" {
		t.Skip("opt-in: SCHEDFARM_RACE_MEASURE=1")
	}
	searches := envInt(t, "SCHEDFARM_RACE_SEARCHES", 20)
	first := uint64(envInt(t, "SCHEDFARM_RACE_FIRST_SEED", 1))
	truth := envInt(t, "SCHEDFARM_RACE_TRUTH", 30)
	spaces := []struct {
		name, file string
		bases      []uint64
		reps       []int // fixed replications compared (the first: the spec's own)
	}{
		// The exhaustive-grid test's space (TestFindsTheGridOptimum):
		// k ∈ 1…17 × estimates, 34 genomes, GA population 4, budget 11.
		{"grid", "testdata/depth.yaml", []uint64{1, 2, 3}, []int{4, 10}},
		// The shipped tune-depth.yaml: k ∈ 0…32, 33 genomes, GA
		// population 8, 5 generations.
		{"tune-depth", "../experiments/tune-depth.yaml", []uint64{1}, []int{3, 10}},
	}
	only := os.Getenv("SCHEDFARM_RACE_SPACES")
	for _, sp := range spaces {
		if only != "" && !strings.Contains(","+only+",", ","+sp.name+",") {
			continue
		}
		for _, base := range sp.bases {
			spec, err := Load(sp.file, families.Builtin())
			if err != nil {
				t.Fatal(err)
			}
			b := *spec.Base
			b.Seed = base
			spec.Base = &b
			spec.ConfirmReplications = 0
			shared := &LocalRunner{Sim: runner.New(families.Builtin()), Workers: runtime.GOMAXPROCS(0)}
			// The truth: every genome at `truth` replications.
			ts := *spec
			tb := b
			tb.Replications = truth
			ts.Base = &tb
			grid := gridEvals(t, &ts, shared)
			byKey, opt := indexEvals(grid)
			if opt == nil {
				t.Fatalf("%s workload %d: no feasible genome", sp.name, base)
			}
			inCI := func(e *Eval) bool {
				if e == nil {
					return false
				}
				d := paired(byKey[e.key], opt)
				return d.Mean-d.HalfWidth <= 0
			}
			within := 0
			for _, e := range grid {
				if inCI(e) {
					within++
				}
			}
			t.Logf("%s workload %d: optimum %s = %.0f ± %.0f at %d replications; %d of %d genomes inside its paired CI (%d cells simulated)",
				sp.name, base, Describe(spec, opt), opt.Objective, opt.ObjectiveCI, truth, within, len(grid), shared.Ran)
			reps := sp.reps
			if os.Getenv("SCHEDFARM_RACE_R") != "" {
				reps = []int{envInt(t, "SCHEDFARM_RACE_R", 10)}
			}
			for _, R := range reps {
				var arms [2]armStats
				for arm := range arms {
					s := *spec
					sb := b
					sb.Replications = R
					s.Base = &sb
					if arm == 1 {
						s.Race = envRace(t, R, len(spec.Params))
					}
					for seed := first; seed < first+uint64(searches); seed++ {
						cr := &countingRunner{r: shared, asked: map[string]bool{}}
						reached := -1
						res, err := Search(context.Background(), &s, cr, Options{Seed: &seed, Progress: func(p Progress) {
							if reached < 0 && inCI(p.Best) {
								reached = len(cr.asked)
							}
						}})
						if err != nil {
							t.Fatal(err)
						}
						arms[arm].add(res, reached, inCI(res.Best), res.Best != nil && res.Best.key == opt.key)
					}
				}
				f, r := arms[0], arms[1]
				t.Logf("%s workload %d, R = %d: fixed %s", sp.name, base, R, f)
				t.Logf("%s workload %d, R = %d: race  %s", sp.name, base, R, r)
				t.Logf("%s workload %d, R = %d, race %s: race/fixed cells %.3f, cells to reach the CI %.3f; success %d/%d vs %d/%d",
					sp.name, base, R, envRace(t, R, len(spec.Params)), r.meanCells()/f.meanCells(), r.meanReach()/f.meanReach(), r.success, r.n, f.success, f.n)
			}
		}
	}
}

// armStats sums one arm's searches.
type armStats struct {
	n, success, exact, reachedN, eliminated, equivalent int
	cells, reach                                        float64
}

func (a *armStats) add(res *Result, reached int, success, exact bool) {
	a.n++
	a.cells += float64(res.Cells)
	a.eliminated += res.Eliminated
	a.equivalent += res.Equivalent
	if reached >= 0 {
		a.reachedN++
		a.reach += float64(reached)
	}
	if success {
		a.success++
	}
	if exact {
		a.exact++
	}
}

func (a armStats) meanCells() float64 { return a.cells / float64(a.n) }
func (a armStats) meanReach() float64 { return a.reach / float64(max(a.reachedN, 1)) }

func (a armStats) String() string {
	return fmt.Sprintf("%d searches: %.1f cells each; inside the optimum's CI %d/%d (the optimum itself %d); reached it in %d, after %.1f cells on average; %.1f genomes eliminated and %.1f stopped as equivalent per search",
		a.n, a.meanCells(), a.success, a.n, a.exact, a.reachedN, a.meanReach(), float64(a.eliminated)/float64(a.n), float64(a.equivalent)/float64(a.n))
}

// indexEvals maps evaluations by genome key and returns the feasible one
// of lowest fitness (nil: none), the reference a search is judged by.
func indexEvals(evals []*Eval) (byKey map[string]*Eval, best *Eval) {
	byKey = map[string]*Eval{}
	for _, e := range evals {
		byKey[e.key] = e
		if e.Feasible && (best == nil || e.Fitness < best.Fitness) {
			best = e
		}
	}
	return byKey, best
}

// evalValues evaluates genomes given by their values (spec's replications,
// the search's seeds) as the search would.
func evalValues(t *testing.T, spec *Spec, r Runner, vals [][]any) []*Eval {
	t.Helper()
	s := &search{spec: spec, run: r, ctx: context.Background(), base: spec.Base.Cells(), cache: map[string]*Eval{}}
	var batch []runner.Cell
	cells := make([][]runner.Cell, len(vals))
	for i, v := range vals {
		cells[i] = s.cells(v, "", 0)
		batch = append(batch, cells[i]...)
	}
	got, err := r.Run(context.Background(), batch)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*Eval, len(vals))
	for i, v := range vals {
		out[i] = &Eval{Values: v, key: key(v)}
		s.measure(out[i], cells[i], got)
	}
	return out
}

// TestRaceMeasureShipped is TestRaceMeasure on shipped tune specs whose
// space is continuous (SCHEDFARM_RACE_MEASURE=1, SCHEDFARM_RACE_SHIPPED
// = comma-separated spec names, e.g. tune-stms,tune-2tfb-sf): no grid
// holds the true optimum, so the reference is the best, at
// SCHEDFARM_RACE_TRUTH (30) replications, of every genome that was the
// incumbent of a generation of any search of either arm; a search
// succeeds when its best lies inside that reference's paired 95% CI. The
// arms: SCHEDFARM_RACE_R (10) fixed replications against racing with
// min 2, max R, alpha 0.05 (SCHEDFARM_RACE_ALPHA), SCHEDFARM_RACE_SEARCHES
// (20) search seeds each, from SCHEDFARM_RACE_FIRST_SEED (1) on.
func TestRaceMeasureShipped(t *testing.T) {
	names := os.Getenv("SCHEDFARM_RACE_SHIPPED")
	if os.Getenv("SCHEDFARM_RACE_MEASURE") == "" || names == "" {
		t.Skip("opt-in: SCHEDFARM_RACE_MEASURE=1 SCHEDFARM_RACE_SHIPPED=tune-stms,…")
	}
	searches := envInt(t, "SCHEDFARM_RACE_SEARCHES", 20)
	first := uint64(envInt(t, "SCHEDFARM_RACE_FIRST_SEED", 1))
	truth := envInt(t, "SCHEDFARM_RACE_TRUTH", 30)
	R := envInt(t, "SCHEDFARM_RACE_R", 10)
	for _, name := range strings.Split(names, ",") {
		spec, err := Load("../experiments/"+name+".yaml", families.Builtin())
		if err != nil {
			t.Fatal(err)
		}
		spec.ConfirmReplications = 0
		shared := &LocalRunner{Sim: runner.New(families.Builtin()), Workers: runtime.GOMAXPROCS(0)}
		type step struct {
			cells int
			best  []any
		}
		type run struct {
			cells, eliminated, equivalent int
			best                          []any
			steps                         []step
		}
		var runs [2][]run
		for arm := range runs {
			s := *spec
			sb := *spec.Base
			sb.Replications = R
			s.Base = &sb
			if arm == 1 {
				s.Race = envRace(t, R, len(spec.Params))
			}
			for seed := first; seed < first+uint64(searches); seed++ {
				cr := &countingRunner{r: shared, asked: map[string]bool{}}
				var rn run
				res, err := Search(context.Background(), &s, cr, Options{Seed: &seed, Progress: func(p Progress) {
					if p.Best != nil {
						rn.steps = append(rn.steps, step{len(cr.asked), p.Best.Values})
					}
				}})
				if err != nil {
					t.Fatal(err)
				}
				rn.cells, rn.eliminated, rn.equivalent = res.Cells, res.Eliminated, res.Equivalent
				if res.Best != nil {
					rn.best = res.Best.Values
				}
				runs[arm] = append(runs[arm], rn)
			}
			t.Logf("%s: arm %d done, %d cells simulated so far", name, arm, shared.Ran)
		}
		// The reference: the best of every incumbent at `truth` replications.
		ts := *spec
		tb := *spec.Base
		tb.Replications = truth
		ts.Base = &tb
		seen := map[string]bool{}
		var vals [][]any
		for _, arm := range runs {
			for _, rn := range arm {
				for _, st := range rn.steps {
					if k := key(st.best); !seen[k] {
						seen[k] = true
						vals = append(vals, st.best)
					}
				}
			}
		}
		tr := evalValues(t, &ts, shared, vals)
		byKey, opt := indexEvals(tr)
		inCI := func(v []any) bool {
			if v == nil || opt == nil {
				return false
			}
			d := paired(byKey[key(v)], opt)
			if ts.Objective.Maximize {
				return d.Mean+d.HalfWidth >= 0
			}
			return d.Mean-d.HalfWidth <= 0
		}
		t.Logf("%s: reference %s = %.4g ± %.4g at %d replications, the best of %d incumbents", name, Describe(spec, opt), opt.Objective, opt.ObjectiveCI, truth, len(vals))
		var arms [2]armStats
		for a, arm := range runs {
			for _, rn := range arm {
				reached := -1
				for _, st := range rn.steps {
					if inCI(st.best) {
						reached = st.cells
						break
					}
				}
				arms[a].add(&Result{Cells: rn.cells, Eliminated: rn.eliminated, Equivalent: rn.equivalent}, reached, inCI(rn.best), rn.best != nil && key(rn.best) == opt.key)
			}
		}
		f, r := arms[0], arms[1]
		t.Logf("%s, R = %d: fixed %s", name, R, f)
		t.Logf("%s, R = %d: race  %s", name, R, r)
		t.Logf("%s, R = %d, race %s: race/fixed cells %.3f, cells to reach the CI %.3f; success %d/%d vs %d/%d (%d cells simulated)",
			name, R, envRace(t, R, len(spec.Params)), r.meanCells()/f.meanCells(), r.meanReach()/f.meanReach(), r.success, r.n, f.success, f.n, shared.Ran)
		// Non-inferiority of racing's success rate (docs/tuning.md): the
		// one-sided 95% lower limit of Newcombe's interval for race − fixed.
		lo, _ := stats.NewcombeDiff(r.success, r.n, f.success, f.n, 1.6448536)
		t.Logf("%s: success race − fixed %+.3f, one-sided 95%% lower limit %.3f (Newcombe hybrid score)", name, float64(r.success)/float64(r.n)-float64(f.success)/float64(f.n), lo)
	}
}
