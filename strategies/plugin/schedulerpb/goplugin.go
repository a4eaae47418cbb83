package schedulerpb

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

// ProtocolVersion is the version of the protocol in scheduler.proto: the
// application protocol version of go-plugin's handshake. A plugin that
// announces another is refused.
const ProtocolVersion = 1

// The go-plugin handshake: schedfarm starts a plugin with
// MagicCookieKey=MagicCookieValue in its environment.
const (
	MagicCookieKey   = "SCHEDFARM_PLUGIN"
	MagicCookieValue = "schedfarm-scheduler-8c4f"
)

// PluginName is the name the scheduler service is dispensed under.
const PluginName = "scheduler"

// Handshake returns the go-plugin handshake configuration of this protocol
// version.
func Handshake() plugin.HandshakeConfig {
	return plugin.HandshakeConfig{ProtocolVersion: ProtocolVersion, MagicCookieKey: MagicCookieKey, MagicCookieValue: MagicCookieValue}
}

// GoPlugin connects the Scheduler service to go-plugin's gRPC mode. A
// plugin sets Impl; the host leaves it nil and gets a SchedulerClient
// from Dispense.
type GoPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl SchedulerServer
}

// GRPCServer registers the plugin's Scheduler service.
func (p *GoPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	RegisterSchedulerServer(s, p.Impl)
	return nil
}

// GRPCClient returns a SchedulerClient on the plugin's connection.
func (p *GoPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return NewSchedulerClient(c), nil
}
