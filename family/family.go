package family

import (
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Family is one paper family: the unit of extension. A family lives in one
// folder under families/ and is listed with one line in families.Builtin.
// Everything the rest of schedfarm needs from it goes through this
// interface and the optional ones below (ModelOwner, PlatformRunner,
// SpecChecker, FieldsChecker, SuiteProvider, MetricNamer), which a family
// implements only when it has that capability.
type Family interface {
	// Name is the family's name, the name of its folder under families/.
	Name() string
	// Doc is one line: the papers, the platform, the schedulers.
	Doc() string
	// Schedulers are the family's entries in the scheduler registry: the
	// schedulers that run on the engine's shared platforms (processors,
	// VM tiers, typed pools). A family whose workload model brings its
	// own platform (PlatformRunner) may have none.
	Schedulers() []strategies.Entry
}

// ModelOwner is implemented by a family that brings workload generator
// models of its own (seed 001's cloud, seed 002's grid, seed 004's
// projects); the family catalog adds them to the shared SWF models of
// workload/models (fwload, jwload, lublin99).
type ModelOwner interface {
	Models() []models.Model
}

// PlatformRunner is implemented by a family whose workload model brings
// its own platform and job attributes (twotier's projects, cloud's VMs,
// stms's failing grid): its cells are simulated by Run instead of the SWF
// runner. The schedulers that run them are the family's own
// (Family.Schedulers), checked through the catalog's registry.
type PlatformRunner interface {
	// Output is the model output whose cells Run simulates, declared by
	// the family next to its model.
	Output() models.Output
	// MetricNames lists every metric Run can report, in order.
	MetricNames() []string
	// Run simulates one cell.
	Run(c Cell) (*Result, error)
}

// GeneratorStream is the second PCG word of a generated workload's random
// source: a cell draws its workload from PCG(cell seed, GeneratorStream),
// and anything else random (platform noise, failures, a genetic algorithm)
// from streams of its own, so changing a scheduler never changes the
// workload it sees.
const GeneratorStream = 0x6a09e667f3bcc909

// Cell is one cell of a PlatformRunner family.
type Cell struct {
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
	// KeepJobs asks for the simulated jobs in Result.Jobs.
	KeepJobs bool
}

// Result is the outcome of PlatformRunner.Run.
type Result struct {
	// Metrics in the order of MetricNames.
	Metrics []Metric
	// Jobs are the simulated jobs in submit order (only with KeepJobs).
	Jobs []*sim.Job
	// Gamma is the bounded-slowdown threshold of the per-job records
	// (0: sim.DefaultGamma).
	Gamma float64
}

// Metric is one named result value of a cell. Names are stable: they
// become the results' m_<name> columns.
type Metric struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// AppendDistMetrics appends the mean, median, p95 and max of the
// summary's wait, response, slowdown and bounded-slowdown distributions
// ("wait_mean", …, "bsld_max"), the per-job metrics every job-level
// family reports under the same names.
func AppendDistMetrics(ms []Metric, s sim.Summary) []Metric {
	for _, d := range []struct {
		name string
		d    sim.Dist
	}{{"wait", s.Wait}, {"response", s.Response}, {"slowdown", s.Slowdown}, {"bsld", s.BSLD}} {
		ms = append(ms,
			Metric{Name: d.name + "_mean", Value: d.d.Mean},
			Metric{Name: d.name + "_median", Value: d.d.Median},
			Metric{Name: d.name + "_p95", Value: d.d.P95},
			Metric{Name: d.name + "_max", Value: d.d.Max})
	}
	return ms
}

// MetricReporter is implemented by a scheduler that counts something of its
// own worth a result column (seed 003's CMBF: its suspensions). After an
// SWF run the runner appends ExtraMetrics to its own metrics
// (runner.Result.Metrics), so they reach the cell's result and its Parquet
// row as metric_<name> columns. Names must not repeat the runner's. A
// scheduler without it adds nothing: in a results file holding cells of
// both kinds, the extra columns are null for the cells of the others.
type MetricReporter interface {
	// ExtraMetrics returns the scheduler's metrics at the end of a run, in
	// a fixed order, every name every time (a count of zero is reported).
	ExtraMetrics() []Metric
}

// MetricNamer is implemented by a family whose schedulers report metrics
// of their own (MetricReporter): it names them, so that spec validation
// accepts them in a spec's metrics list.
type MetricNamer interface {
	ExtraMetricNames() []string
}
