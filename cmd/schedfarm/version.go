package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Version is the schedfarm release; the build may override it with
// -ldflags "-X main.Version=…".
var Version = "0.1.0-dev"

// buildCommit returns the VCS revision embedded by the Go toolchain, or
// "unknown" when the binary was built without VCS information.
func buildCommit() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return "unknown"
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "schedfarm %s (commit %s, %s)\n", Version, buildCommit(), runtime.Version())
	return 0
}
