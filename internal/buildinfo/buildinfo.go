// Package buildinfo says which schedfarm produced a result: its version, the
// git commit it was built from, and the Go version. Result rows carry all
// three so a number can be traced to the code that made it.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Version is the schedfarm release. Builds may set it with
// -ldflags "-X github.com/schedfarm/schedfarm/internal/buildinfo.Version=…".
var Version = "0.1.0-dev"

// CommitOverride, when set with -ldflags "-X …/internal/buildinfo.CommitOverride=…",
// names the commit for builds without VCS stamping (e.g. GOFLAGS=-buildvcs=false,
// or a Docker build without the .git directory).
var CommitOverride = ""

// Commit returns the git commit the binary was built from — the override,
// else the VCS revision the Go toolchain stamped (with "-dirty" when the tree
// had local changes) — or "unknown".
func Commit() string {
	if CommitOverride != "" {
		return CommitOverride
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}

// GoVersion returns the Go version the binary was built with.
func GoVersion() string { return runtime.Version() }
