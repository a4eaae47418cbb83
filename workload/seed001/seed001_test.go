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
		var tasks int
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
			for _, tk := range j.Tasks {
				if !in(tk.Instructions, p.Instructions) || (p.Variant == Simulation && (!in(tk.Memory, p.TaskMemory) || !in(tk.Bandwidth, p.TaskBW))) {
					t.Fatalf("%s: task %+v", p.Variant, tk)
				}
				instr += tk.Instructions
				tasks++
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
		if m, want := instr/float64(tasks), (p.Instructions.Lo+p.Instructions.Hi)/2; math.Abs(m-want) > 0.01*want {
			t.Errorf("%s: mean instructions %.3f, want %g", p.Variant, m, want)
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
