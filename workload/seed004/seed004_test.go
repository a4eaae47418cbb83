package seed004

import (
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// Table 6 of seed 004, checked over 100k projects (≈ 480k jobs). Tolerances:
// 2% on means (sampling sd ≤ 0.5%), exact ranges.
func TestTable6(t *testing.T) {
	p := Default()
	p.Projects = 100000
	g, err := New(p, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Capacities() {
		if c < 20 || c > 40 {
			t.Errorf("capacity %d outside [20, 40]", c)
		}
	}
	var jobs, last, svc, req float64
	caps := g.Capacities()
	for {
		pr, err := g.Next()
		if err == io.EOF {
			break
		}
		if len(pr.Jobs) < 1 {
			t.Fatal("project without jobs")
		}
		last = pr.Arrival
		jobs += float64(len(pr.Jobs))
		for _, j := range pr.Jobs {
			svc += j.Service
			for i, q := range j.Req {
				if q < 0 || q > caps[i] {
					t.Fatalf("requirement %d outside [0, %d]", q, caps[i])
				}
				req += float64(q)
			}
		}
	}
	// E[max(1, ⌊X⌋)], X ~ Normal(5, 2): ⌊·⌋ of the integer part.
	phi := func(x float64) float64 { return 0.5 * (1 + math.Erf((x-5)/(2*math.Sqrt2))) }
	wantJobs := phi(2)
	for k := 2; k < 30; k++ {
		wantJobs += float64(k) * (phi(float64(k+1)) - phi(float64(k)))
	}
	wantReq := math.Exp(-0.5) / (1 - math.Exp(-0.5)) // E⌊Exp(mean 2)⌋
	n := float64(p.Projects)
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"mean interarrival", last / n, 40},
		{"jobs per project", jobs / n, wantJobs},
		{"service time", svc / jobs, 500},
		{"requirement per type", req / (jobs * 5), wantReq},
	} {
		if math.Abs(c.got-c.want) > 0.02*c.want {
			t.Errorf("%s %.4f, want %.4f ± 2%%", c.what, c.got, c.want)
		} else {
			t.Logf("%s %.4f (analytic %.4f)", c.what, c.got, c.want)
		}
	}
}

func TestDeterministicAndValidate(t *testing.T) {
	p := Default()
	p.Projects = 50
	a, _ := New(p, rand.New(rand.NewPCG(7, 7)))
	b, _ := New(p, rand.New(rand.NewPCG(7, 7)))
	for {
		x, e1 := a.Next()
		y, e2 := b.Next()
		if !reflect.DeepEqual(x, y) || (e1 == nil) != (e2 == nil) {
			t.Fatal("same seed, different projects")
		}
		if e1 != nil {
			break
		}
	}
	bad := Default()
	bad.Projects, bad.CapacityMax = 0, 10
	err := bad.Validate()
	for _, f := range []string{"Projects", "CapacityMax"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("%v does not name %s", err, f)
		}
	}
}

// The priority classes come from their own stream: the projects do not
// change with the high-priority fraction, a larger fraction only adds
// high-priority projects, and the share is near the fraction.
func TestHighPriorityIndependentStream(t *testing.T) {
	gen := func(frac float64) []Project {
		p := Default()
		p.Projects, p.HighPriority = 5000, frac
		g, err := New(p, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		var out []Project
		for {
			pr, err := g.Next()
			if err == io.EOF {
				return out
			}
			out = append(out, pr)
		}
	}
	none, fifth, half := gen(0), gen(0.2), gen(0.5)
	high := 0
	for i := range none {
		a, b, c := none[i], fifth[i], half[i]
		if a.Priority != 0 {
			t.Fatalf("project %d: priority %g with fraction 0", a.ID, a.Priority)
		}
		if b.Priority == 1 && c.Priority != 1 {
			t.Fatalf("project %d high at 0.2 but not at 0.5", a.ID)
		}
		a.Priority, b.Priority, c.Priority = 0, 0, 0
		if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
			t.Fatalf("project %d differs between fractions", a.ID)
		}
		if fifth[i].Priority == 1 {
			high++
		}
	}
	// Binomial(5000, 0.2): sd 28.3; ±4 sd.
	if high < 887 || high > 1113 {
		t.Errorf("%d high-priority projects of 5000 at 0.2, want 1000 ± 113", high)
	}
	bad := Default()
	bad.HighPriority = 1.5
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "HighPriority") {
		t.Errorf("HighPriority 1.5: %v", err)
	}
}
