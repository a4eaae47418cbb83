package stms

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/ga"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

// The mGA reuses a parent's objectives for a child equal to it: on the
// batches of a run (the planner's evaluator, Table 2 settings) every
// generation's objectives, the best genome, its objectives and the random
// source's state are those of a run that evaluates every child, and
// evaluations are skipped.
func TestMGAReuseIsReevaluation(t *testing.T) {
	res, attrs, jobs := benchWorld(t, 2, 800, 50, seed002.ClassNone, 0.6)
	s, snaps := batchesOf(t, res, attrs, jobs)
	if len(snaps) < 5 {
		t.Fatalf("%d batches", len(snaps))
	}
	var all, some int
	for bi, sn := range snaps {
		s.plan.load(sn.jobs, sn.now)
		ev, seed := s.plan.evaluator(sn.free)
		run := func(reevaluate bool) (ga.Result, [][]ga.Objectives, uint64) {
			cfg := s.cfg.GA
			cfg.Jobs, cfg.Resources, cfg.Reevaluate = len(sn.jobs), len(res), reevaluate
			var hist [][]ga.Objectives
			cfg.Observe = func(_ int, objs []ga.Objectives) { hist = append(hist, slices.Clone(objs)) }
			src := rand.New(rand.NewPCG(uint64(bi), 11))
			r, err := ga.Run(cfg, ev, []ga.Genome{seed}, src)
			if err != nil {
				t.Fatal(err)
			}
			r.Best = slices.Clone(r.Best)
			return r, hist, src.Uint64()
		}
		a, ha, na := run(true)
		b, hb, nb := run(false)
		if !reflect.DeepEqual(ha, hb) {
			for g := range ha {
				if !reflect.DeepEqual(ha[g], hb[g]) {
					t.Fatalf("batch %d: generation %d's objectives differ with the reuse", bi, g)
				}
			}
		}
		if !slices.Equal(a.Best, b.Best) || a.Objectives != b.Objectives || na != nb {
			t.Fatalf("batch %d: results or random state differ", bi)
		}
		all += a.Evaluations
		some += b.Evaluations
	}
	if some >= all {
		t.Fatalf("%d evaluations with the reuse, %d without", some, all)
	}
	t.Logf("%d batches: %d evaluations, %d with the reuse (%.1f%% skipped)", len(snaps), all, some, 100*float64(all-some)/float64(all))
}
