package plugin

import (
	"fmt"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	pb "github.com/schedfarm/schedfarm/strategies/plugin/schedulerpb"
)

// Plugin is a scheduler plugin binary whose description has been read. It
// builds registry entries whose schedulers each run in a process of their
// own.
type Plugin struct {
	bin  Binary
	opts Options
	desc *pb.Description

	mu    sync.Mutex
	spare *process // started and described, not yet running a simulation
}

// Open starts the plugin at bin.Path (after checking that its content is
// still bin.SHA256), reads its description and keeps the process for the
// first run. Close the Plugin when done.
func Open(bin Binary, opts Options) (*Plugin, error) {
	opts = opts.withDefaults()
	p, err := launch(bin, opts)
	if err != nil {
		return nil, err
	}
	d, err := p.describe()
	if err != nil {
		return nil, err
	}
	return &Plugin{bin: bin, opts: opts, desc: d, spare: p}, nil
}

// Describe opens the plugin at path, reads its description and closes it:
// what spec validation needs (the binary's hash, its name and parameters).
func Describe(path string, opts Options) (Binary, *pb.Description, error) {
	bin, err := Hash(path)
	if err != nil {
		return Binary{}, nil, err
	}
	p, err := Open(bin, opts)
	if err != nil {
		return bin, nil, err
	}
	defer p.Close()
	return bin, p.Description(), nil
}

// Binary returns the plugin's executable.
func (p *Plugin) Binary() Binary { return p.bin }

// Description returns what the plugin said about itself (do not modify).
func (p *Plugin) Description() *pb.Description { return p.desc }

// Close ends the process kept for the next run, if any. Running schedulers
// end their own processes (Scheduler.Close).
func (p *Plugin) Close() error {
	p.mu.Lock()
	spare := p.spare
	p.spare = nil
	p.mu.Unlock()
	if spare != nil {
		spare.kill()
	}
	return nil
}

// ParamSpecs returns the plugin's parameters in the registry's form.
func (p *Plugin) ParamSpecs() []param.Spec {
	specs, _ := paramSpecs(p.desc) // checked by Open
	return specs
}

// Entry returns a registry entry named name (the plugin's own name when
// "") whose factory runs the plugin: each scheduler it builds is a fresh
// process (the one Open started, for the first), given seed in its start
// message. The entry's parameters are the plugin's.
func (p *Plugin) Entry(name string, seed uint64) strategies.Entry {
	if name == "" {
		name = p.desc.GetName()
	}
	summary := p.desc.GetSummary()
	if summary == "" {
		summary = "scheduler plugin"
	}
	return strategies.Entry{
		Name:    name,
		Summary: fmt.Sprintf("%s (plugin %s, sha256 %s)", summary, p.bin.Path, p.bin.Short()),
		Params:  p.ParamSpecs(),
		New: func(b strategies.Build) (sim.Scheduler, error) {
			return p.newScheduler(name, b.Platform, b.Params, seed)
		},
	}
}

// Registry returns a registry holding just p.Entry(name, seed), for a
// runner.Config.
func (p *Plugin) Registry(name string, seed uint64) (*strategies.Registry, error) {
	return strategies.NewRegistry(p.Entry(name, seed))
}

// process returns the spare process, or starts and describes a new one.
// A new process must describe itself as the first did.
func (p *Plugin) process() (*process, error) {
	p.mu.Lock()
	proc := p.spare
	p.spare = nil
	p.mu.Unlock()
	if proc != nil {
		return proc, nil
	}
	proc, err := launch(p.bin, p.opts)
	if err != nil {
		return nil, err
	}
	d, err := proc.describe()
	if err != nil {
		return nil, err
	}
	if !proto.Equal(d, p.desc) {
		proc.kill()
		return nil, proc.errorf(nan, "", "described itself differently in a second process (same binary): a plugin's description must not change")
	}
	return proc, nil
}
