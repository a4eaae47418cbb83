package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/claims"
)

var updateREADME = flag.Bool("update-readme", false, "rewrite the README's verdicts block from docs/reproduction/verdicts.json")

// The README's verdict tables are generated from the committed report's
// verdicts (docs/reproduction/verdicts.json, written by the same
// `schedfarm reproduce` run as REPRODUCTION.md): this test fails when the
// block between the markers differs from what claims.WriteSummary makes of
// them. After a new reproduction: go test ./cmd/schedfarm -run
// READMEVerdicts -update-readme.
func TestREADMEVerdicts(t *testing.T) {
	root := filepath.Join("..", "..")
	vs, err := readVerdicts(filepath.Join(root, "docs", "reproduction", verdictsFile))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := claims.WriteSummary(&want, vs); err != nil {
		t.Fatal(err)
	}
	readme := filepath.Join(root, "README.md")
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- verdicts: generated from docs/reproduction/verdicts.json; do not edit -->\n", "<!-- end of verdicts -->"
	text := string(data)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the verdicts block (%q … %q)", strings.TrimSpace(begin), end)
	}
	got := text[i+len(begin) : j]
	if got == want.String() {
		return
	}
	if *updateREADME {
		if err := os.WriteFile(readme, []byte(text[:i+len(begin)]+want.String()+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's verdicts differ from docs/reproduction/verdicts.json; run go test ./cmd/schedfarm -run READMEVerdicts -update-readme\nREADME:\n%s\nreport:\n%s", got, want.String())
}
