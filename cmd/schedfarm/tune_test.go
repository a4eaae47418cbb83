package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/results"
)

// tuneSpecText is a small search: depth k × the estimates the scheduler
// sees, 2 replications of a generated 600-job workload per evaluation, a
// GA of 4 genomes over 4 generations, a second objective and a
// confirmation.
const tuneSpecText = `name: tunetest
base:
  platform: {procs: 64}
  workload:
    generator: {model: lublin99, jobs: 600, procs: 64, estimates: tsafrir05}
    estimates: user
    load: 0.9
  schedulers: [depth]
  replications: 2
  seed: 3
search:
  - {param: scheduler.k, int: [0, 16]}
  - {param: workload.estimates, choices: [user, exact]}
objective: {metric: wait_mean, goal: minimize}
constraints: ["utilization >= 0.5"]
second: {metric: bsld_mean, goal: minimize}
algorithm: {name: ga, population: 4, generations: 4}
confirm: {replications: 3}
output: out.parquet
`

// tuneRun runs `schedfarm tune` in a fresh directory to its end and returns
// the directory and the output.
func tuneRun(t *testing.T, env []string, args ...string) (string, string) {
	t.Helper()
	return tuneRunSpec(t, tuneSpecText, env, args...)
}

// tuneRunSpec is tuneRun of another spec.
func tuneRunSpec(t *testing.T, text string, env []string, args ...string) (string, string) {
	t.Helper()
	f := newFarmFixture(t, false)
	spec := f.writeSpec(t, "tune.yaml", text)
	p := f.start(t, env, append(append([]string{"tune"}, args...), spec)...)
	if code := p.wait(t, 3*time.Minute); code != 0 {
		t.Fatalf("schedfarm tune exit code %d; output:\n%s", code, p.out.String())
	}
	return f.dir, p.out.String()
}

func readEvals(t *testing.T, dir string) results.Table {
	t.Helper()
	tab, err := results.ReadTable(filepath.Join(dir, "out.evals.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) == 0 {
		t.Fatal("empty evaluations table")
	}
	return tab
}

var bestRE = regexp.MustCompile(`(?m)^best: .*\n.*\n.*confirmed.*\n`)

// sameSearch fails unless two tunes wrote the same evaluations table and
// printed the same best and confirmation.
func sameSearch(t *testing.T, what string, a, b results.Table, outA, outB string) {
	t.Helper()
	if !reflect.DeepEqual(a.Columns, b.Columns) {
		t.Errorf("%s: columns differ:\n%v\n%v", what, a.Columns, b.Columns)
	}
	if len(a.Rows) != len(b.Rows) {
		t.Fatalf("%s: %d vs %d evaluations", what, len(a.Rows), len(b.Rows))
	}
	for i := range a.Rows {
		if !reflect.DeepEqual(a.Rows[i], b.Rows[i]) {
			t.Errorf("%s: evaluation row %d differs:\n%v\n%v", what, i, a.Rows[i], b.Rows[i])
		}
	}
	ba, bb := bestRE.FindString(outA), bestRE.FindString(outB)
	if ba == "" || ba != bb {
		t.Errorf("%s: best differs:\n%q\n%q", what, ba, bb)
	}
}

// A tune killed with SIGKILL mid-search and run again resumes from its
// journal and ends with the same evaluations, best and confirmation as an
// uninterrupted tune; the search is the same with 1 worker slot and with 3.
func TestTuneKilledAndRerunSameAsUninterrupted(t *testing.T) {
	dirA, outA := tuneRun(t, nil, "--workers", "1")
	a := readEvals(t, dirA)
	dirC, outC := tuneRun(t, nil, "--workers", "3")
	sameSearch(t, "1 vs 3 workers", a, readEvals(t, dirC), outA, outC)

	// The confirmation's third replication (cell index 2; a generation's
	// cells have indexes 0 and 1) waits for a gate never opened: the killed
	// tune cannot finish before the kill, however busy the machine.
	f, out, _ := tuneKilledAndRerun(t, tuneSpecText, 12, "past the first generation", killGate{from: 2})
	sameSearch(t, "killed and rerun vs uninterrupted", a, readEvals(t, f.dir), outA, out)
	for _, want := range []string{"generation 4/4 done", "; best scheduler.k=", "; ETA ", "confirmed with 3 fresh replications", "Pareto front"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// The report draws convergence and, with a second objective, the front.
	rep := f.start(t, nil, "report", "-o", "rep", "out.evals.parquet")
	if code := rep.wait(t, time.Minute); code != 0 {
		t.Fatalf("report exit code %d:\n%s", code, rep.out.String())
	}
	for _, name := range []string{"convergence.png", "convergence.svg", "front.png", "front.svg"} {
		if st, err := os.Stat(filepath.Join(f.dir, "rep", name)); err != nil || st.Size() == 0 {
			t.Errorf("report: %s missing or empty (%v)", name, err)
		}
	}
}

func journalLines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

// In the evaluations table the baseline row carries the base's parameter
// values (depth's default k = 2, the spec's user estimates), the
// confirmation and baseline rows have no generation, and report counts the
// search's evaluations apart from them.
func TestTuneEvalsBaselineRow(t *testing.T) {
	dir, out := tuneRun(t, nil, "--workers", "2")
	tab := readEvals(t, dir)
	phases := map[string]int{}
	for r := range tab.Rows {
		phase, _ := tab.Value(r, "phase").(string)
		phases[phase]++
		gen := tab.Value(r, "generation")
		switch phase {
		case "search":
			if _, ok := gen.(int64); !ok {
				t.Errorf("search row %d: generation %v; want a number", r, gen)
			}
		case "confirm", "baseline":
			if gen != nil {
				t.Errorf("%s row: generation %v; want null", phase, gen)
			}
		}
		if phase == "baseline" {
			if k := tab.Value(r, "p_scheduler__k"); k != int64(2) {
				t.Errorf("baseline row: p_scheduler__k = %v; want 2 (depth's default)", k)
			}
			if e := tab.Value(r, "p_workload__estimates"); e != "user" {
				t.Errorf("baseline row: p_workload__estimates = %v; want user", e)
			}
		}
	}
	if phases["confirm"] != 1 || phases["baseline"] != 1 {
		t.Fatalf("phases %v; want one confirm and one baseline row", phases)
	}
	// The search is whole: the embedded server's store beside the output
	// is emptied, as after a whole `run`.
	if _, err := os.Stat(filepath.Join(dir, ".schedfarm", "out.parquet", "jetstream")); err == nil {
		t.Errorf("the embedded server's store is left after a whole search; want it emptied")
	}
	m := regexp.MustCompile(`(\d+) evaluations, `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("tune did not say how many evaluations:\n%s", out)
	}
	code, stdout, stderr := runCLI("report", filepath.Join(dir, "out.evals.parquet"), "-o", filepath.Join(dir, "rep"))
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	want := m[1] + " evaluations in the search of tune tunetest, plus 1 confirmation and 1 baseline rows"
	if n, _ := strconv.Atoi(m[1]); !strings.Contains(stdout, want) || phases["search"] != n {
		t.Errorf("tune said %q, report said %q; want %q", m, stdout, want)
	}
}

// raceSpecText is tuneSpecText racing: 2 to 5 replications per
// evaluation, one more per round.
var raceSpecText = strings.Replace(tuneSpecText, "output: out.parquet\n", "race: {min: 2, max: 5, alpha: 0.05}\noutput: out.parquet\n", 1)

// A racing tune killed with SIGKILL mid-search (mid-race: rounds are
// batches of their own) and run again resumes from its journal and ends
// with the same evaluations — eliminations, rounds and p-values included —
// best and confirmation as an uninterrupted racing tune, itself the same
// on 1 worker slot and on 3.
func TestTuneRaceKilledAndRerunSameAsUninterrupted(t *testing.T) {
	dirA, outA := tuneRunSpec(t, raceSpecText, nil, "--workers", "1")
	a := readEvals(t, dirA)
	dirC, outC := tuneRunSpec(t, raceSpecText, nil, "--workers", "3")
	sameSearch(t, "racing, 1 vs 3 workers", a, readEvals(t, dirC), outA, outC)
	eliminated := 0
	for r := range a.Rows {
		if a.Value(r, "eliminated_by") == "paired-t-holm" {
			eliminated++
		}
		if a.Value(r, "phase") == "search" {
			if n, _ := a.Value(r, "replications").(int64); n < 2 || n > 5 {
				t.Errorf("evaluation row %d: %v replications; want 2 to 5", r, a.Value(r, "replications"))
			}
		}
	}
	if eliminated == 0 {
		t.Errorf("no genome eliminated: the race proves nothing\n%s", outA)
	}
	if !regexp.MustCompile(`race: [1-9][0-9]* of [0-9]+ distinct genomes eliminated; the search asked for [0-9]+ cells`).MatchString(outA) {
		t.Errorf("output lacks the race's summary:\n%s", outA)
	}

	// The killed tune is held at a gate after its 14th cell (the first
	// round is at most 4 genomes at 2 replications, 8 cells; the search
	// asks for more than 14): no cell index says where (the rounds' cells
	// have indexes 0 to 4, the confirmation's 0 to 2), the number of cells
	// started does, so the kill lands with exactly 14 results in the
	// journal however busy the machine (the tune used to run on for as long
	// as the poll and the kill took, possibly to its end).
	const atKill = 14
	if m := regexp.MustCompile(`the search asked for ([0-9]+) cells`).FindStringSubmatch(outA); m == nil || atoi(t, m[1]) <= atKill {
		t.Fatalf("the search asked for %v cells; want more than %d, or the kill misses it:\n%s", m, atKill, outA)
	}
	f, out, _ := tuneKilledAndRerun(t, raceSpecText, atKill, "past the first round", killGate{after: atKill})
	sameSearch(t, "racing, killed and rerun vs uninterrupted", a, readEvals(t, f.dir), outA, out)
	rep := f.start(t, nil, "report", "-o", "rep", "out.evals.parquet")
	if code := rep.wait(t, time.Minute); code != 0 {
		t.Fatalf("report exit code %d:\n%s", code, rep.out.String())
	}
}

// A racing tune with an indifference zone stops genomes equivalent to a
// round's best: the evaluations table has the equivalent_* columns, set
// for the stopped genomes (round ≥ 1, p-value in [0, 1], at least round +
// 1 replications: more when an earlier race ran it further) and null for
// the others; tune prints how many it stopped (a distinct genome's state
// is its first, uncached row's: a cached row is a copy from its
// generation); report plots the table.
func TestTuneRaceIndifference(t *testing.T) {
	dir, out, tab := tuneRace(t, "{min: 2, max: 5, alpha: 0.05, indifference: 5%}", "min 2 max 5 alpha 0.05 paired-t-holm indifference 5% paired-tost-holm")
	stopped := map[string]bool{}
	for r := range tab.Rows {
		round, set := tab.Value(r, "equivalent_round").(int64)
		if !set {
			if tab.Value(r, "equivalent_generation") != nil || tab.Value(r, "equivalent_p") != nil {
				t.Errorf("row %d: equivalent_round null but generation %v, p %v", r, tab.Value(r, "equivalent_generation"), tab.Value(r, "equivalent_p"))
			}
			continue
		}
		p, _ := tab.Value(r, "equivalent_p").(float64)
		reps, _ := tab.Value(r, "replications").(int64)
		if round < 1 || p < 0 || p > 1 || reps < round+1 || tab.Value(r, "eliminated_round") != nil {
			t.Errorf("row %d: stopped in round %d at p %g after %d replications, eliminated_round %v; want round ≥ 1, p in [0, 1], at least round + 1 replications, not eliminated", r, round, p, reps, tab.Value(r, "eliminated_round"))
		}
		if tab.Value(r, "cached") == true {
			continue
		}
		stopped[fmt.Sprint(tab.Value(r, "p_scheduler__k"), tab.Value(r, "p_workload__estimates"))] = true
	}
	if len(stopped) == 0 {
		t.Fatalf("no genome stopped as equivalent: the zone proves nothing\n%s", out)
	}
	if !strings.Contains(out, "equivalence tests (TOST, ±5% of the best's objective), Holm at 0.05 over both") {
		t.Errorf("output does not describe the zone:\n%s", out)
	}
	want := fmt.Sprintf(", %d stopped as equivalent to a round's best; the search asked for", len(stopped))
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if code, _, stderr := runCLI("report", filepath.Join(dir, "out.evals.parquet"), "-o", filepath.Join(dir, "rep")); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
}

// tuneRace runs raceSpecText with its race block replaced by race on one
// worker slot and returns the folder, the output and the evaluations
// table, whose schedfarm.race metadata must read meta.
func tuneRace(t *testing.T, race, meta string) (string, string, results.Table) {
	t.Helper()
	text := strings.Replace(raceSpecText, "race: {min: 2, max: 5, alpha: 0.05}", "race: "+race, 1)
	dir, out := tuneRunSpec(t, text, nil, "--workers", "1")
	tab := readEvals(t, dir)
	if tab.Meta["schedfarm.race"] != meta {
		t.Errorf("schedfarm.race metadata %q; want %q", tab.Meta["schedfarm.race"], meta)
	}
	return dir, out, tab
}

// A tune with a final race of the elite (race.final) races the
// generations to max, then only the elite on past it, and its best is the
// final race's winner, with more replications than any generation gave.
func TestTuneRaceFinal(t *testing.T) {
	_, out, tab := tuneRace(t, "{min: 2, max: 3, alpha: 0.05, final: 6, elite: 3}", "min 2 max 3 alpha 0.05 paired-t-holm final 6 elite 3")
	past := map[string]bool{}
	for r := range tab.Rows {
		if tab.Value(r, "phase") != "search" || tab.Value(r, "cached") == true {
			continue
		}
		n, _ := tab.Value(r, "replications").(int64)
		if n < 2 || n > 6 {
			t.Errorf("evaluation row %d: %d replications; want 2 to 6", r, n)
		}
		if n > 3 {
			past[fmt.Sprint(tab.Value(r, "p_scheduler__k"), tab.Value(r, "p_workload__estimates"))] = true
		}
	}
	if len(past) == 0 || len(past) > 3 {
		t.Errorf("%d distinct genomes have more than max's 3 replications; want 1 to 3 (the elite)\n%s", len(past), out)
	}
	if !strings.Contains(out, "final race: the 3 best genomes never eliminated race on to 6 replications") ||
		!strings.Contains(out, "cells, the final race of the 3 best to 6 (") {
		t.Errorf("output does not report the final race:\n%s", out)
	}
	m := regexp.MustCompile(`95% CI over ([0-9]+) replications`).FindStringSubmatch(out)
	if m == nil || m[1] == "2" || m[1] == "3" {
		t.Errorf("the best's replications %v; want the final race's, more than max's 3:\n%s", m, out)
	}
}

// A tune killed with SIGKILL during its final race of the elite and run
// again resumes and ends exactly as the uninterrupted tune. The
// generations are the same with and without race.final (the final race
// follows the last), so the same race without it says how many cells
// they ask for; the kill comes once the journal holds one more, and the
// test proves its point only if the final race was then unfinished. That
// holds by construction, not by the test's speed: the generations race to
// 3 replications (cell indexes 0 to 2 of each genome), the final race from
// there to 6 (indexes 3 to 5), and the killed tune's cells of index 4 and
// on wait for a gate never opened, so its final race stops after its
// first round (the race used to have about half a second to run to its end
// between the poll seeing the journal grow and the kill).
func TestTuneRaceFinalKilledAndRerun(t *testing.T) {
	const race = "race: {min: 2, max: 3, alpha: 0.05}"
	final := strings.Replace(raceSpecText, "race: {min: 2, max: 5, alpha: 0.05}", "race: {min: 2, max: 3, alpha: 0.05, final: 6, elite: 3}", 1)
	_, outGen := tuneRunSpec(t, strings.Replace(raceSpecText, "race: {min: 2, max: 5, alpha: 0.05}", race, 1), nil, "--workers", "1")
	dirA, outA := tuneRunSpec(t, final, nil, "--workers", "1")
	asked := regexp.MustCompile(`the search asked for ([0-9]+) cells`)
	mg, ma := asked.FindStringSubmatch(outGen), asked.FindStringSubmatch(outA)
	if mg == nil || ma == nil {
		t.Fatalf("no cell counts in the outputs:\n%s\n%s", outGen, outA)
	}
	gens, all := atoi(t, mg[1]), atoi(t, ma[1])
	if all <= gens {
		t.Fatalf("the final race asked for no cells (%d with it, %d without): the test proves nothing", all, gens)
	}
	t.Logf("the generations ask for %d cells, the search with its final race %d", gens, all)
	f, out, atKill := tuneKilledAndRerun(t, final, gens+1, "inside the final race", killGate{from: 4})
	if atKill >= all {
		t.Fatalf("killed after %d results, the search's %d all done: the kill missed the final race", atKill, all)
	}
	sameSearch(t, "final race, killed and rerun vs uninterrupted", readEvals(t, dirA), readEvals(t, f.dir), outA, out)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// killGate holds a killed tune short of its end, by construction rather
// than by the test's speed, with a gate that never opens (the fault hooks'
// SCHEDFARM_FAULT_GATE): from above 0 holds the cells of that index and
// on (SCHEDFARM_FAULT_GATE_FROM); after above 0 lets exactly that many
// cells start and holds every later one (SCHEDFARM_FAULT_GATE_AFTER),
// whatever their indexes, which a tune's batches reuse.
type killGate struct{ from, after int }

// tuneKilledAndRerun runs the tune spec on a farm fixture, kills it with
// SIGKILL once its journal holds atLeast results (why: what that proves),
// reruns it to the end and checks that the rerun resumed; it returns the
// fixture, the rerun's output and the results the journal held at the
// kill. The killed tune is held at gate (at none when it is zero); the
// rerun has none. With gate.after set (to atLeast) the kill waits until
// the journal holds atLeast results and the next cell waits at the gate
// (its SCHEDFARM_FAULT_GATE_MARK file), so it lands at that point and
// nowhere else, and the test fails if the journal then holds any other
// number.
func tuneKilledAndRerun(t *testing.T, specText string, atLeast int, why string, gate killGate) (*farmFixture, string, int) {
	t.Helper()
	f := newFarmFixture(t, false)
	spec := f.writeSpec(t, "tune.yaml", specText)
	env := []string{"SCHEDFARM_FAULT_DELAY=100ms"}
	never := "SCHEDFARM_FAULT_GATE=" + filepath.Join(f.dir, "gate-never-opened")
	if gate.from > 0 {
		env = append(env, never, "SCHEDFARM_FAULT_GATE_FROM="+strconv.Itoa(gate.from))
	}
	held := func() bool { return true }
	if gate.after > 0 {
		if gate.after != atLeast {
			t.Fatalf("gate after %d cells, kill after %d results: want the same", gate.after, atLeast)
		}
		marks := filepath.Join(f.dir, "gated")
		if err := os.Mkdir(marks, 0o755); err != nil {
			t.Fatal(err)
		}
		env = append(env, never, "SCHEDFARM_FAULT_GATE_AFTER="+strconv.Itoa(gate.after), "SCHEDFARM_FAULT_GATE_MARK="+marks)
		next := filepath.Join(marks, "gated-"+strconv.Itoa(gate.after+1))
		held = func() bool { _, err := os.Stat(next); return err == nil }
		why += fmt.Sprintf(", cell %d held at the gate", gate.after+1)
	}
	killed := f.start(t, env, "tune", "--workers", "2", spec)
	journal := results.JournalPath(filepath.Join(f.dir, "out.parquet"))
	poll(t, 2*time.Minute, fmt.Sprintf("%d results in the journal (%s)", atLeast, why), func() bool {
		return journalLines(journal) >= atLeast && held()
	})
	if err := killed.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.wait(t, 30*time.Second)
	atKill := journalLines(journal)
	if _, err := os.Stat(filepath.Join(f.dir, "out.evals.parquet")); err == nil {
		t.Fatal("the killed tune finished before it was killed: the test proves nothing")
	}
	if gate.after > 0 && atKill != gate.after {
		t.Fatalf("killed with %d results in the journal; want exactly the %d cells the gate let through", atKill, gate.after)
	}
	rerun := f.start(t, nil, "tune", "--workers", "2", spec)
	if code := rerun.wait(t, 3*time.Minute); code != 0 {
		t.Fatalf("rerun exit code %d", code)
	}
	out := rerun.out.String()
	t.Logf("killed after %d cells; rerun: %s", atKill, strings.SplitN(out, "\n", 2)[0])
	if !regexp.MustCompile(`resuming: ([1-9][0-9]+) cells already in`).MatchString(out) {
		t.Errorf("the rerun does not say it resumed:\n%s", out)
	}
	return f, out, atKill
}
