// Command schedfarm is the one binary of the schedfarm experiment farm.
//
// default.pgo, beside this file, is the CPU profile that `go build` and
// `go run` of this package use for profile-guided optimisation (Go's PGO:
// inlining and devirtualisation where the profile puts the time; what the
// program computes is unchanged). scripts/pgo-profile regenerates it from
// the specs in scripts/pgo; docs/performance-log.md, "Profile-guided
// optimisation", has what it gains and why some families are left out.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/schedfarm/schedfarm/internal/heapfloor"
	"github.com/schedfarm/schedfarm/internal/startheap"
)

// command is one subcommand: its name, a one-line summary for the usage text,
// and the function that runs it with the remaining arguments. run returns the
// process exit code.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists every subcommand in the order the usage text shows them.
func commands() []command {
	return []command{
		{"sim", "simulate one scheduler over one SWF trace and print metrics", runSim},
		{"schedulers", "list the registered schedulers", runSchedulers},
		{"run", "run a spec's sweep in one process on an embedded NATS server", runRun},
		{"coordinator", "publish a spec's cells to a NATS server and collect the results", runCoordinator},
		{"worker", "simulate cells pulled from a NATS server", runWorker},
		{"broker", "run a standalone NATS server with JetStream for a farm", runBroker},
		{"report", "summarise a results Parquet file with confidence intervals and plots; judge a paper's claims", runReport},
		{"reproduce", "run the papers' figure specs on the farm and judge every claim: REPRODUCTION.md", runReproduce},
		{"tune", "search a parameter space with a genetic algorithm whose evaluations are farm cells", runTune},
		{"workload", "generate synthetic workloads, add modelled user estimates to SWF files, describe them", runWorkload},
		{"version", "print the schedfarm version", runVersion},
	}
}

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "sim":
			// One trace loaded and simulated once: its records and jobs
			// live to the end, so collections before the heap reaches a
			// few tens of megabytes free nothing (package startheap).
			startheap.Grow(simStartingHeap)
		case "run", "tune", "reproduce", "coordinator", "worker":
			// The farm's processes: with small cells the live heap stays
			// small and GOGC=100 alone would collect every few hundred
			// cells (package heapfloor).
			heapfloor.Keep(heapfloor.Farm)
		}
	}
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// simStartingHeap is the heap `schedfarm sim` may reach before its first
// collection: a trace of about half a million jobs (KTH-SP2's 28,489 need
// about 50 MB in all), after which the collector runs as usual.
const simStartingHeap = 256 << 20

// dispatch runs the subcommand named by args[0].
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "schedfarm: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "schedfarm — an experiment farm for parallel-job scheduling research")
	fmt.Fprintln(w, "\nUsage: schedfarm <command> [flags]   (schedfarm <command> --help for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
}
