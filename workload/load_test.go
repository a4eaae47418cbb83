package workload

import (
	"io"
	"math"
	"testing"
)

type sliceSource struct {
	jobs []Job
	i    int
}

func (s *sliceSource) Next() (Job, error) {
	if s.i >= len(s.jobs) {
		return Job{}, io.EOF
	}
	s.i++
	return s.jobs[s.i-1], nil
}

func TestLoadScaling(t *testing.T) {
	var jobs []Job
	for i := 0; i < 100; i++ {
		j := NewJob()
		j.ID = int64(i + 1)
		j.Submit = 100 + float64(i*i%37+i*10)
		j.RunTime = float64(50 + i%7*30)
		j.AllocProcs = int64(1 + i%16)
		jobs = append(jobs, j)
	}
	// keep sorted
	for i := 1; i < len(jobs); i++ {
		if jobs[i].Submit < jobs[i-1].Submit {
			jobs[i].Submit = jobs[i-1].Submit
		}
	}
	l0 := OfferedLoad(jobs, 64)
	if l0 <= 0 {
		t.Fatal("zero load")
	}
	f, achieved, err := LoadFactor(jobs, 64, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(achieved-0.5) > 1e-12 || math.Abs(f-l0/0.5) > 1e-12 {
		t.Errorf("factor %g achieved %g (load %g)", f, achieved, l0)
	}
	scaled, err := ReadAll(ScaleInterarrivals(&sliceSource{jobs: jobs}, f))
	if err != nil {
		t.Fatal(err)
	}
	if got := OfferedLoad(scaled, 64); math.Abs(got-0.5) > 1e-9 {
		t.Errorf("measured load after scaling %g, want 0.5", got)
	}
	if scaled[0].Submit != jobs[0].Submit {
		t.Errorf("first submit moved: %g", scaled[0].Submit)
	}
	for i := 1; i < len(jobs); i++ {
		want := f * (jobs[i].Submit - jobs[i-1].Submit)
		if got := scaled[i].Submit - scaled[i-1].Submit; math.Abs(got-want) > 1e-6 {
			t.Fatalf("interarrival %d: %g, want %g", i, got, want)
		}
	}
	if _, _, err := LoadFactor(jobs[:1], 64, 0.5); err == nil {
		t.Error("single job: want an error")
	}
	if _, _, err := LoadFactor(jobs, 64, -1); err == nil {
		t.Error("negative target: want an error")
	}
}

func TestScaleSubmitsMatchesScaleInterarrivals(t *testing.T) {
	var jobs []Job
	for i := range 200 {
		j := NewJob()
		j.ID = int64(i + 1)
		j.Submit = float64(i*i) * 1.37
		if i%17 == 0 {
			j.Submit = Unknown // unknown submits stay unknown and do not set first
		}
		jobs = append(jobs, j)
	}
	for _, factor := range []float64{0.3, 1, 2.718281828} {
		want, err := ReadAll(ScaleInterarrivals(NewSliceSource(jobs), factor))
		if err != nil {
			t.Fatal(err)
		}
		got := append([]Job(nil), jobs...)
		if err := ScaleSubmits(got, factor); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Float64bits(got[i].Submit) != math.Float64bits(want[i].Submit) {
				t.Fatalf("factor %g, job %d: submit %v, want %v", factor, i, got[i].Submit, want[i].Submit)
			}
		}
	}
	for _, bad := range []float64{0, -1, math.Inf(1), math.NaN()} {
		got := append([]Job(nil), jobs...)
		if err := ScaleSubmits(got, bad); err == nil || got[1].Submit != jobs[1].Submit {
			t.Errorf("factor %g: err %v, submit %g", bad, err, got[1].Submit)
		}
	}
	if err := ScaleSubmits(nil, 0); err != nil {
		t.Errorf("empty: %v", err)
	}
}
