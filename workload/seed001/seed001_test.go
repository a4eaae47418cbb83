package seed001

import (
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func in(v float64, iv Interval) bool { return v >= iv.Lo && v <= iv.Hi }

// Table 1 and §4.2–4.3 ranges, Poisson rate within 2% over 100k jobs.
func TestTable1(t *testing.T) {
	for _, p := range []Params{Default(), DefaultMethodological()} {
		p.Jobs = 100000
		g, err := New(p, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if len(g.VMs()) != 120 {
			t.Fatalf("%d VMs", len(g.VMs()))
		}
		speeds := map[float64]int{}
		for _, vm := range g.VMs() {
			ok := in(vm.Bandwidth, p.VMBandwidth)
			if p.Variant == Simulation {
				ok = ok && in(vm.Memory, p.VMMemory) && in(vm.Speed, p.VMSpeed)
			} else {
				speeds[vm.Speed]++
				ok = ok && vm.Memory == -1 && (vm.Speed == 24 || vm.Speed == 48)
			}
			if !ok {
				t.Fatalf("%s: VM %+v out of range", p.Variant, vm)
			}
		}
		var last, par, instr float64
		for {
			j, err := g.Next()
			if err == io.EOF {
				break
			}
			if j.Parallelism < 1 || j.Parallelism > 8 || len(j.Tasks) != j.Parallelism || j.Deadline < 1 || j.Deadline > 6 || j.Deadline != math.Trunc(j.Deadline) {
				t.Fatalf("%s: job %+v", p.Variant, j)
			}
			if p.Variant == Methodological && !in(j.InputSize, Interval{1, 20}) {
				t.Fatalf("input size %g", j.InputSize)
			}
			if !in(j.Instructions, p.Instructions) {
				t.Fatalf("%s: job %+v", p.Variant, j)
			}
			instr += j.Instructions
			for _, tk := range j.Tasks {
				if !in(tk.Instructions*float64(len(j.Tasks)), p.Instructions) && !in(tk.Instructions, p.Instructions) ||
					(p.Variant == Simulation && (!in(tk.Memory, p.TaskMemory) || !in(tk.Bandwidth, p.TaskBW))) {
					t.Fatalf("%s: task %+v", p.Variant, tk)
				}
			}
			last = j.Submit
			par += float64(j.Parallelism)
		}
		n := float64(p.Jobs)
		if r := n / last; math.Abs(r-p.ArrivalRate) > 0.02*p.ArrivalRate {
			t.Errorf("%s: rate %.3f, want %g", p.Variant, r, p.ArrivalRate)
		}
		if m := par / n; math.Abs(m-4.5) > 0.05 {
			t.Errorf("%s: mean parallelism %.3f, want 4.5", p.Variant, m)
		}
		if m, want := instr/n, (p.Instructions.Lo+p.Instructions.Hi)/2; math.Abs(m-want) > 0.01*want {
			t.Errorf("%s: mean instruction number of a job %.3f, want %g", p.Variant, m, want)
		}
	}
}

func TestIntegerAndValidate(t *testing.T) {
	p := Default()
	p.Integer = true
	p.Jobs = 100
	g, _ := New(p, rand.New(rand.NewPCG(3, 3)))
	for _, vm := range g.VMs() {
		if vm.Memory != math.Trunc(vm.Memory) || vm.Speed != math.Trunc(vm.Speed) {
			t.Fatalf("non-integer VM %+v", vm)
		}
	}
	bad := Default()
	bad.Variant, bad.Jobs = "x", 0
	err := bad.Validate()
	for _, f := range []string{"Variant", "Jobs"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("%v does not name %s", err, f)
		}
	}
}

// §3.1: "the task that belongs to the same job has the same requirement".
// Every task of a job has the same memory, bandwidth and instructions; what
// the job executes in all (Σ over its tasks) is, on average over 100,000
// jobs (parallelism p uniform on 1…8, E[p] = 4.5; instruction number I
// uniform on its range):
//
//	simulation, copied (default):      E[p·I] = 4.5 · (5+45)/2   = 112.5
//	methodological, split (default):   E[I]   = (24+240)/2       = 132
//	methodological, copied:            E[p·I] = 4.5 · 132         = 594
//
// The methodological offered load is then 40 jobs/day · 132 / (120 nodes ·
// mean speed 36) = 1.22 (split) or 5.5 (copied). Before issue 21 every task
// was drawn on its own: the tasks of a job differed.
func TestTasksOfAJobHaveTheSameRequirement(t *testing.T) {
	meth := DefaultMethodological()
	copied := DefaultMethodological()
	copied.Tasks = TasksCopied
	for _, c := range []struct {
		p    Params
		work float64
	}{{Default(), 112.5}, {meth, 132}, {copied, 594}} {
		c.p.Jobs = 100000
		g, err := New(c.p, rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatal(err)
		}
		work := 0.0
		for {
			j, err := g.Next()
			if err == io.EOF {
				break
			}
			for _, tk := range j.Tasks {
				if tk != j.Tasks[0] {
					t.Fatalf("%s: job %d has tasks %+v and %+v", c.p.Variant, j.ID, j.Tasks[0], tk)
				}
				work += tk.Instructions
			}
		}
		if m := work / float64(c.p.Jobs); math.Abs(m-c.work) > 0.015*c.work {
			t.Errorf("%s %s: a job executes %.2f instructions on average; want %g", c.p.Variant, c.p.Tasks, m, c.work)
		}
	}
}

// The three readings on one job: with the same random stream, copied and
// split draw the same job (parallelism, deadline, instruction number I);
// copied gives every task I, split I/p; the job's Instructions is I in
// both. The independent reading draws the tasks one by one (the
// generator before issue 21) and Instructions is their sum.
func TestTasksReadingsOnOneJob(t *testing.T) {
	first := func(tasks string) Job {
		p := Default()
		p.Tasks, p.Jobs = tasks, 1
		g, err := New(p, rand.New(rand.NewPCG(9, 9)))
		if err != nil {
			t.Fatal(err)
		}
		j, _ := g.Next()
		return j
	}
	c, s, ind := first(TasksCopied), first(TasksSplit), first(TasksIndependent)
	if c.Parallelism < 2 || c.Parallelism != s.Parallelism || c.Instructions != s.Instructions || c.Deadline != s.Deadline {
		t.Fatalf("copied %+v and split %+v differ (or p < 2: pick another seed)", c, s)
	}
	p := float64(c.Parallelism)
	for i := range c.Tasks {
		if c.Tasks[i].Instructions != c.Instructions || math.Abs(s.Tasks[i].Instructions-c.Instructions/p) > 1e-12 ||
			s.Tasks[i].Memory != c.Tasks[i].Memory || s.Tasks[i].Bandwidth != c.Tasks[i].Bandwidth {
			t.Errorf("task %d: copied %+v, split %+v; job instruction number %g, p %g", i, c.Tasks[i], s.Tasks[i], c.Instructions, p)
		}
	}
	sum := 0.0
	for _, tk := range ind.Tasks {
		sum += tk.Instructions
	}
	if ind.Tasks[0] == ind.Tasks[1] || ind.Instructions != sum {
		t.Errorf("independent %+v: tasks equal or Instructions not their sum %g", ind, sum)
	}
	bad := Default()
	bad.Tasks = "shared"
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "Tasks") || !strings.Contains(err.Error(), "copied, split, independent") {
		t.Errorf("Tasks %q: %v", bad.Tasks, err)
	}
}
