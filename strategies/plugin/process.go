package plugin

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/status"

	pb "github.com/schedfarm/schedfarm/strategies/plugin/schedulerpb"

	"github.com/schedfarm/schedfarm/internal/lazyre"
)

// Default timeouts.
const (
	// DefaultPassTimeout bounds one answer of a plugin: a pass, the
	// describe call, the reply to a run's start.
	DefaultPassTimeout = 30 * time.Second
	// DefaultStartTimeout bounds the time from starting the process to
	// its handshake line.
	DefaultStartTimeout = 30 * time.Second
)

// Options configure how plugin processes are run.
type Options struct {
	// PassTimeout bounds each answer of the plugin (DefaultPassTimeout
	// when 0). A plugin that does not answer in time is killed and its run
	// fails.
	PassTimeout time.Duration
	// StartTimeout bounds the start of a process (DefaultStartTimeout when
	// 0).
	StartTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.PassTimeout <= 0 {
		o.PassTimeout = DefaultPassTimeout
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	return o
}

// process is one running plugin process with its gRPC client.
type process struct {
	bin    Binary
	opts   Options
	client *goplugin.Client
	sched  pb.SchedulerClient
	stderr *tail
	exits  *exitLog
	dir    string // holds the plugin's Unix socket

	killOnce sync.Once
}

// launch verifies the binary's content, starts it, completes go-plugin's
// handshake and connects. Errors carry the plugin's stderr tail.
func launch(bin Binary, opts Options) (*process, error) {
	if err := bin.Verify(); err != nil {
		return nil, err
	}
	// The plugin's socket goes into a directory of our own, removed when
	// the process is killed (a killed process cannot remove it).
	dir, err := os.MkdirTemp("", "schedfarm-plugin-")
	if err != nil {
		return nil, fmt.Errorf("plugin %s: %v", bin.Path, err)
	}
	cmd := exec.Command(bin.Path)
	cmd.Env = append(os.Environ(), socketDirEnv+"="+dir)
	dieWithParent(cmd)
	p := &process{bin: bin, opts: opts, stderr: newTail(), exits: &exitLog{}, dir: dir}
	p.client = goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig: pb.Handshake(),
		Plugins:         goplugin.PluginSet{pb.PluginName: &pb.GoPlugin{}},
		Cmd:             cmd,
		SkipHostEnv:     true, // cmd.Env has it

		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		StartTimeout:     opts.StartTimeout,
		Stderr:           p.stderr,
		SyncStderr:       p.stderr,
		SyncStdout:       io.Discard,
		Logger: hclog.New(&hclog.LoggerOptions{
			Name: "plugin", Level: hclog.Error, Output: p.exits, DisableTime: true,
		}),
	})
	rpc, err := p.client.Client()
	if err != nil {
		p.kill()
		return nil, p.errorf(math.NaN(), "", "%s", startError(err))
	}
	raw, err := rpc.Dispense(pb.PluginName)
	if err != nil {
		p.kill()
		return nil, p.errorf(math.NaN(), "", "%v", err)
	}
	p.sched = raw.(pb.SchedulerClient)
	return p, nil
}

var versionRE = lazyre.MustCompile(`Plugin version: (\d+)`)

// startError turns go-plugin's start errors into ones that say what to do.
func startError(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "incompatible API version"):
		theirs := "another"
		if m := versionRE.FindStringSubmatch(msg); m != nil {
			theirs = m[1]
		}
		return fmt.Sprintf("speaks scheduler plugin protocol version %s; this schedfarm speaks version %d (rebuild the plugin against schedfarm.scheduler.v%d)",
			theirs, pb.ProtocolVersion, pb.ProtocolVersion)
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return "did not complete the go-plugin handshake (no \"1|1|unix|…|grpc\" line on stdout) in time; is it a schedfarm scheduler plugin?"
	case strings.Contains(msg, "plugin exited before we could connect"),
		strings.Contains(msg, "Failed to read any lines from plugin's stdout"):
		return "exited before the go-plugin handshake; is it a schedfarm scheduler plugin?"
	case strings.Contains(msg, "Unrecognized remote plugin message"):
		return "printed something other than the go-plugin handshake line on stdout: " + firstLine(msg)
	case strings.Contains(msg, "unsupported plugin protocol"):
		return "does not speak gRPC: " + msg
	}
	return msg
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// describe asks the plugin for its description and checks it.
func (p *process) describe() (*pb.Description, error) {
	ctx, cancel := context.WithTimeout(context.Background(), p.opts.PassTimeout)
	defer cancel()
	d, err := p.sched.Describe(ctx, &pb.DescribeRequest{ProtocolVersion: pb.ProtocolVersion})
	if err != nil {
		timedOut := ctx.Err() != nil
		p.kill()
		if timedOut {
			return nil, p.errorf(math.NaN(), "", "did not answer Describe within %v", p.opts.PassTimeout)
		}
		return nil, p.errorf(math.NaN(), "", "Describe failed: %v", rpcError(err))
	}
	if err := checkDescription(d); err != nil {
		p.kill()
		return nil, p.errorf(math.NaN(), "", "bad description: %v", err)
	}
	return d, nil
}

// socketDirEnv names the directory a go-plugin server puts its Unix
// socket in.
const socketDirEnv = "PLUGIN_UNIX_SOCKET_DIR"

// kill ends the process at once (SIGKILL: a plugin has nothing to save,
// and one that hangs would not listen) and waits until it is gone and its
// stderr is read to the end, so the tail is complete. Its socket
// directory is removed.
func (p *process) kill() {
	p.killOnce.Do(func() {
		if rc := p.client.ReattachConfig(); rc != nil && rc.Pid > 0 {
			_ = syscall.Kill(rc.Pid, syscall.SIGKILL)
		}
		p.client.Kill()
		_ = os.RemoveAll(p.dir)
	})
}

// errorf builds an *Error for this process with its stderr tail. at is the
// pass time (NaN outside a pass).
func (p *process) errorf(at float64, decision, format string, args ...any) *Error {
	return &Error{Plugin: p.bin, At: at, Decision: decision, Msg: fmt.Sprintf(format, args...),
		Exit: p.exits.status(), Stderr: p.stderr.String()}
}

// Error is a failed plugin run or start: what went wrong, when, and what
// the plugin printed on stderr last.
type Error struct {
	Plugin Binary
	// Name is the scheduler's name in the run ("" before it is known).
	Name string
	// At is the simulated time of the pass (NaN when not in a pass).
	At float64
	// Decision is the bad decision, when one was ("start job 3 …").
	Decision string
	// Msg says what went wrong.
	Msg string
	// Exit is the process's exit status when it ended by itself.
	Exit string
	// Stderr holds the last lines of the plugin's stderr.
	Stderr string
}

// Error renders "plugin NAME (PATH, sha256 …): pass at t=T: DECISION: MSG",
// then the exit status and the stderr tail on lines of their own.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("plugin ")
	if e.Name != "" {
		b.WriteString(e.Name + " (" + e.Plugin.Path + ", sha256 " + e.Plugin.Short() + ")")
	} else {
		b.WriteString(e.Plugin.Path + " (sha256 " + e.Plugin.Short() + ")")
	}
	if !math.IsNaN(e.At) {
		fmt.Fprintf(&b, ": pass at t=%g", e.At)
	}
	if e.Decision != "" {
		b.WriteString(": " + e.Decision)
	}
	b.WriteString(": " + e.Msg)
	if e.Exit != "" {
		b.WriteString(" (process " + e.Exit + ")")
	}
	if e.Stderr != "" {
		b.WriteString("\nplugin stderr (last lines):\n" + e.Stderr)
	}
	return b.String()
}

// exitLog receives go-plugin's error log and keeps how the process ended.
type exitLog struct {
	mu   sync.Mutex
	exit string
}

var exitRE = lazyre.MustCompile(`plugin process exited:.*error="([^"]*)"`)

func (l *exitLog) Write(p []byte) (int, error) {
	if m := exitRE.FindSubmatch(p); m != nil {
		l.mu.Lock()
		l.exit = string(m[1])
		l.mu.Unlock()
	}
	return len(p), nil
}

func (l *exitLog) status() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.exit
}

// rpcError returns the message of a gRPC status error with its code.
func rpcError(err error) string {
	if st, ok := status.FromError(err); ok {
		return fmt.Sprintf("%s (%s)", st.Message(), st.Code())
	}
	return err.Error()
}
