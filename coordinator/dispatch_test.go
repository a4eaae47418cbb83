package coordinator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
)

// testCell is a hand-made cell of one scheduler and one load.
func testCell(id string, index int, scheduler string, replication int, seed uint64, load float64) runner.Cell {
	return runner.Cell{Experiment: "x", ID: id, Index: index, Scheduler: scheduler, Replication: replication, Seed: seed,
		Params: []runner.Param{{Name: "workload.load", Value: load}}}
}

// grid returns points × reps cells in grid order, replication outermost
// (as Spec.Cells expands them): the cell of point p, replication r has
// index r·points + p and id "<p><r>" with points named a, b, c, ….
func grid(points, reps int) []runner.Cell {
	var cells []runner.Cell
	for r := range reps {
		for p := range points {
			cells = append(cells, testCell(fmt.Sprintf("%c%d", 'a'+p, r), r*points+p, "easy", r, uint64(1000*r+p), 0.5+0.1*float64(p)))
		}
	}
	return cells
}

// drain hands out n bundles and returns their cells' ids.
func drain(t *testing.T, q *dispatchQueue, n int) string {
	t.Helper()
	var ids []string
	for i := range n {
		b := q.next()
		if b == nil {
			t.Fatalf("queue empty after %d bundles %v; want %d", i, ids, n)
		}
		for _, c := range b {
			ids = append(ids, c.ID)
		}
	}
	return strings.Join(ids, " ")
}

// The order of DispatchLongestFirst, computed by hand: every point is
// probed once in grid order (a0 b0 c0), then points without a result go
// first in grid order (a1), then, once a has a mean of 1 s and b of 5 s
// while c still has none, c's cells (c1 c2), b's (b1 b2) and a's (a2).
func TestDispatchQueueOrder(t *testing.T) {
	q := newDispatchQueue(grid(3, 3))
	if got, want := drain(t, q, 4), "a0 b0 c0 a1"; got != want {
		t.Fatalf("first four %q; want %q", got, want)
	}
	q.observe("b0", 5)
	q.observe("a0", 1)
	if got, want := drain(t, q, 5), "c1 c2 b1 b2 a2"; got != want {
		t.Errorf("after the results %q; want %q", got, want)
	}
	if b := q.next(); b != nil || q.len() != 0 {
		t.Errorf("next after the last cell: %v, %d left; want none", b, q.len())
	}
}

// Points are ranked by their mean wall time, not the sum: a's two results
// (1 s and 9 s, mean 5) rank below b's one of 6 s though they sum to more;
// equal means keep grid order.
func TestDispatchQueueRanksByMean(t *testing.T) {
	q := newDispatchQueue(grid(3, 4))
	drain(t, q, 6) // a0 b0 c0 a1 b1 c1
	q.observe("a0", 1)
	q.observe("a1", 9)
	q.observe("b0", 6)
	q.observe("c0", 5)
	if got, want := drain(t, q, 6), "b2 b3 a2 a3 c2 c3"; got != want {
		t.Errorf("order %q; want %q (b mean 6, a mean 5 before c mean 5 by grid order)", got, want)
	}
}

// The cells of one seed (here two schedulers of one load and replication,
// which share their workload) are handed out together, and a point's
// replications are its bundles: a0 (x and y) and b0 probe both points;
// with a's cells at 1 s and b's first at 3 s, b's bundles come first.
func TestDispatchQueueHandsOutSeedsTogether(t *testing.T) {
	var cells []runner.Cell
	for r := range 3 {
		for p, load := range []float64{0.5, 0.9} {
			for _, s := range []string{"x", "y"} {
				cells = append(cells, testCell(fmt.Sprintf("%c%d%s", 'a'+p, r, s), len(cells), s, r, uint64(10*r+p), load))
			}
		}
	}
	q := newDispatchQueue(cells)
	if got, want := drain(t, q, 3), "a0x a0y b0x b0y a1x a1y"; got != want {
		t.Fatalf("first three bundles %q; want %q", got, want)
	}
	q.observe("a0x", 1)
	q.observe("a0y", 1)
	q.observe("b0x", 3)
	if got, want := drain(t, q, 3), "b1x b1y b2x b2y a2x a2y"; got != want {
		t.Errorf("after the results %q; want %q", got, want)
	}
}

// Points are ranked by a bundle's expected time, their cells' mean times
// the bundle's size: b's bundles of three cells at 1 s each (3 s) come
// before a's single cells at 2 s, though a's cells are slower.
func TestDispatchQueueRanksBundlesBySize(t *testing.T) {
	var cells []runner.Cell
	for r := range 3 {
		cells = append(cells, testCell(fmt.Sprintf("a%d", r), len(cells), "s", r, uint64(10+r), 0.5))
		for _, s := range []string{"x", "y", "z"} {
			cells = append(cells, testCell(fmt.Sprintf("b%d%s", r, s), len(cells), s, r, uint64(20+r), 0.6))
		}
	}
	q := newDispatchQueue(cells)
	drain(t, q, 2) // a0, b0
	q.observe("a0", 2)
	for _, id := range []string{"b0x", "b0y", "b0z"} {
		q.observe(id, 1)
	}
	if got, want := drain(t, q, 4), "b1x b1y b1z b2x b2y b2z a1 a2"; got != want {
		t.Errorf("order %q; want %q", got, want)
	}
}

// A cell's point is the cell without its replication: the same scheduler,
// plugin and parameters.
func TestPointKey(t *testing.T) {
	cells := grid(2, 2)
	if pointKey(cells[0]) != pointKey(cells[2]) {
		t.Errorf("replications of one point have different keys")
	}
	if pointKey(cells[0]) == pointKey(cells[1]) {
		t.Errorf("two loads share a key")
	}
	other := cells[0]
	other.Scheduler = "fcfs"
	if pointKey(other) == pointKey(cells[0]) {
		t.Errorf("two schedulers share a key")
	}
	plug := cells[0]
	plug.Plugin = &runner.PluginRef{Path: "p", SHA256: "ab"}
	if pointKey(plug) == pointKey(cells[0]) {
		t.Errorf("a plugin and a built-in scheduler share a key")
	}
}

func TestParseDispatch(t *testing.T) {
	for _, d := range []Dispatch{DispatchLongestFirst, DispatchGrid} {
		if got, err := ParseDispatch(d.String()); err != nil || got != d {
			t.Errorf("ParseDispatch(%q) = %v, %v", d.String(), got, err)
		}
	}
	if _, err := ParseDispatch("lpt"); err == nil || !strings.Contains(err.Error(), "want longest-first or grid") {
		t.Errorf("ParseDispatch(lpt): %v; want an error naming the accepted values", err)
	}
}

type nopSink struct{}

func (nopSink) Write(runner.Cell, runner.CellResult) error { return nil }
func (nopSink) Flush() error                               { return nil }

// A dispatch order or window out of range is refused with the values
// accepted.
func TestConfigRefusesUnknownDispatch(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Experiment: "x", Sink: nopSink{}, Dispatch: 7}, "dispatch Dispatch(7): want DispatchLongestFirst or DispatchGrid"},
		{Config{Experiment: "x", Sink: nopSink{}, Ahead: -1}, "ahead -1: want 0 (DefaultAhead) or more cells"},
	} {
		if err := c.cfg.validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("validate(%+v) = %v; want %q", c.cfg, err, c.want)
		}
	}
	if err := (&Config{Experiment: "x", Sink: nopSink{}, Dispatch: DispatchGrid}).validate(); err != nil {
		t.Errorf("grid dispatch refused: %v", err)
	}
}
