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
// On Linux, Grow also has the kernel back the heap's next tens of megabytes
// with transparent huge pages (madvise MADV_HUGEPAGE on a region it maps
// and frees at once), which Go no longer asks for itself: the usual
// system setting ("madvise") gives a heap 4 KB pages, each a page fault on
// first touch, and in some virtual machines a fault costs 10–15 µs. There,
// a one-shot `schedfarm sim` of KTH-SP2 took 5,400 faults and 105 ms
// before and about 1,800 faults and 67 ms after (docs/performance.md).
package startheap
