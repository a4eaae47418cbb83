package runner

import (
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/models"
)

// GeneratorStream is the second PCG word of a generated workload's random
// source: a cell draws its workload from PCG(cell seed, GeneratorStream),
// and anything else random (platform noise, failures, a genetic algorithm)
// from streams of its own, so changing a scheduler never changes the
// workload it sees.
const GeneratorStream = 0x6a09e667f3bcc909

// ModelCell is one cell whose workload model brings its own platform and
// job attributes (models.Cloud for seed 001, models.Grid for seed 002): the
// runner of that output builds the workload from Params, the platform from
// the workload, and simulates it under the named scheduler.
type ModelCell struct {
	// Model is the workload model (workload.generator.model).
	Model string
	// Params are the generator's parameters (workload.generator.*), not yet
	// decoded (models.Decode).
	Params map[string]any
	// Scheduler and SchedulerParams name the scheduler of the family and its
	// parameters (scheduler.*).
	Scheduler       string
	SchedulerParams map[string]any
	// Seed is the cell seed; the workload comes from PCG(Seed,
	// GeneratorStream).
	Seed uint64
	// KeepJobs asks for the simulated jobs in ModelResult.Jobs.
	KeepJobs bool
}

// ModelResult is the outcome of RunModel.
type ModelResult struct {
	// Metrics in the order of the output's metric names.
	Metrics []Metric
	// Jobs are the simulated jobs in submit order (only with KeepJobs).
	Jobs []*sim.Job
	// Gamma is the bounded-slowdown threshold of the per-job records
	// (0: sim.DefaultGamma).
	Gamma float64
}

// modelRunner simulates the cells of one models.Output.
type modelRunner struct {
	output models.Output
	// run simulates one cell.
	run func(ModelCell) (*ModelResult, error)
	// check validates scheduler and parameters without simulating; nil
	// means the scheduler is checked only when the cell runs.
	check func(scheduler string, params map[string]any) error
	// schedulers lists the family's scheduler names.
	schedulers func() []string
	// metrics lists every metric name run can report, in order.
	metrics func() []string
}

// modelRunners is the table of families with their own platform; each
// family adds its line.
func modelRunners() []modelRunner {
	return []modelRunner{
		{output: models.Cloud, run: runSeed001, check: checkSeed001, schedulers: seed001Schedulers, metrics: seed001MetricNames},
		{output: models.Grid, run: runSeed002, check: checkSeed002, schedulers: seed002Schedulers, metrics: seed002MetricNames},
	}
}

func findModelRunner(o models.Output) (modelRunner, bool) {
	for _, r := range modelRunners() {
		if r.output == o {
			return r, true
		}
	}
	return modelRunner{}, false
}

// OwnsPlatform reports whether the named workload model brings its own
// platform and is simulated by RunModel.
func OwnsPlatform(model string) bool {
	o, ok := models.OutputOf(model)
	if !ok {
		return false
	}
	_, ok = findModelRunner(o)
	return ok
}

// RunModel simulates a cell of a model that brings its own platform.
func RunModel(c ModelCell) (*ModelResult, error) {
	r, err := modelRunnerOf(c.Model)
	if err != nil {
		return nil, err
	}
	return r.run(c)
}

// ModelSchedulers lists the schedulers that can run the named model's
// workloads (nil when the model does not bring its own platform).
func ModelSchedulers(model string) []string {
	r, err := modelRunnerOf(model)
	if err != nil {
		return nil
	}
	return r.schedulers()
}

// CheckModelScheduler reports whether scheduler (with params) can run the
// named model's workloads, naming what would be accepted.
func CheckModelScheduler(model, scheduler string, params map[string]any) error {
	r, err := modelRunnerOf(model)
	if err != nil {
		return err
	}
	names := r.schedulers()
	known := false
	for _, n := range names {
		known = known || n == scheduler
	}
	if !known {
		return fmt.Errorf("scheduler %q does not run %s workloads (model %q); accepted: %s", scheduler, r.output, model, strings.Join(names, ", "))
	}
	if r.check != nil {
		return r.check(scheduler, params)
	}
	return nil
}

// ModelMetricNames lists every metric a cell of the named output can
// report, in order (nil for an output RunModel does not simulate).
func ModelMetricNames(output string) []string {
	for _, r := range modelRunners() {
		if r.output.String() == output {
			return r.metrics()
		}
	}
	return nil
}

func modelRunnerOf(model string) (modelRunner, error) {
	o, ok := models.OutputOf(model)
	if !ok {
		return modelRunner{}, fmt.Errorf("workload model %q unknown (known: %s)", model, strings.Join(models.Names(), ", "))
	}
	r, ok := findModelRunner(o)
	if !ok {
		return modelRunner{}, fmt.Errorf("workload model %q generates %s workloads, which RunModel does not simulate", model, o)
	}
	return r, nil
}
