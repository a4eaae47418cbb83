package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/strategies/plugin"
)

// paramFlags collects repeated --param name=value flags.
type paramFlags map[string]any

func (p paramFlags) String() string { return "" }

func (p paramFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q: want name=value", s)
	}
	p[name] = value
	return nil
}

func runSim(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg runner.Config
	params := paramFlags{}
	fs.StringVar(&cfg.Trace, "trace", "", "SWF trace to simulate, plain or .gz (required)")
	fs.StringVar(&cfg.Scheduler, "scheduler", "easy", "scheduler name (see 'schedfarm schedulers')")
	fs.Var(params, "param", "scheduler parameter name=value (repeatable), e.g. --param k=4")
	fs.IntVar(&cfg.Procs, "procs", 0, "machine size; 0 = from the trace header (MaxProcs, MaxNodes) or the largest job")
	fs.StringVar(&cfg.Estimates, "estimates", runner.EstimatesUser, "runtime estimates: user (SWF field 9), exact (= runtime), pyss (pyss compatibility)")
	fs.StringVar(&cfg.Overrun, "overrun", runner.OverrunKill, "runtime > requested time: kill (at the requested time) or extend (estimate raised)")
	fs.StringVar(&cfg.Events, "events", runner.EventsInstant, "same-instant events: instant (completions first, one pass per instant) or pyss (pyss's order: submissions first, a pass after every event)")
	fs.Float64Var(&cfg.Load, "load", 0, "target offered load, reached by scaling interarrival times (0 = as in the trace)")
	fs.Float64Var(&cfg.Gamma, "gamma", 10, "bounded-slowdown threshold in seconds")
	fs.IntVar(&cfg.WarmupJobs, "warmup", 0, "exclude the first N jobs from the per-job aggregates")
	fs.IntVar(&cfg.MaxJobs, "max-jobs", 0, "simulate only the first N jobs (0 = all)")
	fs.BoolVar(&cfg.Lenient, "lenient", false, "skip malformed SWF lines (counted) instead of failing")
	fields := map[string]any{}
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed (VM-tier schedulers: CPU usages and sharing overheads)")
	registerFieldFlags(fs, fields) // after the command's own flags: those win a name
	pluginPath := fs.String("plugin", "", "run the scheduler plugin at this path instead of a built-in scheduler (--param sets its parameters; see README, Scheduler plugins)")
	pluginTimeout := fs.Duration("plugin-timeout", plugin.DefaultPassTimeout, "with --plugin: how long the plugin may take to answer one pass before it is killed and the run fails")
	schedule := fs.String("schedule", "", "write the simulated schedule as SWF to this file (.gz to compress)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: schedfarm sim --trace FILE [flags]\n\nSimulates one scheduler over one SWF trace and prints the metrics.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if cfg.Trace == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "schedfarm sim: --trace FILE is required and no other arguments are accepted")
		fs.Usage()
		return 2
	}
	if len(params) > 0 {
		cfg.SchedulerParams = params
	}
	if len(fields) > 0 {
		cfg.FamilyFields = fields
	}
	began := time.Now()
	var bin plugin.Binary
	if *pluginPath != "" {
		schedulerSet := false
		fs.Visit(func(f *flag.Flag) { schedulerSet = schedulerSet || f.Name == "scheduler" })
		if schedulerSet {
			fmt.Fprintln(stderr, "schedfarm sim: give --scheduler or --plugin, not both")
			return 2
		}
		if os.Getenv("GOMAXPROCS") == "" {
			// One simulation on one goroutine, talking to the plugin
			// process message by message: with one P the handoffs to
			// gRPC's goroutines stay on one thread, which makes a pass's
			// round trip about a third cheaper (README, Scheduler plugins).
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		}
		var closePlugin func() error
		var err error
		bin, closePlugin, err = usePlugin(&cfg, *pluginPath, *pluginTimeout)
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm sim: %v\n", err)
			return 1
		}
		defer closePlugin()
	}
	run := simulator().WithoutTraceCache()
	if *schedule == "" {
		// Nothing will be written from the SWF records: the trace is
		// parsed piece by piece into one buffer (runner.WithoutRecords).
		run = run.WithoutRecords()
	}
	res, err := run.Run(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm sim: %v\n", err)
		return 1
	}
	wall := time.Since(began)
	if *schedule != "" {
		if err := res.WriteSchedule(*schedule); err != nil {
			fmt.Fprintf(stderr, "schedfarm sim: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		return printJSON(stdout, stderr, res, wall, bin)
	}
	printSummary(stdout, res, wall, *schedule, bin)
	return 0
}

// usePlugin starts the plugin at path and points cfg at a registry holding
// just it, under the plugin's own name.
func usePlugin(cfg *runner.Config, path string, timeout time.Duration) (plugin.Binary, func() error, error) {
	bin, err := plugin.Hash(path)
	if err != nil {
		return bin, nil, err
	}
	p, err := plugin.Open(bin, plugin.Options{PassTimeout: timeout})
	if err != nil {
		return bin, nil, err
	}
	reg, err := p.Registry("", cfg.Seed)
	if err != nil {
		p.Close()
		return bin, nil, err
	}
	cfg.Registry, cfg.Scheduler = reg, p.Description().GetName()
	return bin, p.Close, nil
}

func printJSON(stdout, stderr io.Writer, res *runner.Result, wall time.Duration, bin plugin.Binary) int {
	out := map[string]any{
		"trace": res.Config.Trace, "scheduler": res.Config.Scheduler, "estimates": res.Config.Estimates,
		"overrun": res.Config.Overrun, "procs": res.Platform.Pools[0].Capacity, "procs_source": res.ProcsSource,
		"adjustments": res.Adjust, "skipped_lines": res.SkippedLines, "wall_seconds": wall.Seconds(),
	}
	if bin.Path != "" {
		out["plugin"], out["plugin_sha256"] = bin.Path, bin.SHA256
	}
	metrics := map[string]float64{}
	for _, m := range res.Metrics() {
		metrics[m.Name] = m.Value
	}
	out["metrics"] = metrics
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "schedfarm sim: %v\n", err)
		return 1
	}
	return 0
}

func printSummary(w io.Writer, res *runner.Result, wall time.Duration, schedule string, bin plugin.Binary) {
	s, a := res.Summary, res.Adjust
	fmt.Fprintf(w, "trace       %s\n", res.Config.Trace)
	fmt.Fprintf(w, "scheduler   %s   estimates %s   overrun %s\n", res.Config.Scheduler, res.Config.Estimates, res.Config.Overrun)
	if bin.Path != "" {
		fmt.Fprintf(w, "plugin      %s   sha256 %s\n", bin.Path, bin.SHA256)
	}
	fmt.Fprintf(w, "machine     %d processors (%s)", res.Platform.Pools[0].Capacity, res.ProcsSource)
	if res.Platform.Tiered() {
		fmt.Fprintf(w, ", %d VM tiers each", res.Platform.Tiers)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "jobs        %d simulated: %d finished, %d killed, %d rejected; %d backfilled\n", s.Jobs, s.Finished, s.Killed, s.Rejected, s.Backfilled)
	if res.Platform.Tiered() {
		fmt.Fprintf(w, "relocated   %d migrations, %d restarts, %d swaps\n", s.Migrations, s.Restarts, s.Swaps)
	}
	fmt.Fprintf(w, "input       %d dropped (runtime %d, processors %d, submit %d), %d altered",
		a.Dropped(), a.DroppedRuntime, a.DroppedProcs, a.DroppedSubmit, a.Altered())
	if a.Altered() > 0 {
		fmt.Fprintf(w, " (clamped %d, no estimate %d, extended %d, kill limit %d, pyss raised %d, pyss cut %d, pyss 1-second %d)",
			a.ClampedProcs, a.NoEstimate, a.Extended, a.Limited, a.PyssRaised, a.PyssCut, a.PyssOneSecond)
	}
	if res.SkippedLines > 0 {
		fmt.Fprintf(w, "; %d malformed lines skipped", res.SkippedLines)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tmean\tmedian\tp95\tmax\t")
	for _, row := range []struct {
		name string
		vals [4]float64
	}{
		{"wait (s)", [4]float64{s.Wait.Mean, s.Wait.Median, s.Wait.P95, s.Wait.Max}},
		{"response (s)", [4]float64{s.Response.Mean, s.Response.Median, s.Response.P95, s.Response.Max}},
		{"slowdown", [4]float64{s.Slowdown.Mean, s.Slowdown.Median, s.Slowdown.P95, s.Slowdown.Max}},
		{fmt.Sprintf("bsld (Γ=%gs)", gammaOf(res)), [4]float64{s.BSLD.Mean, s.BSLD.Median, s.BSLD.P95, s.BSLD.Max}},
	} {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t\n", row.name, row.vals[0], row.vals[1], row.vals[2], row.vals[3])
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintf(w, "utilisation %.4f   makespan %.0f s   offered load %.4f\n", s.Utilization, s.Makespan, res.OfferedLoad)
	if schedule != "" {
		fmt.Fprintf(w, "schedule    written to %s\n", schedule)
	}
	fmt.Fprintf(w, "simulated in %.3f s\n", wall.Seconds())
}

func gammaOf(res *runner.Result) float64 {
	if res.Config.Gamma > 0 {
		return res.Config.Gamma
	}
	return 10
}

func runSchedulers(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schedulers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: schedfarm schedulers\n\nLists the registered schedulers of every family with a one-line description and their parameters; a scheduler of a family's own platform (seed001's cloud, seed002's grid) says so.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	reg := catalog().Schedulers()
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, name := range reg.Names() {
		e, _ := reg.Lookup(name)
		fmt.Fprintf(tw, "%s\t%s\n", name, e.Summary)
		if e.Platform != "" {
			fmt.Fprintf(tw, "\t  runs %s workloads only (its family's own platform)\n", e.Platform)
		}
		for _, p := range e.Params {
			fmt.Fprintf(tw, "\t  param %s (%s, default %v): %s\n", p.Name, p.Kind.Noun(), p.Default, p.Doc)
		}
	}
	tw.Flush()
	return 0
}
