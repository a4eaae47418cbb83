package tune

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/stats"
)

// A racePlan is a pre-registered measurement of racing against fixed
// replications on one shipped spec whose reference is the best of every
// incumbent (TestRaceMeasureShipped's rule), run in pieces: each search
// is one line of a committed records file (its cells and its incumbents
// as they came), so the searches can accumulate over sessions, and the
// reference is computed, and every search judged, only once all are in.
// Every field is part of the pre-registration (docs/tuning.md); records
// made under other values are refused.
type racePlan struct {
	spec      string // the spec's name, as records carry it
	file      string // the spec's file, relative to this package
	searches  int    // per arm
	firstSeed uint64 // search seeds firstSeed … firstSeed+searches−1
	fixedR    int    // the fixed arm's replications
	truth     int    // the reference's replications
	race      func() *Race
	records   string
}

// racePlans are the pre-registered measurements by spec name.
var racePlans = map[string]racePlan{
	// Pre-registered 29 Nov 2026 (docs/tuning.md, "Racing on tune-measy"),
	// before any search of this spec was run for racing.
	"tune-measy": {
		spec: "tune-measy", file: "../experiments/tune-measy.yaml", searches: 20, firstSeed: 1, fixedR: 10, truth: 20,
		race: func() *Race {
			return &Race{Min: 2, Max: 4, Alpha: 0.05, Final: 10, Elite: EliteDefault(2)}
		},
		records: "testdata/race-tune-measy.jsonl",
	},
}

func (p racePlan) setting(arm int) string {
	if arm == 0 {
		return fmt.Sprintf("fixed R=%d", p.fixedR)
	}
	return "race " + p.race().String()
}

// raceStep is a generation's incumbent: the cells the search had asked
// for when it was reported, and its values (valueKeys).
type raceStep struct {
	Cells  int      `json:"cells"`
	Values []string `json:"values"`
}

// searchRecord is what every records file says of one search.
type searchRecord struct {
	Spec string `json:"spec"`
	Arm  string `json:"arm"` // "fixed" or "race"
	// Setting is the arm's exact setting ("fixed R=10", or the race's
	// String()), checked against the pre-registration.
	Setting string `json:"setting"`
	Seed    uint64 `json:"seed"`
	// Commit is the build that ran the search.
	Commit string `json:"commit"`
	// Cells the search asked for; Eliminated and Equivalent as in Result.
	Cells      int `json:"cells"`
	Eliminated int `json:"eliminated"`
	Equivalent int `json:"equivalent"`
}

// raceRecord is one search, one line of a plan's records file.
type raceRecord struct {
	searchRecord
	Best  []string   `json:"best"` // nil: no feasible genome
	Steps []raceStep `json:"steps"`
}

// valueKeys writes a genome's values exactly, with their Go types
// ("float64:0.8125", "int64:1"): %v of a float64 is the shortest decimal
// that parses back to the same float.
func valueKeys(v []any) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprintf("%T:%v", x, x)
	}
	return out
}

// parseValueKeys reads valueKeys back.
func parseValueKeys(ks []string) ([]any, error) {
	out := make([]any, len(ks))
	for i, k := range ks {
		typ, s, ok := strings.Cut(k, ":")
		if !ok {
			return nil, fmt.Errorf("value %q: want type:value", k)
		}
		var err error
		switch typ {
		case "float64":
			out[i], err = strconv.ParseFloat(s, 64)
		case "int64":
			out[i], err = strconv.ParseInt(s, 10, 64)
		case "string":
			out[i] = s
		case "bool":
			out[i], err = strconv.ParseBool(s)
		default:
			err = fmt.Errorf("type %q; accepted: float64, int64, string, bool", typ)
		}
		if err != nil {
			return nil, fmt.Errorf("value %q: %v", k, err)
		}
	}
	return out, nil
}

func TestValueKeysRoundTrip(t *testing.T) {
	in := []any{0.1 + 0.2, 1.07, int64(-1), "next", true, 1e-300}
	out, err := parseValueKeys(valueKeys(in))
	if err != nil {
		t.Fatal(err)
	}
	if key(out) != key(in) {
		t.Fatalf("round trip %v → %v", in, out)
	}
	if _, err := parseValueKeys([]string{"float32:1"}); err == nil {
		t.Fatal("float32 accepted")
	}
}

// readJSONLines reads a records file, one JSON value a line (blank lines
// skipped); a file that does not exist holds none.
func readJSONLines[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// appendJSONLine appends v to f as one line, in one write, and syncs it:
// a process killed at any point leaves whole lines.
func appendJSONLine(t *testing.T, f *os.File, v any) {
	t.Helper()
	line, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
}

// loadRaceRecords reads p's records file and checks it, reporting every
// record not made under p as a test error; ok is false if there was one.
func loadRaceRecords(t *testing.T, p racePlan) (byArm [2][]raceRecord, ok bool) {
	t.Helper()
	recs, err := readJSONLines[raceRecord](p.records)
	if err != nil {
		t.Fatal(err)
	}
	byArm, errs := checkRaceRecords(p, recs)
	for _, err := range errs {
		t.Error(err)
	}
	return byArm, len(errs) == 0
}

// checkRaceRecords returns the records of p's file by arm, with an error
// for each record not made under p (spec, setting, seed range, no search
// twice, values that parse).
func checkRaceRecords(p racePlan, recs []raceRecord) (byArm [2][]raceRecord, errs []error) {
	seen := map[string]bool{}
	for i, r := range recs {
		at := fmt.Sprintf("%s:%d", p.records, i+1)
		arm := map[string]int{"fixed": 0, "race": 1}[r.Arm]
		bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(at+": "+format, a...)) }
		switch {
		case r.Arm != "fixed" && r.Arm != "race":
			bad("arm %q; accepted: fixed, race", r.Arm)
			continue
		case r.Spec != p.spec:
			bad("spec %q, pre-registered %q", r.Spec, p.spec)
			continue
		case r.Setting != p.setting(arm):
			bad("%s arm setting %q, pre-registered %q", r.Arm, r.Setting, p.setting(arm))
			continue
		case r.Seed < p.firstSeed || r.Seed >= p.firstSeed+uint64(p.searches):
			bad("seed %d outside the pre-registered %d–%d", r.Seed, p.firstSeed, p.firstSeed+uint64(p.searches)-1)
			continue
		case seen[fmt.Sprintf("%s/%d", r.Arm, r.Seed)]:
			bad("%s seed %d recorded twice", r.Arm, r.Seed)
			continue
		}
		for _, st := range append([]raceStep{{Values: r.Best}}, r.Steps...) {
			if _, err := parseValueKeys(st.Values); err != nil {
				bad("%v", err)
			}
		}
		seen[fmt.Sprintf("%s/%d", r.Arm, r.Seed)] = true
		byArm[arm] = append(byArm[arm], r)
	}
	return byArm, errs
}

// racePlanFromEnv returns the plan SCHEDFARM_RACE_PLAN names, and its
// records file (SCHEDFARM_RACE_RECORDS overrides it).
func racePlanFromEnv(t *testing.T) (racePlan, bool) {
	name := os.Getenv("SCHEDFARM_RACE_PLAN")
	if name == "" {
		return racePlan{}, false
	}
	p, ok := racePlans[name]
	if !ok {
		t.Fatalf("SCHEDFARM_RACE_PLAN=%q: no such pre-registered plan", name)
	}
	if r := os.Getenv("SCHEDFARM_RACE_RECORDS"); r != "" {
		p.records = r
	}
	return p, true
}

// TestRacePlanShard runs the searches of the plan SCHEDFARM_RACE_PLAN
// names that its records file does not hold yet, seed by seed, both arms
// of a seed together, and appends one line per search (opt-in: hours of
// CPU). SCHEDFARM_RACE_SHARD=i/n takes the seeds with (seed − first) mod
// n = i, for n processes side by side.
func TestRacePlanShard(t *testing.T) {
	p, ok := racePlanFromEnv(t)
	if !ok {
		t.Skip("opt-in: SCHEDFARM_RACE_PLAN=tune-measy (hours of CPU)")
	}
	shard, shards := 0, 1
	if s := os.Getenv("SCHEDFARM_RACE_SHARD"); s != "" {
		if _, err := fmt.Sscanf(s, "%d/%d", &shard, &shards); err != nil || shards < 1 || shard < 0 || shard >= shards {
			t.Fatalf("SCHEDFARM_RACE_SHARD=%q: want i/n with 0 ≤ i < n", s)
		}
	}
	runRacePlanShard(t, p, shard, shards)
}

// runRacePlanShard runs shard i of n of p's searches not in its records
// file yet and appends their records; it returns how many it ran.
func runRacePlanShard(t *testing.T, p racePlan, shard, shards int) int {
	t.Helper()
	ran := 0
	byArm, ok := loadRaceRecords(t, p)
	if !ok {
		t.FailNow()
	}
	done := map[string]bool{}
	for arm, rs := range byArm {
		for _, r := range rs {
			done[fmt.Sprintf("%d/%d", arm, r.Seed)] = true
		}
	}
	spec, err := Load(p.file, families.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	spec.ConfirmReplications = 0
	shared := &LocalRunner{Sim: runner.New(families.Builtin()), Workers: runtime.GOMAXPROCS(0)}
	f, err := os.OpenFile(p.records, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for seed := p.firstSeed; seed < p.firstSeed+uint64(p.searches); seed++ {
		if int(seed-p.firstSeed)%shards != shard {
			continue
		}
		for arm := range 2 {
			if done[fmt.Sprintf("%d/%d", arm, seed)] {
				continue
			}
			s := *spec
			sb := *spec.Base
			sb.Replications = p.fixedR
			s.Base = &sb
			if arm == 1 {
				s.Race = p.race()
			}
			cr := &countingRunner{r: shared, asked: map[string]bool{}}
			rec := raceRecord{searchRecord: searchRecord{Spec: p.spec, Arm: [2]string{"fixed", "race"}[arm], Setting: p.setting(arm), Seed: seed, Commit: buildinfo.Commit()}}
			res, err := Search(context.Background(), &s, cr, Options{Seed: &seed, Progress: func(pr Progress) {
				if pr.Best != nil {
					rec.Steps = append(rec.Steps, raceStep{len(cr.asked), valueKeys(pr.Best.Values)})
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			rec.Cells, rec.Eliminated, rec.Equivalent = res.Cells, res.Eliminated, res.Equivalent
			if res.Best != nil {
				rec.Best = valueKeys(res.Best.Values)
			}
			appendJSONLine(t, f, rec)
			ran++
			t.Logf("seed %d %s: %d cells (%d simulated in this process)", seed, rec.Arm, rec.Cells, shared.Ran)
		}
	}
	return ran
}

// TestRacePlanRecords checks every plan's committed records (made under
// its pre-registered setting, seeds in range, no search twice) and says
// how many searches are in. With SCHEDFARM_RACE_PLAN set and every search
// of both arms in, it judges them (CPU: the reference's evaluation): the
// reference is the best, at the plan's truth replications, of every
// incumbent of either arm; a search succeeds when its final best's paired
// difference to the reference has a 95% CI that reaches 0; "to reach" is
// the cells a search had asked for when an incumbent first did. The
// acceptance (docs/tuning.md): racing succeeds at least as often, with at
// most half the fixed arm's mean cells to reach; Newcombe's interval for
// the success rates is reported beside it.
func TestRacePlanRecords(t *testing.T) {
	judge, _ := racePlanFromEnv(t)
	for _, name := range slices.Sorted(maps.Keys(racePlans)) {
		p := racePlans[name]
		if judge.spec != "" && judge.spec == name {
			p = judge
		}
		byArm, _ := loadRaceRecords(t, p)
		t.Logf("%s: %d fixed and %d race searches of the pre-registered %d each", p.records, len(byArm[0]), len(byArm[1]), p.searches)
		if judge.spec != name {
			continue
		}
		if len(byArm[0]) < p.searches || len(byArm[1]) < p.searches {
			t.Logf("%s: not judged: searches still to run (TestRacePlanShard)", name)
			continue
		}
		judgeRacePlan(t, p, byArm)
	}
}

// judgeRacePlan computes the reference, judges every search and logs the
// verdict; it returns the two arms' tallies.
func judgeRacePlan(t *testing.T, p racePlan, byArm [2][]raceRecord) [2]armStats {
	t.Helper()
	spec, err := Load(p.file, families.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	ts := *spec
	tb := *spec.Base
	tb.Replications = p.truth
	ts.Base = &tb
	seen := map[string]bool{}
	var vals [][]any
	for _, rs := range byArm {
		for _, r := range rs {
			for _, st := range r.Steps {
				v, _ := parseValueKeys(st.Values)
				if k := key(v); !seen[k] {
					seen[k] = true
					vals = append(vals, v)
				}
			}
		}
	}
	shared := &LocalRunner{Sim: runner.New(families.Builtin()), Workers: runtime.GOMAXPROCS(0)}
	byKey, opt := indexEvals(evalValues(t, &ts, shared, vals))
	if opt == nil {
		t.Fatalf("%s: no incumbent is feasible", p.spec)
	}
	inCI := func(ks []string) bool {
		if ks == nil {
			return false
		}
		v, _ := parseValueKeys(ks)
		e := byKey[key(v)]
		if e == nil { // a final best never reported as an incumbent
			e = evalValues(t, &ts, shared, [][]any{v})[0]
			byKey[e.key] = e
		}
		d := paired(e, opt)
		if ts.Objective.Maximize {
			return e.Feasible && d.Mean+d.HalfWidth >= 0
		}
		return e.Feasible && d.Mean-d.HalfWidth <= 0
	}
	t.Logf("%s: reference %s = %.6g ± %.4g at %d replications, the best of %d incumbents (%d cells simulated)",
		p.spec, Describe(spec, opt), opt.Objective, opt.ObjectiveCI, p.truth, len(vals), shared.Ran)
	var arms [2]armStats
	for a, rs := range byArm {
		for _, r := range rs {
			reached := -1
			for _, st := range r.Steps {
				if inCI(st.Values) {
					reached = st.Cells
					break
				}
			}
			best, _ := parseValueKeys(r.Best)
			arms[a].add(&Result{Cells: r.Cells, Eliminated: r.Eliminated, Equivalent: r.Equivalent}, reached, inCI(r.Best), r.Best != nil && key(best) == opt.key)
		}
	}
	fx, rc := arms[0], arms[1]
	lo, hi := stats.NewcombeDiff(rc.success, rc.n, fx.success, fx.n, 1.6448536)
	cells, reach := rc.meanCells()/fx.meanCells(), rc.meanReach()/fx.meanReach()
	t.Logf("%s: fixed %s", p.spec, fx)
	t.Logf("%s: race  %s", p.spec, rc)
	t.Logf("%s: race/fixed cells %.3f, cells to reach %.3f; success race %d/%d, fixed %d/%d, 90%% Newcombe interval of the difference [%.3f, %.3f]",
		p.spec, cells, reach, rc.success, rc.n, fx.success, fx.n, lo, hi)
	if rc.success >= fx.success && reach <= 0.5 {
		t.Logf("%s: verdict: met (pre-registered: as many successes or more, cells to reach ≤ 0.50)", p.spec)
	} else {
		t.Logf("%s: verdict: NOT met (pre-registered: as many successes or more, cells to reach ≤ 0.50)", p.spec)
	}
	return arms
}

// The machinery end to end on the small grid space of testdata/depth.yaml
// (2 searches an arm): a shard writes one record per search, a second run
// finds nothing left to do, two shards side by side split the seeds, the
// records check refuses a record made under another setting, and the
// judge tallies every search.
func TestRacePlanEndToEnd(t *testing.T) {
	p := racePlan{spec: "tune-test-depth", file: "testdata/depth.yaml", searches: 2, firstSeed: 7, fixedR: 4, truth: 8,
		race:    func() *Race { return &Race{Min: 2, Max: 3, Alpha: 0.05, Final: 4, Elite: 2} },
		records: filepath.Join(t.TempDir(), "r.jsonl")}
	if n := runRacePlanShard(t, p, 1, 2); n != 2 {
		t.Fatalf("shard 1/2 ran %d searches, want 2 (seed 8, both arms)", n)
	}
	if n := runRacePlanShard(t, p, 0, 1); n != 2 {
		t.Fatalf("the whole plan after shard 1/2 ran %d searches, want the 2 of seed 7", n)
	}
	if n := runRacePlanShard(t, p, 0, 1); n != 0 {
		t.Fatalf("a complete plan ran %d searches again", n)
	}
	recs, err := readJSONLines[raceRecord](p.records)
	if err != nil {
		t.Fatal(err)
	}
	byArm, errs := checkRaceRecords(p, recs)
	if len(errs) > 0 || len(byArm[0]) != 2 || len(byArm[1]) != 2 {
		t.Fatalf("records: %v, %d fixed, %d race", errs, len(byArm[0]), len(byArm[1]))
	}
	for _, r := range recs {
		if len(r.Steps) == 0 || r.Best == nil || r.Cells == 0 {
			t.Fatalf("record without incumbents, best or cells: %+v", r)
		}
	}
	other := p
	other.fixedR = 5
	if _, errs := checkRaceRecords(other, recs); len(errs) != 2 {
		t.Fatalf("records made at R = 4 checked against R = 5: %d errors, want the 2 fixed ones", len(errs))
	}
	arms := judgeRacePlan(t, p, byArm)
	if arms[0].n != 2 || arms[1].n != 2 || arms[0].success+arms[1].success == 0 {
		t.Fatalf("judged %d and %d searches, %d and %d successes", arms[0].n, arms[1].n, arms[0].success, arms[1].success)
	}
}
