//go:build unix

package worker

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) this process has used so
// far, garbage collection included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
