package prefault

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14).
const madvPopulateWrite = 23

func populate(p unsafe.Pointer, n uintptr) bool {
	page := uintptr(syscall.Getpagesize())
	start := (uintptr(p) + page - 1) &^ (page - 1)
	end := (uintptr(p) + n) &^ (page - 1)
	if end <= start {
		return false
	}
	_, _, e := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvPopulateWrite)
	return e == 0
}
