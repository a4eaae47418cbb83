package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/coordinator"
)

// Environment variables read by the farm subcommands; a flag given on the
// command line wins over its variable.
const (
	envNATS     = "SCHEDFARM_NATS"
	envUser     = "SCHEDFARM_NATS_USER"
	envPassword = "SCHEDFARM_NATS_PASSWORD"
	envToken    = "SCHEDFARM_NATS_TOKEN"
	envCA       = "SCHEDFARM_NATS_CA"
	envCert     = "SCHEDFARM_NATS_CERT"
	envKey      = "SCHEDFARM_NATS_KEY"
)

// natsFlags are the connection flags shared by run, coordinator and worker.
type natsFlags struct {
	url, user, password, token, ca, cert, key string
}

func (n *natsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.url, "nats", os.Getenv(envNATS), "NATS server URL, e.g. nats://broker:4222 or tls://host:4222; the servers of a cluster comma-separated, to fail over between them (env "+envNATS+")")
	fs.StringVar(&n.user, "user", os.Getenv(envUser), "NATS user name (env "+envUser+")")
	fs.StringVar(&n.password, "password", os.Getenv(envPassword), "NATS password (env "+envPassword+"; prefer the variable to keep it out of ps)")
	fs.StringVar(&n.token, "token", os.Getenv(envToken), "NATS token instead of user/password (env "+envToken+")")
	fs.StringVar(&n.ca, "tls-ca", os.Getenv(envCA), "PEM CA bundle to verify the server's TLS certificate; turns TLS on (env "+envCA+")")
	fs.StringVar(&n.cert, "tls-cert", os.Getenv(envCert), "PEM client certificate for mutual TLS (env "+envCert+")")
	fs.StringVar(&n.key, "tls-key", os.Getenv(envKey), "PEM client key for mutual TLS (env "+envKey+")")
}

func (n *natsFlags) options(name string) broker.ClientOptions {
	return broker.ClientOptions{URL: n.url, User: n.user, Password: n.password, Token: n.token,
		CAFile: n.ca, CertFile: n.cert, KeyFile: n.key, Name: name}
}

// topologyFlags set the workers consumer's redelivery behaviour and the
// streams' replicas.
type topologyFlags struct {
	ackWait    time.Duration
	maxDeliver int
	replicas   int
	envErr     error // a malformed SCHEDFARM_ACK_WAIT
}

func (t *topologyFlags) register(fs *flag.FlagSet) {
	ackWait := broker.DefaultAckWait
	if v := os.Getenv("SCHEDFARM_ACK_WAIT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.envErr = fmt.Errorf("SCHEDFARM_ACK_WAIT %q: want a duration such as 30s", v)
		}
		ackWait = d
	}
	fs.DurationVar(&t.ackWait, "ack-wait", ackWait, "how long a cell may go without a worker heartbeat before it is redelivered (env SCHEDFARM_ACK_WAIT)")
	fs.IntVar(&t.maxDeliver, "max-deliver", broker.DefaultMaxDeliver, "deliveries of a cell before it is recorded as failed")
	fs.IntVar(&t.replicas, "replicas", 0, "replicas of the farm's streams when this run creates them; 0 picks 3 on a NATS cluster, 1 on a single server")
}

func (t *topologyFlags) topology() broker.Topology {
	return broker.Topology{AckWait: t.ackWait, MaxDeliver: t.maxDeliver, Replicas: t.replicas}
}

func (t *topologyFlags) validate() error {
	var errs []error
	if t.envErr != nil {
		errs = append(errs, t.envErr)
	}
	if t.replicas < 0 || t.replicas > 5 {
		errs = append(errs, fmt.Errorf("--replicas %d: want 0 (automatic) or 1..5", t.replicas))
	}
	if t.ackWait < 100*time.Millisecond {
		errs = append(errs, fmt.Errorf("--ack-wait %v: want at least 100ms (workers heartbeat every third of it)", t.ackWait))
	}
	if t.maxDeliver < 1 {
		errs = append(errs, fmt.Errorf("--max-deliver %d: want at least 1", t.maxDeliver))
	}
	return errors.Join(errs...)
}

// farmFlagSet returns a flag set that prints usage (with the given synopsis)
// to stderr on error and to stdout on --help.
func farmFlagSet(name, synopsis string, stdout, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: schedfarm %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// farmParseArgs parses flags that may come before or after positional
// arguments. It returns the positional arguments and an exit code ≥ 0 when
// the command should stop (0 after --help, 2 after a bad flag).
func farmParseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) (pos []string, exit int) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(stdout)
			fs.Usage()
			return nil, 0
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, 2
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, -1
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), -1
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// sweepFlags are what `run` and `coordinator` share: the connection and
// topology flags, the progress interval and the one spec argument.
type sweepFlags struct {
	nats     natsFlags
	topo     topologyFlags
	every    time.Duration
	dataRoot string
	grid     gridFlags      // --max-cells, --yes
	cells    cellLimitFlags // run only: the local workers' limits
	// acceptBuilds resumes an output that holds rows of another build;
	// repair sets a damaged journal's lines aside.
	acceptBuilds, repair bool
	// dispatch is the order cells are published in; dispatchErr a
	// malformed SCHEDFARM_DISPATCH.
	dispatch    coordinator.Dispatch
	dispatchErr error
	// parcel is --parcel; -1 (the default) for parcelSize's choice.
	parcel int
}

// parcelSize is the most cells one message carries (coordinator.Config.Parcel):
// --parcel if given, else coordinator.DefaultParcel on the embedded broker,
// which only this process's workers reach, and one cell a message through
// --nats, where workers of another build may take the cells.
func (s *sweepFlags) parcelSize() int {
	switch {
	case s.parcel >= 0:
		return s.parcel
	case s.nats.url == "":
		return coordinator.DefaultParcel
	}
	return 0
}

// topology is the topology of run's and tune's farm: the flags' settings,
// with the cells and results streams in memory on the embedded broker (no
// --nats), whose store no later run reads (broker.Topology.InMemory).
func (s *sweepFlags) topology() broker.Topology {
	t := s.topo.topology()
	t.InMemory = s.nats.url == ""
	return t
}

// register adds the shared flags to fs.
func (s *sweepFlags) register(fs *flag.FlagSet) {
	s.nats.register(fs)
	s.topo.register(fs)
	fs.DurationVar(&s.every, "progress-every", 10*time.Second, "interval of the plain progress lines when stdout is not a terminal")
	s.grid.register(fs)
	registerDataRoot(fs, &s.dataRoot)
	fs.BoolVar(&s.acceptBuilds, "accept-builds", os.Getenv("SCHEDFARM_ACCEPT_BUILDS") == "1", "resume an output that holds rows made by another build of schedfarm, keeping them (env SCHEDFARM_ACCEPT_BUILDS=1); without it such an output is refused (exit 5)")
	if v := os.Getenv("SCHEDFARM_DISPATCH"); v != "" {
		d, err := coordinator.ParseDispatch(v)
		if err != nil {
			s.dispatchErr = fmt.Errorf("SCHEDFARM_DISPATCH: %w", err)
		}
		s.dispatch = d
	}
	fs.Func("dispatch", "order the cells are published in: longest-first (default: a window of cells ahead of the results, the points whose replications ran longest first, so the sweep does not end on a long cell; a stopped coordinator leaves only the window to the workers) or grid (every cell at once in grid order; the workers drain the queue without a coordinator) (env SCHEDFARM_DISPATCH)", func(v string) error {
		d, err := coordinator.ParseDispatch(v)
		if err != nil {
			return err
		}
		s.dispatch, s.dispatchErr = d, nil
		return nil
	})
	s.parcel = -1
	fs.Func("parcel", fmt.Sprintf("most cells of points found instant (under %v a cell) that one message carries, 0 or 1 for a cell a message (default %d on the embedded broker, 1 with --nats); every worker must be of this build: an older one refuses such messages", coordinator.ParcelBudget/coordinator.DefaultParcel, coordinator.DefaultParcel), func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("want a number of cells from 0 to %d", broker.MaxParcel)
		}
		s.parcel = n
		return nil
	})
	fs.BoolVar(&s.repair, "repair", false, "set the damaged lines of the output's journal aside (<journal>.damaged) and run their cells again; without it a damaged journal is refused")
}

// withExitCodes adds the exit-code table to a command's --help.
func withExitCodes(fs *flag.FlagSet) {
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprint(fs.Output(), exitCodesHelp)
	}
}

// registerDataRoot adds --data-root: the directory workers read cell files
// from, and the one a coordinator's spec and files must lie under.
func registerDataRoot(fs *flag.FlagSet, dir *string) {
	fs.StringVar(dir, "data-root", os.Getenv("SCHEDFARM_DATA_ROOT"), "directory that cells' files (traces, plugins) are read from and must lie under; paths travel relative to it (default the working directory; env SCHEDFARM_DATA_ROOT)")
}

// parse parses args for the command name and checks the spec argument and
// the topology flags. It returns the spec path, or an exit code ≥ 0 when the
// command should stop (0 after --help, 2 after a usage error).
func (s *sweepFlags) parse(fs *flag.FlagSet, name string, args []string, stdout, stderr io.Writer) (spec string, exit int) {
	pos, exit := farmParseArgs(fs, args, stdout)
	if exit >= 0 {
		return "", exit
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "schedfarm %s: want exactly one spec file, got %d arguments\n", name, len(pos))
		return "", 2
	}
	var parcelErr error
	if s.parcel > broker.MaxParcel {
		parcelErr = fmt.Errorf("--parcel %d: want 0 or 1 (a cell a message) up to %d", s.parcel, broker.MaxParcel)
	}
	if err := errors.Join(s.topo.validate(), s.dispatchErr, parcelErr); err != nil {
		fmt.Fprintf(stderr, "schedfarm %s: %v\n", name, err)
		return "", 2
	}
	return pos[0], -1
}
