package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"sync"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/schedfarm/schedfarm/strategies/plugin/schedulerpb"
)

// Kind is the type of a parameter.
type Kind int

// Parameter kinds.
const (
	Int Kind = iota
	Float
	String
)

// Param declares a parameter the plugin accepts. schedfarm checks every
// value a spec or command line gives against it (kind, bounds, choices)
// and fills in the default, so Run.Params always holds every declared
// parameter.
type Param struct {
	Name    string // lower-case letters, digits, '_'
	Kind    Kind
	Default any     // int64 (or int), float64 or string, of the kind
	Min     float64 // numbers: inclusive bounds when Min < Max; none when equal
	Max     float64
	Choices []string // strings: the accepted values (nil: any)
	Doc     string   // one line
}

// PassMode selects the passes a plugin is called at.
type PassMode int

// Pass modes.
const (
	// EveryPass: once per instant at which anything happened.
	EveryPass PassMode = iota
	// WhenStartable: only when some waiting job fits in the free units;
	// the changes of the passes skipped meanwhile come with the next one.
	// Exact for schedulers whose decisions depend only on the current
	// state (FCFS, EASY), not for ones that act on arrivals (CONS).
	WhenStartable
)

// Plugin describes a scheduler plugin. Serve runs it.
type Plugin struct {
	// Name is the scheduler's default name in results (letters, digits,
	// '.', '_', '-').
	Name string
	// Summary is one line saying what it does.
	Summary string
	// Params are the parameters it accepts.
	Params []Param
	// PassMode selects the passes it is called at (EveryPass by default).
	PassMode PassMode
	// PlacesProcessors: every start names its processors (StartOn); only
	// on platforms of one pool.
	PlacesProcessors bool
	// New builds the scheduler of one simulation run.
	New func(r Run) (Scheduler, error)
	// Procs is the plugin process's GOMAXPROCS (unless the environment
	// sets GOMAXPROCS); 0 means 1. Passes are sequential, and with one P
	// the message round trips of a pass are cheapest (about a third less
	// than with two on a 2-core machine); raise it for a scheduler that
	// computes in parallel within a pass.
	Procs int
}

// Run is what a simulation run starts with.
type Run struct {
	// Pools are the platform's resource pools; the classic machine is one
	// pool "procs" of identical processors.
	Pools []Pool
	// Params holds every declared parameter: int64, float64 or string.
	Params map[string]any
	// Seed is the cell's seed: draw any random numbers from it.
	Seed uint64
}

// Int returns integer parameter name.
func (r Run) Int(name string) int64 { v, _ := r.Params[name].(int64); return v }

// Float returns number parameter name.
func (r Run) Float(name string) float64 { v, _ := r.Params[name].(float64); return v }

// String returns string parameter name.
func (r Run) String(name string) string { v, _ := r.Params[name].(string); return v }

// Pool is one type of resource with a number of interchangeable units.
type Pool struct {
	Name     string
	Capacity int64
}

// Scheduler is a plugin's scheduler for one run. Pass is called once per
// scheduling pass with the cluster already updated (arrivals queued, ended
// jobs gone); it acts through the cluster. An error ends the run; schedfarm
// reports it as the cell's error.
type Scheduler interface {
	Pass(c *Cluster) error
}

// Serve runs the plugin: it completes go-plugin's handshake with schedfarm
// and serves runs until schedfarm ends the process. Call it from main. A
// plugin started by hand (without schedfarm's environment) prints a note
// and exits with status 1.
func Serve(p Plugin) {
	desc, err := p.description()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", os.Args[0], err)
		os.Exit(2)
	}
	srv := &server{p: p, desc: desc, stderr: os.Stderr}
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(max(p.Procs, 1))
	}
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: pb.Handshake(),
		Plugins:         goplugin.PluginSet{pb.PluginName: &pb.GoPlugin{Impl: srv}},
		GRPCServer:      goplugin.DefaultGRPCServer,
		Logger:          hclog.New(&hclog.LoggerOptions{Name: p.Name, Level: hclog.Warn, Output: os.Stderr}),
	})
}

// description checks p and builds its protocol description.
func (p Plugin) description() (*pb.Description, error) {
	var errs []error
	if p.Name == "" {
		errs = append(errs, errors.New("sdk: Plugin.Name is empty"))
	}
	if p.New == nil {
		errs = append(errs, errors.New("sdk: Plugin.New is nil"))
	}
	d := &pb.Description{Name: p.Name, Summary: p.Summary, PlacesProcessors: p.PlacesProcessors}
	switch p.PassMode {
	case EveryPass:
		d.PassMode = pb.PassMode_PASS_MODE_EVERY
	case WhenStartable:
		d.PassMode = pb.PassMode_PASS_MODE_WHEN_STARTABLE
	default:
		errs = append(errs, fmt.Errorf("sdk: PassMode %d; accepted: EveryPass, WhenStartable", p.PassMode))
	}
	for _, prm := range p.Params {
		s := &pb.ParamSpec{Name: prm.Name, Min: prm.Min, Max: prm.Max, Choices: prm.Choices, Doc: prm.Doc}
		switch v := prm.Default.(type) {
		case int:
			s.Default = &pb.Value{Kind: &pb.Value_Int{Int: int64(v)}}
		case int64:
			s.Default = &pb.Value{Kind: &pb.Value_Int{Int: v}}
		case float64:
			s.Default = &pb.Value{Kind: &pb.Value_Float{Float: v}}
		case string:
			s.Default = &pb.Value{Kind: &pb.Value_String_{String_: v}}
		default:
			errs = append(errs, fmt.Errorf("sdk: parameter %s: default %v (%T); accepted: int64, float64 or string", prm.Name, v, v))
		}
		switch prm.Kind {
		case Int:
			s.Kind = pb.ParamSpec_KIND_INT
		case Float:
			s.Kind = pb.ParamSpec_KIND_FLOAT
		case String:
			s.Kind = pb.ParamSpec_KIND_STRING
		default:
			errs = append(errs, fmt.Errorf("sdk: parameter %s: kind %d", prm.Name, prm.Kind))
		}
		d.Params = append(d.Params, s)
	}
	return d, errors.Join(errs...)
}

// server implements the Scheduler service over p.
type server struct {
	pb.UnimplementedSchedulerServer
	p      Plugin
	desc   *pb.Description
	stderr *os.File // the process's own stderr
	once   sync.Once
}

// directStderr points os.Stderr and the log package back at the process's
// own stderr. go-plugin's Serve redirects os.Stderr through a gRPC stream,
// whose last lines are lost when the plugin crashes; schedfarm reads the
// process's stderr itself and quotes its tail when a run fails.
func (s *server) directStderr() {
	s.once.Do(func() {
		os.Stderr = s.stderr
		log.SetOutput(s.stderr)
	})
}

func (s *server) Describe(context.Context, *pb.DescribeRequest) (*pb.Description, error) {
	s.directStderr()
	return s.desc, nil
}

// Run serves one simulation run: start, then one answer per pass.
func (s *server) Run(stream pb.Scheduler_RunServer) error {
	s.directStderr()
	msg, err := stream.Recv()
	if err != nil {
		return err
	}
	start := msg.GetStart()
	if start == nil {
		return status.Error(codes.InvalidArgument, "the run must begin with start")
	}
	c := newCluster(start, s.p.PlacesProcessors)
	run := Run{Pools: c.pools, Params: map[string]any{}, Seed: start.GetSeed()}
	for name, v := range start.GetParams() {
		switch x := v.GetKind().(type) {
		case *pb.Value_Int:
			run.Params[name] = x.Int
		case *pb.Value_Float:
			run.Params[name] = x.Float
		case *pb.Value_String_:
			run.Params[name] = x.String_
		}
	}
	sched, err := s.p.New(run)
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	if err := stream.Send(&pb.PluginMessage{Msg: &pb.PluginMessage_Ready{Ready: &pb.Ready{}}}); err != nil {
		return err
	}
	var in pb.HostMessage
	out := &pb.PluginMessage{Msg: &pb.PluginMessage_Decisions{Decisions: &c.dec}}
	for {
		if err := stream.RecvMsg(&in); err != nil {
			if errors.Is(err, io.EOF) {
				return nil // the run is over
			}
			return err
		}
		pass := in.GetPass()
		if pass == nil {
			return status.Error(codes.InvalidArgument, "expected a pass")
		}
		if err := c.apply(pass); err != nil {
			return status.Error(codes.FailedPrecondition, err.Error())
		}
		if err := sched.Pass(c); err != nil {
			return status.Errorf(codes.Aborted, "pass at t=%g: %v", c.now, err)
		}
		c.endPass()
		if err := stream.Send(out); err != nil {
			return err
		}
	}
}
