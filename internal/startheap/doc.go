// Package startheap lets a short-lived command begin with a larger heap.
//
// Go's collector starts when the heap first reaches 4 MB and then each time
// it doubles (GOGC=100). A command that loads a trace and simulates it once
// builds a heap of a few tens of megabytes that lives to the end, so its
// early collections find almost nothing to free: they re-mark the live
// records and jobs, and, marking fresh pages before the program first
// writes them, make the kernel map them read-only first and copy them on
// the first write (with a TLB shootdown on every core the process ran on).
// [Grow] postpones the first collection until the heap reaches a given size
// and then hands the collector back its usual settings, as the Go compiler
// does for its own starting heap. Memory is bounded by that size until the
// first collection and behaves as usual after it.
//
// Grow once also had the kernel back the heap's next 64 MB with
// transparent huge pages (madvise MADV_HUGEPAGE on a region mapped and
// freed at once; d391888 to its removal on 29 Nov 2026). On the virtual
// machines this project is measured on, the guest reports free 2 MB blocks
// to the host (virtio-balloon free page reporting), which discards them,
// so a huge page fault a few seconds after other work drew a discarded
// block and cost the process 25–45 ms more than 4 KB faults did; only
// back-to-back runs gained, and by 0–5 ms (docs/performance-log.md, "Page
// faults").
package startheap
