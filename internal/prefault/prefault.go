package prefault

import "unsafe"

// Slice asks the kernel to back, in one call, the memory pages that lie
// wholly inside s's backing array (its capacity), so that the first writes
// to them do not fault one page at a time. It reports whether it did; it
// changes no value in s.
func Slice[T any](s []T) bool {
	if cap(s) == 0 {
		return false
	}
	var zero T
	return populate(unsafe.Pointer(unsafe.SliceData(s)), uintptr(cap(s))*unsafe.Sizeof(zero))
}
