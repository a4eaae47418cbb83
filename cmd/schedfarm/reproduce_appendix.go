package main

import (
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/families/cloud"
)

// appendices are the computed sections a claims file may add to its
// paper's part of the report (claims.File.Appendices), by name: Markdown
// from a family's own arithmetic, not from the runs.
var appendices = map[string]struct {
	title string
	write func(b *strings.Builder) error
}{
	"seed001-table2-capacity": {"Table 2's capacity (issue 21 item 11)", func(b *strings.Builder) error {
		rows, err := cloud.Table2Capacity(1)
		if err != nil {
			return err
		}
		b.WriteString("Whether any reading of the tasks and deadlines lets 120 nodes serve Table 2's 7,096 finished jobs over the horizon (cloud.Table2Capacity, on the methodological cloud of seed 1; the arithmetic is in families/cloud/doc.go):\n\n")
		b.WriteString("| tasks | deadline | jobs that can meet their deadline | capacity (instruction units) | least work of the finished jobs | share of capacity | can serve? |\n|---|---|---:|---:|---:|---:|---|\n")
		served := false
		for _, r := range rows {
			serve := "no"
			if r.CanServe {
				serve, served = "yes", true
			}
			fmt.Fprintf(b, "| %s | %s | %d of %d | %.4g | %.4g | %.0f%% | %s |\n", r.Tasks, r.Deadline, r.Feasible, r.Jobs, r.Capacity, r.NeedMin, 100*r.NeedMin/r.Capacity, serve)
		}
		if !served {
			b.WriteString("\nNo reading can: the paper's finished jobs exceed what its VMs can execute over its horizon under every reading.\n")
		}
		return nil
	}},
}

// checkAppendices reports a claims file's unknown appendix names.
func checkAppendices(f *claims.File) error {
	for _, a := range f.Appendices {
		if _, ok := appendices[a]; !ok {
			return fmt.Errorf("%s: appendices: %q; accepted: %s", f.Path, a, strings.Join(claims.SortedKeys(appendices), ", "))
		}
	}
	return nil
}

// writeAppendices renders a paper's appendices (an error is shown in
// place of the section).
func writeAppendices(b *strings.Builder, f *claims.File) {
	for _, a := range f.Appendices {
		ap := appendices[a]
		fmt.Fprintf(b, "### %s\n\n", ap.title)
		if err := ap.write(b); err != nil {
			fmt.Fprintf(b, "(could not be computed: %v)\n", err)
		}
		b.WriteString("\n")
	}
}
