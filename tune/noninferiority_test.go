package tune

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/stats"
)

// The non-inferiority test of the final race on tune-2tfb-sf, pre-registered
// in docs/tuning.md ("Non-inferiority of the final race on tune-2tfb-sf")
// before any of its searches ran. Every constant here is part of that
// pre-registration; changing one makes the records already written answer
// a different question, so TestNonInferiorityRecords refuses a file whose
// records were made under other values.
const (
	niSpec       = "tune-2tfb-sf"
	niFirstSeed  = 21 // search seeds 1–20 were looked at before
	niSearches   = 78 // per arm: (z₀.₉₅ + z₀.₈)²·2p(1−p)/m² at p = 0.5, m = 0.20
	niMargin     = 0.20
	niZ          = 1.6448536 // two-sided 90% = one-sided 95%
	niFixedR     = 10
	niTruth      = 30 // the reference's and each incumbent's replications
	niCellsRatio = 0.50
	niRecords    = "testdata/noninferiority-tune-2tfb-sf.jsonl"
)

// niRace is the race arm: min 2, max 4, alpha 0.05, final 10, the
// default elite for two parameters (3).
func niRace() *Race {
	return &Race{Min: 2, Max: 4, Alpha: 0.05, Final: 10, Elite: EliteDefault(2)}
}

// niReference is the fixed reference genome, SF 1.07, PL 1: the genome
// every earlier measurement on this spec found best (15,700 ± 921 PTA at
// 30 replications, docs/tuning.md). Fixed before the run, so that each
// search is judged on its own, in whichever session it ran.
func niReference() []any { return []any{1.07, int64(1)} }

// niRecord is one search of the test, one line of the records file.
type niRecord struct {
	searchRecord
	// Reached is the cells the search had asked for when its incumbent
	// first lay inside the reference's CI (−1: never).
	Reached int `json:"reached"`
	// Best is the search's final best; BestMinusRef its paired mean
	// difference to the reference at niTruth replications and HalfWidth
	// that difference's 95% half-width.
	Best         string  `json:"best"`
	BestMinusRef float64 `json:"best_minus_ref"`
	HalfWidth    float64 `json:"half_width"`
	// Success: Best − reference's paired 95% CI reaches 0 (minimised
	// objective: mean − half-width ≤ 0), i.e. Best is not decided worse.
	Success bool `json:"success"`
	// Incumbents counts the distinct generation incumbents judged.
	Incumbents int `json:"incumbents"`
}

func niSetting(arm int) string {
	if arm == 0 {
		return fmt.Sprintf("fixed R=%d", niFixedR)
	}
	return "race " + niRace().String()
}

// TestNonInferiorityShard runs the pre-registered test's searches that the
// records file does not hold yet and appends one line per search (opt-in:
// SCHEDFARM_RACE_NONINFERIORITY=1; about 4 min of both cores per search
// seed, both arms). Seeds are taken in order, both arms of one seed
// before the next, so a run stopped at any point leaves the arms balanced
// up to one search; SCHEDFARM_RACE_SHARD=i/n takes only the seeds with
// (seed − first) mod n = i, for n processes side by side. The records
// file is SCHEDFARM_RACE_RECORDS (default the committed one).
func TestNonInferiorityShard(t *testing.T) {
	if os.Getenv("SCHEDFARM_RACE_NONINFERIORITY") == "" {
		t.Skip("opt-in: SCHEDFARM_RACE_NONINFERIORITY=1 (hours of CPU)")
	}
	path := niRecords
	if p := os.Getenv("SCHEDFARM_RACE_RECORDS"); p != "" {
		path = p
	}
	shard, shards := 0, 1
	if s := os.Getenv("SCHEDFARM_RACE_SHARD"); s != "" {
		if _, err := fmt.Sscanf(s, "%d/%d", &shard, &shards); err != nil || shards < 1 || shard < 0 || shard >= shards {
			t.Fatalf("SCHEDFARM_RACE_SHARD=%q: want i/n with 0 ≤ i < n", s)
		}
	}
	have, err := readJSONLines[niRecord](path)
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	for _, r := range have {
		done[fmt.Sprintf("%s/%d", r.Arm, r.Seed)] = true
	}
	spec, err := Load("../experiments/"+niSpec+".yaml", families.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Params) != 2 || spec.Params[0].Name != "scheduler.sf" || spec.Params[1].Name != "scheduler.pl" {
		t.Fatalf("%s searches %v; the pre-registered reference is (scheduler.sf, scheduler.pl)", niSpec, spec.Params)
	}
	spec.ConfirmReplications = 0
	shared := &LocalRunner{Sim: runner.New(families.Builtin()), Workers: runtime.GOMAXPROCS(0)}
	ts := *spec
	tb := *spec.Base
	tb.Replications = niTruth
	ts.Base = &tb
	ref := evalValues(t, &ts, shared, [][]any{niReference()})[0]
	if !ref.Feasible {
		t.Fatalf("reference %s is infeasible", Describe(spec, ref))
	}
	t.Logf("reference %s = %.6g ± %.4g at %d replications", Describe(spec, ref), ref.Objective, ref.ObjectiveCI, niTruth)
	judged := map[string]*Eval{}
	judge := func(v []any) *Eval {
		k := key(v)
		if e, ok := judged[k]; ok {
			return e
		}
		e := evalValues(t, &ts, shared, [][]any{v})[0]
		judged[k] = e
		return e
	}
	inCI := func(e *Eval) (bool, diffCI) {
		d := paired(e, ref)
		return e.Feasible && d.Mean-d.HalfWidth <= 0, diffCI{d.Mean, d.HalfWidth}
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for seed := uint64(niFirstSeed); seed < niFirstSeed+niSearches; seed++ {
		if int(seed-niFirstSeed)%shards != shard {
			continue
		}
		for arm := range 2 {
			name := [2]string{"fixed", "race"}[arm]
			if done[fmt.Sprintf("%s/%d", name, seed)] {
				continue
			}
			s := *spec
			sb := *spec.Base
			sb.Replications = niFixedR
			s.Base = &sb
			if arm == 1 {
				s.Race = niRace()
			}
			cr := &countingRunner{r: shared, asked: map[string]bool{}}
			type step struct {
				cells int
				best  []any
			}
			var steps []step
			res, err := Search(context.Background(), &s, cr, Options{Seed: &seed, Progress: func(p Progress) {
				if p.Best != nil {
					steps = append(steps, step{len(cr.asked), p.Best.Values})
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			rec := niRecord{searchRecord: searchRecord{Spec: niSpec, Arm: name, Setting: niSetting(arm), Seed: seed, Commit: buildinfo.Commit(),
				Cells: res.Cells, Eliminated: res.Eliminated, Equivalent: res.Equivalent}, Reached: -1}
			seen := map[string]bool{}
			for _, st := range steps {
				if k := key(st.best); !seen[k] {
					seen[k] = true
					rec.Incumbents++
					if ok, _ := inCI(judge(st.best)); ok && rec.Reached < 0 {
						rec.Reached = st.cells
					}
				}
			}
			if res.Best != nil {
				e := judge(res.Best.Values)
				rec.Best = Describe(spec, e)
				var d diffCI
				rec.Success, d = inCI(e)
				rec.BestMinusRef, rec.HalfWidth = d.mean, d.hw
			}
			appendJSONLine(t, f, rec)
			t.Logf("seed %d %s: %d cells, %s (%d cells simulated in this process)", seed, name, rec.Cells, rec.Best, shared.Ran)
		}
	}
}

// diffCI is a paired difference's mean and 95% half-width.
type diffCI struct{ mean, hw float64 }

// TestNonInferiorityRecords checks the committed records of the
// pre-registered test (every record made under the pre-registered
// setting, no search twice, seeds inside the pre-registered range) and,
// once both arms hold all niSearches searches, decides it: racing is
// non-inferior when the one-sided 95% lower limit of Newcombe's hybrid
// score interval for the success rates race − fixed lies above −niMargin,
// and its mean cells to reach the reference's CI are at most niCellsRatio
// of fixed replications'. Before then it reports only how many searches
// are in: no interim look decides anything.
func TestNonInferiorityRecords(t *testing.T) {
	path := niRecords
	if p := os.Getenv("SCHEDFARM_RACE_RECORDS"); p != "" {
		path = p
	}
	recs, err := readJSONLines[niRecord](path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var arms [2]armStats
	commits := map[string]int{}
	for i, r := range recs {
		arm := -1
		switch r.Arm {
		case "fixed":
			arm = 0
		case "race":
			arm = 1
		}
		switch {
		case r.Spec != niSpec:
			t.Errorf("%s:%d: spec %q, pre-registered %q", path, i+1, r.Spec, niSpec)
		case arm < 0:
			t.Errorf("%s:%d: arm %q; accepted: fixed, race", path, i+1, r.Arm)
		case r.Setting != niSetting(arm):
			t.Errorf("%s:%d: %s arm setting %q, pre-registered %q", path, i+1, r.Arm, r.Setting, niSetting(arm))
		case r.Seed < niFirstSeed || r.Seed >= niFirstSeed+niSearches:
			t.Errorf("%s:%d: seed %d outside the pre-registered %d–%d", path, i+1, r.Seed, niFirstSeed, niFirstSeed+niSearches-1)
		case seen[fmt.Sprintf("%s/%d", r.Arm, r.Seed)]:
			t.Errorf("%s:%d: %s seed %d recorded twice", path, i+1, r.Arm, r.Seed)
		case r.Success != (r.Best != "" && r.BestMinusRef-r.HalfWidth <= 0):
			t.Errorf("%s:%d: success %v disagrees with best − reference %g ± %g", path, i+1, r.Success, r.BestMinusRef, r.HalfWidth)
		}
		if arm < 0 {
			continue
		}
		seen[fmt.Sprintf("%s/%d", r.Arm, r.Seed)] = true
		commits[r.Commit]++
		arms[arm].add(&Result{Cells: r.Cells, Eliminated: r.Eliminated, Equivalent: r.Equivalent}, r.Reached, r.Success, false)
	}
	t.Logf("%s: %d fixed and %d race searches of the pre-registered %d each; builds %v", path, arms[0].n, arms[1].n, niSearches, commits)
	if arms[0].n < niSearches || arms[1].n < niSearches {
		t.Logf("not decided: %d of %d searches an arm still to run (TestNonInferiorityShard)", niSearches-min(arms[0].n, arms[1].n), niSearches)
		return
	}
	fx, rc := arms[0], arms[1]
	lo, hi := stats.NewcombeDiff(rc.success, rc.n, fx.success, fx.n, niZ)
	cells, reach := rc.meanCells()/fx.meanCells(), rc.meanReach()/fx.meanReach()
	t.Logf("fixed %s", fx)
	t.Logf("race  %s", rc)
	t.Logf("success race %d/%d, fixed %d/%d: difference %+.3f, 90%% Newcombe interval [%.3f, %.3f]; cells %.3f, cells to reach %.3f",
		rc.success, rc.n, fx.success, fx.n, float64(rc.success)/float64(rc.n)-float64(fx.success)/float64(fx.n), lo, hi, cells, reach)
	if lo > -niMargin && reach <= niCellsRatio {
		t.Logf("verdict: non-inferior at margin %.2f with %.2f of the cells to reach (pre-registered: lower limit > %.2f, ratio ≤ %.2f)", niMargin, reach, -niMargin, niCellsRatio)
	} else {
		t.Logf("verdict: NOT shown (pre-registered: lower limit > %.2f, ratio ≤ %.2f)", -niMargin, niCellsRatio)
	}
}
