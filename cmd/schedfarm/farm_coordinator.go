package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// runCoordinator runs `schedfarm coordinator`: publish a spec's cells to a
// NATS server and collect their results into the spec's output.
func runCoordinator(args []string, stdout, stderr io.Writer) int {
	fs := farmFlagSet("coordinator", "coordinator --nats URL [credentials] [--ack-wait D] [--max-deliver N] spec.yaml", stdout, stderr)
	withExitCodes(fs)
	var sf sweepFlags
	sf.register(fs)
	path, exit := sf.parse(fs, "coordinator", args, stdout, stderr)
	if exit >= 0 {
		return exit
	}
	spec, err := farmLoadSpec(path)
	if err != nil {
		fmt.Fprintf(stderr, "schedfarm coordinator: %v\n", err)
		return exitError
	}
	if err := sf.grid.check(path, len(spec.Cells())); err != nil {
		fmt.Fprintf(stderr, "schedfarm coordinator: %v\n", err)
		return exitError
	}
	out, done, code := farmPrepare("coordinator", path, spec, sf, stderr)
	if code != exitOK {
		return code
	}
	nc, err := farmDial(sf.nats, "schedfarm coordinator "+spec.Name, stderr)
	if err != nil {
		out.Abandon()
		fmt.Fprintf(stderr, "schedfarm coordinator: %v\n", err)
		return exitError
	}
	defer nc.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return farmCoordinate(ctx, nc, spec, out, done, sf.topo.topology(), sf.dispatch, sf.every, sf.dataRoot, sf.parcelSize(), stdout, stderr)
}

// farmPrepare checks what a sweep needs before anything starts — the data
// root, every trace the spec names — and opens (owns, resumes) its output.
// It returns the open output and its cells done, or an exit code.
func farmPrepare(cmdName, specPath string, spec *experiments.Spec, sf sweepFlags, stderr io.Writer) (*results.Writer, map[string]bool, int) {
	cells := spec.Cells()
	if err := coordinator.CheckDataRoot(sf.dataRoot, cells); err != nil {
		fmt.Fprintf(stderr, "schedfarm %s: %s: %v\n", cmdName, spec.File, err)
		return nil, nil, exitError
	}
	if _, err := experiments.CheckInputs(cells); err != nil {
		fmt.Fprintf(stderr, "schedfarm %s: %s: the spec's input files were checked before anything was published, and nothing was:\n%v\n", cmdName, spec.File, err)
		return nil, nil, exitError
	}
	out, done, err := farmOpenOutput(spec, cmdName, sf)
	if err != nil {
		return nil, nil, exitFor(stderr, cmdName, specPath, err)
	}
	return out, done, exitOK
}

// farmDial connects with the flags' settings; connection losses and
// reconnections are reported on stderr.
func farmDial(nf natsFlags, name string, stderr io.Writer) (*nats.Conn, error) {
	o := nf.options(name)
	o.Logf = func(f string, a ...any) { fmt.Fprintf(stderr, "%s: "+f+"\n", append([]any{name}, a...)...) }
	return broker.Dial(o)
}

// farmCoordinate runs the coordinator for spec over nc, writing into out
// (opened by farmPrepare, closed here), and prints the summary. It returns
// the exit code: exitOK when every cell has an ok result, exitCellsFailed
// when every cell has a result but some failed, exitError when the sweep
// stopped before that.
func farmCoordinate(ctx context.Context, nc *nats.Conn, spec *experiments.Spec, out *results.Writer, done map[string]bool, topo broker.Topology, dispatch coordinator.Dispatch, every time.Duration, dataRoot string, parcel int, stdout, stderr io.Writer) int {
	js, err := jetstream.New(nc)
	if err != nil {
		out.Abandon()
		fmt.Fprintf(stderr, "schedfarm: %v\n", err)
		return exitError
	}
	cells := spec.Cells()
	if topo.Logf == nil {
		topo.Logf = func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }
	}
	sum, runErr := coordinator.Run(ctx, js, coordinator.Config{
		Experiment: spec.Name, Cells: cells, Done: done, Sink: out, Topology: topo,
		Progress: coordinator.NewProgress(stdout, every), DataRoot: dataRoot, Dispatch: dispatch, Parcel: parcel,
		Logf: func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) },
	})
	status := out.Status()
	closeErr := out.Close()
	printFarmSummary(stdout, spec, sum)
	if runErr == nil && closeErr == nil {
		printMetricSummary(stdout, spec.Output)
	}
	if err := errors.Join(runErr, closeErr); err != nil {
		fmt.Fprintf(stderr, "schedfarm: %v\n", err)
		if runErr != nil {
			fmt.Fprintln(stderr, "schedfarm: the run can be resumed: run the same spec again")
		}
		return exitError
	}
	failed := 0
	for _, c := range cells {
		if status[c.ID] != runner.StatusOK {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "schedfarm: %d of %d cells failed (exit status %d); the summary above groups them by message; running the same spec again retries them\n", failed, len(cells), exitCellsFailed)
		return exitCellsFailed
	}
	return exitOK
}

func printFarmSummary(w io.Writer, spec *experiments.Spec, s coordinator.Summary) {
	fmt.Fprintf(w, "experiment %s: %d cells, %d done before, %d ok, %d failed this run, in %s\n",
		spec.Name, s.Total, s.Skipped, s.OK, s.Failed, s.Wall.Round(time.Millisecond))
	if s.Requeued > 0 {
		fmt.Fprintf(w, "%d cells published again: they were neither queued nor being run and had no result on its way (a broker that lost messages?)\n", s.Requeued)
	}
	if s.Duplicates > 0 {
		fmt.Fprintf(w, "%d duplicate results dropped (cells run twice after a redelivery; each kept once)\n", s.Duplicates)
	}
	if s.Rejected > 0 {
		fmt.Fprintf(w, "%d messages rejected (not a well-formed result of a cell this coordinator published; nothing of them written):\n", s.Rejected)
		for i, r := range s.Rejections {
			if i == 5 {
				fmt.Fprintf(w, "  … and %d more (see the log)\n", s.Rejected-5)
				break
			}
			fmt.Fprintf(w, "  rejected: %s: %s\n", r.Subject, r.Reason)
		}
	}
	fmt.Fprintf(w, "output: %s\n", spec.Output)
	printFailureGroups(w, s.Failures)
}

// summaryMetrics are the metrics a finished sweep prints; `schedfarm
// report` shows all of them, with plots.
var summaryMetrics = []string{"wait_mean", "bsld_mean", "utilization"}

// printMetricSummary reads the output back and prints the means and 95%
// confidence intervals of the headline metrics per grid point and scheduler.
func printMetricSummary(w io.Writer, path string) {
	recs, err := results.ReadFile(path)
	if err != nil {
		fmt.Fprintf(w, "summary unavailable: %v\n", err)
		return
	}
	sum := results.Summarise(recs)
	var ms []string
	for _, m := range summaryMetrics {
		for _, have := range sum.Metrics {
			if have == m {
				ms = append(ms, m)
			}
		}
	}
	if len(ms) == 0 {
		return
	}
	fmt.Fprintln(w)
	if err := sum.WriteText(w, ms); err != nil {
		fmt.Fprintf(w, "summary unavailable: %v\n", err)
		return
	}
	fmt.Fprintf(w, "\nall metrics, CSV and plots: schedfarm report %s\n", path)
}
