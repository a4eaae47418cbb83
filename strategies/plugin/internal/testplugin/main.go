// Command testplugin is a scheduler plugin for schedfarm's own tests: a
// plain FCFS that speaks the protocol without the SDK (whose checks would
// stop it), and misbehaves on request, so the tests can check that the
// host catches every kind of bad decision and failure.
//
// Behaviours before a run are chosen by the executable's name (the tests
// copy the binary): "v2" announces protocol version 2, "crashstart" exits
// with a message on stderr before the handshake, "placer" declares
// places_processors. During a run the parameter mode chooses: ok (FCFS),
// oversubscribe, unknown, twice, running, crash, hang, error, wake-past,
// reserve-running, overlap (placer only), every-name.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/schedfarm/schedfarm/strategies/plugin/schedulerpb"
)

// stderr is the process's own stderr: go-plugin's Serve redirects
// os.Stderr through a gRPC stream, which loses the last lines of a
// process that crashes.
var stderr = os.Stderr

func main() {
	name := filepath.Base(os.Args[0])
	hs := pb.Handshake()
	switch {
	case strings.HasPrefix(name, "crashstart"):
		fmt.Fprintln(os.Stderr, "testplugin: boom before the handshake")
		os.Exit(3)
	case strings.HasPrefix(name, "v2"):
		hs.ProtocolVersion = 2
	}
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: hs,
		Plugins:         goplugin.PluginSet{pb.PluginName: &pb.GoPlugin{Impl: &server{placer: strings.HasPrefix(name, "placer")}}},
		GRPCServer:      goplugin.DefaultGRPCServer,
		Logger:          hclog.New(&hclog.LoggerOptions{Level: hclog.Warn, Output: os.Stderr}),
	})
}

type server struct {
	pb.UnimplementedSchedulerServer
	placer bool
}

func (s *server) Describe(context.Context, *pb.DescribeRequest) (*pb.Description, error) {
	return &pb.Description{
		Name: "testplugin", Summary: "FCFS that misbehaves on request", PlacesProcessors: s.placer,
		Params: []*pb.ParamSpec{
			{Name: "mode", Kind: pb.ParamSpec_KIND_STRING, Default: &pb.Value{Kind: &pb.Value_String_{String_: "ok"}},
				Choices: []string{"ok", "oversubscribe", "unknown", "twice", "running", "crash", "hang", "error",
					"wake-past", "reserve-running", "overlap"}},
			{Name: "after", Kind: pb.ParamSpec_KIND_INT, Default: &pb.Value{Kind: &pb.Value_Int{Int: 0}}, Min: 0, Max: 1e9,
				Doc: "behave for this many passes first"},
		},
	}, nil
}

// Run serves FCFS: start waiting jobs in arrival order while they fit.
func (s *server) Run(stream pb.Scheduler_RunServer) error {
	msg, err := stream.Recv()
	if err != nil {
		return err
	}
	start := msg.GetStart()
	mode := start.GetParams()["mode"].GetString_()
	after := start.GetParams()["after"].GetInt()
	free := start.GetPlatform().GetPools()[0].GetCapacity()
	if err := stream.Send(&pb.PluginMessage{Msg: &pb.PluginMessage_Ready{Ready: &pb.Ready{}}}); err != nil {
		return err
	}
	demand := map[uint64]int64{}
	var queue []uint64
	var running []uint64
	idle := make([]bool, free)
	for i := range idle {
		idle[i] = true
	}
	procsOf := map[uint64][]uint32{}
	for pass := int64(0); ; pass++ {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		p := msg.GetPass()
		for _, e := range p.GetEnded() {
			free += demand[e.GetId()]
			for _, q := range procsOf[e.GetId()] {
				idle[q] = true
			}
			for i, id := range running {
				if id == e.GetId() {
					running = append(running[:i], running[i+1:]...)
					break
				}
			}
		}
		for _, j := range p.GetArrived() {
			demand[j.GetId()] = j.GetDemand()[0]
			queue = append(queue, j.GetId())
		}
		d := &pb.Decisions{}
		misbehave := pass >= after && mode != "ok"
		if misbehave {
			fmt.Fprintf(stderr, "testplugin: misbehaving (%s) at t=%g\n", mode, p.GetNow())
			switch mode {
			case "oversubscribe":
				for _, id := range queue {
					d.Start = append(d.Start, &pb.StartJob{Id: id})
				}
				queue = nil
			case "unknown":
				d.Start = append(d.Start, &pb.StartJob{Id: 999})
			case "twice":
				if len(queue) > 0 {
					d.Start = append(d.Start, &pb.StartJob{Id: queue[0]}, &pb.StartJob{Id: queue[0]})
				}
			case "running":
				if len(running) > 0 {
					d.Start = append(d.Start, &pb.StartJob{Id: running[0]})
				} else {
					misbehave = false
				}
			case "crash":
				fmt.Fprintln(stderr, "testplugin: about to crash")
				panic("testplugin crashed on purpose")
			case "hang":
				time.Sleep(time.Hour)
			case "error":
				return status.Error(codes.Internal, "testplugin refuses to go on")
			case "wake-past":
				d.WakeAt = p.GetNow() - 1
			case "reserve-running":
				if len(running) > 0 {
					d.Reservations = &pb.Reservations{Items: []*pb.Reservation{{Id: running[0], Start: p.GetNow() + 5}}}
				} else {
					misbehave = false
				}
			case "overlap":
				for _, id := range queue {
					var procs []uint32
					for k := int64(0); k < demand[id]; k++ {
						procs = append(procs, uint32(k)) // always from processor 0
					}
					d.Start = append(d.Start, &pb.StartJob{Id: id, Processors: procs})
				}
				queue = nil
			}
		}
		if !misbehave {
			for len(queue) > 0 && demand[queue[0]] <= free {
				id := queue[0]
				st := &pb.StartJob{Id: id}
				if s.placer {
					for q := range idle {
						if idle[q] && int64(len(st.Processors)) < demand[id] {
							idle[q] = false
							st.Processors = append(st.Processors, uint32(q))
						}
					}
					procsOf[id] = st.Processors
				}
				d.Start = append(d.Start, st)
				free -= demand[id]
				running = append(running, id)
				queue = queue[1:]
			}
		}
		if err := stream.Send(&pb.PluginMessage{Msg: &pb.PluginMessage_Decisions{Decisions: d}}); err != nil {
			return err
		}
	}
}
