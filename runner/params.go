package runner

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/models"
	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

// Field is one of the spec's own platform and workload fields of an SWF
// run (platform.procs, workload.load, …), declared once: its param.Spec
// (kind, what it accepts, doc, unit; a Default for a field every SWF cell
// carries, given or not) and where its value goes in a run's Config. Spec validation (package experiments) checks a spec's fields
// and axes against Fields, a cell carries the value under the field's
// name, ConfigOf sets it into the Config by the same table, the worker's
// re-check (experiments.CheckCell) knows from it which fields combine, and
// the results glossary takes the doc and unit of the p_ column from it.
// Adding a workload field is one row here plus its use in Run.
type Field struct {
	param.Spec
	// Fixed marks a field that may not be an axis (workload.lenient).
	Fixed bool
	// Joint marks a field whose values spec validation checks together
	// with others of the section (the trace estimates, jobs and warm-up):
	// a sweep may combine them in ways a spec of fixed values refuses, so
	// a cell's re-check gives each as a one-value axis.
	Joint bool
	// TraceOnly marks a field of trace workloads only (a generator draws
	// its own estimates: workload.generator.*).
	TraceOnly bool
	// set puts a value of the field's kind into the decoding.
	set func(d *decoding, v any)
}

// decoding is a Config being decoded from a cell, with the values that
// are settled once every parameter is read.
type decoding struct {
	cfg              Config
	dir              string
	userEst, estBins string
}

// Fields returns the table of the spec's own platform and workload fields
// of SWF runs, in the order a spec lists them.
func Fields() []Field {
	return []Field{
		{Spec: param.Spec{Name: "platform.procs", Kind: param.Int, Form: "an integer > 0 (processors)", Check: positiveInt("procs"),
			Unit: "processors", Doc: "machine size (for VM tiers: physical processors)"},
			set: func(d *decoding, v any) { d.cfg.Procs = int(v.(int64)) }},
		{Spec: param.Spec{Name: "workload.load", Kind: param.Float, Form: "a number > 0 (target offered load)", Check: positiveFloat("load"),
			Unit: "fraction 0–1", Doc: "target offered load: submit times are scaled to reach it (see m_load_factor, m_offered_load)"},
			set: func(d *decoding, v any) { d.cfg.Load = v.(float64) }},
		{Spec: param.Spec{Name: "workload.jobs", Kind: param.Int, Form: "an integer > 0", Check: positiveInt("jobs"),
			Unit: "count", Doc: "jobs read from the trace or generated (0: all)"}, Joint: true,
			set: func(d *decoding, v any) { d.cfg.MaxJobs = int(v.(int64)) }},
		{Spec: param.Spec{Name: "workload.warmup", Kind: param.Int, Form: "an integer >= 0", Check: nonNegativeInt("warmup"),
			Unit: "count", Doc: "first jobs left out of the distributions (still simulated)"}, Joint: true,
			set: func(d *decoding, v any) { d.cfg.WarmupJobs = int(v.(int64)) }},
		{Spec: param.Spec{Name: "workload.estimates", Kind: param.String, Default: EstimatesUser, Form: "user, exact, pyss", Check: oneOf("estimates", EstimatesExact, EstimatesPyss, EstimatesUser),
			Unit: "—", Doc: "runtime estimates the scheduler sees: exact, user (requested time) or pyss"}, Joint: true,
			set: func(d *decoding, v any) { d.cfg.Estimates = v.(string) }},
		{Spec: param.Spec{Name: "workload.overrun", Kind: param.String, Default: OverrunKill, Form: "extend, kill", Check: oneOf("overrun", OverrunExtend, OverrunKill),
			Unit: "—", Doc: "a job running past its estimate: kill (at the requested time) or extend"},
			set: func(d *decoding, v any) { d.cfg.Overrun = v.(string) }},
		{Spec: param.Spec{Name: "workload.trace", Kind: param.String, Form: "a path to an SWF file (plain or .gz)", Check: nonEmpty("trace"),
			Unit: "—", Doc: "SWF trace file, relative to the spec's directory"},
			set: func(d *decoding, v any) { d.cfg.Trace = ResolvePath(d.dir, v.(string)) }},
		{Spec: param.Spec{Name: "workload.lenient", Kind: param.Bool, Form: "true or false",
			Unit: "—", Doc: "skip (and count) malformed SWF lines instead of failing"}, Fixed: true,
			set: func(d *decoding, v any) { d.cfg.Lenient = v.(bool) }},
		{Spec: param.Spec{Name: "workload.user_estimates", Kind: param.String,
			Form:  "none, tsafrir05 (modelled user runtime estimates in field 9 of a trace, drawn per cell)",
			Check: oneOf("user_estimates", UserEstimatesNone, UserEstimatesTsafrir),
			Unit:  "—", Doc: "model drawing user estimates onto the trace (tsafrir05)"}, Joint: true, TraceOnly: true,
			set: func(d *decoding, v any) { d.userEst = v.(string) }},
		{Spec: param.Spec{Name: "workload.max_estimate", Kind: param.Int, Form: maxEstimateAccepted(), Check: checkMaxEstimate,
			Unit: "s", Doc: "largest user estimate the estimate model draws"}, Joint: true, TraceOnly: true,
			set: func(d *decoding, v any) { d.cfg.MaxEstimate = int(v.(int64)) }},
		{Spec: param.Spec{Name: "workload.est_bins", Kind: param.String, Form: EstimateSpec("est_bins").Form, Check: checkEstBins,
			Unit: "—", Doc: "user-estimate bins, seconds=percent pairs (tsafrir05 -b)"}, Joint: true, TraceOnly: true,
			set: func(d *decoding, v any) { d.estBins = v.(string) }},
	}
}

// FieldOf returns the field of that full name (the first of Fields with
// it), from a table built once: spec validation and a worker's re-check of
// every cell ask for each parameter.
func FieldOf(name string) (Field, bool) {
	f, ok := fieldsByName()[name]
	return f, ok
}

var fieldsByName = sync.OnceValue(func() map[string]Field {
	m := map[string]Field{}
	for _, f := range Fields() {
		if _, dup := m[f.Name]; !dup {
			m[f.Name] = f
		}
	}
	return m
})

// EstimateSpec returns the workload/models declaration of a Tsafrir
// estimate parameter (max_estimate, est_bins): trace workloads accept the
// same values as the generators.
func EstimateSpec(name string) param.Spec {
	for _, s := range models.EstimateParams() {
		if s.Name == name {
			return s
		}
	}
	panic("runner: workload/models has no estimate parameter " + name)
}

func maxEstimateAccepted() string {
	s := EstimateSpec("max_estimate")
	return fmt.Sprintf("0 (automatic: the longest runtime rounded up to whole hours, at least 7200 s, grown until feasible) or an integer in [%.0f, %.0f] (Tsafrir Tmax, seconds)", s.Min, s.Max)
}

func checkMaxEstimate(v any) error {
	s, n := EstimateSpec("max_estimate"), v.(int64)
	if n == 0 || float64(n) >= s.Min && float64(n) <= s.Max {
		return nil
	}
	return fmt.Errorf("max_estimate %d out of range", n)
}

func checkEstBins(v any) error {
	if ps := models.CheckEstimateBins(v.(string), 0, 0); len(ps) > 0 {
		return fmt.Errorf("est_bins %s", strings.Join(ps, "; "))
	}
	return nil
}

func positiveInt(what string) func(any) error {
	return func(v any) error {
		if n := v.(int64); n <= 0 {
			return fmt.Errorf("%s must be > 0, got %d", what, n)
		}
		return nil
	}
}

func nonNegativeInt(what string) func(any) error {
	return func(v any) error {
		if n := v.(int64); n < 0 {
			return fmt.Errorf("%s must be >= 0, got %d", what, n)
		}
		return nil
	}
}

func positiveFloat(what string) func(any) error {
	return func(v any) error {
		if f := v.(float64); !(f > 0) {
			return fmt.Errorf("%s must be > 0, got %s", what, param.Format(f))
		}
		return nil
	}
}

func oneOf(what string, names ...string) func(any) error {
	return func(v any) error {
		if !slices.Contains(names, v.(string)) {
			return fmt.Errorf("unknown %s %q", what, v)
		}
		return nil
	}
}

func nonEmpty(what string) func(any) error {
	return func(v any) error {
		if v.(string) == "" {
			return fmt.Errorf("%s must not be empty", what)
		}
		return nil
	}
}

// ConfigOf turns the parameters of an SWF cell into a run's Config by the
// table of Fields (and the families' workload fields, handed over as
// Config.FamilyFields). Every parameter must be understood: an unknown
// one is an error rather than silently ignored. Relative trace paths
// resolve against c.Dir. A generator workload is built here (the
// catalog's models, seeded from c.Seed through PCG(c.Seed,
// family.GeneratorStream)) and handed over as Config.Source; without
// platform.procs the machine is the generator's procs.
func (r *Runner) ConfigOf(c Cell) (Config, error) {
	if pr, ok := r.platformOf(c); ok {
		return Config{}, fmt.Errorf("workload model brings its own platform (%s); its family runs the cell", pr.Output())
	}
	d := decoding{cfg: Config{Scheduler: c.Scheduler, SchedulerParams: map[string]any{}, Seed: c.Seed}, dir: c.Dir}
	fields := map[string]Field{}
	for _, f := range Fields() {
		fields[f.Name] = f
	}
	var unknown []string
	var model string
	gen := map[string]any{}
	for _, p := range c.Params {
		var kind param.Kind
		switch f, isField := fields[p.Name]; {
		case strings.HasPrefix(p.Name, schedulerPrefix):
			d.cfg.SchedulerParams[strings.TrimPrefix(p.Name, schedulerPrefix)] = p.Value
			continue
		case p.Name == modelParam:
			s, ok := p.Value.(string)
			if !ok {
				return d.cfg, kindError(p)
			}
			model = s
			continue
		case strings.HasPrefix(p.Name, generatorPrefix):
			gen[strings.TrimPrefix(p.Name, generatorPrefix)] = p.Value
			continue
		case isField:
			kind = f.Kind
			if k, ok := param.KindOf(p.Value); !ok || k != kind {
				return d.cfg, kindError(p)
			}
			f.set(&d, p.Value)
		default:
			fd, ok := r.cat.WorkloadField(p.Name)
			if !ok {
				unknown = append(unknown, p.Name)
				continue
			}
			if k, ok := param.KindOf(p.Value); !ok || k != fd.Kind {
				return d.cfg, kindError(p)
			}
			if d.cfg.FamilyFields == nil {
				d.cfg.FamilyFields = map[string]any{}
			}
			d.cfg.FamilyFields[p.Name] = p.Value
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return d.cfg, fmt.Errorf("unknown parameters %s", strings.Join(unknown, ", "))
	}
	if len(d.cfg.SchedulerParams) == 0 {
		d.cfg.SchedulerParams = nil
	}
	if err := d.traceEstimates(model); err != nil {
		return d.cfg, err
	}
	if model != "" {
		// The generator draws from a PCG stream of the cell seed; the
		// second word only separates it from other uses of the seed.
		newSource := func() (workload.Source, int, error) {
			rng := rand.New(rand.NewPCG(c.Seed, family.GeneratorStream))
			src, info, err := r.cat.Models().New(model, gen, rng)
			return src, info.Procs, err
		}
		var src workload.Source
		var procs int
		var err error
		if r.noCache {
			src, procs, err = newSource()
		} else {
			// Through the process's cache of generated workloads: the
			// same jobs, generated once for the cells that share them.
			var g generated
			key := genKey{r.cat.Models(), genKeyOf(model, gen, c.Seed)}
			g, err = generatedCache.Get(key, func() (generated, error) {
				s, p, err := newSource()
				if err != nil {
					return generated{}, err
				}
				jobs, err := workload.ReadAll(s)
				return generated{jobs, p}, err
			})
			src, procs = workload.NewSliceSource(g.jobs), g.procs
		}
		if err != nil {
			return d.cfg, fmt.Errorf("workload.generator: %w", err)
		}
		d.cfg.Source = src
		if d.cfg.Procs == 0 {
			d.cfg.Procs = procs
		}
	} else if len(gen) > 0 {
		return d.cfg, fmt.Errorf("generator parameters without workload.generator.model")
	}
	return d.cfg, nil
}

func kindError(p Param) error {
	return fmt.Errorf("param %s: value %s has kind %s", p.Name, param.Format(p.Value), p.Kind())
}

// traceEstimates settles the modelled user estimates of a trace cell
// (workload.user_estimates, max_estimate, est_bins), which the run draws
// from the cell seed on a stream of their own (EstimatesStream), so they
// perturb nothing else. A cell with user_estimates none (an axis point)
// ignores max_estimate and est_bins.
func (d *decoding) traceEstimates(model string) error {
	if d.userEst == "" || d.userEst == UserEstimatesNone {
		d.cfg.MaxEstimate = 0
		return nil
	}
	if model != "" {
		return fmt.Errorf("workload.user_estimates applies to trace workloads only; the generator draws its own estimates (workload.generator.estimates)")
	}
	bins, err := tsafrir05.ParseUserPercents(d.estBins)
	if err != nil {
		return fmt.Errorf("workload.est_bins %q: %s", d.estBins, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	d.cfg.UserEstimates, d.cfg.EstBins = d.userEst, bins
	return nil
}
