package twotier

import (
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/workload/seed004"
)

// BenchmarkSeed004Projects10k runs 10,000 seed-004 projects (Table 6, mean
// interarrival 160, 1/5 high-priority) through each two-tier scheduler.
func BenchmarkSeed004Projects10k(b *testing.B) {
	p := seed004.Default()
	p.Projects, p.MeanInterarrival = 10000, 160
	for _, s := range []string{"2tsb", "2tfb", "2tfb-sf", "2tpb"} {
		b.Run(s, func(b *testing.B) {
			var jobs int
			for b.Loop() {
				b.StopTimer()
				plat, js, err := Seed004Workload(p, 0.2, rand.New(rand.NewPCG(1, 4)))
				if err != nil {
					b.Fatal(err)
				}
				jobs = len(js)
				b.StartTimer()
				if _, _, err := RunProjects(plat, js, s, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(jobs), "jobs/op")
		})
	}
}

// BenchmarkSeed004Heavy runs one heavy cell of seed 004's Figures 8–9:
// 1,000 projects at mean interarrival 10 (far past saturation) under
// 2TFB-SF with SF 0.5 and PL unlimited, where nearly every job tries
// about 150 feasible backfilling times and TryReservation's what-if is
// almost all the work (docs/performance.md). One iteration takes seconds:
// run it with -benchtime 1x.
func BenchmarkSeed004Heavy(b *testing.B) {
	p := seed004.Default()
	p.Projects, p.MeanInterarrival = 1000, 10
	for b.Loop() {
		b.StopTimer()
		plat, js, err := Seed004Workload(p, 0.2, rand.New(rand.NewPCG(1, 4)))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, _, err := RunProjects(plat, js, "2tfb-sf", map[string]any{"sf": 0.5, "pl": "unlimited"}); err != nil {
			b.Fatal(err)
		}
	}
}
