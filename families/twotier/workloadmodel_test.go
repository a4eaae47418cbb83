package twotier_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/families/twotier"
)

func rng(s uint64) *rand.Rand { return rand.New(rand.NewPCG(s, s+1)) }

func TestNewProjectsSeed004(t *testing.T) {
	w, err := twotier.NewProjects(map[string]any{"projects": int64(200), "interarrival": 20.0, "high_priority": 0.2}, rng(5))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Projects) != 200 || len(w.Capacities) != 5 || w.Model != "seed004" {
		t.Fatalf("%d projects, capacities %v, model %q", len(w.Projects), w.Capacities, w.Model)
	}
	for _, c := range w.Capacities {
		if c < 20 || c > 40 {
			t.Errorf("capacity %d outside Table 6's [20, 40]", c)
		}
	}
	if w.Jobs() < 200 {
		t.Errorf("%d jobs for 200 projects", w.Jobs())
	}
	again, _ := twotier.NewProjects(map[string]any{"projects": 200, "interarrival": 20, "high_priority": 0.2}, rng(5))
	if !reflect.DeepEqual(w, again) {
		t.Error("same params and seed, different workload")
	}
	// Common random numbers: the interarrival mean only rescales arrivals.
	slow, _ := twotier.NewProjects(map[string]any{"projects": 200, "interarrival": 160.0, "high_priority": 0.2}, rng(5))
	if !reflect.DeepEqual(slow.Capacities, w.Capacities) {
		t.Errorf("capacities %v vs %v across interarrival times", slow.Capacities, w.Capacities)
	}
	for i := range w.Projects {
		a, b := w.Projects[i], slow.Projects[i]
		if r := b.Arrival / a.Arrival; r < 8-1e-9 || r > 8+1e-9 || !reflect.DeepEqual(a.Jobs, b.Jobs) || a.Priority != b.Priority {
			t.Fatalf("project %d: arrival ratio %g, jobs equal %v", a.ID, r, reflect.DeepEqual(a.Jobs, b.Jobs))
		}
	}
}

func TestProjectsModelErrors(t *testing.T) {
	_, err := twotier.NewProjects(map[string]any{"projects": 0, "high_priority": 2, "procs": 4}, rand.New(rand.NewPCG(1, 1)))
	for _, want := range []string{"projects", "high_priority", `unknown parameter "procs"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %q", err, want)
		}
	}
	if _, _, err := families.Builtin().Models().New("seed004", nil, rng(1)); err == nil || !strings.Contains(err.Error(), "projects") {
		t.Errorf("New on a projects model: %v", err)
	}
}
