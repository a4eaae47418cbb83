// Package prefault asks the kernel to back a fresh allocation's memory in
// one call instead of one page fault at a time.
//
// A one-shot `schedfarm sim` writes one sim.Job for every record of its
// trace into a slab allocated at once (6 MB for KTH-SP2's 28,489 jobs), and
// a freshly started Go process gets that slab as never-touched pages: each
// first write to a 4 KiB page is a page fault. On the virtual machines this
// project is measured on a fresh page costs 1.5 to 15 µs depending on the
// host (docs/performance-log.md, "Page faults are the lever on run 6's
// machine"), and Linux's MADV_POPULATE_WRITE (5.14 and later) backs a whole
// range in one system call for less per page: on the forty-ninth session's
// VM 7 to 10 µs a page against 13 to 15 µs for a write fault (2,000 fresh
// pages; docs/performance-log.md, "Forty-ninth session"). Elsewhere, and
// where the kernel refuses the advice, [Slice] does nothing: the pages then
// fault in as they are written, as before.
//
// Only memory that will be written anyway should be populated: a populated
// page counts in the process's resident set whether or not it is used.
package prefault
