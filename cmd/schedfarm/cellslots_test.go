package main

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
)

// TestSharedCellSlots checks the gate reproduce puts on its specs' cells
// (shareCellSlots): a cell simulates holding one of the slots and gives it
// back when done, a cell whose context ends while every slot is taken does
// not wait for one, a second gate is not installed over the first, and
// the gate is gone once done is called.
func TestSharedCellSlots(t *testing.T) {
	old := simulateCell
	defer func() { simulateCell = old }()
	held := -1
	simulateCell = func(ctx context.Context, c runner.Cell) (runner.CellResult, error) {
		held = -1
		if g := sharedCellSlots.Load(); g != nil {
			held = len(g.slots)
		}
		return runner.CellResult{CellID: c.ID, Status: runner.StatusOK}, nil
	}

	done := shareCellSlots(2)
	g := sharedCellSlots.Load()
	if g == nil || cap(g.slots) != 2 {
		t.Fatalf("shareCellSlots(2) installed %v; a gate of 2 slots expected", g)
	}
	if second := shareCellSlots(5); sharedCellSlots.Load() != g {
		t.Fatal("a second gate replaced the first")
	} else {
		second() // leaves the first in place
	}
	if sharedCellSlots.Load() != g {
		t.Fatal("the second gate's done removed the first")
	}

	if res := farmRunCell(context.Background(), runner.Cell{ID: "a"}); res.Status != runner.StatusOK || held != 1 {
		t.Fatalf("cell a: %s, %d slots held while it simulated; ok and 1 expected", res.Status, held)
	}
	if len(g.slots) != 0 {
		t.Fatalf("%d slots held after the cell; 0 expected", len(g.slots))
	}

	// Every slot taken: a cancelled cell goes on without one (RunCell
	// reports the cancellation), rather than waiting.
	g.slots <- struct{}{}
	g.slots <- struct{}{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := farmRunCell(ctx, runner.Cell{ID: "b"}); res.CellID != "b" || held != 2 {
		t.Fatalf("cancelled cell b: %+v, %d slots held; it should run without taking a slot", res, held)
	}
	<-g.slots
	<-g.slots

	done()
	if sharedCellSlots.Load() != nil {
		t.Fatal("the gate is still installed after done")
	}
	if res := farmRunCell(context.Background(), runner.Cell{ID: "c"}); res.Status != runner.StatusOK || held != -1 {
		t.Fatalf("cell c without a gate: %s, held %d", res.Status, held)
	}
}
