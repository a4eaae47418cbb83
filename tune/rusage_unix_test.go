//go:build unix

package tune

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) this process has used so
// far: the tuner, the embedded broker and the benchmark's worker together.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
