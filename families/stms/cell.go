package stms

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/internal/memo"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed002"
)

// Seed 002's random streams besides the workload's (family.GeneratorStream):
// resource failures (per job, so every scheme of a grid point meets the
// same failure draws: a paired comparison), the mGA, and the
// runtime-estimate errors (one uniform per job whatever pet_error is, so a
// pet_error axis scales the same draws).
const (
	Seed002FailureStream  = 0x510e527fade682d1
	Seed002GAStream       = 0x9b05688c2b3e6c1f
	Seed002EstimateStream = 0x1f83d9abfb41bd6b
)

// Seed002World decodes a seed002 model's parameters and draws its
// resources and jobs from PCG(seed, GeneratorStream). It returns the STMS
// family's world (failures from PCG(…, Seed002FailureStream), mGA from
// PCG(seed, Seed002GAStream)), the platform (one unit per resource) and
// the sim jobs (ID i+1 for the i-th job, work = its actual size in flops,
// estimate = the size the scheduler is told, at the mean availability).
// With pet_error e the scheduler is told actual·(1+ε), ε = e·(2u − 1) with
// u from PCG(seed, Seed002EstimateStream), one per job.
func Seed002World(params map[string]any, seed uint64) (*World, sim.Platform, []*sim.Job, error) {
	v, err := WorkloadModel().Decode(params)
	if err != nil {
		return nil, sim.Platform{}, nil, err
	}
	if err := WorkloadModel().CheckParams(params); err != nil {
		return nil, sim.Platform{}, nil, err
	}
	p := Seed002Params(v)
	g, err := seed002.New(p, rand.New(rand.NewPCG(seed, family.GeneratorStream)))
	if err != nil {
		return nil, sim.Platform{}, nil, fmt.Errorf("workload.generator: %w", err)
	}
	w := &World{Base: DefaultConfig(STMS), GASeed: [2]uint64{seed, Seed002GAStream}}
	b := &w.Base
	b.Alpha, b.Interval, b.Batch = v.Float("alpha"), v.Float("interval"), v.Int("batch")
	b.TraceInterval, b.TraceOverhead = v.Float("trace_interval"), v.Float("trace_overhead")
	b.MigrationCost, b.TransferFactor = v.Float("migration_cost"), v.Float("transfer_factor")
	b.Dispatch, _ = DispatchOf(v.Str("dispatch"))
	b.FailureSeed = [2]uint64{seed, Seed002FailureStream}
	for _, r := range g.Resources() {
		w.Resources = append(w.Resources, Resource{Speed: r.Availability, Bandwidth: r.Bandwidth, Lambda: r.FailureCoeff, RAL: r.AvailabilityLevel})
	}
	petErr := v.Float("pet_error")
	est := rand.New(rand.NewPCG(seed, Seed002EstimateStream))
	meanSpeed := (p.Availability.Lo + p.Availability.Hi) / 2
	jobs := make([]*sim.Job, 0, p.Jobs)
	demand := []int{1}
	for {
		j, err := g.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, sim.Platform{}, nil, err
		}
		told := j.Size * (1 + petErr*(2*est.Float64()-1))
		w.Jobs = append(w.Jobs, Job{Size: told, Data: j.DataSize, SDV: j.ServiceDemand, Deadline: j.Deadline})
		jobs = append(jobs, sim.NewJob(int64(len(jobs)+1), j.Submit, demand, told*1e6/meanSpeed, j.Size*1e6, 0))
	}
	return w, Platform(len(w.Resources)), jobs, nil
}

// runCell simulates one seed002 cell under an STMS scheme. A scheme
// other than STMS also needs STMS's utilisation and cost on the same
// workload and failures for eq. 12 (cost_effectiveness): the runner
// simulates that baseline too (with the cell's mGA settings). The STMS run
// of a grid point is kept (stmsRuns, the last few): it is the STMS cell's
// result and the other schemes' baseline, so the schemes of one point that
// run in one process simulate STMS once, whichever cell asks first, and a
// cell that asks while another simulates it waits for that run. The STMS
// cell asks before anything else, so that a scheme's cell running beside
// it on another worker finds the run under way when, after its own
// simulation, it needs the baseline. (An STMS cell with a parameter STMS
// does not take is simulated as it stands, so that the registry refuses
// it as before.) Likewise an IR-STMS run that is also the run of the
// other irs_fill reading (Scheduler.IRSFillReadingsAgree) is kept
// (irsRuns) and is that reading's cell's result when it comes later.
func runCell(c family.Cell) (*family.Result, error) {
	res := &family.Result{}
	if c.Scheduler == STMS.String() && !c.KeepJobs && len(sharedParams(c.SchedulerParams)) == len(c.SchedulerParams) {
		ms, err := stmsRun(c.Params, c.Seed, c.SchedulerParams)
		if err != nil {
			return nil, err
		}
		res.Metrics = toFamily(ms)
		return res, nil
	}
	fill, shareable := irsFillReading(c)
	if shareable {
		if ms, ok := irsRuns.take(irsRunKey(c.Params, c.Seed, c.SchedulerParams), fill); ok {
			res.Metrics = toFamily(ms)
			return res, nil
		}
	}
	s, out, err := simulateSeed002(c.Params, c.Seed, c.Scheduler, c.SchedulerParams)
	if err != nil {
		return nil, err
	}
	var base *Baseline
	if c.Scheduler != STMS.String() {
		b, err := seed002Baseline(c.Params, c.Seed, c.SchedulerParams)
		if err != nil {
			return nil, fmt.Errorf("STMS baseline for eq. 12: %w", err)
		}
		base = &b
	}
	ms := s.Metrics(out, base)
	if shareable {
		irsRuns.keep(irsRunKey(c.Params, c.Seed, c.SchedulerParams), irsRun{fill: fill, agree: s.IRSFillReadingsAgree(), metrics: ms})
	}
	res.Metrics = toFamily(ms)
	if c.KeepJobs {
		res.Jobs = out
	}
	return res, nil
}

// toFamily returns the metrics as the family's results carry them.
func toFamily(ms []Metric) []family.Metric {
	out := make([]family.Metric, 0, len(ms))
	for _, m := range ms {
		out = append(out, family.Metric{Name: m.Name, Value: m.Value})
	}
	return out
}

func simulateSeed002(params map[string]any, seed uint64, scheduler string, sp map[string]any) (*Scheduler, []*sim.Job, error) {
	w, plat, jobs, err := Seed002World(params, seed)
	if err != nil {
		return nil, nil, err
	}
	s, err := Registry().NewOn(scheduler, plat, w, sp)
	if err != nil {
		return nil, nil, err
	}
	switch scheduler {
	case STMS.String():
		stmsSimulations.Add(1)
	case IRSTMS.String():
		irsSimulations.Add(1)
	}
	out, _, err := sim.Run(plat, s, sim.NewSliceStream(jobs), nil)
	if err != nil {
		return nil, nil, err
	}
	return s.(*Scheduler), out, nil
}

// irsSimulations counts the IR-STMS runs this process simulated (its
// tests read it).
var irsSimulations atomic.Int64

// stmsSimulations counts the STMS runs this process simulated (its tests
// read it: one per grid point while kept).
var stmsSimulations atomic.Int64

// stmsRun returns the metrics of STMS on the cell (workload params, seed)
// with the mGA settings of sp (those STMS shares with every scheme: STMS
// has no others, TestSTMSTakesOnlySharedParams), simulated once per
// process while kept.
func stmsRun(params map[string]any, seed uint64, sp map[string]any) ([]Metric, error) {
	shared := sharedParams(sp)
	return stmsRuns.Get(baselineKey(params, seed, shared), func() ([]Metric, error) {
		s, out, err := simulateSeed002(params, seed, STMS.String(), shared)
		if err != nil {
			return nil, err
		}
		return s.Metrics(out, nil), nil
	})
}

// seed002Baseline returns STMS's utilisation and cost overhead for the
// cell (workload params, seed) with the mGA settings of sp.
func seed002Baseline(params map[string]any, seed uint64, sp map[string]any) (Baseline, error) {
	ms, err := stmsRun(params, seed, sp)
	if err != nil {
		return Baseline{}, err
	}
	return baselineOf(ms), nil
}

// sharedParams keeps the scheduler parameters STMS shares with every
// scheme.
func sharedParams(sp map[string]any) map[string]any {
	shared := map[string]any{}
	for _, n := range SharedParams() {
		if v, ok := sp[n]; ok {
			shared[n] = v
		}
	}
	return shared
}

func baselineKey(params map[string]any, seed uint64, sp map[string]any) string {
	return fmt.Sprintf("%d|%s|%s", seed, canonParams(params), canonParams(sharedParams(sp)))
}

// baselineOf picks eq. 12's values out of an STMS run's metrics.
func baselineOf(ms []Metric) Baseline {
	var b Baseline
	for _, m := range ms {
		switch m.Name {
		case "utilization":
			b.Utilization = m.Value
		case "cost_overhead":
			b.CostOverhead = m.Value
		}
	}
	return b
}

func canonParams(m map[string]any) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%s=%v;", k, m[k])
	}
	return b.String()
}

// stmsRuns keeps the metrics of the last stmsRunCacheSize STMS runs a
// process simulated (least recently used dropped first): each is a grid
// point's STMS cell and its other schemes' eq. 12 baseline. A run is
// simulated once even when several goroutines ask for it at the same
// time, and an error is not kept (the next cell that needs it tries again).
var stmsRuns = newSTMSRuns()

const stmsRunCacheSize = 32

func newSTMSRuns() *memo.Cache[string, []Metric] {
	return memo.New[string](stmsRunCacheSize, func([]Metric) int64 { return 1 })
}

// irsFillReading returns the irs_fill reading of an IR-STMS cell and
// whether its result may come from, or be kept for, the cell of the other
// reading (irsRuns): not for a cell that keeps its jobs (the kept runs
// hold metrics only), nor for one whose irs_fill is not a reading's name
// (simulated as it stands, so that the registry refuses it as before).
// The other parameters need no check: a kept run's key holds them all, and
// the run that was kept under them was accepted by the registry.
func irsFillReading(c family.Cell) (IRSFill, bool) {
	if c.Scheduler != IRSTMS.String() || c.KeepJobs {
		return 0, false
	}
	v, given := c.SchedulerParams["irs_fill"]
	if !given {
		return FillVoids, true
	}
	name, ok := v.(string)
	if !ok {
		return 0, false
	}
	return IRSFillOf(name)
}

// irsRunKey names an IR-STMS cell without its irs_fill reading: the cells
// of the two readings of one grid point and replication share it.
func irsRunKey(params map[string]any, seed uint64, sp map[string]any) string {
	rest := maps.Clone(sp)
	delete(rest, "irs_fill")
	return fmt.Sprintf("%d|%s|%s", seed, canonParams(params), canonParams(rest))
}

// irsRun is a kept IR-STMS run: its reading, whether it is also the other
// reading's run (Scheduler.IRSFillReadingsAgree), and its metrics (eq. 12
// included: both readings compare with the same STMS run).
type irsRun struct {
	fill    IRSFill
	agree   bool
	metrics []Metric
}

// keptIRSRuns keeps the last irsRunCacheSize IR-STMS runs a process
// simulated, one a key (the latest), oldest dropped first. It never waits
// for a run under way: a cell that finds nothing it may use simulates its
// own reading, so no cell simulates more than before, and a grid point's
// cells of the two readings simulate once when the second comes after the
// first ended (seed 002's grids list the readings apart in each bundle).
type keptIRSRuns struct {
	mu    sync.Mutex
	runs  map[string]irsRun
	order []string // keys, oldest first
}

const irsRunCacheSize = 32

var irsRuns = newKeptIRSRuns()

func newKeptIRSRuns() *keptIRSRuns { return &keptIRSRuns{runs: map[string]irsRun{}} }

// take returns the metrics kept under key that are the result of reading
// fill's cell: a run of that reading, or of the other one where the two
// agree.
func (k *keptIRSRuns) take(key string, fill IRSFill) ([]Metric, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	r, ok := k.runs[key]
	if !ok || (r.fill != fill && !r.agree) {
		return nil, false
	}
	return r.metrics, true
}

// keep keeps run under key, in place of any run kept there.
func (k *keptIRSRuns) keep(key string, run irsRun) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.runs[key]; !ok {
		if len(k.order) == irsRunCacheSize {
			delete(k.runs, k.order[0])
			k.order = slices.Delete(k.order, 0, 1)
		}
		k.order = append(k.order, key)
	}
	k.runs[key] = run
}
