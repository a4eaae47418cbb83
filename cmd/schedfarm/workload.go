package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/stats"
	"github.com/schedfarm/schedfarm/workload/swf"
	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

// runWorkload implements "schedfarm workload generate|estimates|stats|models".
func runWorkload(args []string, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: schedfarm workload <generate|estimates|stats|models> [flags]   (--help on each)")
		fmt.Fprintln(w, "\n  generate   write a synthetic workload (SWF models, or JSON lines for the seed generators)")
		fmt.Fprintln(w, "  estimates  copy any SWF file (a real trace too) with modelled user runtime estimates (tsafrir05) in field 9")
		fmt.Fprintln(w, "  stats      describe an SWF file: size histogram (seed 000 bins), means, load, power-of-two share, estimate accuracy")
		fmt.Fprintln(w, "  models     list the models and their parameters")
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "generate":
		return workloadGenerate(args[1:], stdout, stderr)
	case "estimates":
		return workloadEstimates(args[1:], stdout, stderr)
	case "stats":
		return workloadStats(args[1:], stdout, stderr)
	case "models":
		return workloadModels(stdout)
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "schedfarm workload: unknown subcommand %q\n", args[0])
	usage(stderr)
	return 2
}

// workloadParams collects repeated --param name=value flags.
type workloadParams map[string]any

func (p workloadParams) String() string { return "" }

func (p workloadParams) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q: want name=value", s)
	}
	p[name] = value
	return nil
}

// estBinsFlag collects repeated --est-bins values into one comma-separated
// list (the est_bins model parameter).
type estBinsFlag []string

func (e *estBinsFlag) String() string { return strings.Join(*e, ",") }

func (e *estBinsFlag) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty; want sec=percent[,sec=percent…], e.g. 3600=30,14400=10")
	}
	*e = append(*e, s)
	return nil
}

func workloadModels(stdout io.Writer) int {
	fmt.Fprintln(stdout, "SWF models (schedfarm workload generate --model NAME; parameters via flags or --param name=value):")
	reg := catalog().Models()
	for _, n := range reg.Names() {
		if o, _ := reg.OutputOf(n); o != models.SWF {
			continue // listed with the seed generators
		}
		fmt.Fprintln(stdout)
		fmt.Fprint(stdout, reg.Describe(n))
	}
	fmt.Fprintln(stdout, "\nSeed generators (JSON lines; see 'schedfarm workload generate --help'):")
	for _, g := range seedGenerators() {
		fmt.Fprintf(stdout, "\n%s — %s\n", g.name, g.summary)
		for _, p := range g.params {
			fmt.Fprintf(stdout, "  %s\n", p)
		}
	}
	return 0
}

func workloadGenerate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workload generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	params := workloadParams{}
	model := fs.String("model", "lublin99", "model name (see 'schedfarm workload models')")
	jobs := fs.Int("jobs", 0, "number of jobs (projects for seed004); 0 = the model's default")
	procs := fs.Int("procs", 0, "machine size in processors; 0 = the model's default")
	seed := fs.Uint64("seed", 1, "random seed (the generator draws from PCG(seed, seed))")
	estimates := fs.String("estimates", "", "user runtime estimates for SWF models: none or tsafrir05")
	var estBins estBinsFlag
	fs.Var(&estBins, "est-bins", "Tsafrir user-supplied bins sec=percent[,sec=percent…] (repeatable; the reference driver's -b): exactly int(jobs·percent/100) jobs get the estimate sec seconds; at most 20 bins; needs --estimates tsafrir05")
	load := fs.Float64("load", 0, "target offered load on --procs (0 = the model's own arrival rate)")
	out := fs.String("o", "-", "output file (.gz to compress); - for standard output")
	fs.StringVar(out, "output", "-", "same as -o")
	fs.Var(params, "param", "model parameter name=value (repeatable), e.g. --param typed=false")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `Usage: schedfarm workload generate --model NAME [flags] -o FILE

Writes a synthetic workload. SWF models (`+strings.Join(catalog().Models().Names(), ", ")+`) write
SWF 2.2 with a header recording the model, every parameter, the machine size
and the achieved offered load. Seed generators (`+strings.Join(seedNames(), ", ")+`)
write JSON lines: one "platform" object, then one object per job or project
(format documented in 'schedfarm workload models' and the package docs).

Example: schedfarm workload generate --model lublin99 --jobs 100000 --procs 256 --seed 1 --estimates tsafrir05 -o out.swf.gz
         (add --est-bins 3600=30,14400=10 to give 30% of the jobs a 1 h and 10% a 4 h estimate)

Flags:`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schedfarm workload generate: unexpected arguments %q\n", fs.Args())
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["jobs"] {
		params["jobs"] = *jobs
	}
	if set["procs"] {
		params["procs"] = *procs
	}
	if set["estimates"] {
		params["estimates"] = *estimates
	}
	if set["est-bins"] {
		params["est_bins"] = estBins.String()
	}
	if set["load"] {
		params["load"] = *load
	}
	rng := rand.New(rand.NewPCG(*seed, *seed))
	if g, ok := findSeedGenerator(*model); ok {
		return writeSeedGenerator(g, params, rng, *seed, *out, stdout, stderr)
	}
	if !slices.Contains(catalog().Models().Names(), *model) {
		fmt.Fprintf(stderr, "schedfarm workload generate: unknown model %q (SWF models: %s; seed generators: %s)\n",
			*model, strings.Join(catalog().Models().Names(), ", "), strings.Join(seedNames(), ", "))
		return 2
	}
	src, info, err := catalog().Models().New(*model, params, rng)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm workload generate: %v\n", err)
		return 2
	}
	var hdr swf.Header
	for _, e := range info.Header() {
		hdr.Add(e.Keyword, e.Value)
	}
	hdr.Add("Note", fmt.Sprintf("Seed: %d (math/rand/v2 PCG(seed, seed))", *seed))
	n, err := writeSWF(*out, hdr, src, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm workload generate: %v\n", err)
		return 1
	}
	target := ""
	if info.TargetLoad > 0 {
		target = fmt.Sprintf(" (target %g)", info.TargetLoad)
	}
	fmt.Fprintf(stderr, "%s: %d jobs, offered load %.4f%s on %d processors\n", outName(*out), n, info.AchievedLoad, target, info.Procs)
	return 0
}

func outName(path string) string {
	if path == "-" || path == "" {
		return "stdout"
	}
	return path
}

// writeSWF streams src to path (or stdout for "-") and returns the job count.
func writeSWF(path string, hdr swf.Header, src workload.Source, stdout io.Writer) (int, error) {
	type sink interface {
		Write(*workload.Job) error
	}
	var w sink
	var closeFn func() error
	if path == "-" || path == "" {
		sw, err := swf.NewWriter(stdout, hdr)
		if err != nil {
			return 0, err
		}
		w, closeFn = sw, sw.Flush
	} else {
		fw, err := swf.Create(path, hdr)
		if err != nil {
			return 0, err
		}
		w, closeFn = fw, fw.Close
	}
	n := 0
	for {
		j, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			closeFn()
			return n, err
		}
		if err := w.Write(&j); err != nil {
			closeFn()
			return n, err
		}
		n++
	}
	return n, closeFn()
}

// workloadEstimates implements "schedfarm workload estimates": it reads an
// SWF file twice (the runtimes, then the jobs to write), so that memory
// holds two numbers per job rather than the jobs.
func workloadEstimates(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workload estimates", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", models.EstimateModel, "user runtime estimate model; only "+models.EstimateModel+" (Tsafrir, Etsion & Feitelson 2005)")
	maxEst := fs.Int("max-estimate", 0, "Tmax in seconds (> 5700): the largest estimate; longer runtimes are cut to it. 0 = automatic: the longest runtime rounded up to whole hours, at least 7200 s and at least the largest --est-bins time, grown by 25% steps until every job can get an estimate at least its runtime (as workload generate)")
	var estBins estBinsFlag
	fs.Var(&estBins, "est-bins", "user-supplied bins sec=percent[,sec=percent…] (repeatable; the reference driver's -b): exactly int(N·percent/100) of the N jobs with a runtime get the estimate sec seconds; at most 20 bins")
	seed := fs.Uint64("seed", 1, "random seed (the model draws from math/rand/v2 PCG(seed, seed))")
	out := fs.String("o", "-", "output file (.gz to compress); - for standard output")
	fs.StringVar(out, "output", "-", "same as -o")
	lenient := fs.Bool("lenient", false, "skip malformed SWF lines (counted, not written) instead of failing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `Usage: schedfarm workload estimates [--model tsafrir05] [--max-estimate S] [--est-bins 3600=30,...] [--seed N] [-o OUT.swf[.gz]] IN.swf[.gz]

Copies an SWF workload (plain or .gz; a real trace or a generated file) with
modelled user runtime estimates in field 9 (requested time): the Tsafrir,
Etsion & Feitelson 2005 model, as 'workload generate --estimates tsafrir05'
applies it to synthetic jobs. Every job with a runtime (field 4 ≥ 0) gets an
estimate at least its runtime; runtimes above Tmax are cut to Tmax, as the
model does. Jobs whose runtime is unknown (-1) are copied unchanged, keep
their field 9 and do not count in N, the number of estimates (N must exceed
226). The output keeps the input's header and adds a "; Note:" line with the
model, Tmax, the user bins, the seed, N and the number of cut runtimes (an
earlier "Requested time (field 9) = ..." note of a generated file is dropped).
The same input, flags and seed give the same file.

Experiment specs get the same per cell with workload.user_estimates: tsafrir05
(see the experiments package documentation).

Example: schedfarm workload estimates --seed 1 -o kth-est.swf.gz KTH-SP2-1996-2.swf.gz

Flags:`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(stderr, "schedfarm workload estimates: "+format+"\n", args...)
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	in := fs.Arg(0)
	if err := models.CheckEstimateModel(*model); err != nil {
		return fail(2, "--model: %v", err)
	}
	if *maxEst != 0 && *maxEst <= tsafrir05.MinMaxEstimate {
		return fail(2, "--max-estimate %d: want 0 (automatic) or an integer > %d (seconds; 20 head values must exist)", *maxEst, tsafrir05.MinMaxEstimate)
	}
	binsText := estBins.String()
	bins, err := tsafrir05.ParseUserPercents(binsText)
	if err != nil {
		return fail(2, "--est-bins %q: %s", binsText, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	if ps := models.CheckEstimateBins(binsText, *maxEst, 0); len(ps) > 0 {
		return fail(2, "--est-bins %s", strings.Join(ps, "; "))
	}
	if *out != "-" && *out != "" {
		if a, err := os.Stat(in); err == nil {
			if b, err := os.Stat(*out); err == nil && os.SameFile(a, b) {
				return fail(2, "-o %s is the input file; want another path", *out)
			}
		}
	}
	opts := swf.Options{Lenient: *lenient}

	// Pass 1: the runtimes.
	r, err := swf.Open(in, opts)
	if err != nil {
		return fail(1, "%v", err)
	}
	hdr := r.Header()
	var runtimes []float64
	if n := hdr.MaxJobs(); n > 0 && n < 1<<26 {
		runtimes = make([]float64, 0, n)
	}
	jobs := 0
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			r.Close()
			return fail(1, "%v", err)
		}
		jobs++
		if j.RunTime >= 0 {
			runtimes = append(runtimes, j.RunTime)
		}
	}
	skipped := r.SkipCount()
	r.Close()
	n, unknown := len(runtimes), jobs-len(runtimes)
	if n <= tsafrir05.MinJobs {
		return fail(1, "%s: %d jobs with a known runtime (field 4 ≥ 0) of %d; the %s model needs more than %d", in, n, jobs, *model, tsafrir05.MinJobs)
	}
	if ps := models.CheckEstimateBins(binsText, *maxEst, n); len(ps) > 0 {
		return fail(1, "--est-bins for the %d jobs with a runtime in %s: %s", n, in, strings.Join(ps, "; "))
	}
	est, err := models.AssignEstimates(runtimes, models.EstimateOptions{MaxEstimate: *maxEst, Bins: bins}, [2]uint64{*seed, *seed})
	if err != nil {
		return fail(1, "%s: %v", in, err)
	}

	// The header: the input's, without a stale field-9 note, plus ours.
	hdr.Entries = slices.DeleteFunc(hdr.Entries, func(e swf.Entry) bool {
		return strings.EqualFold(e.Keyword, "Note") && strings.HasPrefix(e.Value, "Requested time (field 9) = ")
	})
	note := models.EstimateNote(*model, est.MaxEstimate, est.Capped, est.UserBins)
	if len(est.UserBins) == 0 {
		note += "; no user bins"
	}
	note += fmt.Sprintf("; assigned by schedfarm workload estimates with seed %d (math/rand/v2 PCG(seed, seed)) to the N = %d jobs with a runtime", *seed, n)
	if unknown > 0 {
		note += fmt.Sprintf("; %d jobs with unknown runtime (-1) keep their field 9", unknown)
	}
	hdr.Add("Note", note)

	// Pass 2: the jobs, with the estimates.
	r, err = swf.Open(in, opts)
	if err != nil {
		return fail(1, "%v", err)
	}
	defer r.Close()
	src := &estimatedSource{src: r, runtimes: runtimes, est: est.Values}
	written, err := writeSWF(*out, hdr, src, stdout)
	if err == nil && src.k != n {
		err = fmt.Errorf("%s changed while it was read: %d jobs with a runtime, then %d", in, n, src.k)
	}
	if err != nil {
		if *out != "-" && *out != "" {
			os.Remove(*out)
		}
		return fail(1, "%v", err)
	}
	atMax := 0
	for _, e := range est.Values {
		if e == float64(est.MaxEstimate) {
			atMax++
		}
	}
	fmt.Fprintf(stderr, "%s: %d jobs; %d with a runtime got %s estimates (Tmax %d s, %d bins, %d at Tmax, %d runtimes cut to Tmax); %d with unknown runtime kept field 9",
		outName(*out), written, n, *model, est.MaxEstimate, len(est.Bins), atMax, est.Capped, unknown)
	if skipped > 0 {
		fmt.Fprintf(stderr, "; %d malformed lines skipped", skipped)
	}
	fmt.Fprintln(stderr)
	return 0
}

// estimatedSource replays an SWF reader with the k-th job that has a
// runtime given runtimes[k] (capped to Tmax) and the estimate est[k].
type estimatedSource struct {
	src      workload.Source
	runtimes []float64
	est      []float64
	k        int
}

func (s *estimatedSource) Next() (workload.Job, error) {
	j, err := s.src.Next()
	if err != nil || j.RunTime < 0 {
		return j, err
	}
	if s.k >= len(s.est) {
		return j, fmt.Errorf("the input changed while it was read: more than %d jobs with a runtime", len(s.est))
	}
	j.RunTime, j.ReqTime = s.runtimes[s.k], s.est[s.k]
	s.k++
	return j, nil
}

func workloadStats(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workload stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	procs := fs.Int("procs", 0, "machine size for the load; 0 = from the header (MaxProcs, MaxNodes) or the largest job")
	lenient := fs.Bool("lenient", false, "skip malformed SWF lines (counted) instead of failing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `Usage: schedfarm workload stats [flags] FILE

Describes an SWF workload (plain or .gz) in one streaming pass: job-size
histogram over seed 000's Table 1 bins, mean size, runtime and interarrival,
offered load, fraction of power-of-two sizes and, when field 9 is present,
the accuracy of the runtime estimates (mean runtime/estimate).

Flags:`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	r, err := swf.Open(fs.Arg(0), swf.Options{Lenient: *lenient})
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm workload stats: %v\n", err)
		return 1
	}
	defer r.Close()
	var a stats.Accumulator
	var largest int64
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm workload stats: %v\n", err)
			return 1
		}
		a.Add(&j)
		largest = max(largest, j.Procs())
	}
	p, source := int64(*procs), "--procs"
	if p <= 0 {
		p, source = swf.MachineSize(r.Header(), largest)
	}
	s := a.Summary(int(p))
	fmt.Fprintf(stdout, "file                 %s\n", fs.Arg(0))
	fmt.Fprintf(stdout, "machine size         %d (from %s)\n", p, source)
	if r.SkipCount() > 0 {
		fmt.Fprintf(stdout, "skipped lines        %d\n", r.SkipCount())
	}
	s.WriteText(stdout)
	return 0
}

// Seed generators write JSON lines: one "platform" object, then one
// object per job or project in arrival order. The models and their formats
// belong to the families (models.Model.Lines: families/cloud seed001,
// families/stms seed002, families/twotier seed004).
type seedGenerator struct {
	name    string
	summary string
	params  []string // "name (default): meaning"
	// run decodes raw (the --param values, --jobs included) with the model
	// registry, draws from rng and emits the platform line, then the records.
	run func(raw map[string]any, rng *rand.Rand, emit func(any) error) error
}

// seedGenerators lists the models of the families that write JSON lines,
// sorted by name.
func seedGenerators() []seedGenerator {
	reg := catalog().Models()
	var gs []seedGenerator
	for _, n := range reg.Names() {
		m, _ := reg.Model(n)
		if m.Lines == nil {
			continue
		}
		gs = append(gs, seedGenerator{name: n, summary: m.Summary, params: modelParamLines(m), run: m.Lines})
	}
	return gs
}

// modelParamLines renders a model's parameters as "name (default):
// meaning" lines; a model counted in projects (no jobs parameter) shows
// that --jobs sets them.
func modelParamLines(m models.Model) []string {
	hasJobs := slices.ContainsFunc(m.Params, func(s param.Spec) bool { return s.Name == "jobs" })
	var out []string
	for _, s := range m.Params {
		label := s.Name
		if s.Name == "projects" && !hasJobs {
			label = "projects (also --jobs)"
		}
		out = append(out, fmt.Sprintf("%s (%v): %s", label, s.Default, s.Doc))
	}
	return out
}

func seedNames() []string {
	var n []string
	for _, g := range seedGenerators() {
		n = append(n, g.name)
	}
	return n
}

func findSeedGenerator(name string) (seedGenerator, bool) {
	for _, g := range seedGenerators() {
		if g.name == name {
			return g, true
		}
	}
	return seedGenerator{}, false
}

// writeSeedGenerator runs a seed generator and writes its JSON lines.
func writeSeedGenerator(g seedGenerator, params map[string]any, rng *rand.Rand, seed uint64, path string, stdout, stderr io.Writer) int {
	if _, ok := params["estimates"]; ok {
		fmt.Fprintf(stderr, "schedfarm workload generate: --estimates applies to SWF models only, not %s\n", g.name)
		return 2
	}
	if _, ok := params["est_bins"]; ok {
		fmt.Fprintf(stderr, "schedfarm workload generate: --est-bins applies to SWF models with --estimates tsafrir05 only, not %s\n", g.name)
		return 2
	}
	if _, ok := params["procs"]; ok {
		fmt.Fprintf(stderr, "schedfarm workload generate: --procs applies to SWF models only; %s has its own platform parameters\n", g.name)
		return 2
	}
	if _, ok := params["load"]; ok {
		fmt.Fprintf(stderr, "schedfarm workload generate: --load applies to SWF models only; set %s's arrival rate or interarrival with --param\n", g.name)
		return 2
	}
	out, closeOut, err := openOutput(path, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm workload generate: %v\n", err)
		return 1
	}
	bw := bufio.NewWriterSize(out, 1<<16)
	enc := json.NewEncoder(bw)
	first := true
	n := 0
	emit := func(v any) error {
		if first {
			first = false
			m := v.(map[string]any)
			m["model"] = g.name
			m["seed"] = seed
		} else {
			n++
		}
		return enc.Encode(v)
	}
	runErr := g.run(params, rng, emit)
	if err := bw.Flush(); runErr == nil {
		runErr = err
	}
	if err := closeOut(); runErr == nil {
		runErr = err
	}
	if runErr != nil {
		fmt.Fprintf(stderr, "schedfarm workload generate: %v\n", runErr)
		if path != "-" && path != "" {
			os.Remove(path)
		}
		return 2
	}
	fmt.Fprintf(stderr, "%s: platform and %d records of %s\n", outName(path), n, g.name)
	return 0
}

// openOutput opens path for writing ("-" = stdout; ".gz" compresses); the
// returned close must be called.
func openOutput(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "-" || path == "" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	if strings.HasSuffix(path, ".gz") {
		zw := gzip.NewWriter(f)
		return zw, func() error {
			err := zw.Close()
			if e := f.Close(); err == nil {
				err = e
			}
			return err
		}, nil
	}
	return f, f.Close, nil
}
