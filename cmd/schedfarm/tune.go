package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/buildinfo"
	"github.com/schedfarm/schedfarm/tune"
)

// runTune implements `schedfarm tune spec.yaml`: a genetic-algorithm search
// whose every evaluation is farm cells, on an embedded NATS server unless
// --nats names one. Rerunning a killed tune resumes it.
func runTune(args []string, stdout, stderr io.Writer) int {
	fs := farmFlagSet("tune", "tune [--workers N] [--state DIR] [--nats URL [credentials]] tune.yaml", stdout, stderr)
	workers := fs.Int("workers", runtime.NumCPU(), "cells simulated concurrently in this process (0 with --nats: only remote workers)")
	state := fs.String("state", "", "directory of the embedded server's JetStream store, emptied when the search starts (default .schedfarm/<output file name>/ beside the output)")
	var sf sweepFlags
	sf.register(fs)
	path, exit := sf.parse(fs, "tune", args, stdout, stderr)
	if exit >= 0 {
		return exit
	}
	if *workers < 0 || (*workers == 0 && sf.nats.url == "") {
		fmt.Fprintf(stderr, "schedfarm tune: --workers %d: want at least 1 (0 only with --nats, when remote workers do the work)\n", *workers)
		return 2
	}
	spec, err := tune.Load(path, catalog())
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm tune: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dir := *state
	if dir == "" {
		dir = defaultStateDir(spec.Output)
	}
	farm, err := startFarm(sf, *workers, dir, "schedfarm tune", spec.Name, stderr)
	if err != nil {
		return exitFor(stderr, "tune", path, err)
	}
	defer farm.close()
	js, err := jetstream.New(farm.coord)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm tune: %v\n", err)
		return 1
	}
	topo := sf.topology()
	logf := func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }
	topo.Logf = logf
	runner, err := tune.NewFarmRunnerWith(js, spec, topo, logf, tune.FarmOptions{Build: buildinfo.Commit(), AcceptBuilds: sf.acceptBuilds, Repair: sf.repair})
	if err != nil {
		return exitFor(stderr, "tune", path, err)
	}
	if n := runner.Known(); n > 0 {
		fmt.Fprintf(stdout, "resuming: %d cells already in %s are taken from its journal\n", n, spec.Output)
	}
	start := time.Now()
	a := spec.Algorithm
	gens := fmt.Sprint(a.Generations)
	if a.Budget > 0 && a.Generations == 1<<20 {
		gens = fmt.Sprintf("≤ budget %d genomes", a.Budget)
	}
	perEval := fmt.Sprint(len(spec.Base.Cells()))
	if rc := spec.Race; rc != nil {
		points := len(spec.Base.Cells()) / max(spec.Base.Replications, 1)
		perEval = fmt.Sprintf("%d to %d", points*rc.Min, points*rc.Max)
	}
	fmt.Fprintf(stdout, "tune %s: %s, %d parameters, population %d, generations %s, %s cells per evaluation (%s %s)\n",
		spec.Name, a.Name, len(spec.Params), a.Population, gens, perEval, objectiveGoal(spec.Objective), spec.Objective.Metric)
	if rc := spec.Race; rc != nil {
		decide := fmt.Sprintf("a one-sided paired t test against the round's best, Holm at %g, eliminates", rc.Alpha)
		if zone := rc.Zone(); zone != "" {
			if rc.Relative {
				zone += " of the best's objective"
			}
			decide = fmt.Sprintf("one-sided paired t tests against the round's best and equivalence tests (TOST, ±%s), Holm at %g over both, eliminate the worse and stop the equivalent", zone, rc.Alpha)
		}
		fmt.Fprintf(stdout, "racing: %d to %d replications per evaluation, one more per round; after each round %s\n", rc.Min, rc.Max, decide)
	}
	prog := newTuneProgress(stdout, sf.every, spec, runner)
	runner.Progress = prog.cells
	runner.DataRoot = sf.dataRoot
	res, err := tune.Search(ctx, spec, runner, tune.Options{Progress: prog.generation})
	prog.end()
	closeErr := runner.Close()
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm tune: %v\n", err)
		fmt.Fprintln(stderr, "schedfarm tune: the search can be resumed: run the same spec again")
		return 1
	}
	if closeErr != nil {
		fmt.Fprintf(stderr, "schedfarm tune: %v\n", closeErr)
		return 1
	}
	if err := tune.WriteEvals(spec, res); err != nil {
		fmt.Fprintf(stderr, "schedfarm tune: %v\n", err)
		return 1
	}
	if err := farm.stopWorkers(); err != nil {
		fmt.Fprintf(stderr, "schedfarm tune: workers: %v\n", err)
		return 1
	}
	farm.complete = true // the search is whole: its store is of no more use
	fmt.Fprintf(stdout, "\n%d generations, %d evaluations, %d distinct genomes, %d cells, %s\n", res.Generations, len(res.Evals), res.Distinct, runner.Published, time.Since(start).Round(time.Second))
	if rc := spec.Race; rc != nil {
		points := len(spec.Base.Cells()) / max(spec.Base.Replications, 1)
		stopped := ""
		if rc.Indifference > 0 {
			stopped = fmt.Sprintf(", %d stopped as equivalent to a round's best", res.Equivalent)
		}
		final, fixed := "", fmt.Sprintf("%d at a fixed %d replications", res.Distinct*points*rc.Max, rc.Max)
		if rc.Final > 0 {
			final = fmt.Sprintf(", the final race of the %d best to %d", rc.Elite, rc.Final)
			fixed += fmt.Sprintf(", %d at %d", res.Distinct*points*rc.Final, rc.Final)
		}
		fmt.Fprintf(stdout, "race: %d of %d distinct genomes eliminated%s; the search asked for %d cells%s (%s)\n", res.Eliminated, res.Distinct, stopped, res.Cells, final, fixed)
	}
	if res.Best == nil {
		fmt.Fprintln(stdout, "no feasible genome found")
	} else {
		reps := spec.Base.Replications
		if spec.Race != nil {
			reps = res.Best.Replications
		}
		fmt.Fprintf(stdout, "best: %s\n  %s = %s ± %s (95%% CI over %d replications, the search's seeds)\n", tune.Describe(spec, res.Best), spec.Objective.Metric, num(res.Best.Objective), num(res.Best.ObjectiveCI), reps)
		if c := res.Confirm; c != nil {
			covered := math.Abs(c.Objective-res.Best.Objective) <= res.Best.ObjectiveCI
			fmt.Fprintf(stdout, "  confirmed with %d fresh replications: %s ± %s (the search's interval %s it)\n", spec.ConfirmReplications, num(c.Objective), num(c.ObjectiveCI), map[bool]string{true: "covers", false: "does not cover"}[covered])
			b := res.Baseline
			fmt.Fprintf(stdout, "  the base as written, same seeds: %s ± %s; best − base, paired: %s ± %s\n", num(b.Objective), num(b.ObjectiveCI), num(res.Gain.Mean), num(res.Gain.HalfWidth))
		}
	}
	if len(res.Front) > 0 {
		fmt.Fprintf(stdout, "Pareto front (%s, %s):\n", spec.Objective.Metric, spec.Second.Metric)
		for _, e := range res.Front {
			fmt.Fprintf(stdout, "  %s: %s, %s\n", tune.Describe(spec, e), num(e.Objective), num(e.Second))
		}
	}
	fmt.Fprintf(stdout, "evaluations: %s; cells: %s; plots: schedfarm report %s\n", spec.EvalsOutput, spec.Output, spec.EvalsOutput)
	return 0
}

// tuneProgress shows a tune's progress: generation g/G, the cells done
// (this generation's and all), the best so far and an ETA. On a terminal
// one line is redrawn; otherwise a line is written every interval and after
// every generation.
type tuneProgress struct {
	w       io.Writer
	tty     bool
	every   time.Duration
	spec    *tune.Spec
	runner  *tune.FarmRunner
	start   time.Time
	last    time.Time
	perEval int // cells per evaluation
	confirm int // cells of the confirmation (the best and the base)

	gens       int // generations completed (0: none, the initial population not yet evaluated)
	distinct   int
	best       *tune.Eval
	atGen      int // cells finished at the end of the last generation
	cur        coordinator.Snapshot
	running    bool
	confirming bool
	finalRace  bool // the final race of the elite runs (race.final)
}

func newTuneProgress(w io.Writer, every time.Duration, spec *tune.Spec, runner *tune.FarmRunner) *tuneProgress {
	p := &tuneProgress{w: w, every: every, spec: spec, runner: runner, start: time.Now(), perEval: len(spec.Base.Cells())}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	if p.every <= 0 {
		p.every = 10 * time.Second
	}
	if spec.Base.Replications > 0 {
		p.confirm = 2 * spec.ConfirmReplications * p.perEval / spec.Base.Replications
		if spec.Race != nil {
			p.perEval = p.perEval / spec.Base.Replications * spec.Race.Max // at most
		}
	}
	return p
}

// cells receives the coordinator's snapshots of a generation's cells.
func (p *tuneProgress) cells(s coordinator.Snapshot, done bool) {
	p.cur, p.running = s, !done
	if p.tty || time.Since(p.last) >= p.every {
		p.show(false)
	}
}

// generation receives the search's report after each generation.
func (p *tuneProgress) generation(g tune.Progress) {
	if g.FinalRace {
		rc := p.spec.Race
		if !g.Done {
			p.finalRace = true
			fmt.Fprintf(p.w, "final race: the %d best genomes never eliminated race on to %d replications\n", rc.Elite, rc.Final)
			return
		}
		p.best = g.Best
		p.running, p.cur = false, coordinator.Snapshot{}
		p.show(true)
		p.finalRace = false
		return
	}
	if g.Confirming {
		p.confirming = true
		fmt.Fprintf(p.w, "confirming the best with %d fresh replications, and the base as written with the same seeds: %d cells\n", p.spec.ConfirmReplications, p.confirm)
		return
	}
	p.gens, p.distinct, p.best = g.Generation+1, g.Distinct, g.Best
	p.running, p.cur = false, coordinator.Snapshot{}
	p.atGen = p.finished()
	p.show(true)
}

// finished counts the cells this process saw finish.
func (p *tuneProgress) finished() int {
	n := p.runner.Published
	if p.running {
		n -= p.cur.Total - p.cur.Done
	}
	return n
}

// eta estimates the time left from this process's rate of cells and the
// cells left: the budget's remaining genomes, or the remaining generations
// at the mean cells per generation so far, plus the confirmation.
func (p *tuneProgress) eta() (time.Duration, bool) {
	done := p.finished()
	el := time.Since(p.start)
	if done == 0 || el <= 0 {
		return 0, false
	}
	a := p.spec.Algorithm
	inGen := 0
	if p.running {
		inGen = p.cur.Done - p.cur.Skipped
	}
	var left float64
	switch {
	case p.confirming:
		left = float64(-inGen)
	case p.finalRace:
		rc := p.spec.Race
		left = float64(rc.Elite*(rc.Final-rc.Max)*p.perEval/max(rc.Max, 1) - inGen) // at most
	case a.Budget > 0:
		left = float64((a.Budget-p.distinct)*p.perEval - inGen)
	default:
		perGen := float64(a.Population * p.perEval)
		if p.gens > 0 && p.atGen > 0 {
			perGen = float64(p.atGen) / float64(p.gens)
		}
		left = perGen*float64(a.Generations+1-p.gens) - float64(inGen)
	}
	left = max(left, 0) + float64(p.confirm)
	rate := float64(done) / el.Seconds()
	return time.Duration(left / rate * float64(time.Second)), true
}

func (p *tuneProgress) show(final bool) {
	p.last = time.Now()
	a := p.spec.Algorithm
	total := fmt.Sprint(a.Generations)
	if a.Budget > 0 && a.Generations == 1<<20 {
		total = "?"
	}
	gen := p.gens // the generation being evaluated (0: the initial population)
	if final {
		gen = p.gens - 1
	}
	line := fmt.Sprintf("generation %d/%s", gen, total)
	if p.confirming {
		line = "confirmation"
	} else if p.finalRace {
		line = "final race"
	} else if a.Budget > 0 {
		line += fmt.Sprintf(" (%d/%d genomes)", p.distinct, a.Budget)
	}
	if p.running {
		line += fmt.Sprintf(": cells %d/%d", p.cur.Done-p.cur.Skipped, p.cur.Total-p.cur.Skipped)
	} else if final {
		line += " done"
	}
	line += fmt.Sprintf(", %d cells in all, %s", p.finished(), time.Since(p.start).Round(time.Second))
	if p.best != nil {
		line += fmt.Sprintf("; best %s = %s ± %s", tune.Describe(p.spec, p.best), num(p.best.Objective), num(p.best.ObjectiveCI))
	}
	if eta, ok := p.eta(); ok {
		line += fmt.Sprintf("; ETA %s", eta.Round(time.Second))
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		if final {
			fmt.Fprintln(p.w)
		}
		return
	}
	fmt.Fprintln(p.w, line)
}

// end finishes the progress display (the confirmation runs next).
func (p *tuneProgress) end() {
	if p.tty && p.running {
		fmt.Fprintln(p.w)
	}
}

func objectiveGoal(o tune.Objective) string {
	if o.Maximize {
		return "maximize"
	}
	return "minimize"
}

// num formats a number with about four significant digits.
func num(x float64) string {
	switch a := math.Abs(x); {
	case math.IsNaN(x):
		return "—"
	case a >= 1000:
		return fmt.Sprintf("%.0f", x)
	default:
		return fmt.Sprintf("%.4g", x)
	}
}
