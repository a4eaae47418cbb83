package tune

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
)

// tableRunner answers a cell of depth k and replication r with wait_mean
// table[k][r] (utilization 0.9, bsld_mean 1), and records every call.
type tableRunner struct {
	table map[int64][]float64
	known map[string]runner.CellResult
	calls [][]runner.Cell
}

func (t *tableRunner) Run(_ context.Context, cells []runner.Cell) (map[string]runner.CellResult, error) {
	if t.known == nil {
		t.known = map[string]runner.CellResult{}
	}
	t.calls = append(t.calls, cells)
	for _, c := range cells {
		k, _ := c.Lookup("scheduler.k")
		v := t.table[k.(int64)][c.Replication]
		t.known[c.ID] = runner.CellResult{CellID: c.ID, Status: runner.StatusOK, Metrics: []family.Metric{
			{Name: "wait_mean", Value: v}, {Name: "bsld_mean", Value: 1}, {Name: "utilization", Value: 0.9}}}
	}
	return t.known, nil
}

// raceSearch returns a search of testdata/depth.yaml (one grid point)
// racing with min 2, max 4, alpha 0.05 over r.
func raceSearch(t *testing.T, r Runner) *search {
	t.Helper()
	spec := loadTest(t)
	spec.Race = &Race{Min: 2, Max: 4, Alpha: 0.05}
	s := &search{spec: spec, run: r, ctx: context.Background(), base: spec.Base.Cells(), cache: map[string]*Eval{}, asked: map[string]bool{}}
	for _, b := range s.base {
		if b.Replication == 0 {
			s.points = append(s.points, b)
		}
	}
	return s
}

// raceByHand races the four candidates k = 1…4 (estimates user) of a
// hand-computed table through s and returns them in that order.
func raceByHand(t *testing.T, s *search) []*Eval {
	t.Helper()
	var cands []*Eval
	for k := int64(1); k <= 4; k++ {
		v := []any{k, "user"}
		e := &Eval{Values: v, key: key(v)}
		s.cache[e.key] = e
		cands = append(cands, e)
	}
	if _, err := s.race(cands, s.spec.Race.Min, s.spec.Race.Max, s.gen); err != nil {
		t.Fatal(err)
	}
	return cands
}

// The elimination rule on a table of paired results computed by hand.
// Four candidates, depth k = 1…4, one grid point, wait_mean per
// replication (minimised), race min 2, max 4, alpha 0.05:
//
//	k=1 A: 10 12 11 13   the best in every round
//	k=2 B: 20 22 21 23   B − A = 10 10 …: zero spread, p = 0
//	k=3 C: 11 14 15 18   C − A = 1 2 4 5
//	k=4 D: 10 13 11 14   D − A = 0 1 0 1
//
// Round 1 (r = 2): B − A = {10, 10}: p = 0; C − A = {1, 2}: t = 3 at 1
// degree of freedom, p = 1/2 − atan(3)/π = 0.1024; D − A = {0, 1}: t = 1,
// p = 0.25. Holm over three: 0 ≤ 0.05/3 rejects B; 0.1024 > 0.05/2 stops.
// B is eliminated in round 1.
//
// Round 2 (r = 3): C − A = {1, 2, 4}: mean 2.333, s 1.528, t 2.646 at 2
// degrees of freedom, p = 1/2 − t/(2√(2 + t²)) = 0.0590; D − A = {0, 1, 0}:
// t = 1, p = 1/2 − 1/(2√3) = 0.2113. Holm over two: 0.0590 > 0.025: none.
//
// Round 3 (r = 4): C − A = {1, 2, 4, 5}: mean 3, s 1.826, t 3.286 at 3
// degrees of freedom, p = 0.0231 (F(t) = 1/2 + (t/(√3(1 + t²/3)) +
// atan(t/√3))/π); D − A = {0, 1, 0, 1}: t = √3, p = 0.0908. Holm: 0.0231 ≤
// 0.025 rejects C; 0.0908 > 0.05 stops. C is eliminated in round 3; A and
// D survive to max. Cells: 4×2 + 3 + 3 = 14 (fixed replications: 16).
func TestRaceEliminationByHand(t *testing.T) {
	tr := &tableRunner{table: map[int64][]float64{
		1: {10, 12, 11, 13},
		2: {20, 22, 21, 23},
		3: {11, 14, 15, 18},
		4: {10, 13, 11, 14},
	}}
	s := raceSearch(t, tr)
	cands := raceByHand(t, s)
	want := []struct {
		round, reps int
		p           float64
	}{
		{0, 4, 0},
		{1, 2, 0},
		{3, 4, 0.02310},
		{0, 4, 0},
	}
	for i, w := range want {
		e := cands[i]
		if e.EliminatedRound != w.round || e.Replications != w.reps {
			t.Errorf("k=%d: eliminated in round %d after %d replications; want round %d (0: never), %d replications", i+1, e.EliminatedRound, e.Replications, w.round, w.reps)
		}
		if w.round > 0 && (e.EliminatedBy != RaceTest || math.Abs(e.EliminatedP-w.p) > 5e-5) {
			t.Errorf("k=%d: eliminated by %q at p %.5f; want %q at p %.5f", i+1, e.EliminatedBy, e.EliminatedP, RaceTest, w.p)
		}
	}
	if b := cands[2]; b.Objective != 14.5 {
		t.Errorf("C's objective %g over the replications it got; want 14.5", b.Objective)
	}
	if cands[1].Objective != 21 {
		t.Errorf("B's objective %g; want 21, the mean of the 2 replications it got", cands[1].Objective)
	}
	sizes := []int{}
	for _, c := range tr.calls {
		sizes = append(sizes, len(c))
	}
	if fmt.Sprint(sizes) != "[8 3 3]" || len(s.asked) != 14 {
		t.Errorf("cells asked per round %v (%d in all); want [8 3 3] (14)", sizes, len(s.asked))
	}
}

// The final race of the elite (race.final) on a table computed by hand.
// Four candidates, one grid point, wait_mean per replication (minimised),
// a generation's race with min 2, max 2, then a final race to 4, alpha
// 0.05:
//
//	k=1 A: 12 12 13 14   mean over 2: 12 (the incumbent), over 4: 12.75
//	k=2 B: 13 14 10 10   13.5; 11.75
//	k=3 C: 15 16 12.5 12.5  15.5
//	k=4 D: 30 31 30 31   30.5
//
// The generation's race (r = 2, best A): B − A = {1, 2}: t = 3 at 1 degree
// of freedom, p = 1/2 − atan(3)/π = 0.1024; C − A = {3, 4}: t = 7, p =
// 1/2 − atan(7)/π = 0.04517; D − A = {18, 19}: t = 37, p = 0.00860. Holm
// over three rejects D (≤ 0.05/3) and stops at C (> 0.05/2).
//
// The final race, elite 4: the distinct evaluations never eliminated, by
// fitness — A, B, C (D is eliminated, so only three); its rounds start
// past max, at r = 3 (r = 2 was the generation's test). r = 3: A and B tie at 12.333 (A, the earlier, is the best); B − A = {1,
// 2, −3}: p = 0.5; C − A = {3, 4, −0.5}: t = 1.588 at 2 degrees of freedom,
// p = 0.1266; none. r = 4: B is the best (11.75 against A's 12.75); A − B
// = {−1, −2, 3, 4}: t = 0.679 at 3 degrees of freedom, p = 0.2728; C − B =
// {2, 2, 2.5, 2.5}: t = 15.59, p = 0.00029. Holm rejects C (≤ 0.025) and
// stops at A. C is eliminated in the final race's round 3 (r = 4),
// recorded as the generation after the last; A and B end at 4
// replications and B, not the incumbent A, is the search's best. Cells:
// 8 in the generation, then 2 + 2 + 2 (A, B and C to 4; D not again).
// With elite 2 only A and B race on: 4 cells, C stays at 2 replications.
//
// The winner is the search's best even where a genome outside the elite
// has a lower mean over its fewer replications. Second table, elite 2:
//
//	k=1 A: 12 12 20 20   12, then 16 over 4
//	k=2 B: 13 14 20 20   13.5, then 16.75
//	k=3 C: 15 16 …       15.5 over its 2, outside the elite
//
// The final race (A, B) eliminates nothing (B − A over 3 and 4
// replications: p = 0.1127, 0.107) and A wins at 16; C's 15.5 is
// lower but over 2 replications, and the best is A.
func TestRaceFinalByHand(t *testing.T) {
	for _, elite := range []int{4, 2} {
		tr := &tableRunner{table: map[int64][]float64{
			1: {12, 12, 13, 14},
			2: {13, 14, 10, 10},
			3: {15, 16, 12.5, 12.5},
			4: {30, 31, 30, 31},
		}}
		s := raceSearch(t, tr)
		s.spec.Race.Max, s.spec.Race.Final, s.spec.Race.Elite = 2, 4, elite
		s.gen = 3
		cands := raceByHand(t, s)
		s.evals = append(s.evals, cands...)
		if got := fmt.Sprint(cands[3].EliminatedRound, cands[3].EliminatedGeneration); got != "1 3" {
			t.Fatalf("elite %d: D eliminated in round, generation %s; want 1 3", elite, got)
		}
		if s.best() != cands[0] {
			t.Fatalf("elite %d: the incumbent before the final race is not A", elite)
		}
		win, err := s.finalRace()
		if err != nil {
			t.Fatal(err)
		}
		s.final = win
		if win != cands[1] || s.best() != cands[1] {
			t.Errorf("elite %d: the final race's winner is %v; want B (k=2)", elite, win.Values)
		}
		if b := cands[1]; b.Replications != 4 || b.Objective != 11.75 || b.EliminatedRound != 0 {
			t.Errorf("elite %d: B after the final race: %d replications, objective %g, eliminated in round %d; want 4, 11.75, never", elite, b.Replications, b.Objective, b.EliminatedRound)
		}
		sizes := []int{}
		for _, c := range tr.calls {
			sizes = append(sizes, len(c))
		}
		c := cands[2]
		switch elite {
		case 4:
			if fmt.Sprint(sizes) != "[8 3 3]" || len(s.asked) != 14 {
				t.Errorf("elite 4: cells asked per round %v (%d in all); want [8 3 3] (14)", sizes, len(s.asked))
			}
			if c.EliminatedRound != 3 || c.EliminatedGeneration != 4 || c.Replications != 4 || math.Abs(c.EliminatedP-0.00029) > 5e-6 {
				t.Errorf("elite 4: C eliminated in round %d of generation %d after %d replications at p %.5f; want round 3 of generation 4 (the final race), 4 replications, p 0.00029", c.EliminatedRound, c.EliminatedGeneration, c.Replications, c.EliminatedP)
			}
			if cands[3].Replications != 2 {
				t.Errorf("elite 4: D, eliminated, raced on to %d replications; want 2", cands[3].Replications)
			}
		case 2:
			if fmt.Sprint(sizes) != "[8 2 2]" || len(s.asked) != 12 {
				t.Errorf("elite 2: cells asked per round %v (%d in all); want [8 2 2] (12)", sizes, len(s.asked))
			}
			if c.Replications != 2 || c.EliminatedRound != 0 {
				t.Errorf("elite 2: C, outside the elite, has %d replications, eliminated in round %d; want 2, never", c.Replications, c.EliminatedRound)
			}
		}
	}

	tr := &tableRunner{table: map[int64][]float64{
		1: {12, 12, 20, 20},
		2: {13, 14, 20, 20},
		3: {15, 16, 0, 0},
		4: {30, 31, 30, 31},
	}}
	s := raceSearch(t, tr)
	s.spec.Race.Max, s.spec.Race.Final, s.spec.Race.Elite = 2, 4, 2
	cands := raceByHand(t, s)
	s.evals = append(s.evals, cands...)
	win, err := s.finalRace()
	if err != nil {
		t.Fatal(err)
	}
	s.final = win
	if win != cands[0] || win.Objective != 16 || cands[1].EliminatedRound != 0 {
		t.Fatalf("second table: the winner is %v at %g, B eliminated in round %d; want A at 16, B never eliminated", win.Values, win.Objective, cands[1].EliminatedRound)
	}
	if b := s.best(); b != cands[0] {
		t.Errorf("second table: the search's best is %v (objective %g over %d replications); want the final race's winner A", b.Values, b.Objective, b.Replications)
	}
}

// Maximised, the same table (one round: max 2) elects B, the highest
// mean; the differences as minimised are B − X: A {10, 10}: p = 0; C {9,
// 8}: t = 17 at 1 degree of freedom, p = atan(1/17)/π = 0.01870; D {10,
// 9}: t = 19, p = atan(1/19)/π = 0.01674. Holm over three: 0 ≤ 0.05/3
// rejects A; 0.01674 ≤ 0.05/2 rejects D (Bonferroni's 0.05/3 = 0.01667
// would not); 0.01870 ≤ 0.05 rejects C. B alone is left.
func TestRaceEliminationMaximized(t *testing.T) {
	tr := &tableRunner{table: map[int64][]float64{
		1: {10, 12, 11, 13},
		2: {20, 22, 21, 23},
		3: {11, 14, 15, 18},
		4: {10, 13, 11, 14},
	}}
	s := raceSearch(t, tr)
	s.spec.Objective.Maximize = true
	s.spec.Race.Max = 2
	var cands []*Eval
	for k := int64(1); k <= 4; k++ {
		v := []any{k, "user"}
		e := &Eval{Values: v, key: key(v)}
		cands = append(cands, e)
	}
	if _, err := s.race(cands, s.spec.Race.Min, s.spec.Race.Max, s.gen); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(cands[0].EliminatedRound, cands[1].EliminatedRound, cands[2].EliminatedRound, cands[3].EliminatedRound)
	if got != "1 0 1 1" {
		t.Errorf("rounds of elimination %s; want 1 0 1 1 (all but B, in round 1)", got)
	}
	if p := cands[3].EliminatedP; math.Abs(p-0.016738) > 5e-6 {
		t.Errorf("D's p-value %.6f; want 0.016738", p)
	}
}

// A racing search never asks for a cell it asked for before: every call
// to the runner holds only cells never asked for (replications a
// candidate lacks, incumbents extended without repeating theirs), and the
// cells asked for are Result.Cells plus the confirmation's.
func TestRaceNoCellTwice(t *testing.T) {
	spec := loadTest(t)
	spec.Race = &Race{Min: 2, Max: 8, Alpha: 0.05}
	spec.Algorithm.Budget, spec.Algorithm.Generations = 0, 8
	rec := &recordingRunner{r: &LocalRunner{Sim: runner.New(families.Builtin()), Workers: 2}, seen: map[string]bool{}}
	res, err := Search(context.Background(), spec, rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.repeats > 0 {
		t.Errorf("%d cells asked for again (first: %s)", rec.repeats, rec.first)
	}
	confirm := 2 * spec.ConfirmReplications * len(spec.Base.Cells()) / spec.Base.Replications
	if rec.asked != res.Cells+confirm {
		t.Errorf("%d cells asked for; want %d (Result.Cells) + %d (confirmation)", rec.asked, res.Cells, confirm)
	}
	fixed := res.Distinct * 8
	t.Logf("%d evaluations, %d distinct genomes, %d eliminated, %d cells in %d calls (fixed 8 replications: %d)", len(res.Evals), res.Distinct, res.Eliminated, res.Cells, rec.calls, fixed)
	if res.Eliminated == 0 || res.Cells >= fixed {
		t.Errorf("%d eliminated, %d cells against %d at fixed replications: the race saved nothing", res.Eliminated, res.Cells, fixed)
	}
}

// recordingRunner counts the cells asked for and those asked for twice.
type recordingRunner struct {
	r                     Runner
	seen                  map[string]bool
	asked, repeats, calls int
	first                 string
}

func (c *recordingRunner) Run(ctx context.Context, cells []runner.Cell) (map[string]runner.CellResult, error) {
	c.calls++
	for _, x := range cells {
		c.asked++
		if c.seen[x.ID] {
			c.repeats++
			if c.first == "" {
				c.first = x.ID
			}
		}
		c.seen[x.ID] = true
	}
	return c.r.Run(ctx, cells)
}

// The race block: defaults (min 2, max base.replications, alpha 0.05),
// and each bad value an error naming its line and field and what is
// accepted.
func TestRaceSpec(t *testing.T) {
	head := badBase + `  replications: 6
search:
  - {param: scheduler.k, int: [0, 8]}
objective: {metric: wait_mean, goal: minimize}
algorithm: {population: 4, generations: 2}
`
	s, err := Parse([]byte(head+"race: {}\n"), "ok.yaml", families.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Race; r == nil || *r != (Race{Min: 2, Max: 6, Alpha: 0.05}) {
		t.Errorf("race: {} gives %+v; want min 2, max 6 (base.replications), alpha 0.05", s.Race)
	}
	s, err = Parse([]byte(head+"race: {min: 3, max: 20, alpha: 0.1}\n"), "ok.yaml", families.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Race; *r != (Race{Min: 3, Max: 20, Alpha: 0.1}) {
		t.Errorf("race %+v; want min 3, max 20, alpha 0.1", r)
	}
	for text, want := range map[string]Race{
		"race: {indifference: 1%}\n":      {Min: 2, Max: 6, Alpha: 0.05, Indifference: 0.01, Relative: true},
		"race: {indifference: 150}\n":     {Min: 2, Max: 6, Alpha: 0.05, Indifference: 150},
		"race: {indifference: '2.5 %'}\n": {Min: 2, Max: 6, Alpha: 0.05, Indifference: 0.025, Relative: true},
		"race: {indifference: 0}\n":       {Min: 2, Max: 6, Alpha: 0.05},
		"race: {max: 4, final: 10}\n":     {Min: 2, Max: 4, Alpha: 0.05, Final: 10, Elite: 2},
		"race: {final: 7, elite: 5}\n":    {Min: 2, Max: 6, Alpha: 0.05, Final: 7, Elite: 5},
	} {
		s, err := Parse([]byte(head+text), "ok.yaml", families.Builtin())
		if err != nil {
			t.Fatal(err)
		}
		if *s.Race != want {
			t.Errorf("%q gives %+v; want %+v", text, *s.Race, want)
		}
	}
	if s, err = Parse([]byte(head), "ok.yaml", families.Builtin()); err != nil || s.Race != nil {
		t.Errorf("no race block: race %+v, %v; want none", s.Race, err)
	}
	for _, c := range []struct {
		race string
		want []string
	}{
		{"race: {min: 1, max: 4}\n", []string{"line 12: race.min: 1; accepted: an integer ≥ 2"}},
		{"race: {min: 4, max: 3}\n", []string{"line 12: race.max: max 3 (default: base.replications) below min 4; accepted: max ≥ min"}},
		{"race: {min: 8}\n", []string{"line 12: race: max 6 (default: base.replications) below min 8; accepted: max ≥ min"}},
		{"race:\n  min: 2\n  alpha: 0.9\n", []string{"line 14: race.alpha: 0.9; accepted: a family-wise level in (0, 0.5]"}},
		{"race: {max: 20000}\n", []string{"line 12: race.max: 20000; accepted: at most 1000"}},
		{"race: {min: 2, rounds: 3}\n", []string{"line 12: race.rounds: unknown field; accepted: min, max, alpha, indifference, final, elite"}},
		{"race: {indifference: -1}\n", []string{`line 12: race.indifference: "-1"; accepted: a margin in the objective's units (a number ≥ 0; 0: none) or a percentage of the best's objective in (0%, 100%), e.g. 1%`}},
		{"race:\n  indifference: 100%\n", []string{`line 13: race.indifference: "100%"; accepted:`}},
		{"race: {indifference: a lot}\n", []string{`line 12: race.indifference: "a lot"; accepted:`}},
		{"race: {indifference: .inf}\n", []string{`line 12: race.indifference: ".inf"; accepted:`}},
		{"race: {indifference: [1]}\n", []string{`line 12: race.indifference: a list or mapping; accepted:`}},
		{"race: 5\n", []string{`line 12: race: "5"; accepted: {min: N, max: N, alpha: A, indifference: D or P%, final: N, elite: N}`}},
		{"race: {final: 6}\n", []string{"line 12: race.final: 6; accepted: more than race.max (6): the final race runs the elite past the generations' races"}},
		{"race: {final: 5000}\n", []string{"line 12: race.final: 5000; accepted: at most 1000"}},
		{"race: {elite: 3}\n", []string{"line 12: race.elite: 3 without race.final; accepted: elite only with a final race"}},
		{"race: {final: 8, elite: 1}\n", []string{"line 12: race.elite: 1; accepted: an integer ≥ 2 (a race needs two candidates)"}},
		{"race: {final: many}\n", []string{`line 12: race.final: "many"; accepted: an integer`}},
		{"race: {min: two}\n", []string{`line 12: race.min: "two"; accepted: an integer`}},
	} {
		_, err := Parse([]byte(head+c.race), "bad.yaml", families.Builtin())
		if err == nil {
			t.Errorf("%q: no error", c.race)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error lacks %q:\n%v", c.race, w, err)
			}
		}
	}
}

// A race's cells are the base's: replication r of a genome in a race is
// the cell a non-racing tune runs for it (same ID, same seed), and its
// seed is the same for every genome (common random numbers).
func TestRaceCellsAreTheBaseCells(t *testing.T) {
	s := raceSearch(t, &tableRunner{})
	seeds := map[int]uint64{}
	for _, v := range [][]any{{int64(3), "user"}, {int64(9), "exact"}} {
		e := &Eval{Values: v, key: key(v)}
		raced := s.extend(e, 2)
		raced = append(raced, s.extend(e, 4)...)
		plain := s.cells(v, "", 0)
		if len(raced) != len(plain) {
			t.Fatalf("%v: %d raced cells, %d plain", v, len(raced), len(plain))
		}
		for i := range plain {
			if raced[i].ID != plain[i].ID || raced[i].Seed != plain[i].Seed || raced[i].Replication != plain[i].Replication {
				t.Errorf("%v: raced cell %d %s (seed %d, replication %d); plain %s (seed %d, replication %d)", v, i, raced[i].ID, raced[i].Seed, raced[i].Replication, plain[i].ID, plain[i].Seed, plain[i].Replication)
			}
			if s, ok := seeds[raced[i].Replication]; ok && s != raced[i].Seed {
				t.Errorf("%v: replication %d has seed %d, another genome's %d", v, raced[i].Replication, raced[i].Seed, s)
			}
			seeds[raced[i].Replication] = raced[i].Seed
		}
	}
}

// A racing search is deterministic for every algorithm, with and without
// an indifference zone: the same spec and seed give the same evaluations,
// eliminations and stops included.
func TestRaceDeterministic(t *testing.T) {
	// Zones: none; 5% of the best (fakeResult's paired differences spread
	// too widely to decide it); 6,000 (several stopped).
	for _, zone := range []Race{{}, {Indifference: 0.05, Relative: true}, {Indifference: 6000}} {
		for _, algo := range []string{GA, DE, PSO} {
			var runs [2]*Result
			for i := range runs {
				spec := loadTest(t)
				spec.Algorithm.Name = algo
				spec.Race = &Race{Min: 2, Max: 6, Alpha: 0.2, Indifference: zone.Indifference, Relative: zone.Relative}
				res, err := Search(context.Background(), spec, &stubRunner{}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				runs[i] = res
			}
			a, b := runs[0], runs[1]
			if len(a.Evals) != len(b.Evals) || a.Cells != b.Cells || a.Eliminated != b.Eliminated || a.Equivalent != b.Equivalent {
				t.Fatalf("%s, zone %g (relative %v): %d vs %d evaluations, %d vs %d cells, %d vs %d eliminated, %d vs %d stopped", algo, zone.Indifference, zone.Relative, len(a.Evals), len(b.Evals), a.Cells, b.Cells, a.Eliminated, b.Eliminated, a.Equivalent, b.Equivalent)
			}
			for i := range a.Evals {
				x, y := a.Evals[i], b.Evals[i]
				if key(x.Values) != key(y.Values) || x.Objective != y.Objective || x.EliminatedRound != y.EliminatedRound || x.EquivalentRound != y.EquivalentRound || x.Replications != y.Replications {
					t.Fatalf("%s, zone %g (relative %v): evaluation %d differs", algo, zone.Indifference, zone.Relative, i)
				}
			}
			t.Logf("%s, zone %g (relative %v): %d evaluations, %d distinct, %d eliminated, %d stopped as equivalent, %d cells", algo, zone.Indifference, zone.Relative, len(a.Evals), a.Distinct, a.Eliminated, a.Equivalent, a.Cells)
			if zone.Indifference == 6000 && a.Equivalent == 0 {
				t.Errorf("%s, zone 6,000: nothing stopped: the stops' determinism is not tested", algo)
			}
		}
	}
}

// The indifference zone on a table of paired results computed by hand.
// Four candidates, one grid point, wait_mean per replication (minimised),
// race min 2, max 4, alpha 0.05, indifference δ = 2 (absolute):
//
//	k=1 A: 10    12    11    13   the best in every round (ties: the earlier)
//	k=2 E: 10    12    11    13   E − A = 0 0 …
//	k=3 F: 10.5  11.5  11.5  13   F − A = 0.5 −0.5 0.5 0
//	k=4 G: 11    15    12    16   G − A = 1 3 1 3
//
// Round 1 (r = 2), six hypotheses. Worse (H₀: μ ≤ 0): E {0, 0} p = 1; F
// {0.5, −0.5} t = 0, p = 0.5; G {1, 3} t = 2 at 1 degree of freedom, p =
// 1/2 − atan(2)/π = 0.1476. Equivalent (H₀: |μ| ≥ 2, the larger of the two
// one-sided p-values): E zero spread inside ±2, p = 0; F s.e. 0.5, t =
// (0 + 2)/0.5 = 4, p = 1/2 − atan(4)/π = 0.0780; G t = (2 − 2)/1 = 0, p =
// 0.5. Holm over six: 0 ≤ 0.05/6 stops E; 0.0780 > 0.05/5 ends it.
//
// Round 2 (r = 3), A F G; at 2 degrees of freedom 1 − F(t) = 1/2 −
// t/(2√(2 + t²)). Worse: F {0.5, −0.5, 0.5} mean 1/6, s.e. 1/3, t = 0.5,
// p = 0.3333; G {1, 3, 1} mean 5/3, s.e. 2/3, t = 2.5, p = 0.0648.
// Equivalent: F upper side t = (1/6 − 2)/(1/3) = −5.5, p = 0.01575 (lower
// side 0.01143); G upper side t = −0.5, p = 0.3333. Holm over four:
// 0.01575 > 0.05/4 ends it: nobody decided.
//
// Round 3 (r = 4), A F G; at 3 degrees of freedom F(t) = 1/2 +
// (t/(√3(1 + t²/3)) + atan(t/√3))/π. Worse: F {…, 0} mean 0.125, s.e.
// 0.2394, t = 0.522, p = 0.3188; G {1, 3, 1, 3} mean 2, s.e. 1/√3, t =
// 2√3, p = 1/2 − (0.4 + atan 2)/π = 0.0203. Equivalent: F t = (0.125 −
// 2)/0.2394 = −7.833, p = 0.00217; G t = 0, p = 0.5. Holm over four:
// 0.00217 ≤ 0.05/4 stops F; 0.0203 > 0.05/3 ends it, so G survives to
// max. Cells: 4×2 + 3 + 3 = 14 (fixed: 16).
//
// The round's hypotheses of both kinds form one Holm family, so what a
// round decides errs with probability at most alpha. Two families, each
// at alpha, would stop F in round 2 (0.01575 ≤ 0.05/2) and eliminate G in
// round 3 (0.0203 ≤ 0.05, alone): 13 cells. Without the zone nobody is
// decided (round 3: G's 0.0203 > 0.05/3) and all 16 cells are asked for.
func TestRaceIndifferenceByHand(t *testing.T) {
	table := map[int64][]float64{
		1: {10, 12, 11, 13},
		2: {10, 12, 11, 13},
		3: {10.5, 11.5, 11.5, 13},
		4: {11, 15, 12, 16},
	}
	run := func(rc Race) ([]*Eval, *tableRunner, *search) {
		tr := &tableRunner{table: table}
		s := raceSearch(t, tr)
		s.spec.Race = &rc
		return raceByHand(t, s), tr, s
	}
	cands, tr, s := run(Race{Min: 2, Max: 4, Alpha: 0.05, Indifference: 2})
	want := []struct {
		eqRound, elimRound, reps int
		p                        float64
	}{
		{0, 0, 4, 0},
		{1, 0, 2, 0},
		{3, 0, 4, 0.00217},
		{0, 0, 4, 0},
	}
	for i, w := range want {
		e := cands[i]
		if e.EquivalentRound != w.eqRound || e.EliminatedRound != w.elimRound || e.Replications != w.reps {
			t.Errorf("%c: stopped as equivalent in round %d, eliminated in round %d, after %d replications; want %d, %d (0: never), %d", "AEFG"[i], e.EquivalentRound, e.EliminatedRound, e.Replications, w.eqRound, w.elimRound, w.reps)
		}
		p := e.EquivalentP
		if w.elimRound > 0 {
			p = e.EliminatedP
		}
		if math.Abs(p-w.p) > 5e-6 {
			t.Errorf("%c: p %.5f; want %.5f", "AEFG"[i], p, w.p)
		}
	}
	if cands[1].Objective != 11 || cands[2].Objective != 11.625 {
		t.Errorf("E, F objectives %g, %g over the replications they got; want 11, 11.625", cands[1].Objective, cands[2].Objective)
	}
	// The search's best is A (11.5 over 4 replications), not E, whose 11
	// over the 2 replications it got before it was stopped is lower.
	s.evals = cands
	if b := s.best(); b != cands[0] {
		t.Errorf("the search's best is k=%v (objective %g); want A, k=1: a stopped genome is not the best", b.Values[0], b.Objective)
	}
	sizes := []int{}
	for _, c := range tr.calls {
		sizes = append(sizes, len(c))
	}
	if fmt.Sprint(sizes) != "[8 3 3]" || len(s.asked) != 14 {
		t.Errorf("cells asked per round %v (%d in all); want [8 3 3] (14)", sizes, len(s.asked))
	}

	// Relative: 2/11 of each round's best (A: 11, 11, then 11.5) is δ = 2,
	// 2 and 2.09, so F is stopped in round 3 as with δ = 2; an absolute δ
	// of 2/11 would never stop it (round 3: t = (0.125 − 0.18)/0.2394).
	cands, _, _ = run(Race{Min: 2, Max: 4, Alpha: 0.05, Indifference: 2.0 / 11, Relative: true})
	if cands[1].EquivalentRound != 1 || cands[2].EquivalentRound != 3 {
		t.Errorf("relative δ 2/11: E, F stopped in rounds %d, %d; want 1, 3", cands[1].EquivalentRound, cands[2].EquivalentRound)
	}
	cands, _, _ = run(Race{Min: 2, Max: 4, Alpha: 0.05, Indifference: 2.0 / 11})
	if cands[1].EquivalentRound != 1 || cands[2].EquivalentRound != 0 {
		t.Errorf("absolute δ 2/11: E, F stopped in rounds %d, %d; want 1, 0 (never)", cands[1].EquivalentRound, cands[2].EquivalentRound)
	}
	if m := (&Race{Indifference: 0.01, Relative: true}).margin(-15700); m != 157 {
		t.Errorf("1%% of a best of −15,700 is δ = %g; want 157", m)
	}

	// No zone: nobody decided.
	cands, _, _ = run(Race{Min: 2, Max: 4, Alpha: 0.05})
	for i, e := range cands {
		if e.EliminatedRound != 0 || e.EquivalentRound != 0 || e.Replications != 4 {
			t.Errorf("no zone: %c eliminated in round %d, stopped in %d, %d replications; want neither, 4", "AEFG"[i], e.EliminatedRound, e.EquivalentRound, e.Replications)
		}
	}
}
