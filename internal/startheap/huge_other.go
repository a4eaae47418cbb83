//go:build !linux

package startheap

// hugeStart does nothing where transparent huge pages are not Linux's.
func hugeStart(int64) bool { return false }
