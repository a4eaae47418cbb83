package twotier

import (
	"slices"
	"testing"
)

// snapshot is everything ShiftReservations may change, to check a restore.
type snapshot struct {
	starts []float64
	deps   []float64
	avail  [][]int
}

func snap(p *Plan, projects []*Project, times []float64) snapshot {
	var s snapshot
	for _, r := range p.Reservations() {
		s.starts = append(s.starts, r.Start)
	}
	for _, pr := range projects {
		s.deps = append(s.deps, pr.Departure)
	}
	for _, t := range times {
		a := make([]int, len(p.scratch))
		p.Avail(t, a)
		s.avail = append(s.avail, a)
	}
	return s
}

func (a snapshot) equal(b snapshot) bool {
	return slices.Equal(a.starts, b.starts) && slices.Equal(a.deps, b.deps) &&
		slices.EqualFunc(a.avail, b.avail, func(x, y []int) bool { return slices.Equal(x, y) })
}

// shiftFixture: one pool of 2 units; A (project PA) and B (project PB) each
// hold 1 unit over [5, 10), both projects planned to depart at 10; A's latest
// start is 20, B's is ltsB. The new job r needs 2 units over [3, 7).
func shiftFixture(ltsB float64) (*Plan, *Reservation, *Reservation, *Reservation, []*Project) {
	p := NewPlan(0, []int{2})
	pa := &Project{ID: 1, Departure: 10}
	pb := &Project{ID: 2, Departure: 10}
	a := &Reservation{Project: pa, Start: 5, Dur: 5, LTS: 20, Demand: []int{1}}
	b := &Reservation{Project: pb, Start: 5, Dur: 5, LTS: ltsB, Demand: []int{1}}
	p.AddReservation(a)
	p.AddReservation(b)
	r := &Reservation{Project: &Project{ID: 3}, Start: 3, Dur: 4, Demand: []int{2}}
	r.LTS = r.Start
	return p, a, b, r, []*Project{pa, pb}
}

var probeTimes = []float64{0, 3, 5, 7, 10, 12, 15}

func TestShiftDelaysLargestLTSFirst(t *testing.T) {
	p, a, b, _, _ := shiftFixture(19)
	r := &Reservation{Project: &Project{ID: 3}, Start: 3, Dur: 4, Demand: []int{1}} // needs 1: one move suffices
	r.LTS = r.Start
	p.AddReservation(r)
	if !p.ShiftReservations(r, Unlimited) {
		t.Fatal("shift failed")
	}
	if a.Start != 7 || b.Start != 5 {
		t.Errorf("A at %g, B at %g; want A (larger lts) moved to 7, B kept at 5", a.Start, b.Start)
	}
	if a.Project.Departure != 12 || b.Project.Departure != 10 {
		t.Errorf("departures %g, %g; want 12, 10", a.Project.Departure, b.Project.Departure)
	}
}

func TestShiftPreemptionLimit(t *testing.T) {
	for _, c := range []struct {
		pl     int
		ok     bool
		starts []float64 // A, B
	}{
		{0, false, []float64{5, 5}},
		{1, false, []float64{5, 5}}, // A moves, then B would be a second preempted project
		{2, true, []float64{7, 7}},
		{Unlimited, true, []float64{7, 7}},
	} {
		p, a, b, r, projects := shiftFixture(19)
		before := snap(p, projects, probeTimes)
		p.AddReservation(r)
		ok := p.ShiftReservations(r, c.pl)
		if ok != c.ok || a.Start != c.starts[0] || b.Start != c.starts[1] {
			t.Errorf("PL %d: ok %v, A %g, B %g; want %v, %v", c.pl, ok, a.Start, b.Start, c.ok, c.starts)
		}
		if !ok {
			if after := snap(p, projects, probeTimes); !after.equal(before) || p.Len() != 2 {
				t.Errorf("PL %d: plan not restored: %+v vs %+v (%d reservations)", c.pl, after, before, p.Len())
			}
		} else if projects[0].Departure != 12 || projects[1].Departure != 12 {
			t.Errorf("PL %d: departures %g, %g; want 12, 12", c.pl, projects[0].Departure, projects[1].Departure)
		}
	}
}

// TestShiftPLCountsOnlyLaterDepartures: delaying a job that is not its
// project's last one does not preempt the project, so PL = 0 allows it
// (2TFB's situation).
func TestShiftPLCountsOnlyLaterDepartures(t *testing.T) {
	p, a, b, r, projects := shiftFixture(19)
	projects[0].Departure, projects[1].Departure = 30, 30
	p.AddReservation(r)
	if !p.ShiftReservations(r, 0) || a.Start != 7 || b.Start != 7 {
		t.Errorf("PL 0 with slack in the departures: A %g, B %g; want both moved to 7", a.Start, b.Start)
	}
}

func TestShiftLatestStartReached(t *testing.T) {
	// B's lts 6 < 7: A (lts 20) moves first, then B cannot: the old plan,
	// with A back at 5 and PA's departure back at 10, is restored.
	p, a, b, r, projects := shiftFixture(6)
	before := snap(p, projects, probeTimes)
	p.AddReservation(r)
	if p.ShiftReservations(r, Unlimited) {
		t.Fatal("shift succeeded past B's latest starting time")
	}
	if a.Start != 5 || b.Start != 5 || p.Len() != 2 {
		t.Errorf("A %g, B %g, %d reservations; want 5, 5, 2", a.Start, b.Start, p.Len())
	}
	if after := snap(p, projects, probeTimes); !after.equal(before) {
		t.Errorf("plan not restored: %+v vs %+v", after, before)
	}
	// At exactly the lts the move is allowed.
	p, a, b, r, _ = shiftFixture(7)
	p.AddReservation(r)
	if !p.ShiftReservations(r, Unlimited) || a.Start != 7 || b.Start != 7 {
		t.Errorf("lts 7: A %g, B %g; want both at 7", a.Start, b.Start)
	}
}

func TestShiftNothingMovable(t *testing.T) {
	p, a, b, r, projects := shiftFixture(19)
	a.LTS, b.LTS = a.Start, b.Start // pinned (2TSB)
	before := snap(p, projects, probeTimes)
	p.AddReservation(r)
	if p.ShiftReservations(r, Unlimited) {
		t.Fatal("shift moved pinned reservations")
	}
	if after := snap(p, projects, probeTimes); !after.equal(before) {
		t.Errorf("plan not restored")
	}
}

func TestFeasibleBackfillingTimes(t *testing.T) {
	p, _, _, _, _ := shiftFixture(19)
	// pool of 2: free 2 on [0,5), 0 on [5,10), 2 after. A 2-unit job of
	// length 7 fits at instants 0 and 10; its earliest start is 10.
	got := p.FeasibleBackfillingTimes(0, 7, []int{2}, nil)
	if !slices.Equal(got, []float64{0, 10}) {
		t.Errorf("BT = %v, want [0 10]", got)
	}
	// A 1-unit job of length 3 fits at once: BT is just [0].
	if got := p.FeasibleBackfillingTimes(0, 3, []int{1}, nil); !slices.Equal(got, []float64{0}) {
		t.Errorf("BT = %v, want [0]", got)
	}
}
