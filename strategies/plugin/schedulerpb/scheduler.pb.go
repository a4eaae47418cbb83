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

// Code generated by protoc-gen-go. DO NOT EDIT.
// versions:
// 	protoc-gen-go v1.36.12
// 	protoc        v3.21.12
// source: scheduler.proto

package schedulerpb

import (
	protoreflect "google.golang.org/protobuf/reflect/protoreflect"
	protoimpl "google.golang.org/protobuf/runtime/protoimpl"
	reflect "reflect"
	sync "sync"
	unsafe "unsafe"
)

const (
	// Verify that this generated code is sufficiently up-to-date.
	_ = protoimpl.EnforceVersion(20 - protoimpl.MinVersion)
	// Verify that runtime/protoimpl is sufficiently up-to-date.
	_ = protoimpl.EnforceVersion(protoimpl.MaxVersion - 20)
)

// PassMode selects the passes a plugin is called at.
type PassMode int32

const (
	// Every pass: once per instant at which anything happened.
	PassMode_PASS_MODE_EVERY PassMode = 0
	// Only passes at which some waiting job fits in the free units, and the
	// plugin's wake-ups at which one does.
	PassMode_PASS_MODE_WHEN_STARTABLE PassMode = 1
)

// Enum value maps for PassMode.
var (
	PassMode_name = map[int32]string{
		0: "PASS_MODE_EVERY",
		1: "PASS_MODE_WHEN_STARTABLE",
	}
	PassMode_value = map[string]int32{
		"PASS_MODE_EVERY":          0,
		"PASS_MODE_WHEN_STARTABLE": 1,
	}
)

func (x PassMode) Enum() *PassMode {
	p := new(PassMode)
	*p = x
	return p
}

func (x PassMode) String() string {
	return protoimpl.X.EnumStringOf(x.Descriptor(), protoreflect.EnumNumber(x))
}

func (PassMode) Descriptor() protoreflect.EnumDescriptor {
	return file_scheduler_proto_enumTypes[0].Descriptor()
}

func (PassMode) Type() protoreflect.EnumType {
	return &file_scheduler_proto_enumTypes[0]
}

func (x PassMode) Number() protoreflect.EnumNumber {
	return protoreflect.EnumNumber(x)
}

// Deprecated: Use PassMode.Descriptor instead.
func (PassMode) EnumDescriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{0}
}

type ParamSpec_Kind int32

const (
	ParamSpec_KIND_INT    ParamSpec_Kind = 0
	ParamSpec_KIND_FLOAT  ParamSpec_Kind = 1
	ParamSpec_KIND_STRING ParamSpec_Kind = 2
)

// Enum value maps for ParamSpec_Kind.
var (
	ParamSpec_Kind_name = map[int32]string{
		0: "KIND_INT",
		1: "KIND_FLOAT",
		2: "KIND_STRING",
	}
	ParamSpec_Kind_value = map[string]int32{
		"KIND_INT":    0,
		"KIND_FLOAT":  1,
		"KIND_STRING": 2,
	}
)

func (x ParamSpec_Kind) Enum() *ParamSpec_Kind {
	p := new(ParamSpec_Kind)
	*p = x
	return p
}

func (x ParamSpec_Kind) String() string {
	return protoimpl.X.EnumStringOf(x.Descriptor(), protoreflect.EnumNumber(x))
}

func (ParamSpec_Kind) Descriptor() protoreflect.EnumDescriptor {
	return file_scheduler_proto_enumTypes[1].Descriptor()
}

func (ParamSpec_Kind) Type() protoreflect.EnumType {
	return &file_scheduler_proto_enumTypes[1]
}

func (x ParamSpec_Kind) Number() protoreflect.EnumNumber {
	return protoreflect.EnumNumber(x)
}

// Deprecated: Use ParamSpec_Kind.Descriptor instead.
func (ParamSpec_Kind) EnumDescriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{2, 0}
}

// DescribeRequest is empty; protocol_version is the host's, for plugins
// that want to check it a second time.
type DescribeRequest struct {
	state           protoimpl.MessageState `protogen:"open.v1"`
	ProtocolVersion uint32                 `protobuf:"varint,1,opt,name=protocol_version,json=protocolVersion,proto3" json:"protocol_version,omitempty"`
	unknownFields   protoimpl.UnknownFields
	sizeCache       protoimpl.SizeCache
}

func (x *DescribeRequest) Reset() {
	*x = DescribeRequest{}
	mi := &file_scheduler_proto_msgTypes[0]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *DescribeRequest) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*DescribeRequest) ProtoMessage() {}

func (x *DescribeRequest) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[0]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use DescribeRequest.ProtoReflect.Descriptor instead.
func (*DescribeRequest) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{0}
}

func (x *DescribeRequest) GetProtocolVersion() uint32 {
	if x != nil {
		return x.ProtocolVersion
	}
	return 0
}

// Description tells schedfarm about the plugin.
type Description struct {
	state protoimpl.MessageState `protogen:"open.v1"`
	// name is the plugin's short name (letters, digits, '.', '_', '-'); it is
	// the scheduler's default name in results.
	Name string `protobuf:"bytes,1,opt,name=name,proto3" json:"name,omitempty"`
	// summary is one line saying what the scheduler does.
	Summary string `protobuf:"bytes,2,opt,name=summary,proto3" json:"summary,omitempty"`
	// params are the parameters the plugin accepts; any other is an error
	// before a run starts. Values are checked against kind, range and
	// choices, and defaults filled in, by schedfarm.
	Params []*ParamSpec `protobuf:"bytes,3,rep,name=params,proto3" json:"params,omitempty"`
	// pass_mode says which passes the plugin wants (see above).
	PassMode PassMode `protobuf:"varint,4,opt,name=pass_mode,json=passMode,proto3,enum=schedfarm.scheduler.v1.PassMode" json:"pass_mode,omitempty"`
	// places_processors: every start names the processors the job runs on
	// (single-pool platforms only); schedfarm checks them.
	PlacesProcessors bool `protobuf:"varint,5,opt,name=places_processors,json=placesProcessors,proto3" json:"places_processors,omitempty"`
	unknownFields    protoimpl.UnknownFields
	sizeCache        protoimpl.SizeCache
}

func (x *Description) Reset() {
	*x = Description{}
	mi := &file_scheduler_proto_msgTypes[1]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Description) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Description) ProtoMessage() {}

func (x *Description) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[1]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Description.ProtoReflect.Descriptor instead.
func (*Description) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{1}
}

func (x *Description) GetName() string {
	if x != nil {
		return x.Name
	}
	return ""
}

func (x *Description) GetSummary() string {
	if x != nil {
		return x.Summary
	}
	return ""
}

func (x *Description) GetParams() []*ParamSpec {
	if x != nil {
		return x.Params
	}
	return nil
}

func (x *Description) GetPassMode() PassMode {
	if x != nil {
		return x.PassMode
	}
	return PassMode_PASS_MODE_EVERY
}

func (x *Description) GetPlacesProcessors() bool {
	if x != nil {
		return x.PlacesProcessors
	}
	return false
}

// ParamSpec declares one parameter.
type ParamSpec struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	Name          string                 `protobuf:"bytes,1,opt,name=name,proto3" json:"name,omitempty"` // lower-case letters, digits, '_'
	Kind          ParamSpec_Kind         `protobuf:"varint,2,opt,name=kind,proto3,enum=schedfarm.scheduler.v1.ParamSpec_Kind" json:"kind,omitempty"`
	Default       *Value                 `protobuf:"bytes,3,opt,name=default,proto3" json:"default,omitempty"` // required; of the parameter's kind
	Min           float64                `protobuf:"fixed64,4,opt,name=min,proto3" json:"min,omitempty"`       // numbers: inclusive bounds; min = max = 0: no bounds
	Max           float64                `protobuf:"fixed64,5,opt,name=max,proto3" json:"max,omitempty"`
	Choices       []string               `protobuf:"bytes,6,rep,name=choices,proto3" json:"choices,omitempty"` // strings: the accepted values (empty: any)
	Doc           string                 `protobuf:"bytes,7,opt,name=doc,proto3" json:"doc,omitempty"`         // one line
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *ParamSpec) Reset() {
	*x = ParamSpec{}
	mi := &file_scheduler_proto_msgTypes[2]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *ParamSpec) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*ParamSpec) ProtoMessage() {}

func (x *ParamSpec) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[2]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use ParamSpec.ProtoReflect.Descriptor instead.
func (*ParamSpec) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{2}
}

func (x *ParamSpec) GetName() string {
	if x != nil {
		return x.Name
	}
	return ""
}

func (x *ParamSpec) GetKind() ParamSpec_Kind {
	if x != nil {
		return x.Kind
	}
	return ParamSpec_KIND_INT
}

func (x *ParamSpec) GetDefault() *Value {
	if x != nil {
		return x.Default
	}
	return nil
}

func (x *ParamSpec) GetMin() float64 {
	if x != nil {
		return x.Min
	}
	return 0
}

func (x *ParamSpec) GetMax() float64 {
	if x != nil {
		return x.Max
	}
	return 0
}

func (x *ParamSpec) GetChoices() []string {
	if x != nil {
		return x.Choices
	}
	return nil
}

func (x *ParamSpec) GetDoc() string {
	if x != nil {
		return x.Doc
	}
	return ""
}

// Value is one parameter value.
type Value struct {
	state protoimpl.MessageState `protogen:"open.v1"`
	// Types that are valid to be assigned to Kind:
	//
	//	*Value_Int
	//	*Value_Float
	//	*Value_String_
	Kind          isValue_Kind `protobuf_oneof:"kind"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Value) Reset() {
	*x = Value{}
	mi := &file_scheduler_proto_msgTypes[3]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Value) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Value) ProtoMessage() {}

func (x *Value) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[3]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Value.ProtoReflect.Descriptor instead.
func (*Value) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{3}
}

func (x *Value) GetKind() isValue_Kind {
	if x != nil {
		return x.Kind
	}
	return nil
}

func (x *Value) GetInt() int64 {
	if x != nil {
		if x, ok := x.Kind.(*Value_Int); ok {
			return x.Int
		}
	}
	return 0
}

func (x *Value) GetFloat() float64 {
	if x != nil {
		if x, ok := x.Kind.(*Value_Float); ok {
			return x.Float
		}
	}
	return 0
}

func (x *Value) GetString_() string {
	if x != nil {
		if x, ok := x.Kind.(*Value_String_); ok {
			return x.String_
		}
	}
	return ""
}

type isValue_Kind interface {
	isValue_Kind()
}

type Value_Int struct {
	Int int64 `protobuf:"varint,1,opt,name=int,proto3,oneof"`
}

type Value_Float struct {
	Float float64 `protobuf:"fixed64,2,opt,name=float,proto3,oneof"`
}

type Value_String_ struct {
	String_ string `protobuf:"bytes,3,opt,name=string,proto3,oneof"`
}

func (*Value_Int) isValue_Kind() {}

func (*Value_Float) isValue_Kind() {}

func (*Value_String_) isValue_Kind() {}

// HostMessage is what schedfarm sends on the Run stream.
type HostMessage struct {
	state protoimpl.MessageState `protogen:"open.v1"`
	// Types that are valid to be assigned to Msg:
	//
	//	*HostMessage_Start
	//	*HostMessage_Pass
	Msg           isHostMessage_Msg `protobuf_oneof:"msg"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *HostMessage) Reset() {
	*x = HostMessage{}
	mi := &file_scheduler_proto_msgTypes[4]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *HostMessage) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*HostMessage) ProtoMessage() {}

func (x *HostMessage) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[4]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use HostMessage.ProtoReflect.Descriptor instead.
func (*HostMessage) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{4}
}

func (x *HostMessage) GetMsg() isHostMessage_Msg {
	if x != nil {
		return x.Msg
	}
	return nil
}

func (x *HostMessage) GetStart() *Start {
	if x != nil {
		if x, ok := x.Msg.(*HostMessage_Start); ok {
			return x.Start
		}
	}
	return nil
}

func (x *HostMessage) GetPass() *Pass {
	if x != nil {
		if x, ok := x.Msg.(*HostMessage_Pass); ok {
			return x.Pass
		}
	}
	return nil
}

type isHostMessage_Msg interface {
	isHostMessage_Msg()
}

type HostMessage_Start struct {
	Start *Start `protobuf:"bytes,1,opt,name=start,proto3,oneof"`
}

type HostMessage_Pass struct {
	Pass *Pass `protobuf:"bytes,2,opt,name=pass,proto3,oneof"`
}

func (*HostMessage_Start) isHostMessage_Msg() {}

func (*HostMessage_Pass) isHostMessage_Msg() {}

// Start opens a run.
type Start struct {
	state    protoimpl.MessageState `protogen:"open.v1"`
	Platform *Platform              `protobuf:"bytes,1,opt,name=platform,proto3" json:"platform,omitempty"`
	// params holds every declared parameter, with its default when the spec
	// gave none.
	Params map[string]*Value `protobuf:"bytes,2,rep,name=params,proto3" json:"params,omitempty" protobuf_key:"bytes,1,opt,name=key" protobuf_val:"bytes,2,opt,name=value"`
	// seed is the cell's seed: a plugin that draws random numbers should draw
	// them from it, so that a cell gives the same result on any worker.
	Seed          uint64 `protobuf:"varint,3,opt,name=seed,proto3" json:"seed,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Start) Reset() {
	*x = Start{}
	mi := &file_scheduler_proto_msgTypes[5]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Start) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Start) ProtoMessage() {}

func (x *Start) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[5]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Start.ProtoReflect.Descriptor instead.
func (*Start) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{5}
}

func (x *Start) GetPlatform() *Platform {
	if x != nil {
		return x.Platform
	}
	return nil
}

func (x *Start) GetParams() map[string]*Value {
	if x != nil {
		return x.Params
	}
	return nil
}

func (x *Start) GetSeed() uint64 {
	if x != nil {
		return x.Seed
	}
	return 0
}

// Platform is the simulated machine: typed pools of interchangeable units.
// The classic machine is one pool "procs" of P identical processors.
type Platform struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	Pools         []*Pool                `protobuf:"bytes,1,rep,name=pools,proto3" json:"pools,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Platform) Reset() {
	*x = Platform{}
	mi := &file_scheduler_proto_msgTypes[6]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Platform) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Platform) ProtoMessage() {}

func (x *Platform) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[6]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Platform.ProtoReflect.Descriptor instead.
func (*Platform) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{6}
}

func (x *Platform) GetPools() []*Pool {
	if x != nil {
		return x.Pools
	}
	return nil
}

type Pool struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	Name          string                 `protobuf:"bytes,1,opt,name=name,proto3" json:"name,omitempty"`
	Capacity      int64                  `protobuf:"varint,2,opt,name=capacity,proto3" json:"capacity,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Pool) Reset() {
	*x = Pool{}
	mi := &file_scheduler_proto_msgTypes[7]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Pool) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Pool) ProtoMessage() {}

func (x *Pool) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[7]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Pool.ProtoReflect.Descriptor instead.
func (*Pool) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{7}
}

func (x *Pool) GetName() string {
	if x != nil {
		return x.Name
	}
	return ""
}

func (x *Pool) GetCapacity() int64 {
	if x != nil {
		return x.Capacity
	}
	return 0
}

// Pass is one scheduling pass.
type Pass struct {
	state protoimpl.MessageState `protogen:"open.v1"`
	Now   float64                `protobuf:"fixed64,1,opt,name=now,proto3" json:"now,omitempty"`
	// arrived: the jobs that arrived since the previous pass, in arrival
	// order. Jobs wider than the platform are rejected by schedfarm on
	// arrival and never sent.
	Arrived []*Job `protobuf:"bytes,2,rep,name=arrived,proto3" json:"arrived,omitempty"`
	// ended: the jobs that ended since the previous pass.
	Ended []*Ended `protobuf:"bytes,3,rep,name=ended,proto3" json:"ended,omitempty"`
	// free units per pool, running and waiting job counts, after the changes
	// and before the plugin's decisions: for the plugin's own check.
	Free          []int64 `protobuf:"varint,4,rep,packed,name=free,proto3" json:"free,omitempty"`
	Running       uint32  `protobuf:"varint,5,opt,name=running,proto3" json:"running,omitempty"`
	Waiting       uint32  `protobuf:"varint,6,opt,name=waiting,proto3" json:"waiting,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Pass) Reset() {
	*x = Pass{}
	mi := &file_scheduler_proto_msgTypes[8]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Pass) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Pass) ProtoMessage() {}

func (x *Pass) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[8]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Pass.ProtoReflect.Descriptor instead.
func (*Pass) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{8}
}

func (x *Pass) GetNow() float64 {
	if x != nil {
		return x.Now
	}
	return 0
}

func (x *Pass) GetArrived() []*Job {
	if x != nil {
		return x.Arrived
	}
	return nil
}

func (x *Pass) GetEnded() []*Ended {
	if x != nil {
		return x.Ended
	}
	return nil
}

func (x *Pass) GetFree() []int64 {
	if x != nil {
		return x.Free
	}
	return nil
}

func (x *Pass) GetRunning() uint32 {
	if x != nil {
		return x.Running
	}
	return 0
}

func (x *Pass) GetWaiting() uint32 {
	if x != nil {
		return x.Waiting
	}
	return 0
}

// Job is a job as the scheduler may see it. Its actual runtime is not told.
type Job struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	Id            uint64                 `protobuf:"varint,1,opt,name=id,proto3" json:"id,omitempty"`                                   // schedfarm's number for it (see above)
	WorkloadId    int64                  `protobuf:"varint,2,opt,name=workload_id,json=workloadId,proto3" json:"workload_id,omitempty"` // SWF field 1
	Submit        float64                `protobuf:"fixed64,3,opt,name=submit,proto3" json:"submit,omitempty"`
	Estimate      float64                `protobuf:"fixed64,4,opt,name=estimate,proto3" json:"estimate,omitempty"`   // the runtime the scheduler is told, seconds
	Demand        []int64                `protobuf:"varint,5,rep,packed,name=demand,proto3" json:"demand,omitempty"` // units per pool; demand[0] = processors
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Job) Reset() {
	*x = Job{}
	mi := &file_scheduler_proto_msgTypes[9]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Job) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Job) ProtoMessage() {}

func (x *Job) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[9]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Job.ProtoReflect.Descriptor instead.
func (*Job) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{9}
}

func (x *Job) GetId() uint64 {
	if x != nil {
		return x.Id
	}
	return 0
}

func (x *Job) GetWorkloadId() int64 {
	if x != nil {
		return x.WorkloadId
	}
	return 0
}

func (x *Job) GetSubmit() float64 {
	if x != nil {
		return x.Submit
	}
	return 0
}

func (x *Job) GetEstimate() float64 {
	if x != nil {
		return x.Estimate
	}
	return 0
}

func (x *Job) GetDemand() []int64 {
	if x != nil {
		return x.Demand
	}
	return nil
}

type Ended struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	Id            uint64                 `protobuf:"varint,1,opt,name=id,proto3" json:"id,omitempty"`
	At            float64                `protobuf:"fixed64,2,opt,name=at,proto3" json:"at,omitempty"`        // when it ended
	Killed        bool                   `protobuf:"varint,3,opt,name=killed,proto3" json:"killed,omitempty"` // killed at its limit rather than finished
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Ended) Reset() {
	*x = Ended{}
	mi := &file_scheduler_proto_msgTypes[10]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Ended) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Ended) ProtoMessage() {}

func (x *Ended) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[10]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Ended.ProtoReflect.Descriptor instead.
func (*Ended) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{10}
}

func (x *Ended) GetId() uint64 {
	if x != nil {
		return x.Id
	}
	return 0
}

func (x *Ended) GetAt() float64 {
	if x != nil {
		return x.At
	}
	return 0
}

func (x *Ended) GetKilled() bool {
	if x != nil {
		return x.Killed
	}
	return false
}

// PluginMessage is what the plugin sends on the Run stream.
type PluginMessage struct {
	state protoimpl.MessageState `protogen:"open.v1"`
	// Types that are valid to be assigned to Msg:
	//
	//	*PluginMessage_Ready
	//	*PluginMessage_Decisions
	Msg           isPluginMessage_Msg `protobuf_oneof:"msg"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *PluginMessage) Reset() {
	*x = PluginMessage{}
	mi := &file_scheduler_proto_msgTypes[11]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *PluginMessage) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*PluginMessage) ProtoMessage() {}

func (x *PluginMessage) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[11]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use PluginMessage.ProtoReflect.Descriptor instead.
func (*PluginMessage) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{11}
}

func (x *PluginMessage) GetMsg() isPluginMessage_Msg {
	if x != nil {
		return x.Msg
	}
	return nil
}

func (x *PluginMessage) GetReady() *Ready {
	if x != nil {
		if x, ok := x.Msg.(*PluginMessage_Ready); ok {
			return x.Ready
		}
	}
	return nil
}

func (x *PluginMessage) GetDecisions() *Decisions {
	if x != nil {
		if x, ok := x.Msg.(*PluginMessage_Decisions); ok {
			return x.Decisions
		}
	}
	return nil
}

type isPluginMessage_Msg interface {
	isPluginMessage_Msg()
}

type PluginMessage_Ready struct {
	Ready *Ready `protobuf:"bytes,1,opt,name=ready,proto3,oneof"`
}

type PluginMessage_Decisions struct {
	Decisions *Decisions `protobuf:"bytes,2,opt,name=decisions,proto3,oneof"`
}

func (*PluginMessage_Ready) isPluginMessage_Msg() {}

func (*PluginMessage_Decisions) isPluginMessage_Msg() {}

// Ready accepts a Start.
type Ready struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Ready) Reset() {
	*x = Ready{}
	mi := &file_scheduler_proto_msgTypes[12]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Ready) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Ready) ProtoMessage() {}

func (x *Ready) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[12]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Ready.ProtoReflect.Descriptor instead.
func (*Ready) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{12}
}

// Decisions answer one pass. Empty decisions mean "nothing now".
type Decisions struct {
	state  protoimpl.MessageState `protogen:"open.v1"`
	Start  []*StartJob            `protobuf:"bytes,1,rep,name=start,proto3" json:"start,omitempty"`
	Reject []*RejectJob           `protobuf:"bytes,2,rep,name=reject,proto3" json:"reject,omitempty"`
	// reservations, when present, replace the set the plugin shows (the
	// promised start times of waiting jobs; schedfarm's tests check that a
	// promise never moves later). Absent: the set is unchanged, except that
	// jobs which started or were rejected leave it.
	Reservations *Reservations `protobuf:"bytes,3,opt,name=reservations,proto3" json:"reservations,omitempty"`
	// wake_at > 0 asks for a pass at that time even if nothing else happens.
	WakeAt        float64 `protobuf:"fixed64,4,opt,name=wake_at,json=wakeAt,proto3" json:"wake_at,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Decisions) Reset() {
	*x = Decisions{}
	mi := &file_scheduler_proto_msgTypes[13]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Decisions) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Decisions) ProtoMessage() {}

func (x *Decisions) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[13]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Decisions.ProtoReflect.Descriptor instead.
func (*Decisions) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{13}
}

func (x *Decisions) GetStart() []*StartJob {
	if x != nil {
		return x.Start
	}
	return nil
}

func (x *Decisions) GetReject() []*RejectJob {
	if x != nil {
		return x.Reject
	}
	return nil
}

func (x *Decisions) GetReservations() *Reservations {
	if x != nil {
		return x.Reservations
	}
	return nil
}

func (x *Decisions) GetWakeAt() float64 {
	if x != nil {
		return x.WakeAt
	}
	return 0
}

type StartJob struct {
	state protoimpl.MessageState `protogen:"open.v1"`
	Id    uint64                 `protobuf:"varint,1,opt,name=id,proto3" json:"id,omitempty"`
	// processors: with places_processors, the processors (0 … capacity-1 of
	// the single pool) the job runs on, one per unit of its demand.
	Processors    []uint32 `protobuf:"varint,2,rep,packed,name=processors,proto3" json:"processors,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *StartJob) Reset() {
	*x = StartJob{}
	mi := &file_scheduler_proto_msgTypes[14]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *StartJob) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*StartJob) ProtoMessage() {}

func (x *StartJob) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[14]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use StartJob.ProtoReflect.Descriptor instead.
func (*StartJob) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{14}
}

func (x *StartJob) GetId() uint64 {
	if x != nil {
		return x.Id
	}
	return 0
}

func (x *StartJob) GetProcessors() []uint32 {
	if x != nil {
		return x.Processors
	}
	return nil
}

type RejectJob struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	Id            uint64                 `protobuf:"varint,1,opt,name=id,proto3" json:"id,omitempty"`
	Reason        string                 `protobuf:"bytes,2,opt,name=reason,proto3" json:"reason,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *RejectJob) Reset() {
	*x = RejectJob{}
	mi := &file_scheduler_proto_msgTypes[15]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *RejectJob) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*RejectJob) ProtoMessage() {}

func (x *RejectJob) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[15]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use RejectJob.ProtoReflect.Descriptor instead.
func (*RejectJob) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{15}
}

func (x *RejectJob) GetId() uint64 {
	if x != nil {
		return x.Id
	}
	return 0
}

func (x *RejectJob) GetReason() string {
	if x != nil {
		return x.Reason
	}
	return ""
}

type Reservations struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	Items         []*Reservation         `protobuf:"bytes,1,rep,name=items,proto3" json:"items,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Reservations) Reset() {
	*x = Reservations{}
	mi := &file_scheduler_proto_msgTypes[16]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Reservations) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Reservations) ProtoMessage() {}

func (x *Reservations) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[16]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Reservations.ProtoReflect.Descriptor instead.
func (*Reservations) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{16}
}

func (x *Reservations) GetItems() []*Reservation {
	if x != nil {
		return x.Items
	}
	return nil
}

type Reservation struct {
	state         protoimpl.MessageState `protogen:"open.v1"`
	Id            uint64                 `protobuf:"varint,1,opt,name=id,proto3" json:"id,omitempty"`
	Start         float64                `protobuf:"fixed64,2,opt,name=start,proto3" json:"start,omitempty"`
	unknownFields protoimpl.UnknownFields
	sizeCache     protoimpl.SizeCache
}

func (x *Reservation) Reset() {
	*x = Reservation{}
	mi := &file_scheduler_proto_msgTypes[17]
	ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
	ms.StoreMessageInfo(mi)
}

func (x *Reservation) String() string {
	return protoimpl.X.MessageStringOf(x)
}

func (*Reservation) ProtoMessage() {}

func (x *Reservation) ProtoReflect() protoreflect.Message {
	mi := &file_scheduler_proto_msgTypes[17]
	if x != nil {
		ms := protoimpl.X.MessageStateOf(protoimpl.Pointer(x))
		if ms.LoadMessageInfo() == nil {
			ms.StoreMessageInfo(mi)
		}
		return ms
	}
	return mi.MessageOf(x)
}

// Deprecated: Use Reservation.ProtoReflect.Descriptor instead.
func (*Reservation) Descriptor() ([]byte, []int) {
	return file_scheduler_proto_rawDescGZIP(), []int{17}
}

func (x *Reservation) GetId() uint64 {
	if x != nil {
		return x.Id
	}
	return 0
}

func (x *Reservation) GetStart() float64 {
	if x != nil {
		return x.Start
	}
	return 0
}

var File_scheduler_proto protoreflect.FileDescriptor

const file_scheduler_proto_rawDesc = "" +
	"\n" +
	"\x0fscheduler.proto\x12\x16schedfarm.scheduler.v1\"<\n" +
	"\x0fDescribeRequest\x12)\n" +
	"\x10protocol_version\x18\x01 \x01(\rR\x0fprotocolVersion\"\xe2\x01\n" +
	"\vDescription\x12\x12\n" +
	"\x04name\x18\x01 \x01(\tR\x04name\x12\x18\n" +
	"\asummary\x18\x02 \x01(\tR\asummary\x129\n" +
	"\x06params\x18\x03 \x03(\v2!.schedfarm.scheduler.v1.ParamSpecR\x06params\x12=\n" +
	"\tpass_mode\x18\x04 \x01(\x0e2 .schedfarm.scheduler.v1.PassModeR\bpassMode\x12+\n" +
	"\x11places_processors\x18\x05 \x01(\bR\x10placesProcessors\"\x9b\x02\n" +
	"\tParamSpec\x12\x12\n" +
	"\x04name\x18\x01 \x01(\tR\x04name\x12:\n" +
	"\x04kind\x18\x02 \x01(\x0e2&.schedfarm.scheduler.v1.ParamSpec.KindR\x04kind\x127\n" +
	"\adefault\x18\x03 \x01(\v2\x1d.schedfarm.scheduler.v1.ValueR\adefault\x12\x10\n" +
	"\x03min\x18\x04 \x01(\x01R\x03min\x12\x10\n" +
	"\x03max\x18\x05 \x01(\x01R\x03max\x12\x18\n" +
	"\achoices\x18\x06 \x03(\tR\achoices\x12\x10\n" +
	"\x03doc\x18\a \x01(\tR\x03doc\"5\n" +
	"\x04Kind\x12\f\n" +
	"\bKIND_INT\x10\x00\x12\x0e\n" +
	"\n" +
	"KIND_FLOAT\x10\x01\x12\x0f\n" +
	"\vKIND_STRING\x10\x02\"U\n" +
	"\x05Value\x12\x12\n" +
	"\x03int\x18\x01 \x01(\x03H\x00R\x03int\x12\x16\n" +
	"\x05float\x18\x02 \x01(\x01H\x00R\x05float\x12\x18\n" +
	"\x06string\x18\x03 \x01(\tH\x00R\x06stringB\x06\n" +
	"\x04kind\"\x7f\n" +
	"\vHostMessage\x125\n" +
	"\x05start\x18\x01 \x01(\v2\x1d.schedfarm.scheduler.v1.StartH\x00R\x05start\x122\n" +
	"\x04pass\x18\x02 \x01(\v2\x1c.schedfarm.scheduler.v1.PassH\x00R\x04passB\x05\n" +
	"\x03msg\"\xf6\x01\n" +
	"\x05Start\x12<\n" +
	"\bplatform\x18\x01 \x01(\v2 .schedfarm.scheduler.v1.PlatformR\bplatform\x12A\n" +
	"\x06params\x18\x02 \x03(\v2).schedfarm.scheduler.v1.Start.ParamsEntryR\x06params\x12\x12\n" +
	"\x04seed\x18\x03 \x01(\x04R\x04seed\x1aX\n" +
	"\vParamsEntry\x12\x10\n" +
	"\x03key\x18\x01 \x01(\tR\x03key\x123\n" +
	"\x05value\x18\x02 \x01(\v2\x1d.schedfarm.scheduler.v1.ValueR\x05value:\x028\x01\">\n" +
	"\bPlatform\x122\n" +
	"\x05pools\x18\x01 \x03(\v2\x1c.schedfarm.scheduler.v1.PoolR\x05pools\"6\n" +
	"\x04Pool\x12\x12\n" +
	"\x04name\x18\x01 \x01(\tR\x04name\x12\x1a\n" +
	"\bcapacity\x18\x02 \x01(\x03R\bcapacity\"\xcc\x01\n" +
	"\x04Pass\x12\x10\n" +
	"\x03now\x18\x01 \x01(\x01R\x03now\x125\n" +
	"\aarrived\x18\x02 \x03(\v2\x1b.schedfarm.scheduler.v1.JobR\aarrived\x123\n" +
	"\x05ended\x18\x03 \x03(\v2\x1d.schedfarm.scheduler.v1.EndedR\x05ended\x12\x12\n" +
	"\x04free\x18\x04 \x03(\x03R\x04free\x12\x18\n" +
	"\arunning\x18\x05 \x01(\rR\arunning\x12\x18\n" +
	"\awaiting\x18\x06 \x01(\rR\awaiting\"\x82\x01\n" +
	"\x03Job\x12\x0e\n" +
	"\x02id\x18\x01 \x01(\x04R\x02id\x12\x1f\n" +
	"\vworkload_id\x18\x02 \x01(\x03R\n" +
	"workloadId\x12\x16\n" +
	"\x06submit\x18\x03 \x01(\x01R\x06submit\x12\x1a\n" +
	"\bestimate\x18\x04 \x01(\x01R\bestimate\x12\x16\n" +
	"\x06demand\x18\x05 \x03(\x03R\x06demand\"?\n" +
	"\x05Ended\x12\x0e\n" +
	"\x02id\x18\x01 \x01(\x04R\x02id\x12\x0e\n" +
	"\x02at\x18\x02 \x01(\x01R\x02at\x12\x16\n" +
	"\x06killed\x18\x03 \x01(\bR\x06killed\"\x90\x01\n" +
	"\rPluginMessage\x125\n" +
	"\x05ready\x18\x01 \x01(\v2\x1d.schedfarm.scheduler.v1.ReadyH\x00R\x05ready\x12A\n" +
	"\tdecisions\x18\x02 \x01(\v2!.schedfarm.scheduler.v1.DecisionsH\x00R\tdecisionsB\x05\n" +
	"\x03msg\"\a\n" +
	"\x05Ready\"\xe1\x01\n" +
	"\tDecisions\x126\n" +
	"\x05start\x18\x01 \x03(\v2 .schedfarm.scheduler.v1.StartJobR\x05start\x129\n" +
	"\x06reject\x18\x02 \x03(\v2!.schedfarm.scheduler.v1.RejectJobR\x06reject\x12H\n" +
	"\freservations\x18\x03 \x01(\v2$.schedfarm.scheduler.v1.ReservationsR\freservations\x12\x17\n" +
	"\awake_at\x18\x04 \x01(\x01R\x06wakeAt\":\n" +
	"\bStartJob\x12\x0e\n" +
	"\x02id\x18\x01 \x01(\x04R\x02id\x12\x1e\n" +
	"\n" +
	"processors\x18\x02 \x03(\rR\n" +
	"processors\"3\n" +
	"\tRejectJob\x12\x0e\n" +
	"\x02id\x18\x01 \x01(\x04R\x02id\x12\x16\n" +
	"\x06reason\x18\x02 \x01(\tR\x06reason\"I\n" +
	"\fReservations\x129\n" +
	"\x05items\x18\x01 \x03(\v2#.schedfarm.scheduler.v1.ReservationR\x05items\"3\n" +
	"\vReservation\x12\x0e\n" +
	"\x02id\x18\x01 \x01(\x04R\x02id\x12\x14\n" +
	"\x05start\x18\x02 \x01(\x01R\x05start*=\n" +
	"\bPassMode\x12\x13\n" +
	"\x0fPASS_MODE_EVERY\x10\x00\x12\x1c\n" +
	"\x18PASS_MODE_WHEN_STARTABLE\x10\x012\xbc\x01\n" +
	"\tScheduler\x12X\n" +
	"\bDescribe\x12'.schedfarm.scheduler.v1.DescribeRequest\x1a#.schedfarm.scheduler.v1.Description\x12U\n" +
	"\x03Run\x12#.schedfarm.scheduler.v1.HostMessage\x1a%.schedfarm.scheduler.v1.PluginMessage(\x010\x01B>Z<github.com/schedfarm/schedfarm/strategies/plugin/schedulerpbb\x06proto3"

var (
	file_scheduler_proto_rawDescOnce sync.Once
	file_scheduler_proto_rawDescData []byte
)

func file_scheduler_proto_rawDescGZIP() []byte {
	file_scheduler_proto_rawDescOnce.Do(func() {
		file_scheduler_proto_rawDescData = protoimpl.X.CompressGZIP(unsafe.Slice(unsafe.StringData(file_scheduler_proto_rawDesc), len(file_scheduler_proto_rawDesc)))
	})
	return file_scheduler_proto_rawDescData
}

var file_scheduler_proto_enumTypes = make([]protoimpl.EnumInfo, 2)
var file_scheduler_proto_msgTypes = make([]protoimpl.MessageInfo, 19)
var file_scheduler_proto_goTypes = []any{
	(PassMode)(0),           // 0: schedfarm.scheduler.v1.PassMode
	(ParamSpec_Kind)(0),     // 1: schedfarm.scheduler.v1.ParamSpec.Kind
	(*DescribeRequest)(nil), // 2: schedfarm.scheduler.v1.DescribeRequest
	(*Description)(nil),     // 3: schedfarm.scheduler.v1.Description
	(*ParamSpec)(nil),       // 4: schedfarm.scheduler.v1.ParamSpec
	(*Value)(nil),           // 5: schedfarm.scheduler.v1.Value
	(*HostMessage)(nil),     // 6: schedfarm.scheduler.v1.HostMessage
	(*Start)(nil),           // 7: schedfarm.scheduler.v1.Start
	(*Platform)(nil),        // 8: schedfarm.scheduler.v1.Platform
	(*Pool)(nil),            // 9: schedfarm.scheduler.v1.Pool
	(*Pass)(nil),            // 10: schedfarm.scheduler.v1.Pass
	(*Job)(nil),             // 11: schedfarm.scheduler.v1.Job
	(*Ended)(nil),           // 12: schedfarm.scheduler.v1.Ended
	(*PluginMessage)(nil),   // 13: schedfarm.scheduler.v1.PluginMessage
	(*Ready)(nil),           // 14: schedfarm.scheduler.v1.Ready
	(*Decisions)(nil),       // 15: schedfarm.scheduler.v1.Decisions
	(*StartJob)(nil),        // 16: schedfarm.scheduler.v1.StartJob
	(*RejectJob)(nil),       // 17: schedfarm.scheduler.v1.RejectJob
	(*Reservations)(nil),    // 18: schedfarm.scheduler.v1.Reservations
	(*Reservation)(nil),     // 19: schedfarm.scheduler.v1.Reservation
	nil,                     // 20: schedfarm.scheduler.v1.Start.ParamsEntry
}
var file_scheduler_proto_depIdxs = []int32{
	4,  // 0: schedfarm.scheduler.v1.Description.params:type_name -> schedfarm.scheduler.v1.ParamSpec
	0,  // 1: schedfarm.scheduler.v1.Description.pass_mode:type_name -> schedfarm.scheduler.v1.PassMode
	1,  // 2: schedfarm.scheduler.v1.ParamSpec.kind:type_name -> schedfarm.scheduler.v1.ParamSpec.Kind
	5,  // 3: schedfarm.scheduler.v1.ParamSpec.default:type_name -> schedfarm.scheduler.v1.Value
	7,  // 4: schedfarm.scheduler.v1.HostMessage.start:type_name -> schedfarm.scheduler.v1.Start
	10, // 5: schedfarm.scheduler.v1.HostMessage.pass:type_name -> schedfarm.scheduler.v1.Pass
	8,  // 6: schedfarm.scheduler.v1.Start.platform:type_name -> schedfarm.scheduler.v1.Platform
	20, // 7: schedfarm.scheduler.v1.Start.params:type_name -> schedfarm.scheduler.v1.Start.ParamsEntry
	9,  // 8: schedfarm.scheduler.v1.Platform.pools:type_name -> schedfarm.scheduler.v1.Pool
	11, // 9: schedfarm.scheduler.v1.Pass.arrived:type_name -> schedfarm.scheduler.v1.Job
	12, // 10: schedfarm.scheduler.v1.Pass.ended:type_name -> schedfarm.scheduler.v1.Ended
	14, // 11: schedfarm.scheduler.v1.PluginMessage.ready:type_name -> schedfarm.scheduler.v1.Ready
	15, // 12: schedfarm.scheduler.v1.PluginMessage.decisions:type_name -> schedfarm.scheduler.v1.Decisions
	16, // 13: schedfarm.scheduler.v1.Decisions.start:type_name -> schedfarm.scheduler.v1.StartJob
	17, // 14: schedfarm.scheduler.v1.Decisions.reject:type_name -> schedfarm.scheduler.v1.RejectJob
	18, // 15: schedfarm.scheduler.v1.Decisions.reservations:type_name -> schedfarm.scheduler.v1.Reservations
	19, // 16: schedfarm.scheduler.v1.Reservations.items:type_name -> schedfarm.scheduler.v1.Reservation
	5,  // 17: schedfarm.scheduler.v1.Start.ParamsEntry.value:type_name -> schedfarm.scheduler.v1.Value
	2,  // 18: schedfarm.scheduler.v1.Scheduler.Describe:input_type -> schedfarm.scheduler.v1.DescribeRequest
	6,  // 19: schedfarm.scheduler.v1.Scheduler.Run:input_type -> schedfarm.scheduler.v1.HostMessage
	3,  // 20: schedfarm.scheduler.v1.Scheduler.Describe:output_type -> schedfarm.scheduler.v1.Description
	13, // 21: schedfarm.scheduler.v1.Scheduler.Run:output_type -> schedfarm.scheduler.v1.PluginMessage
	20, // [20:22] is the sub-list for method output_type
	18, // [18:20] is the sub-list for method input_type
	18, // [18:18] is the sub-list for extension type_name
	18, // [18:18] is the sub-list for extension extendee
	0,  // [0:18] is the sub-list for field type_name
}

func init() { file_scheduler_proto_init() }
func file_scheduler_proto_init() {
	if File_scheduler_proto != nil {
		return
	}
	file_scheduler_proto_msgTypes[3].OneofWrappers = []any{
		(*Value_Int)(nil),
		(*Value_Float)(nil),
		(*Value_String_)(nil),
	}
	file_scheduler_proto_msgTypes[4].OneofWrappers = []any{
		(*HostMessage_Start)(nil),
		(*HostMessage_Pass)(nil),
	}
	file_scheduler_proto_msgTypes[11].OneofWrappers = []any{
		(*PluginMessage_Ready)(nil),
		(*PluginMessage_Decisions)(nil),
	}
	type x struct{}
	out := protoimpl.TypeBuilder{
		File: protoimpl.DescBuilder{
			GoPackagePath: reflect.TypeOf(x{}).PkgPath(),
			RawDescriptor: unsafe.Slice(unsafe.StringData(file_scheduler_proto_rawDesc), len(file_scheduler_proto_rawDesc)),
			NumEnums:      2,
			NumMessages:   19,
			NumExtensions: 0,
			NumServices:   1,
		},
		GoTypes:           file_scheduler_proto_goTypes,
		DependencyIndexes: file_scheduler_proto_depIdxs,
		EnumInfos:         file_scheduler_proto_enumTypes,
		MessageInfos:      file_scheduler_proto_msgTypes,
	}.Build()
	File_scheduler_proto = out.File
	file_scheduler_proto_goTypes = nil
	file_scheduler_proto_depIdxs = nil
}
