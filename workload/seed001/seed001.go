package seed001

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/workload/internal/dist"
)

// Variants.
const (
	Simulation     = "simulation"
	Methodological = "methodological"
)

// How the tasks of one job get their demands (Params.Tasks). §3.1: "we
// suppose the task that belongs to the same job has the same requirement";
// §4.3(4) draws "the instruction number … of the job".
const (
	// TasksCopied draws memory, bandwidth and instructions once per job
	// and gives every task the same: each task executes the job's
	// instruction number (§3.1; §4.2 "the number of instructions of every
	// task has a range of [5, 45]").
	TasksCopied = "copied"
	// TasksSplit draws memory and bandwidth once per job (copied to every
	// task) and the job's instruction number once, split evenly over its
	// tasks: the job executes its instruction number in all (§4.3(4)).
	TasksSplit = "split"
	// TasksIndependent draws every task's demands on its own: the
	// generator before issue 21. §3.1 rules it out (tasks of a job have
	// the same requirement); kept only to reproduce earlier results.
	TasksIndependent = "independent"
)

// TasksReadings lists the accepted values of Params.Tasks.
func TasksReadings() []string { return []string{TasksCopied, TasksSplit, TasksIndependent} }

// Interval is a closed range [Lo, Hi].
type Interval struct{ Lo, Hi float64 }

// Params configure a Generator. Start from Default or DefaultMethodological.
type Params struct {
	Variant     string
	Jobs        int     // number of jobs (≥ 1)
	ArrivalRate float64 // mean jobs per time unit (Poisson)
	VMs         int     // number of VMs / nodes
	// VM attributes (methodological: Speeds replaces VMSpeed).
	VMMemory    Interval
	VMSpeed     Interval
	VMBandwidth Interval
	Speeds      []float64 // methodological: speeds chosen with equal probability
	// Job attributes.
	Parallelism  [2]int // inclusive integer range
	TaskMemory   Interval
	TaskBW       Interval
	Instructions Interval
	Deadline     [2]int   // inclusive integer range, time units after arrival
	InputSize    Interval // methodological: input file size, G
	// Tasks is how a job's tasks get their demands: TasksCopied,
	// TasksSplit or TasksIndependent.
	Tasks string
	// Integer draws memory, speed, bandwidth and instructions as integers
	// uniform on the (inclusive) ranges.
	Integer bool
}

// Default returns the §4.2 simulation parameters (Table 1), 10 jobs per
// time unit, 10,000 jobs.
func Default() Params {
	return Params{
		Variant: Simulation, Jobs: 10000, ArrivalRate: 10, VMs: 120,
		VMMemory: Interval{1, 5}, VMSpeed: Interval{1, 6}, VMBandwidth: Interval{1, 20},
		Parallelism: [2]int{1, 8}, TaskMemory: Interval{1, 5}, TaskBW: Interval{1, 20},
		Instructions: Interval{5, 45}, Deadline: [2]int{1, 6}, Tasks: TasksCopied,
	}
}

// DefaultMethodological returns the §4.3 methodological cloud parameters.
func DefaultMethodological() Params {
	return Params{
		Variant: Methodological, Jobs: 10000, ArrivalRate: 40, VMs: 120,
		VMBandwidth: Interval{1, 10}, Speeds: []float64{24, 48},
		Parallelism: [2]int{1, 8}, Instructions: Interval{24, 240}, Deadline: [2]int{1, 6},
		InputSize: Interval{1, 20}, Tasks: TasksSplit,
	}
}

// Validate reports every invalid field.
func (p Params) Validate() error {
	var errs []error
	bad := func(f string, v any, want string) {
		errs = append(errs, fmt.Errorf("seed001: %s = %v, want %s", f, v, want))
	}
	iv := func(f string, v Interval, minLo float64) {
		if !(v.Lo >= minLo && v.Hi >= v.Lo) || math.IsInf(v.Hi, 0) {
			bad(f, v, fmt.Sprintf("%g ≤ Lo ≤ Hi < ∞", minLo))
		}
	}
	if p.Variant != Simulation && p.Variant != Methodological {
		bad("Variant", p.Variant, Simulation+" or "+Methodological)
	}
	if !slices.Contains(TasksReadings(), p.Tasks) {
		bad("Tasks", fmt.Sprintf("%q", p.Tasks), strings.Join(TasksReadings(), ", "))
	}
	if p.Jobs < 1 {
		bad("Jobs", p.Jobs, "≥ 1")
	}
	if !(p.ArrivalRate > 0) || math.IsInf(p.ArrivalRate, 0) {
		bad("ArrivalRate", p.ArrivalRate, "a finite value > 0 jobs per time unit")
	}
	if p.VMs < 1 {
		bad("VMs", p.VMs, "≥ 1")
	}
	if p.Variant == Methodological {
		if len(p.Speeds) == 0 {
			bad("Speeds", p.Speeds, "at least one speed")
		}
		for _, s := range p.Speeds {
			if !(s > 0) {
				bad("Speeds", p.Speeds, "speeds > 0")
				break
			}
		}
		iv("InputSize", p.InputSize, 0)
	} else {
		iv("VMMemory", p.VMMemory, 0)
		iv("VMSpeed", p.VMSpeed, 1e-9)
		iv("TaskMemory", p.TaskMemory, 0)
		iv("TaskBW", p.TaskBW, 0)
	}
	iv("VMBandwidth", p.VMBandwidth, 1e-9)
	iv("Instructions", p.Instructions, 1e-9)
	if p.Parallelism[0] < 1 || p.Parallelism[1] < p.Parallelism[0] || (p.VMs >= 1 && p.Parallelism[1] > p.VMs) {
		bad("Parallelism", p.Parallelism, fmt.Sprintf("1 ≤ min ≤ max ≤ VMs (%d)", p.VMs))
	}
	if p.Deadline[0] < 0 || p.Deadline[1] < p.Deadline[0] {
		bad("Deadline", p.Deadline, "0 ≤ min ≤ max")
	}
	return errors.Join(errs...)
}

// VM is one virtual machine (or node). Memory −1 means unconstrained.
type VM struct {
	ID        int     `json:"id"`
	Memory    float64 `json:"memory"`
	Speed     float64 `json:"speed"`
	Bandwidth float64 `json:"bandwidth"`
}

// Task is one task of a parallel job.
type Task struct {
	Memory       float64 `json:"memory"`
	Bandwidth    float64 `json:"bandwidth"`
	Instructions float64 `json:"instructions"`
}

// Job is a parallel job: Parallelism tasks that must all run, each on its own
// VM, finishing by Submit + Deadline.
type Job struct {
	ID          int     `json:"id"`
	Submit      float64 `json:"submit"`
	Parallelism int     `json:"parallelism"`
	Deadline    float64 `json:"deadline"` // relative, time units after Submit
	InputSize   float64 `json:"input_size,omitempty"`
	// Instructions is the job's instruction number (§4.3(4)), what SIN
	// counts once per finished job: the number every task executes
	// (TasksCopied), the total its tasks share (TasksSplit), or the sum of
	// its tasks' (TasksIndependent).
	Instructions float64 `json:"instructions"`
	Tasks        []Task  `json:"tasks"`
}

// Generator draws the VMs at creation, then streams jobs.
type Generator struct {
	p   Params
	rng *rand.Rand
	vms []VM
	t   float64
	n   int
}

// New validates p, draws the VMs and returns the generator.
func New(p Params, rng *rand.Rand) (*Generator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, errors.New("seed001: nil *rand.Rand")
	}
	g := &Generator{p: p, rng: rng}
	for i := 0; i < p.VMs; i++ {
		vm := VM{ID: i + 1, Bandwidth: g.draw(p.VMBandwidth)}
		if p.Variant == Methodological {
			vm.Memory = -1
			vm.Speed = p.Speeds[rng.IntN(len(p.Speeds))]
		} else {
			vm.Memory = g.draw(p.VMMemory)
			vm.Speed = g.draw(p.VMSpeed)
		}
		g.vms = append(g.vms, vm)
	}
	return g, nil
}

func (g *Generator) draw(iv Interval) float64 {
	if g.p.Integer {
		lo, hi := math.Ceil(iv.Lo), math.Floor(iv.Hi)
		if hi < lo {
			return iv.Lo
		}
		return lo + float64(g.rng.IntN(int(hi-lo)+1))
	}
	return dist.Uniform(g.rng, iv.Lo, iv.Hi)
}

func (g *Generator) intIn(r [2]int) int { return r[0] + g.rng.IntN(r[1]-r[0]+1) }

// VMs returns the VM pool.
func (g *Generator) VMs() []VM { return append([]VM(nil), g.vms...) }

// Next returns the next job, or io.EOF after Params.Jobs.
func (g *Generator) Next() (Job, error) {
	if g.n >= g.p.Jobs {
		return Job{}, io.EOF
	}
	g.n++
	g.t += dist.Exp(g.rng, 1/g.p.ArrivalRate)
	j := Job{ID: g.n, Submit: g.t, Parallelism: g.intIn(g.p.Parallelism)}
	j.Deadline = float64(g.intIn(g.p.Deadline))
	if g.p.Variant == Methodological {
		j.InputSize = g.draw(g.p.InputSize)
	}
	j.Tasks = make([]Task, j.Parallelism)
	if g.p.Tasks == TasksIndependent {
		for i := range j.Tasks {
			j.Tasks[i] = g.task()
			j.Instructions += j.Tasks[i].Instructions
		}
		return j, nil
	}
	// One requirement for the whole job (§3.1).
	t := g.task()
	j.Instructions = t.Instructions
	if g.p.Tasks == TasksSplit {
		t.Instructions /= float64(j.Parallelism)
	}
	for i := range j.Tasks {
		j.Tasks[i] = t
	}
	return j, nil
}

// task draws one task's demands: memory and bandwidth (simulation only)
// and instructions, in that order.
func (g *Generator) task() Task {
	var t Task
	if g.p.Variant == Simulation {
		t.Memory = g.draw(g.p.TaskMemory)
		t.Bandwidth = g.draw(g.p.TaskBW)
	}
	t.Instructions = g.draw(g.p.Instructions)
	return t
}
