package buildinfo

import (
	"regexp"
	"testing"
)

// A test binary carries no VCS stamp: its build is the SHA-256 of the
// binary, never "unknown".
func TestCommitWithoutVCSStampIsTheBinarysHash(t *testing.T) {
	got := Commit()
	if !regexp.MustCompile(`^(sha256:[0-9a-f]{64}|[0-9a-f]{40}(-dirty\+sha256:[0-9a-f]{16})?)$`).MatchString(got) {
		t.Fatalf("Commit() = %q; want sha256:<64 hex> (or a stamped revision)", got)
	}
	if sum := ExecutableSHA256(); len(sum) != 64 {
		t.Fatalf("ExecutableSHA256() = %q", sum)
	}
}

// TestCommitOfEveryBuild checks Commit's rule for each kind of build, and
// that the binary is hashed only where the name needs the hash.
func TestCommitOfEveryBuild(t *testing.T) {
	const rev, hash = "4095d32cf5eefbb97aa9438d1b16aa1603405b63", "2e147cf030df75f0ff9900fbdcf127128228e48c38f7821b553c64fbf3b4621d"
	for _, c := range []struct {
		name, override, rev string
		dirty               bool
		hash                string // what the binary hashes to ("": unreadable)
		want                string
		hashed              bool // whether the binary must be read
	}{
		{"clean stamp", "", rev, false, hash, rev, false},
		{"dirty stamp", "", rev, true, hash, rev + "-dirty+sha256:2e147cf030df75f0", true},
		{"dirty stamp, binary unreadable", "", rev, true, "", rev + "-dirty", true},
		{"no stamp", "", "", false, hash, "sha256:" + hash, true},
		{"no stamp, binary unreadable", "", "", false, "", "unknown", true},
		{"override", "v1.2.3", rev, true, hash, "v1.2.3", false},
		{"dirty override", "abc-dirty", "", false, hash, "abc-dirty+sha256:2e147cf030df75f0", true},
		{"dirty override, binary unreadable", "abc-dirty", "", false, "", "abc-dirty", true},
	} {
		read := false
		got := commitOf(c.override, c.rev, c.dirty, func() string { read = true; return c.hash })
		if got != c.want || read != c.hashed {
			t.Errorf("%s: commitOf = %q, binary read %v; want %q, read %v", c.name, got, read, c.want, c.hashed)
		}
	}
}
