package seed002

import (
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func in(v float64, iv Interval) bool { return v >= iv.Lo && v <= iv.Hi }

// Table 2 ranges and rate, and Table 3 classes (short:long within ±1 pp over
// 100k jobs; short < 0.15, long in [0.85, 1] Mflops).
func TestTables(t *testing.T) {
	for _, class := range []string{ClassNone, Class1, Class2, Class3} {
		p := Default()
		p.Jobs = 100000
		p.Class = class
		g, err := New(p, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range g.Resources() {
			if !in(r.Availability, p.Availability) || !in(r.Bandwidth, p.Bandwidth) || !in(r.FailureCoeff, p.FailureCoeff) || !in(r.AvailabilityLevel, p.AvailabilityLevel) {
				t.Fatalf("resource %+v", r)
			}
		}
		var short, last float64
		for {
			j, err := g.Next()
			if err == io.EOF {
				break
			}
			if !in(j.DataSize, p.DataSize) || !in(j.Size, p.Size) || j.Deadline <= j.Submit || !in(j.ServiceDemand, p.ServiceDemand) {
				t.Fatalf("job %+v", j)
			}
			if class != ClassNone {
				if j.Long && j.Size < 0.85 || !j.Long && j.Size >= 0.15 {
					t.Fatalf("class %s job %+v", class, j)
				}
				if !j.Long {
					short++
				}
			}
			last = j.Submit
		}
		if r := float64(p.Jobs) / last; math.Abs(r-1.67) > 0.02*1.67 {
			t.Errorf("rate %.4f, want 1.67", r)
		}
		if want, ok := ShortFraction(class); ok && math.Abs(short/float64(p.Jobs)-want) > 0.01 {
			t.Errorf("class %s: short fraction %.4f", class, short/float64(p.Jobs))
		}
	}
	bad := Default()
	bad.Class, bad.Jobs = "9:1", 0
	err := bad.Validate()
	for _, f := range []string{"Class", "Jobs"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("%v does not name %s", err, f)
		}
	}
}
