//go:build linux

package startheap

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugePage is the size of an x86-64 and arm64 transparent huge page.
const hugePage = 2 << 20

// hugeStart maps n bytes of heap without touching them, asks the kernel to
// back the 2 MB-aligned part of them with transparent huge pages
// (madvise MADV_HUGEPAGE), and collects, so that the region is free for the
// heap's next allocations. It reports whether the kernel took the advice.
//
// Go maps its heap with MAP_FIXED in chunks of at least 4 MB and no
// longer advises huge pages itself, so on a system whose
// /sys/kernel/mm/transparent_hugepage/enabled is "madvise" (the usual
// default) every 4 KB page of the heap costs a page fault on first touch.
// In some virtual machines a fault costs 10–15 µs (docs/performance.md):
// for a one-shot `schedfarm sim` of KTH-SP2 that was half of the process's
// time. The advice is kept by the mapping when the collector frees the
// region and when the scavenger gives pages back, so the region's pages
// are faulted in 2 MB at a time whenever they are used again. The cost:
// memory the collector has freed is zeroed by the allocator when reused
// (fresh memory is not), and resident memory grows in 2 MB steps.
func hugeStart(n int64) bool {
	if n < 2*hugePage {
		return false
	}
	b := make([]byte, n) // fresh from the kernel: mapped, not touched
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + hugePage - 1) &^ (hugePage - 1)
	end := (p + uintptr(n)) &^ (hugePage - 1)
	err := syscall.Madvise(b[beg-p:end-p], syscall.MADV_HUGEPAGE)
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
	return err == nil
}
