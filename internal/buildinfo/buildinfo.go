// Package buildinfo says which schedfarm produced a result: its version, the
// build it is (the git commit it was built from, or the SHA-256 of the
// binary where the toolchain stamped no commit), and the Go version. Result
// rows carry all three so a number can be traced to the code that made it.
package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Version is the schedfarm release. Builds may set it with
// -ldflags "-X github.com/schedfarm/schedfarm/internal/buildinfo.Version=…".
var Version = "0.1.0-dev"

// CommitOverride, when set with -ldflags "-X …/internal/buildinfo.CommitOverride=…",
// names the commit for builds without VCS stamping (e.g. GOFLAGS=-buildvcs=false,
// or a Docker build without the .git directory).
var CommitOverride = ""

// Commit returns the build of this binary, as result rows record it
// (git_commit):
//
//   - the override, when the build set one (scripts/build-image does),
//     with "+sha256:<16 hex digits>" of the binary after a "-dirty" one;
//   - else the VCS revision the Go toolchain stamped; a tree with local
//     changes gives "<revision>-dirty+sha256:<16 hex digits of the
//     binary>", since two dirty builds of one revision may differ;
//   - else (`go run`, `go test`, GOFLAGS=-buildvcs=false: no stamp)
//     "sha256:<64 hex digits>" of the executable itself, which the same
//     source and toolchain reproduce;
//   - "unknown" only when the executable cannot be read.
func Commit() string {
	commitOnce.Do(func() { commit = computeCommit() })
	return commit
}

var (
	commitOnce sync.Once
	commit     string
)

func computeCommit() string {
	rev, dirty := "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	return commitOf(CommitOverride, rev, dirty, ExecutableSHA256)
}

// commitOf is Commit's rule for a build with the given override and VCS
// stamp (rev "" when none); sum hashes the binary (hex, "" if unreadable)
// and is called only where the answer needs it: a clean stamped build, or
// an override without "-dirty", is named without reading the binary (62
// MB, 45 ms on a VM slow at page faults: docs/performance-log.md, "Ninth
// session").
func commitOf(override, rev string, dirty bool, sum func() string) string {
	if override != "" {
		if strings.HasSuffix(override, "-dirty") {
			if h := sum(); h != "" {
				return override + "+sha256:" + h[:16] // two dirty builds of one commit differ
			}
		}
		return override
	}
	if rev != "" && !dirty {
		return rev
	}
	h := sum()
	switch {
	case rev != "" && h != "":
		return rev + "-dirty+sha256:" + h[:16]
	case rev != "":
		return rev + "-dirty"
	case h != "":
		return "sha256:" + h
	}
	return "unknown"
}

// ExecutableSHA256 returns the hex SHA-256 of the running executable, or ""
// when it cannot be read.
func ExecutableSHA256() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// GoVersion returns the Go version the binary was built with.
func GoVersion() string { return runtime.Version() }
