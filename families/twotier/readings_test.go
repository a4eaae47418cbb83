package twotier

import (
	"io"
	"testing"

	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/workload/seed004"
)

// victimFixture: pools P1 (capacity 2) and P2 (capacity 1). A (project PA)
// holds 1 P1 and 1 P2 over [5, 10), latest start 8; B (project PB) holds
// 1 P1 over [5, 10), latest start 7; D (pinned) holds P2 over [10, 40).
// Both projects are planned to depart at 10. The new job r needs 1 P1 over
// [3, 7): P1 is over-committed at 5 (r + A + B = 3 > 2).
func victimFixture() (p *Plan, r, a, b *Reservation) {
	p = NewPlan(0, []int{2, 1})
	pa, pb := &Project{ID: 1, Departure: 10}, &Project{ID: 2, Departure: 10}
	a = &Reservation{Project: pa, Start: 5, Dur: 5, LTS: 8, Demand: []int{1, 1}}
	b = &Reservation{Project: pb, Start: 5, Dur: 5, LTS: 7, Demand: []int{1, 0}}
	d := &Reservation{Project: &Project{ID: 4, Departure: 40}, Start: 10, Dur: 30, LTS: 10, Demand: []int{0, 1}}
	for _, x := range []*Reservation{a, b, d} {
		p.AddReservation(x)
	}
	r = &Reservation{Project: &Project{ID: 3}, Start: 3, Dur: 4, LTS: 3, Demand: []int{1, 0}}
	return p, r, a, b
}

// TestShiftTriesTheNextVictim is §4.3's rule: "if there is more than one
// possible reservation which could be delayed by the operation
// shiftReservations, the reservation with the largest latest starting time
// is chosen". In victimFixture A has the largest latest start (8) but
// cannot be delayed: without it P1 is full on [5, 7) (r + B) and P2 is
// taken by D from 10, so a 5-long window for A opens only at 40 > 8. B
// (latest start 7) can: P1 has a free unit from 7 (only A holds it on
// [7, 10)), so B moves to [7, 12), exactly its latest start. The conflict
// is gone (P1: r + A on [5, 7), A + B on [7, 10)), r is booked at 3, and
// PB departs at 12 instead of 10, one delay. Taking only the first
// candidate (victim=first, the behaviour before issue 21) fails instead.
func TestShiftTriesTheNextVictim(t *testing.T) {
	for _, tryFirst := range []bool{false, true} {
		p, r, a, b := victimFixture()
		var ok bool
		if tryFirst {
			ok = p.TryReservation(r, Unlimited)
		} else {
			p.AddReservation(r)
			ok = p.ShiftReservations(r, Unlimited)
		}
		if !ok || !r.active || r.Start != 3 || a.Start != 5 || b.Start != 7 {
			t.Fatalf("try %v: ok %v, r at %g (active %v), A at %g, B at %g; want true, 3, A 5, B 7", tryFirst, ok, r.Start, r.active, a.Start, b.Start)
		}
		if a.Project.Departure != 10 || b.Project.Departure != 12 || b.Project.Delays != 1 || a.Project.Delays != 0 {
			t.Errorf("try %v: departures PA %g, PB %g, delays %d, %d; want 10, 12, 0, 1", tryFirst, a.Project.Departure, b.Project.Departure, a.Project.Delays, b.Project.Delays)
		}
	}
	for _, tryFirst := range []bool{false, true} {
		p, r, a, b := victimFixture()
		p.Rules.Victim = VictimFirst
		var ok bool
		if tryFirst {
			ok = p.TryReservation(r, Unlimited)
		} else {
			p.AddReservation(r)
			ok = p.ShiftReservations(r, Unlimited)
		}
		if ok || r.active || a.Start != 5 || b.Start != 5 || p.Len() != 3 {
			t.Errorf("victim=first, try %v: ok %v, r active %v, A %g, B %g, %d reservations; want false, false, 5, 5, 3", tryFirst, ok, r.active, a.Start, b.Start, p.Len())
		}
	}
}

// TestShiftSkipsAVictimBeyondThePreemptionLimit: a reservation whose delay
// would count against PL beyond it could not be delayed either, so the next
// is tried. In shiftFixture A (lts 20) and B (lts 19) hold 1 unit each of a
// pool of 2 over [5, 10), both projects departing at 10; a 1-unit job over
// [3, 7) needs one of them to move to 7 (departure 12). Under
// pl_count=lifetime with PL 1, PA has already been delayed once, so A may
// not be: B, the next, moves instead.
func TestShiftSkipsAVictimBeyondThePreemptionLimit(t *testing.T) {
	p, a, b, _, projects := shiftFixture(19)
	p.Rules.Count = PLLifetime
	projects[0].Delays = 1
	r := &Reservation{Project: &Project{ID: 3}, Start: 3, Dur: 4, LTS: 3, Demand: []int{1}}
	if !p.TryReservation(r, 1) || a.Start != 5 || b.Start != 7 {
		t.Fatalf("A %g, B %g; want A kept at 5 (its project used up PL), B moved to 7", a.Start, b.Start)
	}
	if projects[0].Delays != 1 || projects[1].Delays != 1 || projects[1].Departure != 12 {
		t.Errorf("delays %d, %d, PB departs %g; want 1, 1, 12", projects[0].Delays, projects[1].Delays, projects[1].Departure)
	}
}

// TestPLCountReadings: shiftFixture's 2-unit job over [3, 7) must delay
// both A (project PA) and B (PB) from 5 to 7. §3.1, §4.1, §4.4 and Table 5
// count "delayed projects" against PL; the readings differ in what a
// delayed project is and over what span they are counted.
//
//   - Departures at 10 (both move to 12): call and job count 2 projects in
//     the call, so PL 1 fails and PL 2 succeeds; lifetime counts per
//     project (each is delayed for the first time), so PL 1 succeeds.
//   - Departures at 30 (the delays end by 12 and move no departure): call
//     and lifetime count nothing, PL 0 succeeds; job counts both delayed
//     projects, so PL 0 and 1 fail and 2 succeeds.
func TestPLCountReadings(t *testing.T) {
	for _, c := range []struct {
		count PLCount
		dep   float64
		pl    int
		ok    bool
	}{
		{PLPerCall, 10, 1, false}, {PLPerCall, 10, 2, true},
		{PLAnyJob, 10, 1, false}, {PLAnyJob, 10, 2, true},
		{PLLifetime, 10, 0, false}, {PLLifetime, 10, 1, true},
		{PLPerCall, 30, 0, true},
		{PLAnyJob, 30, 0, false}, {PLAnyJob, 30, 1, false}, {PLAnyJob, 30, 2, true},
		{PLLifetime, 30, 0, true},
	} {
		for _, tryFirst := range []bool{false, true} {
			p, a, b, r, projects := shiftFixture(19)
			p.Rules.Count = c.count
			projects[0].Departure, projects[1].Departure = c.dep, c.dep
			var ok bool
			if tryFirst {
				ok = p.TryReservation(r, c.pl)
			} else {
				p.AddReservation(r)
				ok = p.ShiftReservations(r, c.pl)
			}
			want := []float64{5, 5}
			if c.ok {
				want = []float64{7, 7}
			}
			if ok != c.ok || a.Start != want[0] || b.Start != want[1] {
				t.Errorf("pl_count %s, departures %g, PL %d, try %v: ok %v, A %g, B %g; want %v, %v", c.count, c.dep, c.pl, tryFirst, ok, a.Start, b.Start, c.ok, want)
			}
		}
	}
}

// TestPLLifetimeAcrossCalls: under pl_count=lifetime with PL 1 a project's
// departure may be delayed once in its life. After the first shift of
// TestPLCountReadings (A and B at [7, 12), both projects delayed once), a
// second 2-unit job over [7, 9) would have to delay them again, to 9: it
// fails. Under call, the same second shift delays 2 projects in one call:
// it needs PL 2.
func TestPLLifetimeAcrossCalls(t *testing.T) {
	for _, c := range []struct {
		count PLCount
		pl    int
		ok    bool
	}{{PLLifetime, 1, false}, {PLLifetime, 2, true}, {PLPerCall, 2, true}, {PLPerCall, 1, false}} {
		p, a, b, r, _ := shiftFixture(19)
		p.Rules.Count = c.count
		if !p.TryReservation(r, 2) {
			t.Fatal("first shift failed")
		}
		r2 := &Reservation{Project: &Project{ID: 5}, Start: 7, Dur: 2, LTS: 7, Demand: []int{2}}
		if ok := p.TryReservation(r2, c.pl); ok != c.ok {
			t.Errorf("pl_count %s, PL %d: second shift %v, want %v (A %g, B %g)", c.count, c.pl, ok, c.ok, a.Start, b.Start)
		}
	}
}

// onePool returns a platform of one pool of capacity c and jobs built from
// (id, project, submit, te, q).
func onePool(c int, specs ...[5]float64) (sim.Platform, []*sim.Job) {
	p := sim.Platform{Pools: []sim.Pool{{Name: "r1", Capacity: c}}}
	var jobs []*sim.Job
	for _, s := range specs {
		j := sim.NewJob(int64(s[0]), s[2], []int{int(s[4])}, s[3], s[3], 0)
		j.Project = int64(s[1])
		jobs = append(jobs, j)
	}
	return p, jobs
}

// TestOwnLTSReadings: capacity 2; X (project 1, 1 unit, 10) runs [0, 10);
// project 2 arrives at 1 with Y1 (2 units, 4) and Y2 (1 unit, 12). Y1's
// earliest start is 10: [10, 14). Y2 fits at instant 1, but [1, 13) meets
// Y1 at 10 (2 + 1 > 2): only delaying Y1, its own project's job, makes
// room, to 13 (Y2 holds a unit until 13).
//
//   - pinned: Y1's latest start is its planned start while project 2 is
//     planned; Y2 takes its earliest start, 14: Y1 ends 14, Y2 26.
//   - infinite: Y1 moves to [13, 17), Y2 runs at once: Y2 ends 13, Y1 17.
//   - provisional: after Y1, eq. 7 gives lts = td + tn·SF − te = 14 +
//     13·SF − 4: with SF 0.1, 11.3 < 13, as pinned; with SF 0.5, 16.5 ≥ 13,
//     as infinite.
func TestOwnLTSReadings(t *testing.T) {
	for _, c := range []struct {
		own    OwnLTS
		sf     float64
		y1, y2 float64 // ends
	}{
		{OwnPinned, 0.1, 14, 26}, {OwnPinned, 0.5, 14, 26},
		{OwnInfinite, 0.1, 17, 13},
		{OwnProvisional, 0.1, 14, 26}, {OwnProvisional, 0.5, 17, 13},
	} {
		p, jobs := onePool(2, [5]float64{1, 1, 0, 10, 1}, [5]float64{2, 2, 1, 4, 2}, [5]float64{3, 2, 1, 12, 1})
		cfg := TFBSF(c.sf, Unlimited)
		cfg.Own = c.own
		s, err := New(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := sim.Run(p, s, sim.NewSliceStream(jobs), nil)
		if err != nil {
			t.Fatal(err)
		}
		if out[0].End() != 10 || out[1].End() != c.y1 || out[2].End() != c.y2 {
			t.Errorf("own_lts %s, SF %g: X, Y1, Y2 end %g, %g, %g; want 10, %g, %g", c.own, c.sf, out[0].End(), out[1].End(), out[2].End(), c.y1, c.y2)
		}
	}
}

// TestLTSTurnaroundReadings: capacity 1; X (project 1, 10) runs [0, 10);
// project 2 arrives at 1 with Y1 (2) and Y2 (4), planned at [10, 12) and
// [12, 16): td = 16, tn_2 = 15. Under 2TFB-SF with SF 0.5, eq. 7 (tn_u):
// lts(Y1) = 16 + 15·0.5 − 2 = 21.5, lts(Y2) = 16 + 7.5 − 4 = 19.5. With
// Figure 4's tn_{u,v} = tf_{u,v} − ta_u: Y1's is 12 − 1 = 11, lts(Y1) =
// 16 + 5.5 − 2 = 19.5; Y2's is 15, lts(Y2) = 19.5.
func TestLTSTurnaroundReadings(t *testing.T) {
	for _, c := range []struct {
		tn     LTSTurnaround
		y1, y2 float64
	}{{TurnaroundProject, 21.5, 19.5}, {TurnaroundJob, 19.5, 19.5}} {
		p, jobs := onePool(1, [5]float64{1, 1, 0, 10, 1}, [5]float64{2, 2, 1, 2, 1}, [5]float64{3, 2, 1, 4, 1})
		cfg := TFBSF(0.5, Unlimited)
		cfg.Turnaround = c.tn
		s, err := New(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		lts := map[int64]float64{}
		probe := schedFunc(func(cl *sim.Cluster, ch sim.Changes) {
			s.Pass(cl, ch)
			if cl.Now() == 1 {
				for _, r := range s.Reservations() {
					lts[r.Job.ID] = r.Start
				}
			}
		})
		if _, _, err := sim.Run(p, probe, sim.NewSliceStream(jobs), nil); err != nil {
			t.Fatal(err)
		}
		if lts[2] != c.y1 || lts[3] != c.y2 {
			t.Errorf("lts_tn %s: lts Y1 %g, Y2 %g; want %g, %g", c.tn, lts[2], lts[3], c.y1, c.y2)
		}
	}
}

// TestStopAtCompletions is §5.1's "Each simulation run is terminated upon
// the successful completion of 1000 projects" read literally, on 2
// completions. One pool of 2 units, 2TSB: P1 at 0 (1 unit, 10) runs
// [0, 10); P2 at 1 (2 units, 5) waits for P1: [10, 15); P3 at 2 (1 unit,
// 3) fits at once: [2, 5); P4 arrives at 50.
//
//   - stop=completions: projects arrive until the 2nd completion (P1 at 10,
//     after P3 at 5); the metrics are over P3 and P1: PTA = ((5 − 2) +
//     (10 − 0))/2 = 6.5.
//   - stop=arrivals with 2 projects: P1 and P2 arrive and both are run:
//     PTA = (10 + (15 − 1))/2 = 12.
func TestStopAtCompletions(t *testing.T) {
	plat := sim.Platform{Pools: []sim.Pool{{Name: "r1", Capacity: 2}}}
	projects := []seed004.Project{
		{ID: 1, Arrival: 0, Jobs: []seed004.Job{{Index: 1, Service: 10, Req: []int{1}}}},
		{ID: 2, Arrival: 1, Jobs: []seed004.Job{{Index: 1, Service: 5, Req: []int{2}}}},
		{ID: 3, Arrival: 2, Jobs: []seed004.Job{{Index: 1, Service: 3, Req: []int{1}}}},
		{ID: 4, Arrival: 50, Jobs: []seed004.Job{{Index: 1, Service: 1, Req: []int{1}}}},
	}
	i := 0
	next := func() (seed004.Project, error) {
		if i == len(projects) {
			return seed004.Project{}, io.EOF
		}
		i++
		return projects[i-1], nil
	}
	jobs, err := RunToCompletions(plat, next, 2, "2tsb", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := ProjectMetrics(jobs)
	if m.Projects != 2 || m.PTA != 6.5 || m.PerProject[0].ID != 1 || m.PerProject[1].ID != 3 {
		t.Errorf("completions: %d projects %v, PTA %g; want P1 and P3, 6.5", m.Projects, m.PerProject, m.PTA)
	}
	_, closed := ProjectJobs([]int{2}, projects[:2])
	closed, _, err = RunProjects(plat, closed, "2tsb", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := ProjectMetrics(closed); m.Projects != 2 || m.PTA != 12 {
		t.Errorf("arrivals: %d projects, PTA %g; want 2, 12", m.Projects, m.PTA)
	}
}

// TestStopCompletionsSameProjects: under stop=completions a cell streams
// the same projects as under stop=arrivals. At an interarrival far above
// any project's length nothing waits, so the first 30 projects to complete
// are the first 30 to arrive and every metric is the same.
func TestStopCompletionsSameProjects(t *testing.T) {
	cell := func(stop string) []family.Metric {
		r, err := runCell(family.Cell{Model: "seed004", Params: map[string]any{"projects": int64(30), "interarrival": 1e6, "stop": stop},
			Scheduler: "2tfb-sf", Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		return r.Metrics
	}
	a, c := cell(StopArrivals), cell(StopCompletions)
	if len(a) != len(c) {
		t.Fatalf("%d metrics vs %d", len(a), len(c))
	}
	for i := range a {
		if a[i] != c[i] {
			t.Errorf("%s: arrivals %g, completions %g", a[i].Name, a[i].Value, c[i].Value)
		}
	}
}
