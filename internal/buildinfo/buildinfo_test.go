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
