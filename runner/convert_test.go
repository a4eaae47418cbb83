package runner

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload"
)

// TestConvertRecordsInPartsIsOnePass converts random records — some that
// each estimate mode drops or alters (no runtime, no processors, a negative
// submit time, runtime above the request, more processors than the
// machine) — with convertRecords in 1 to 7 parts at once and with one
// converter record by record, under every estimate mode and overrun
// policy, and requires the same jobs in the same order, the same records
// kept and the same counts. It fails if a part's jobs are
// appended out of order, if a part's drops are not compacted out of the
// kept records, or if a part's counts are lost.
func TestConvertRecordsInPartsIsOnePass(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	const procs = 64
	modes := []struct{ estimates, overrun string }{
		{EstimatesUser, OverrunKill}, {EstimatesUser, OverrunExtend}, {EstimatesExact, OverrunKill}, {EstimatesPyss, OverrunKill},
	}
	for trial := range 400 {
		n := 1 + rng.IntN(300)
		recs := make([]workload.Job, n)
		for i := range recs {
			r := workload.NewJob()
			r.ID, r.Submit = int64(i+1), float64(10*i)
			r.RunTime, r.ReqTime = float64(1+rng.IntN(500)), float64(1+rng.IntN(500))
			r.AllocProcs, r.ReqProcs = int64(1+rng.IntN(procs)), workload.Unknown
			switch rng.IntN(12) {
			case 0:
				r.RunTime = workload.Unknown
			case 1:
				r.AllocProcs = workload.Unknown
			case 2:
				r.Submit = -1
			case 3:
				r.ReqTime = workload.Unknown
			case 4:
				r.AllocProcs = procs + 10
			}
			recs[i] = r
		}
		m := modes[trial%len(modes)]
		cfg := Config{Estimates: m.estimates, Overrun: m.overrun}
		convert := func(parts int) ([]sim.Job, []workload.Job, Adjustments) {
			records := slices.Clone(recs)
			store, demand := make([]sim.Job, n), make([]int, n)
			jobs, kept, adj := convertRecords(cfg, procs, records, store, demand, make([]*sim.Job, 0, n), parts)
			values := make([]sim.Job, len(jobs))
			for i, j := range jobs {
				values[i] = *j
			}
			return values, slices.Clone(kept), adj
		}
		// The reference: one converter over the records, in order.
		ref := &converter{mode: cfg.Estimates, overrun: cfg.Overrun, procs: procs}
		var wantJobs []sim.Job
		var wantKept []workload.Job
		for i := range recs {
			r := recs[i]
			if j := ref.convert(&r); j != nil {
				wantJobs = append(wantJobs, *j)
				wantKept = append(wantKept, recs[i])
			}
		}
		wantAdj := ref.adj
		if trial < len(modes) && wantAdj.Dropped()+wantAdj.Altered() == 0 {
			t.Fatalf("%v: the records change nothing, so the test proves nothing", m)
		}
		parts := 1 + rng.IntN(7)
		jobs, kept, adj := convert(parts)
		where := fmt.Sprintf("trial %d (%s/%s, %d records, %d parts)", trial, m.estimates, m.overrun, n, parts)
		if !reflect.DeepEqual(jobs, wantJobs) {
			t.Fatalf("%s: %d jobs from convertRecords, %d record by record, or they differ", where, len(jobs), len(wantJobs))
		}
		if !reflect.DeepEqual(kept, wantKept) {
			t.Fatalf("%s: %d records kept by convertRecords, %d record by record, or they differ", where, len(kept), len(wantKept))
		}
		if adj != wantAdj {
			t.Fatalf("%s: counts %+v from convertRecords, %+v record by record", where, adj, wantAdj)
		}
	}
}

// TestAdjustmentsCountsEveryField sets each count of Adjustments alone and
// checks that plus adds it (a part's counts of the parallel conversion
// would be lost otherwise) and that Dropped or Altered, exactly one of
// them, counts it: a count added to Adjustments later fails here until
// plus and one of the two sums take it in.
func TestAdjustmentsCountsEveryField(t *testing.T) {
	typ := reflect.TypeFor[Adjustments]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		var a, b Adjustments
		if typ.Field(i).Type.Kind() != reflect.Int {
			t.Fatalf("Adjustments.%s is a %s; the test expects int counts", name, typ.Field(i).Type)
		}
		reflect.ValueOf(&a).Elem().Field(i).SetInt(1)
		reflect.ValueOf(&b).Elem().Field(i).SetInt(2)
		var want Adjustments
		reflect.ValueOf(&want).Elem().Field(i).SetInt(3)
		if got := a.plus(b); got != want {
			t.Errorf("plus with only %s set: %+v; want %+v", name, got, want)
		}
		if d, al := a.Dropped(), a.Altered(); d+al != 1 {
			t.Errorf("Adjustments{%s: 1}: Dropped %d, Altered %d; want the count in exactly one of them", name, d, al)
		}
	}
}
