//go:build unix

package cputime

import "testing"

// TestProcessGrowsWithWork burns CPU until the reading moves (it must, with
// getrusage) and checks it never goes backwards.
func TestProcessGrowsWithWork(t *testing.T) {
	start := Process()
	if start <= 0 {
		t.Fatalf("CPU time so far %v; want > 0", start)
	}
	x := 0
	for i := 0; Process() == start; i++ {
		for j := range 1 << 16 {
			x += i ^ j
		}
	}
	if end := Process(); end < start {
		t.Fatalf("CPU time went back from %v to %v (%d)", start, end, x)
	}
}
