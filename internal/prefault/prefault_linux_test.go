package prefault

import (
	"syscall"
	"testing"
	"unsafe"
)

// resident reports, page by page, whether the pages of b are in memory
// (mincore(2)).
func resident(t *testing.T, b []byte) []bool {
	t.Helper()
	page := syscall.Getpagesize()
	vec := make([]byte, (len(b)+page-1)/page)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	in := make([]bool, len(vec))
	for i, v := range vec {
		in[i] = v&1 == 1
	}
	return in
}

// TestSliceBacksTheWholePages maps 64 fresh anonymous pages and checks
// with mincore that none is resident before Slice and that every page
// wholly inside the slice is after it, while the pages the slice covers
// only in part (its first and last, here, as it starts and ends mid-page)
// are left alone; the bytes are unchanged.
func TestSliceBacksTheWholePages(t *testing.T) {
	page := syscall.Getpagesize()
	const pages = 64
	mem, err := syscall.Mmap(-1, 0, pages*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	for i, in := range resident(t, mem) {
		if in {
			t.Fatalf("page %d of a fresh mapping is resident before any write; the test cannot tell populated pages apart", i)
		}
	}
	s := mem[100 : len(mem)-100 : len(mem)-100]
	if !Slice(s) {
		t.Skip("the kernel refused MADV_POPULATE_WRITE (before Linux 5.14?)")
	}
	for i, in := range resident(t, mem) {
		whole := i > 0 && i < pages-1
		if in != whole {
			t.Errorf("page %d of %d: resident %v after Slice; want %v (only the pages wholly inside the slice)", i, pages, in, whole)
		}
	}
	for i, v := range mem {
		if v != 0 {
			t.Fatalf("byte %d is %d after Slice; want 0", i, v)
		}
	}
}
