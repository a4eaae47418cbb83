package sim

import (
	"testing"
	"unsafe"
)

// TestJobStaysSmall guards the size of Job: a one-shot run writes one per
// trace record (28,489 for KTH-SP2), and on a fresh process each 4 KiB of
// them is a page fault. Moving the tiered platforms' state out of Job into
// tierJob (Job.tx) took it from 296 to 224 bytes: 510–575 fewer faults and
// 5–10% less elapsed time for `schedfarm sim` of EASY on KTH-SP2, back to
// back (docs/performance-log.md, "Runs 11a–11d"). A field that only some
// platforms or families need belongs in a side structure like tierJob.
func TestJobStaysSmall(t *testing.T) {
	if n := unsafe.Sizeof(Job{}); n > 224 {
		t.Errorf("sim.Job is %d bytes; keep it at most 224 (state that only tiered platforms use goes in tierJob)", n)
	}
	if n := unsafe.Sizeof(tierJob{}); n > 96 {
		t.Errorf("sim.tierJob is %d bytes; at most 96 expected", n)
	}
}

// TestSlotFillsHalfALine guards the size of a VM slot: 32 bytes, so that
// each lies within one cache line (the sharing model and the consolidation
// scheduler's VM lists read both VMs of a processor at every change).
func TestSlotFillsHalfALine(t *testing.T) {
	if n := unsafe.Sizeof(slot{}); n != 32 {
		t.Errorf("sim.slot is %d bytes; 32 expected (a slot within one cache line)", n)
	}
}
