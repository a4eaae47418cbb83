package worker

import (
	"testing"
	"time"
)

// TestNextTake checks the take policy by hand: as many cells as run within
// holdBudget (10 ms) at the slowest's speed, at most twice the last take
// and at most maxTake (16), at least one.
func TestNextTake(t *testing.T) {
	for _, c := range []struct {
		took    int
		slowest time.Duration
		want    int
	}{
		{1, 10 * time.Microsecond, 2},   // instant, but one cell is not much evidence
		{2, 10 * time.Microsecond, 4},   // doubling
		{4, 10 * time.Microsecond, 8},   // doubling
		{8, 10 * time.Microsecond, 16},  // up to maxTake
		{16, 10 * time.Microsecond, 16}, // never more
		{16, 2 * time.Millisecond, 5},   // 10 ms / 2 ms
		{8, 2 * time.Millisecond, 5},    // 10 ms / 2 ms
		{8, 3 * time.Millisecond, 3},    // 10 ms / 3 ms, rounded down
		{8, 6 * time.Millisecond, 1},    // 10 ms / 6 ms
		{8, 10 * time.Millisecond, 1},   // the budget itself: one at a time
		{8, time.Minute, 1},             // long cells: one at a time, as before
		{1, 0, 2},                       // a refused cell ran nothing
		{0, time.Microsecond, 2},        // no take yet counts as one
		{3, 1250 * time.Microsecond, 6}, // 10 ms / 1.25 ms = 8, but at most 2 × 3
	} {
		if got := nextTake(c.took, c.slowest); got != c.want {
			t.Errorf("nextTake(%d, %v) = %d; want %d", c.took, c.slowest, got, c.want)
		}
	}
}
