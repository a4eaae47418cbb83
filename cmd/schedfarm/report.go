package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/results"
)

// runReport implements "schedfarm report results.parquet [-o dir]": it
// prints per-(parameters, scheduler) means with 95% confidence intervals and
// writes summary.csv plus one PNG and one SVG plot per metric and axis.
func runReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "directory for summary.csv and plots (default: <results>-report next to the file)")
	metrics := fs.String("metrics", "", "comma-separated metrics to print and plot (default: all)")
	noPlots := fs.Bool("no-plots", false, "print the summary only")
	baseline := fs.String("baseline", "", "scheduler to compare against: adds a column with each mean's change relative to that scheduler's at the same point")
	logY := fs.String("log-y", "auto", "logarithmic y axes: auto (for a metric whose means are positive and span a factor of 20 or more, as heavy-tailed ones do), on (wherever the means are positive) or off")
	claimsFile := fs.String("claims", "", "a claims file (experiments/claims/*.yaml): judge its claims against the results given (several files allowed) and print the verdicts as a Markdown table")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: schedfarm report results.parquet [-o dir] [-metrics a,b] [-baseline scheduler] [-no-plots]")
		fmt.Fprintln(stderr, "       schedfarm report -claims claims.yaml results.parquet…")
		fs.PrintDefaults()
	}
	// Accept flags before or after the file name.
	var files []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if err == flag.ErrHelp {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if *claimsFile != "" {
		return reportClaims(*claimsFile, files, stdout, stderr)
	}
	if len(files) != 1 {
		fs.Usage()
		return 2
	}
	path := files[0]
	var want []string
	if *metrics != "" {
		for _, m := range strings.Split(*metrics, ",") {
			if m = strings.TrimSpace(m); m != "" {
				want = append(want, m)
			}
		}
	}
	if meta, err := results.FileMeta(path); err == nil && results.IsTuneMeta(meta) {
		t, err := results.ReadTable(path)
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
			return 1
		}
		return reportTune(t, path, *out, stdout, stderr)
	}
	recs, err := results.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 1
	}
	s := results.Summarise(recs)
	if *baseline != "" {
		if err := s.SetBaseline(*baseline); err != nil {
			fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
			return 2
		}
	}
	if err := s.WriteText(stdout, want); err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 1
	}
	dir := *out
	if dir == "" {
		dir = strings.TrimSuffix(path, filepath.Ext(path)) + "-report"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 1
	}
	csvPath := filepath.Join(dir, "summary.csv")
	f, err := os.Create(csvPath)
	if err == nil {
		err = s.WriteCSV(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %s: %v\n", csvPath, err)
		return 1
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", csvPath)
	if *noPlots {
		return 0
	}
	if len(s.Axes) == 0 {
		fmt.Fprintln(stdout, "no parameter varies between groups: nothing to plot")
		return 0
	}
	if err := results.CheckLogY(*logY); err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 2
	}
	pr, err := s.PlotWith(dir, want, results.PlotOptions{LogY: *logY, Glossary: glossary()})
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %d plots (PNG and SVG) in %s", len(pr.Files), dir)
	if len(pr.Log) > 0 {
		fmt.Fprintf(stdout, "; log-scale y axis (--log-y off for linear): %s", strings.Join(pr.Log, ", "))
	}
	fmt.Fprintln(stdout)
	if len(pr.Constant) > 0 {
		var cs []string
		for m, v := range pr.Constant {
			cs = append(cs, fmt.Sprintf("%s = %s", m, results.FormatTick(v)))
		}
		sort.Strings(cs)
		fmt.Fprintf(stdout, "not plotted, the same in every group: %s\n", strings.Join(cs, ", "))
	}
	return 0
}

// reportClaims judges a claims file against results files and prints the
// verdicts.
func reportClaims(path string, files []string, stdout, stderr io.Writer) int {
	f, err := claims.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "schedfarm report: -claims needs the results files to judge")
		return 2
	}
	recs := claims.Records{}
	for _, file := range files {
		rs, err := results.ReadFile(file)
		if err != nil {
			fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
			return 1
		}
		recs.Add(rs)
	}
	fmt.Fprintf(stdout, "%s — %d claims (%s)\n\n", f.Paper, len(f.Claims), path)
	if err := claims.WriteMarkdown(stdout, claims.Evaluate(f, recs)); err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 1
	}
	return 0
}

// reportTune draws a tuner's evaluations table (schedfarm tune's
// <output>.evals.parquet): convergence, and the Pareto front with a second
// objective.
func reportTune(t results.Table, path, dir string, stdout, stderr io.Writer) int {
	if dir == "" {
		dir = strings.TrimSuffix(path, filepath.Ext(path)) + "-report"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 1
	}
	files, err := results.PlotTune(t, dir)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm report: %v\n", err)
		return 1
	}
	phases := map[string]int{}
	for r := range t.Rows {
		p, _ := t.Value(r, "phase").(string)
		phases[p]++
	}
	extra := ""
	if n := phases["confirm"] + phases["baseline"]; n > 0 {
		extra = fmt.Sprintf(", plus %d confirmation and %d baseline rows", phases["confirm"], phases["baseline"])
	}
	fmt.Fprintf(stdout, "%s: %d evaluations in the search of tune %s%s (objective: %s)\nwrote %d plots (PNG and SVG) in %s\n", path, phases["search"], t.Meta["schedfarm.tune"], extra, t.Meta["schedfarm.objective"], len(files), dir)
	return 0
}
