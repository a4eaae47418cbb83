package runner

import (
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/family"
)

// GeneratorStream is the second PCG word of a generated workload's random
// source (family.GeneratorStream).
const GeneratorStream = family.GeneratorStream

// ModelCell is one cell whose workload model brings its own platform and
// job attributes (models.Cloud for seed 001, models.Grid for seed 002): the
// family that owns the model's output (family.PlatformRunner) builds the
// workload and the platform from Params and simulates them under the named
// scheduler.
type ModelCell = family.Cell

// ModelResult is the outcome of RunModel.
type ModelResult = family.Result

// OwnsPlatform reports whether the named workload model brings its own
// platform and is simulated by RunModel.
func OwnsPlatform(model string) bool {
	o, ok := families.Models().OutputOf(model)
	if !ok {
		return false
	}
	_, ok = families.PlatformRunner(o.String())
	return ok
}

// RunModel simulates a cell of a model that brings its own platform, with
// the family that owns the model's output.
func RunModel(c ModelCell) (*ModelResult, error) {
	r, err := modelRunnerOf(c.Model)
	if err != nil {
		return nil, err
	}
	return r.Run(c)
}

// ModelSchedulers lists the schedulers that can run the named model's
// workloads (nil when the model does not bring its own platform).
func ModelSchedulers(model string) []string {
	r, err := modelRunnerOf(model)
	if err != nil {
		return nil
	}
	return r.SchedulerNames()
}

// CheckModelScheduler reports whether scheduler (with params) can run the
// named model's workloads, naming what would be accepted.
func CheckModelScheduler(model, scheduler string, params map[string]any) error {
	r, err := modelRunnerOf(model)
	if err != nil {
		return err
	}
	names := r.SchedulerNames()
	known := false
	for _, n := range names {
		known = known || n == scheduler
	}
	if !known {
		return fmt.Errorf("scheduler %q does not run %s workloads (model %q); accepted: %s", scheduler, r.Output(), model, strings.Join(names, ", "))
	}
	return r.CheckScheduler(scheduler, params)
}

// ModelMetricNames lists every metric a cell of the named output can
// report, in order (nil for an output RunModel does not simulate).
func ModelMetricNames(output string) []string {
	if r, ok := families.PlatformRunner(output); ok {
		return r.MetricNames()
	}
	return nil
}

func modelRunnerOf(model string) (family.PlatformRunner, error) {
	o, ok := families.Models().OutputOf(model)
	if !ok {
		return nil, fmt.Errorf("workload model %q unknown (known: %s)", model, strings.Join(families.Models().Names(), ", "))
	}
	r, ok := families.PlatformRunner(o.String())
	if !ok {
		return nil, fmt.Errorf("workload model %q generates %s workloads, which RunModel does not simulate", model, o)
	}
	return r, nil
}
