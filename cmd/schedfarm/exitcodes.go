package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/lazyre"
	"github.com/schedfarm/schedfarm/internal/lockfile"
	"github.com/schedfarm/schedfarm/results"
)

// Exit codes of run, coordinator and tune (documented in exitCodesHelp, the
// README and docs/operations.md). A script, or docker compose's
// --exit-code-from coordinator, can tell them apart.
const (
	// exitOK: every cell has its result and every result is ok.
	exitOK = 0
	// exitError: the sweep did not complete or did not start (a bad spec or
	// input file, a broker or disk error, an interruption); what is in the
	// output is kept and running the same spec again resumes.
	exitError = 1
	// exitUsage: a bad flag or argument.
	exitUsage = 2
	// exitCellsFailed: every cell has its result, but some failed; the
	// summary lists the failures by message and the output has them
	// (status and error columns). Running the same spec again retries them.
	exitCellsFailed = 3
	// exitBusy: another process owns the output (or the embedded broker's
	// store): the message names it (process id, host, command).
	exitBusy = 4
	// exitOtherBuild: the output holds rows of another build; refused
	// unless --accept-builds.
	exitOtherBuild = 5
)

// exitCodesHelp is the exit-code section of the --help of run and
// coordinator.
const exitCodesHelp = `
Exit status:
  0  every cell has its result, all ok
  1  the sweep did not complete or could not start (spec, input file, broker,
     disk, interrupted); the output keeps what was done: run the same spec again
  2  bad flag or argument
  3  every cell has its result but some failed: the summary groups them by
     message; the output has them (status, error); a rerun retries them
  4  another process owns the output (or the embedded broker's store): it is named
  5  the output holds rows of another build: --accept-builds to keep them
`

// exitFor maps an error of opening the output (or the broker's store) to
// its exit code and prints it with the one command that gets past it.
func exitFor(stderr io.Writer, cmdName, specPath string, err error) int {
	var busy *lockfile.BusyError
	var dmg *results.DamagedJournalError
	var ob *results.OtherBuildError
	switch {
	case errors.As(err, &busy):
		fmt.Fprintf(stderr, "schedfarm %s: %v\n", cmdName, err)
		return exitBusy
	case errors.As(err, &dmg):
		fmt.Fprintf(stderr, "schedfarm %s: %v\n", cmdName, err)
		fmt.Fprintf(stderr, "schedfarm %s: the journal cannot be read back whole; nothing was changed. To set the damaged line(s) aside in %s.damaged, keep every good result and run the rest:\n  schedfarm %s --repair %s\n",
			cmdName, dmg.Path, cmdName, specPath)
		return exitError
	case errors.As(err, &ob):
		fmt.Fprintf(stderr, "schedfarm %s: %v\n", cmdName, err)
		fmt.Fprintf(stderr, "schedfarm %s: to keep those rows and run only the missing cells with this build: schedfarm %s --accept-builds %s\n  (or give the spec another output, or move the old output and its journal away, to start afresh)\n",
			cmdName, cmdName, specPath)
		return exitOtherBuild
	}
	fmt.Fprintf(stderr, "schedfarm %s: %v\n", cmdName, err)
	return exitError
}

// numbers matches the numbers in a failure message, which group by the
// rest.
var numbers = lazyre.MustCompile(`[0-9]+(\.[0-9]+)?`)

// printFailureGroups prints the failed cells of a sweep grouped by their
// error message (its first line), largest group first, with one cell of
// each group.
func printFailureGroups(w io.Writer, fails []coordinator.Failure) {
	if len(fails) == 0 {
		return
	}
	type group struct {
		msg   string
		n     int
		first coordinator.Failure
	}
	idx := map[string]*group{}
	var groups []*group
	for _, f := range fails {
		msg := strings.SplitN(f.Error, "\n", 2)[0]
		key := numbers.ReplaceAllString(msg, "#") // "killed after 0.01s" and "after 0.02s" are one message
		g := idx[key]
		if g == nil {
			g = &group{msg: msg, first: f}
			idx[key] = g
			groups = append(groups, g)
		}
		g.n++
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].n > groups[j].n })
	fmt.Fprintf(w, "%d cells failed, %d distinct messages:\n", len(fails), len(groups))
	const show = 10
	for i, g := range groups {
		if i == show {
			fmt.Fprintf(w, "  … and %d more messages (the output's error column has them all)\n", len(groups)-show)
			break
		}
		fmt.Fprintf(w, "  %d × %s\n      (e.g. cell %s: %s, replication %d)\n", g.n, g.msg, g.first.Cell.ID, g.first.Cell.Scheduler, g.first.Cell.Replication)
	}
}
