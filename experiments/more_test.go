package experiments

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
)

const moreBase = `
name: more
workload: {trace: testdata/tiny.swf}
schedulers: [fcfs, depth]
axes:
  - {param: workload.load, values: [0.5, 0.9]}
  - {param: scheduler.depth.k, values: [1, 2]}
replications: 2
`

// more_replications adds replication indices to the cells it selects, with
// the IDs and seeds a spec with that many replications gives them, and
// leaves every other cell as it was. fcfs runs once per load (the k axis
// is depth's own), depth at 2 loads × 2 k: 6 cells a replication, 12 in
// all. At load 0.9 with k = 2 to 4 replications: depth's cell there (k = 2
// selects it) and fcfs's, which lacks scheduler.k and is therefore not
// restricted by it: 2 cells × 2 more replications = 4 more cells.
func TestMoreReplications(t *testing.T) {
	base := mustParse(t, moreBase).Cells()
	if len(base) != 12 {
		t.Fatalf("%d cells without more_replications, want 12", len(base))
	}
	more := mustParse(t, moreBase+`
more_replications:
  - {where: {workload.load: 0.9, scheduler.k: 2}, replications: 4}
`).Cells()
	if len(more) != 16 {
		t.Fatalf("%d cells, want 16", len(more))
	}
	full := map[string]runner.Cell{}
	for _, c := range mustParse(t, strings.Replace(moreBase, "replications: 2", "replications: 4", 1)).Cells() {
		full[c.ID] = c
	}
	for i, c := range more {
		if i < len(base) && (c.ID != base[i].ID || c.Index != base[i].Index || c.Seed != base[i].Seed) {
			t.Fatalf("cell %d changed: %+v, was %+v", i, c, base[i])
		}
		f, ok := full[c.ID]
		if !ok || f.Seed != c.Seed {
			t.Fatalf("cell %s (replication %d) is not the one a 4-replication spec gives", c.ID, c.Replication)
		}
		if c.Replication >= 2 {
			load, _ := c.Lookup("workload.load")
			k, hasK := c.Lookup("scheduler.k")
			if load != 0.9 || (hasK && k != int64(2)) {
				t.Errorf("replication %d added to %s %v", c.Replication, c.Scheduler, c.Params)
			}
		}
	}
	// CRN: the added fcfs and depth cells of one replication share a seed.
	seeds := map[int]map[uint64]bool{}
	for _, c := range more[12:] {
		if seeds[c.Replication] == nil {
			seeds[c.Replication] = map[uint64]bool{}
		}
		seeds[c.Replication][c.Seed] = true
	}
	for rep, s := range seeds {
		if len(s) != 1 {
			t.Errorf("replication %d: %d seeds among the added cells, want 1 (common random numbers)", rep, len(s))
		}
	}
	byScheduler := mustParse(t, moreBase+`
more_replications:
  - {where: {scheduler: fcfs}, replications: 3}
  - {where: {scheduler: fcfs, workload.load: 0.5}, replications: 5}
`).Cells()
	// fcfs: load 0.5 to 5 replications (3 more), 0.9 to 3 (1 more).
	if len(byScheduler) != 12+4 {
		t.Errorf("%d cells, want 16", len(byScheduler))
	}
}

func TestMoreReplicationsErrors(t *testing.T) {
	_, err := parse(t, moreBase+`
more_replications:
  - {where: {workload.load: 0.9}, replications: 2}
  - {where: {}, replications: 3}
  - {where: {scheduler: easy, workload.nope: 1}, replications: 3}
  - {where: {workload.load: [1]}, replications: 3}
`)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"more_replications[0].replications: 2; accepted: more than the spec's replications (2)",
		"more_replications[1].where: empty; accepted:",
		`more_replications[2].where.scheduler: "easy" is no scheduler of the spec; accepted: one of fcfs, depth`,
		"more_replications[2].where.workload.nope: no cell has this parameter; accepted: scheduler or one of",
		"more_replications[3].where.workload.load: [1]; accepted: a number, string or boolean",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	_, err = parse(t, moreBase+`
more_replications:
  - {where: {workload.load: 0.9}, replications: 3, extra: 1}
`)
	if err == nil || !strings.Contains(err.Error(), "line 11: more_replications[0].extra: unknown field; accepted: replications, where") {
		t.Errorf("unknown field: %v", err)
	}
}
