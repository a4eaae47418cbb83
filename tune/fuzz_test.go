package tune

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/schedfarm/schedfarm/families"
)

// problemRE is the shape of every problem of a tune spec: its line and its
// field, then what is wrong.
var problemRE = regexp.MustCompile(`^line [1-9][0-9]*: (?:"(?:[^"\\]|\\.)*"|[^:\s"])(?:"(?:[^"\\]|\\.)*"|[^:"])*: \S`)

// FuzzTuneSpec: every input is either a *tune.Error whose every problem
// names its line and field, or a valid spec whose genomes decode into
// cells; nothing panics.
func FuzzTuneSpec(f *testing.F) {
	files, _ := filepath.Glob("../experiments/tune-*.yaml")
	files = append(files, "testdata/depth.yaml")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"", "{}", "[]", "name: [\n", "base: *x\n",
		badBase + "search:\n  - {param: scheduler.k, int: [0, 8]}\nobjective: {metric: wait_mean, goal: minimize}\nalgorithm: {population: 4, generations: 2}\n",
		badBase + "search:\n  - {param: scheduler, choices: [depth, easy]}\n  - {param: scheduler.depth.k, int: [0, 8]}\nobjective: {metric: wait_mean, goal: max}\nalgorithm: {name: de, population: 4, budget: 9}\n",
		badBase + "search:\n  - {param: workload.load, float: [0.5, 0.9]}\nobjective: {metric: wait_mean}\nsecond: {metric: bsld_mean, goal: min}\nconstraints: [\"utilization >= 0.5\"]\nalgorithm: {name: pso, population: 3, generations: 1, w: 0.5}\nconfirm: {replications: 2}\n",
		badBase + "search:\n  - {param: scheduler.k, int: [0, x]}\nobjective: {metric: wait_mean, goal: minimize}\nalgorithm: {population: four}\n",
	} {
		f.Add([]byte(s))
	}
	cat := families.Builtin()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz.yaml", cat)
		if err != nil {
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("error is %T, want *tune.Error: %v", err, err)
			}
			if len(te.Errors) == 0 {
				t.Fatalf("an error with no problems: %v", err)
			}
			for _, p := range te.Errors {
				if !problemRE.MatchString(p) {
					t.Fatalf("problem without its line and field: %q", p)
				}
			}
			return
		}
		if s.Base == nil || len(s.Params) == 0 || s.Algorithm.Population < 2 || s.Algorithm.Generations < 1 {
			t.Fatalf("a valid spec without base, search space, population or generations: %+v", s)
		}
		if cellBound(s.Base) > 2000 {
			return // valid but too big to expand in a fuzz iteration
		}
		sr := &search{spec: s, base: s.Base.Cells(), cache: map[string]*Eval{}}
		for _, x := range []float64{0, 0.5, 1} {
			g := make([]float64, len(s.Params))
			for i := range g {
				g[i] = x
			}
			v := sr.values(g)
			for i, p := range s.Params {
				switch p.Kind {
				case Float, Int:
					f, _ := v[i].(float64)
					if n, ok := v[i].(int64); ok {
						f = float64(n)
					}
					if f < p.Lo || f > p.Hi {
						t.Fatalf("%s: gene %g decodes to %v outside [%g, %g]", p.Name, x, v[i], p.Lo, p.Hi)
					}
				}
			}
			seen := map[string]bool{}
			for _, c := range sr.cells(v, "", 0) {
				if c.ID == "" || seen[c.ID] {
					t.Fatalf("cell id %q empty or repeated", c.ID)
				}
				seen[c.ID] = true
			}
		}
	})
}
