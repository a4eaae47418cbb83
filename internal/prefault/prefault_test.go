package prefault

import "testing"

// TestSliceOfNothing: an empty slice, or one within a single page, has no
// whole page to back.
func TestSliceOfNothing(t *testing.T) {
	if Slice([]int(nil)) {
		t.Error("Slice(nil) reported true")
	}
	if Slice(make([]byte, 16)) {
		t.Error("Slice of 16 bytes reported true")
	}
}
