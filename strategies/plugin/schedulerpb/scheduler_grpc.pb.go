// The schedfarm scheduler plugin protocol, version 1.
//
// This file is the whole protocol. A scheduler plugin is an executable that
// schedfarm starts as a child process, one process per simulation run, and
// talks to over gRPC using HashiCorp go-plugin's handshake. It can be
// written in any language with gRPC; a Go SDK (strategies/plugin/sdk) and a
// Python example (examples/plugins/python) exist.
//
// # Handshake (go-plugin, gRPC mode)
//
// schedfarm starts the executable with the environment variable
// SCHEDFARM_PLUGIN=scheduler-v1-5f2c9d (the magic cookie; a plugin started
// without it should print a message saying it is a schedfarm plugin and
// exit) and PLUGIN_PROTOCOL_VERSIONS=1. The plugin serves gRPC on a Unix
// socket or 127.0.0.1 port and prints ONE line to stdout:
//
//     1|1|unix|/tmp/plugin123/sock|grpc
//
// core protocol 1 (go-plugin's), application protocol 1 (THIS protocol's
// version), network, address, "grpc". A plugin that announces another
// application version is refused with an error naming both versions. The
// plugin must also serve grpc.health.v1.Health (service "plugin" SERVING)
// and should serve go-plugin's plugin.GRPCController/Shutdown (exit when
// called); schedfarm kills the process at the end of the run either way.
// Anything the plugin writes to stderr is kept: the last lines are quoted
// in the error of a run that fails.
//
// # Session
//
//  1. Describe: schedfarm asks for the plugin's name, summary, parameters
//     and options. It is called when a spec is validated (to check the
//     parameters and sweep values) and again before each run.
//  2. Run: one bidirectional stream per simulation run. schedfarm sends a
//     HostMessage with `start` (platform, resolved parameters, seed); the
//     plugin answers with a PluginMessage `ready` (or fails the stream with
//     an error status whose message schedfarm reports). Then, for every
//     scheduling pass, schedfarm sends a HostMessage `pass` and the plugin
//     answers with exactly one PluginMessage `decisions`. At the end
//     schedfarm closes its side of the stream; the plugin returns.
//
// # What a pass carries: deltas, not the state
//
// A pass carries only what changed since the previous pass the plugin saw:
// the jobs that arrived (with everything the scheduler may know about them)
// and the jobs that ended (finished, or killed at their limit). Everything
// else the plugin knows already, because it made every start and reject
// itself and schedfarm applied each of them or failed the run. So the
// plugin's own record of the waiting and running jobs stays exact at the
// cost of the changes only. Each pass also carries the free units per pool
// and the counts of running and waiting jobs after the changes, so a plugin
// can check, for a few bytes, that its record agrees (the Go SDK does).
//
// Times are seconds of simulated time (doubles). A pass happens once per
// instant at which something happened, after every end, arrival and
// wake-up of that instant (ends first, so units freed at t are free for a
// job started at t). With pass_mode WHEN_STARTABLE the plugin asks to be
// called only when some waiting job fits in the free units (or on its
// wake-ups); the changes of skipped passes are then delivered together at
// the next pass it sees, each end with its own time. That is exact for
// schedulers whose decisions depend only on the current state (FCFS, EASY),
// not for ones that act on an arrival even when nothing can start (CONS).
//
// Jobs are named by `id`: a number schedfarm gives each job it tells the
// plugin about, 0, 1, 2, … in arrival order (dense, so a plugin can keep
// its jobs in an array). `workload_id` is the job's number in the workload
// (SWF field 1), for messages and logs only.
//
// # Decisions and their validation
//
// A plugin answers each pass with decisions, applied in this order:
// rejects, then starts in the order listed, then the reservations and the
// wake-up. schedfarm never trusts a plugin: every decision is checked
// against the simulation, and the first bad one fails the run with an error
// naming the plugin, the pass time and the decision:
//
//   - an id the plugin was never told about (a job not submitted yet, or
//     no job at all);
//   - a job that is not waiting (already started, or ended, or rejected);
//   - a start whose demand exceeds the free units (oversubscription);
//   - with places_processors, a processor list whose length is not the
//     job's processor demand, out of range, repeated, or naming a processor
//     in use; without it, any processor list;
//   - a reservation for a job that is not waiting, or at a time before the
//     pass or not finite; a wake-up that is not finite or not after the
//     pass.
//
// A plugin that crashes, does not answer a pass within the per-pass timeout
// (configurable; the process is then killed), breaks the stream or
// announces another protocol version fails the run the same way, with the
// tail of its stderr.

// Code generated by protoc-gen-go-grpc. DO NOT EDIT.
// versions:
// - protoc-gen-go-grpc v1.6.2
// - protoc             v3.21.12
// source: scheduler.proto

package schedulerpb

import (
	context "context"
	grpc "google.golang.org/grpc"
	codes "google.golang.org/grpc/codes"
	status "google.golang.org/grpc/status"
)

// This is a compile-time assertion to ensure that this generated file
// is compatible with the grpc package it is being compiled against.
// Requires gRPC-Go v1.64.0 or later.
const _ = grpc.SupportPackageIsVersion9

const (
	Scheduler_Describe_FullMethodName = "/schedfarm.scheduler.v1.Scheduler/Describe"
	Scheduler_Run_FullMethodName      = "/schedfarm.scheduler.v1.Scheduler/Run"
)

// SchedulerClient is the client API for Scheduler service.
//
// For semantics around ctx use and closing/ending streaming RPCs, please refer to https://pkg.go.dev/google.golang.org/grpc/?tab=doc#ClientConn.NewStream.
//
// Scheduler is the service a plugin serves.
type SchedulerClient interface {
	// Describe returns the plugin's name, parameters and options.
	Describe(ctx context.Context, in *DescribeRequest, opts ...grpc.CallOption) (*Description, error)
	// Run is one simulation: HostMessage start, then passes; see above.
	Run(ctx context.Context, opts ...grpc.CallOption) (grpc.BidiStreamingClient[HostMessage, PluginMessage], error)
}

type schedulerClient struct {
	cc grpc.ClientConnInterface
}

func NewSchedulerClient(cc grpc.ClientConnInterface) SchedulerClient {
	return &schedulerClient{cc}
}

func (c *schedulerClient) Describe(ctx context.Context, in *DescribeRequest, opts ...grpc.CallOption) (*Description, error) {
	cOpts := append([]grpc.CallOption{grpc.StaticMethod()}, opts...)
	out := new(Description)
	err := c.cc.Invoke(ctx, Scheduler_Describe_FullMethodName, in, out, cOpts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (c *schedulerClient) Run(ctx context.Context, opts ...grpc.CallOption) (grpc.BidiStreamingClient[HostMessage, PluginMessage], error) {
	cOpts := append([]grpc.CallOption{grpc.StaticMethod()}, opts...)
	stream, err := c.cc.NewStream(ctx, &Scheduler_ServiceDesc.Streams[0], Scheduler_Run_FullMethodName, cOpts...)
	if err != nil {
		return nil, err
	}
	x := &grpc.GenericClientStream[HostMessage, PluginMessage]{ClientStream: stream}
	return x, nil
}

// This type alias is provided for backwards compatibility with existing code that references the prior non-generic stream type by name.
type Scheduler_RunClient = grpc.BidiStreamingClient[HostMessage, PluginMessage]

// SchedulerServer is the server API for Scheduler service.
// All implementations must embed UnimplementedSchedulerServer
// for forward compatibility.
//
// Scheduler is the service a plugin serves.
type SchedulerServer interface {
	// Describe returns the plugin's name, parameters and options.
	Describe(context.Context, *DescribeRequest) (*Description, error)
	// Run is one simulation: HostMessage start, then passes; see above.
	Run(grpc.BidiStreamingServer[HostMessage, PluginMessage]) error
	mustEmbedUnimplementedSchedulerServer()
}

// UnimplementedSchedulerServer must be embedded to have
// forward compatible implementations.
//
// NOTE: this should be embedded by value instead of pointer to avoid a nil
// pointer dereference when methods are called.
type UnimplementedSchedulerServer struct{}

func (UnimplementedSchedulerServer) Describe(context.Context, *DescribeRequest) (*Description, error) {
	return nil, status.Error(codes.Unimplemented, "method Describe not implemented")
}
func (UnimplementedSchedulerServer) Run(grpc.BidiStreamingServer[HostMessage, PluginMessage]) error {
	return status.Error(codes.Unimplemented, "method Run not implemented")
}
func (UnimplementedSchedulerServer) mustEmbedUnimplementedSchedulerServer() {}
func (UnimplementedSchedulerServer) testEmbeddedByValue()                   {}

// UnsafeSchedulerServer may be embedded to opt out of forward compatibility for this service.
// Use of this interface is not recommended, as added methods to SchedulerServer will
// result in compilation errors.
type UnsafeSchedulerServer interface {
	mustEmbedUnimplementedSchedulerServer()
}

func RegisterSchedulerServer(s grpc.ServiceRegistrar, srv SchedulerServer) {
	// If the following call panics, it indicates UnimplementedSchedulerServer was
	// embedded by pointer and is nil.  This will cause panics if an
	// unimplemented method is ever invoked, so we test this at initialization
	// time to prevent it from happening at runtime later due to I/O.
	if t, ok := srv.(interface{ testEmbeddedByValue() }); ok {
		t.testEmbeddedByValue()
	}
	s.RegisterService(&Scheduler_ServiceDesc, srv)
}

func _Scheduler_Describe_Handler(srv interface{}, ctx context.Context, dec func(interface{}) error, interceptor grpc.UnaryServerInterceptor) (interface{}, error) {
	in := new(DescribeRequest)
	if err := dec(in); err != nil {
		return nil, err
	}
	if interceptor == nil {
		return srv.(SchedulerServer).Describe(ctx, in)
	}
	info := &grpc.UnaryServerInfo{
		Server:     srv,
		FullMethod: Scheduler_Describe_FullMethodName,
	}
	handler := func(ctx context.Context, req interface{}) (interface{}, error) {
		return srv.(SchedulerServer).Describe(ctx, req.(*DescribeRequest))
	}
	return interceptor(ctx, in, info, handler)
}

func _Scheduler_Run_Handler(srv interface{}, stream grpc.ServerStream) error {
	return srv.(SchedulerServer).Run(&grpc.GenericServerStream[HostMessage, PluginMessage]{ServerStream: stream})
}

// This type alias is provided for backwards compatibility with existing code that references the prior non-generic stream type by name.
type Scheduler_RunServer = grpc.BidiStreamingServer[HostMessage, PluginMessage]

// Scheduler_ServiceDesc is the grpc.ServiceDesc for Scheduler service.
// It's only intended for direct use with grpc.RegisterService,
// and not to be introspected or modified (even as a copy)
var Scheduler_ServiceDesc = grpc.ServiceDesc{
	ServiceName: "schedfarm.scheduler.v1.Scheduler",
	HandlerType: (*SchedulerServer)(nil),
	Methods: []grpc.MethodDesc{
		{
			MethodName: "Describe",
			Handler:    _Scheduler_Describe_Handler,
		},
	},
	Streams: []grpc.StreamDesc{
		{
			StreamName:    "Run",
			Handler:       _Scheduler_Run_Handler,
			ServerStreams: true,
			ClientStreams: true,
		},
	},
	Metadata: "scheduler.proto",
}
