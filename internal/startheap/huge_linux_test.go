//go:build linux

package startheap

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestHugeStartCutsTheFaults: after hugeStart, filling 32 MB of new heap
// costs a page fault per 2 MB huge page, not one per 4 KB page (8,192),
// counted by the kernel (getrusage's minor faults), not timed. It runs in
// a fresh process (this test binary again), whose heap no other test has
// left free memory in. Skipped where the system turned transparent huge
// pages off.
func TestHugeStartCutsTheFaults(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("transparent huge pages off here (%q, %v)", strings.TrimSpace(string(mode)), err)
	}
	if os.Getenv(hugeChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHugeStartCutsTheFaults$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), hugeChild+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("child process:\n%s", out)
		if err != nil {
			t.Fatalf("child process: %v", err)
		}
		return
	}
	if !hugeStart(64 << 20) {
		t.Fatal("the kernel refused madvise(MADV_HUGEPAGE) on the new heap")
	}
	const n = 32 << 20
	before := minorFaults(t)
	b := make([]byte, n)
	for i := 0; i < n; i += 4096 {
		b[i] = 1
	}
	faults := minorFaults(t) - before
	t.Logf("%d minor faults filling %d MB of heap (4 KB pages would take %d)", faults, n>>20, n/4096)
	// 16 huge pages, the zeroing of the reused region included; the rest of
	// the process (the test's goroutines) faults a few pages besides: 40–300
	// measured. Half the 4 KB count leaves room for a kernel that cannot
	// find a free huge page for some of them (it then falls back to 4 KB);
	// without the advice it is 8,192 or more.
	if faults > n/4096/2 {
		t.Fatalf("%d minor faults filling %d MB of heap after hugeStart: the heap is still backed by 4 KB pages (%d faults)", faults, n>>20, n/4096)
	}
	sink = append(sink, b)
	sink = nil
}

// hugeChild marks the process TestHugeStartCutsTheFaults runs itself in.
const hugeChild = "STARTHEAP_HUGE_CHILD"

func minorFaults(t *testing.T) int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		t.Fatal(err)
	}
	return u.Minflt
}
