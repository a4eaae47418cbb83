//go:build unix

package swf

import (
	"os"
	"syscall"
)

// mapsFiles tells whether ReadParts maps files on this system.
const mapsFiles = true

// mapFile maps the size bytes of the regular file f read-only, shared with
// the page cache, so that ReadParts reads the pages the kernel already
// holds instead of copying them into a fresh buffer of as many pages. The
// caller calls release once nothing refers to the bytes; a file cut short
// while mapped faults on the missing pages, which ReadParts recovers as a
// refusal.
func mapFile(f *os.File, size int64) (data []byte, release func(), err error) {
	if size <= 0 || int64(int(size)) != size {
		return nil, nil, syscall.EINVAL
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
