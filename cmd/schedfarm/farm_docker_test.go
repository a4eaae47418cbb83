package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/results"
)

// The tests in this file run the farm the way users deploy it: the image
// built by scripts/build-image (FROM scratch, nothing pulled), started by
// the compose files the project ships, with real containers killed,
// restarted and cut off the network. They need a Docker engine and a
// compose tool (`docker compose` or `docker-compose`); without them they
// skip, unless SCHEDFARM_REQUIRE_DOCKER=1 (which .ci/run sets), which makes
// that a failure.
//
// Every test has a compose project of its own (a unique name, a temporary
// project directory holding a copy of the compose file, the spec and its
// trace), removed with its containers, networks and volumes when the test
// ends, whether it passed or not. The images are tagged schedfarm:test
// (the release build) and schedfarm:test-faults (built with the
// schedfarm_faults tag, see farm_faults_on.go) and rebuilt once per run.

// docker is what the tests found of Docker: the compose command, or why
// there is none.
var docker struct {
	once    sync.Once
	compose []string // "docker compose" or "docker-compose"
	err     error
}

// requireDocker skips the test when no Docker engine or compose tool is
// reachable, or fails it when SCHEDFARM_REQUIRE_DOCKER=1.
func requireDocker(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("Docker test; skipped with -short")
	}
	docker.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, "docker", "version", "--format", "{{.Server.Version}}").CombinedOutput()
		if err != nil {
			docker.err = fmt.Errorf("docker version: %v: %s", err, bytes.TrimSpace(out))
			return
		}
		if exec.CommandContext(ctx, "docker", "compose", "version").Run() == nil {
			docker.compose = []string{"docker", "compose"}
		} else if exec.CommandContext(ctx, "docker-compose", "version").Run() == nil {
			docker.compose = []string{"docker-compose"}
		} else {
			docker.err = errors.New("neither `docker compose` nor `docker-compose` works")
		}
	})
	if docker.err != nil {
		if os.Getenv("SCHEDFARM_REQUIRE_DOCKER") == "1" {
			t.Fatalf("Docker is required (SCHEDFARM_REQUIRE_DOCKER=1) but unavailable: %v", docker.err)
		}
		t.Skipf("needs a Docker engine and compose (SCHEDFARM_REQUIRE_DOCKER=1 makes this a failure): %v", docker.err)
	}
}

// images holds the test images, built once per test run.
var images struct {
	mu    sync.Mutex
	built map[string]error
}

// testImage builds the image with scripts/build-image, as the README says,
// and returns its tag: schedfarm:test, or schedfarm:test-faults with the
// fault-injection hooks compiled in.
func testImage(t *testing.T, faults bool) string {
	t.Helper()
	tag, tags := "schedfarm:test", ""
	if faults {
		tag, tags = "schedfarm:test-faults", "schedfarm_faults"
	}
	images.mu.Lock()
	defer images.mu.Unlock()
	if images.built == nil {
		images.built = map[string]error{}
	}
	err, done := images.built[tag]
	if !done {
		old, _ := dockerTry("image", "inspect", "-f", "{{.Id}}", tag)
		cmd := exec.Command(filepath.Join(repoRoot(t), "scripts", "build-image"), "--tag", tag)
		cmd.Env = append(os.Environ(), "GO_TAGS="+tags)
		out, cerr := cmd.CombinedOutput()
		if cerr != nil {
			err = fmt.Errorf("scripts/build-image --tag %s: %v\n%s", tag, cerr, out)
		}
		images.built[tag] = err
		// The previous build of the tag goes if nothing else names it now
		// (another tag, e.g. schedfarm:latest of the same build, keeps it).
		if now, _ := dockerTry("image", "inspect", "-f", "{{.Id}}", tag); cerr == nil && strings.HasPrefix(old, "sha256:") && old != now {
			if tags, err := dockerTry("image", "inspect", "-f", "{{len .RepoTags}}", old); err == nil && tags == "0" {
				_, _ = dockerTry("image", "rm", old)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return tag
}

// dockerRun runs the docker CLI and returns its output; a failure fails the
// test.
func dockerRun(t *testing.T, args ...string) string {
	t.Helper()
	out, err := dockerTry(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func dockerTry(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "docker", args...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

var composeSeq atomic.Int32

// composeProject is one compose project of a test.
type composeProject struct {
	t     *testing.T
	name  string   // unique project name
	dir   string   // project directory, mounted at /data
	files []string // compose files, in -f order
	env   []string // environment of every compose command
	token string
	extra []string // containers started by the test itself (docker run)
}

// newComposeProject makes a project from the repository's compose file
// (copied into a fresh project directory beside the spec and trace of the
// fault tests) with the given image. overrides are further compose files
// (name → content), e.g. to pass fault-injection variables. The directory
// belongs to the image's non-root user (uid 65532) when the test runs as
// root, so the coordinator writes as that user, the compose file's default.
func newComposeProject(t *testing.T, composeFile, image string, overrides map[string]string) *composeProject {
	t.Helper()
	requireDocker(t)
	buf := make([]byte, 8)
	if _, err := rand.Read(buf); err != nil {
		t.Fatal(err)
	}
	p := &composeProject{t: t, dir: t.TempDir(), token: hex.EncodeToString(buf),
		name: fmt.Sprintf("sftest%d%s", composeSeq.Add(1), hex.EncodeToString(buf[:3]))}
	data, err := os.ReadFile(filepath.Join(repoRoot(t), composeFile))
	if err != nil {
		t.Fatal(err)
	}
	p.writeFile(composeFile, string(data))
	p.files = []string{composeFile}
	for name, text := range overrides {
		p.writeFile(name, text)
		p.files = append(p.files, name)
	}
	writeFarmTrace(t, filepath.Join(p.dir, "trace.swf"))
	p.writeFile("spec.yaml", farmSpecText)
	p.env = append(os.Environ(), "SCHEDFARM_IMAGE="+image, "SCHEDFARM_NATS_TOKEN="+p.token, "SPEC=spec.yaml",
		// Random host ports: several projects may run at once.
		"SCHEDFARM_BROKER_PORT=127.0.0.1:", "SCHEDFARM_BROKER1_PORT=127.0.0.1:",
		"SCHEDFARM_BROKER2_PORT=127.0.0.1:", "SCHEDFARM_BROKER3_PORT=127.0.0.1:")
	if os.Geteuid() == 0 {
		if err := os.Chown(p.dir, 65532, 65532); err != nil {
			t.Fatal(err)
		}
	} else {
		p.env = append(p.env, fmt.Sprintf("SCHEDFARM_UID=%d", os.Getuid()), fmt.Sprintf("SCHEDFARM_GID=%d", os.Getgid()))
	}
	t.Cleanup(p.cleanup)
	return p
}

func (p *composeProject) writeFile(name, text string) {
	p.t.Helper()
	path := filepath.Join(p.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// mkdirShared makes a directory in the project that every container user
// may write (for the fault hooks' marker files).
func (p *composeProject) mkdirShared(name string) string {
	p.t.Helper()
	dir := filepath.Join(p.dir, name)
	if err := os.Mkdir(dir, 0o777); err != nil {
		p.t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // past the umask
		p.t.Fatal(err)
	}
	return dir
}

// composeTry runs a compose command of the project and returns its output.
func (p *composeProject) composeTry(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	full := append([]string{}, docker.compose[1:]...)
	full = append(full, "--project-name", p.name, "--project-directory", p.dir)
	for _, f := range p.files {
		full = append(full, "-f", filepath.Join(p.dir, f))
	}
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, docker.compose[0], full...)
	cmd.Dir = p.dir
	cmd.Env = p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %v\n%s", strings.Join(docker.compose, " "), strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

func (p *composeProject) compose(args ...string) string {
	p.t.Helper()
	out, err := p.composeTry(args...)
	if err != nil {
		p.t.Fatal(err)
	}
	return out
}

// cleanup removes everything of the project: its containers, networks and
// volumes, and the containers the test started itself. On failure it logs
// the services' output first.
func (p *composeProject) cleanup() {
	if p.t.Failed() {
		if out, err := p.composeTry("logs", "--no-color", "--tail", "200"); err == nil {
			p.t.Logf("compose logs of %s:\n%s", p.name, out)
		}
		for _, c := range p.extra {
			if out, err := dockerTry("logs", "--tail", "100", c); err == nil {
				p.t.Logf("logs of container %s:\n%s", c, out)
			}
		}
	}
	for _, c := range p.extra {
		if out, err := dockerTry("rm", "-f", "-v", c); err != nil && !strings.Contains(out, "No such container") {
			p.t.Logf("cleanup: %v", err)
		}
	}
	if _, err := p.composeTry("down", "--volumes", "--remove-orphans", "--timeout", "1"); err != nil {
		p.t.Logf("cleanup: %v", err)
	}
	// Anything left with the project's label goes too.
	if ids, err := dockerTry("ps", "-aq", "--filter", "label=com.docker.compose.project="+p.name); err == nil && ids != "" {
		p.t.Logf("cleanup: containers left after down: %s", ids)
		if _, err := dockerTry(append([]string{"rm", "-f", "-v"}, strings.Fields(ids)...)...); err != nil {
			p.t.Logf("cleanup: %v", err)
		}
	}
}

// containers returns the ids of a service's containers (running or not).
func (p *composeProject) containers(service string) []string {
	p.t.Helper()
	return strings.Fields(p.compose("ps", "-q", service))
}

// container returns the id of a service's only container.
func (p *composeProject) container(service string) string {
	p.t.Helper()
	ids := p.containers(service)
	if len(ids) != 1 {
		p.t.Fatalf("service %s has containers %v; want one", service, ids)
	}
	return ids[0]
}

// network is the project's network, as its broker container sees it.
func (p *composeProject) network(service string) string {
	p.t.Helper()
	return dockerRun(p.t, "inspect", "-f", "{{range $k, $v := .NetworkSettings.Networks}}{{$k}}{{end}}", p.container(service))
}

// containerState is a container's status and exit code, e.g. "running 0"
// or "exited 137".
func containerState(t *testing.T, id string) string {
	t.Helper()
	return dockerRun(t, "inspect", "-f", "{{.State.Status}} {{.State.ExitCode}}", id)
}

// waitExit waits until a service's container has exited and returns its
// exit code.
func (p *composeProject) waitExit(service string, d time.Duration) int {
	p.t.Helper()
	id := p.container(service)
	var state string
	poll(p.t, d, service+" to exit", func() bool {
		state = containerState(p.t, id)
		return strings.HasPrefix(state, "exited ")
	})
	code, err := strconv.Atoi(strings.TrimPrefix(state, "exited "))
	if err != nil {
		p.t.Fatalf("container state %q", state)
	}
	return code
}

// pollCoordinatorUp polls cond as poll does while the project's
// coordinator runs. If the coordinator has exited and cond still does not
// hold, the test fails at once with the coordinator's exit code and log:
// a coordinator that gave up (on a broker it could not reach, say) then
// names its reason in seconds, instead of a timeout after d naming none.
// (The sixty-sixth session saw the cluster test time out once, its
// coordinator's container gone 31 s after the start, with the log lost;
// the thirty-six runs after it passed: docs/operations.md.) The
// container's state is read at most every half second.
func (p *composeProject) pollCoordinatorUp(d time.Duration, what string, cond func() bool) {
	p.t.Helper()
	id := p.container("coordinator")
	var lastCheck time.Time
	poll(p.t, d, what, func() bool {
		if cond() {
			return true
		}
		if time.Since(lastCheck) < 500*time.Millisecond {
			return false
		}
		lastCheck = time.Now()
		state := containerState(p.t, id)
		if !strings.HasPrefix(state, "exited ") {
			return false
		}
		if cond() { // what it did before exiting may be what was awaited
			return true
		}
		p.t.Fatalf("waiting for %s: the coordinator has exited first (status and exit code %q); its log:\n%s", what, state, p.logs("coordinator"))
		return false
	})
}

// logs returns a service's output.
func (p *composeProject) logs(service string) string {
	p.t.Helper()
	return p.compose("logs", "--no-color", service)
}

// hostURL is the broker service's client URL as published on the host.
func (p *composeProject) hostURL(service string) string {
	p.t.Helper()
	addr := strings.TrimSpace(p.compose("port", service, "4222"))
	if addr == "" {
		p.t.Fatalf("service %s publishes no port 4222", service)
	}
	return "nats://" + addr
}

// dial connects the test to the brokers through their published ports.
func (p *composeProject) dial(services ...string) jetstream.JetStream {
	p.t.Helper()
	var urls []string
	for _, s := range services {
		urls = append(urls, p.hostURL(s))
	}
	nc, err := broker.Dial(broker.ClientOptions{URL: strings.Join(urls, ","), Token: p.token, Name: "docker test", ConnectTimeout: 30 * time.Second})
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		p.t.Fatal(err)
	}
	return js
}

// runWorker starts a worker container of the project's image outside
// compose (so it can have environment of its own), on the project's network,
// with the project directory at /data and the given extra mounts.
func (p *composeProject) runWorker(image, name string, env, mounts []string) string {
	p.t.Helper()
	args := []string{"run", "-d", "--name", p.name + "-" + name, "--network", p.network("broker"),
		"-e", "SCHEDFARM_NATS=nats://broker:4222", "-e", "SCHEDFARM_NATS_TOKEN=" + p.token,
		"-v", p.dir + ":/data:ro"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	for _, m := range mounts {
		args = append(args, "-v", m)
	}
	args = append(args, image, "worker", "--slots", "1", "--id", name)
	id := dockerRun(p.t, args...)
	p.extra = append(p.extra, id)
	return id
}

// journalLines is the number of results in the project's journal.
func (p *composeProject) journalLines(output string) int {
	b, _ := os.ReadFile(results.JournalPath(filepath.Join(p.dir, output)))
	return bytes.Count(b, []byte("\n"))
}

// checkGone checks that down left no container, network or volume of the
// project.
func (p *composeProject) checkGone() {
	p.t.Helper()
	label := "label=com.docker.compose.project=" + p.name
	if ids := dockerRun(p.t, "ps", "-aq", "--filter", label); ids != "" {
		p.t.Errorf("containers left after down: %s", ids)
	}
	if ids := dockerRun(p.t, "network", "ls", "-q", "--filter", label); ids != "" {
		p.t.Errorf("networks left after down: %s", ids)
	}
	if ids := dockerRun(p.t, "volume", "ls", "-q", "--filter", label); ids != "" {
		p.t.Errorf("volumes left after down -v: %s", ids)
	}
}

// faultsOverride passes the fault-injection variables of the test image to
// the compose file's workers (every gate variable farmWithFaults reads).
const faultsOverride = `services:
  worker:
    environment:
      SCHEDFARM_FAULT_DELAY: ${SCHEDFARM_FAULT_DELAY:-0s}
      SCHEDFARM_FAULT_GATE: ${SCHEDFARM_FAULT_GATE:-}
      SCHEDFARM_FAULT_GATE_FROM: ${SCHEDFARM_FAULT_GATE_FROM:-0}
      SCHEDFARM_FAULT_GATE_EXCEPT: ${SCHEDFARM_FAULT_GATE_EXCEPT:-}
      SCHEDFARM_FAULT_GATE_AFTER: ${SCHEDFARM_FAULT_GATE_AFTER:-0}
      SCHEDFARM_FAULT_GATE_MARK: ${SCHEDFARM_FAULT_GATE_MARK:-}
`

// gateEnv holds the compose workers' cells with an index of from or more
// until the test opens the gate (openGate on the project's gate file, seen
// by the workers as /data/gate): a fault done before that falls inside the
// sweep by construction, however busy the machine.
func (p *composeProject) gateEnv(from int) string {
	p.env = append(p.env, "SCHEDFARM_FAULT_GATE=/data/gate", "SCHEDFARM_FAULT_GATE_FROM="+strconv.Itoa(from))
	return filepath.Join(p.dir, "gate")
}

var summaryRe = regexp.MustCompile(`experiment (\S+): (\d+) cells, (\d+) done before, (\d+) ok, (\d+) failed`)

// lastSummary returns the numbers of the last coordinator summary in out:
// cells, done before, ok, failed.
func lastSummary(t *testing.T, out string) (cells, before, ok, failed int) {
	t.Helper()
	m := summaryRe.FindAllStringSubmatch(out, -1)
	if len(m) == 0 {
		t.Fatalf("no coordinator summary in:\n%s", out)
	}
	last := m[len(m)-1]
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return n(last[2]), n(last[3]), n(last[4]), n(last[5])
}

// TestComposeQuickstart runs the README's compose commands for real:
// the release image, docker-compose.yml as shipped, the quickstart spec
// (100 cells) on a broker, four workers and the coordinator. The
// coordinator is stopped part way (while the test holds one cell, so that
// the sweep cannot have ended) and started again, and resumes; the
// Parquet file on the host has every cell exactly once, all ok; `down -v`
// leaves no container, network or volume.
func TestComposeQuickstart(t *testing.T) {
	requireDocker(t)
	image := testImage(t, false)
	p := newComposeProject(t, "docker-compose.yml", image, nil)
	spec, err := os.ReadFile(filepath.Join(repoRoot(t), "experiments", "quickstart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p.writeFile("experiments/quickstart.yaml", string(spec))
	// The compose file's default spec, as in the README.
	p.env = append(p.env, "SPEC=experiments/quickstart.yaml")
	start := time.Now()
	// The test holds one cell of the sweep itself, taken from the workers'
	// queue before any worker starts and kept in progress, so the sweep
	// cannot end before the coordinator is stopped, however long `compose
	// stop` takes to reach it: on a loaded CI machine it took about 10 s,
	// and the workers had finished all 100 cells by then (pausing them
	// with `docker pause` once 20 results were in was not enough either:
	// under load the pause landed after the last cell).
	p.compose("up", "-d", "--scale", "worker=0")
	release := holdOneCell(t, p.dial("broker"))
	p.compose("up", "-d", "--scale", "worker=4")
	if n := len(p.containers("worker")); n != 4 {
		t.Fatalf("%d worker containers; want 4", n)
	}
	p.pollCoordinatorUp(2*time.Minute, "20 results in the journal", func() bool { return p.journalLines("quickstart.parquet") >= 20 })
	p.compose("stop", "coordinator")
	if code := p.waitExit("coordinator", time.Minute); code != 1 {
		t.Errorf("coordinator stopped mid-sweep (one cell held by the test): exit code %d; want 1 (interrupted, resumable)", code)
	}
	if logs := p.logs("coordinator"); !strings.Contains(logs, "the run can be resumed") {
		t.Errorf("stopped coordinator does not say the run can be resumed:\n%s", logs)
	}
	release() // back to the queue, for a worker
	p.compose("up", "-d", "coordinator")
	if code := p.waitExit("coordinator", 3*time.Minute); code != 0 {
		t.Fatalf("rerun coordinator exit code %d; want 0", code)
	}
	wall := time.Since(start)
	cells, before, ok, failed := lastSummary(t, p.logs("coordinator"))
	t.Logf("quickstart on compose, 4 workers: %v in all; the rerun found %d of %d cells done", wall.Round(100*time.Millisecond), before, cells)
	if cells != 100 || before < 20 || before+ok != 100 || failed != 0 {
		t.Errorf("rerun summary: %d cells, %d done before, %d ok, %d failed; want 100 cells, ≥ 20 done before, the rest ok", cells, before, ok, failed)
	}
	recs := readOutputIn(t, filepath.Join(p.dir, "experiments", "quickstart.yaml"), p.dir)
	if len(recs) != 100 {
		t.Fatalf("output has %d cells; want 100", len(recs))
	}
	checkAllOK(t, recs)
	perWorker := map[string]int{}
	for _, r := range recs {
		w, _, _ := strings.Cut(r.Result.Worker, "/")
		perWorker[w]++
	}
	t.Logf("cells per worker container: %v", perWorker)
	if len(perWorker) < 2 {
		t.Errorf("cells ran on %d worker containers; want several of the 4", len(perWorker))
	}
	// The output belongs to the user the coordinator runs as.
	if fi, err := os.Stat(filepath.Join(p.dir, "quickstart.parquet")); err != nil {
		t.Error(err)
	} else if st, ok := fi.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 && st.Uid != 65532 {
		t.Errorf("output owned by uid %d; want 65532, the image's user", st.Uid)
	}
	p.compose("down", "--volumes", "--timeout", "5")
	p.checkGone()
}

// holdOneCell takes one cell message from the workers' queue of js's
// broker (waiting until the coordinator has published some) and keeps it in
// progress, as a worker running a long cell would, until the returned
// release hands it back (a nak: the next worker to ask gets it, its
// delivery counted against MaxDeliver). A sweep cannot end while a cell
// is held.
func holdOneCell(t *testing.T, js jetstream.JetStream) (release func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var msg jetstream.Msg
	poll(t, 2*time.Minute, "a cell in the workers' queue", func() bool {
		cons, err := js.Consumer(ctx, broker.CellsStream, broker.WorkersConsumer)
		if err != nil {
			return false
		}
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			return false
		}
		for m := range batch.Messages() {
			msg = m
		}
		return msg != nil
	})
	t.Logf("holding the cell message on %s", msg.Subject())
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(broker.DefaultAckWait / 6)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if err := msg.InProgress(); err != nil {
					t.Logf("keeping the held cell in progress: %v", err)
				}
			}
		}
	}()
	var once sync.Once
	release = func() {
		once.Do(func() {
			close(stop)
			<-stopped
			// A nak that fails (the broker gone at cleanup) leaves the
			// cell to come back after the ack wait, as a lost ack would.
			if err := msg.Nak(); err != nil {
				t.Logf("handing the held cell back: %v", err)
			}
		})
	}
	t.Cleanup(release)
	return release
}

// waitMarker waits for a fault hook's started-<index> marker in dir and
// returns the cell id it holds.
func waitMarker(t *testing.T, dir string, d time.Duration) string {
	t.Helper()
	var id []byte
	poll(t, d, "a worker to start a cell (marker in "+dir+")", func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, "started-*"))
		if len(m) == 0 {
			return false
		}
		var err error
		id, err = os.ReadFile(m[0])
		return err == nil && len(id) > 0
	})
	return string(id)
}

// TestDockerWorkerKilledMidCell: `docker kill` of a worker container in the
// middle of a cell; the cell is redelivered after the ack wait and run by
// the compose file's workers; every cell exactly once.
func TestDockerWorkerKilledMidCell(t *testing.T) {
	requireDocker(t)
	image := testImage(t, true)
	p := newComposeProject(t, "docker-compose.yml", image, nil)
	p.env = append(p.env, "SCHEDFARM_ACK_WAIT=3s")
	p.compose("up", "-d", "--scale", "worker=0")
	hold := p.mkdirShared("hold")
	victim := p.runWorker(image, "victim", []string{"SCHEDFARM_FAULT_HOLD=/hold"}, []string{hold + ":/hold"})
	held := waitMarker(t, hold, time.Minute)
	dockerRun(t, "kill", victim)
	t.Logf("killed the victim's container while it held cell %s", held)
	p.compose("up", "-d", "--scale", "worker=2")
	if code := p.waitExit("coordinator", 2*time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d; want 0", code)
	}
	recs := readOutputOnce(t, filepath.Join(p.dir, "spec.yaml"))
	checkAllOK(t, recs)
	if r := recs[held]; r == nil || strings.HasPrefix(r.Result.Worker, "victim/") {
		t.Errorf("held cell %s: %+v; want it run by one of the compose workers", held, r)
	}
	js := p.dial("broker")
	if n := streamMsgs(t, js, broker.CellsStream); n != 0 {
		t.Errorf("%d cells left in the work queue; want 0", n)
	}
}

// TestDockerCoordinatorKilledAndRerun: `docker kill` of the coordinator
// container mid-sweep; the workers go on and their results wait in the
// results stream; starting the coordinator service again resumes the sweep,
// with no duplicate rows.
func TestDockerCoordinatorKilledAndRerun(t *testing.T) {
	requireDocker(t)
	image := testImage(t, true)
	p := newComposeProject(t, "docker-compose.yml", image, map[string]string{"faults.yml": faultsOverride})
	gate := p.gateEnv(4) // cells 4 and on run after the kill
	p.compose("up", "-d", "--scale", "worker=1")
	js := p.dial("broker")
	p.pollCoordinatorUp(time.Minute, "3 results in the journal", func() bool { return p.journalLines("out.parquet") >= 3 })
	dockerRun(t, "kill", p.container("coordinator"))
	if code := p.waitExit("coordinator", 30*time.Second); code != 137 {
		t.Errorf("killed coordinator: exit code %d; want 137 (SIGKILL)", code)
	}
	openGate(t, gate)
	poll(t, time.Minute, "results queued while no coordinator runs", func() bool {
		return streamMsgs(t, js, broker.ResultsStream) >= 2
	})
	p.compose("up", "-d", "coordinator")
	if code := p.waitExit("coordinator", 2*time.Minute); code != 0 {
		t.Fatalf("rerun coordinator exit code %d; want 0", code)
	}
	cells, before, ok, failed := lastSummary(t, p.logs("coordinator"))
	if cells != farmCells || before < 3 || before+ok != farmCells || failed != 0 {
		t.Errorf("rerun summary: %d cells, %d done before, %d ok, %d failed; want %d cells, ≥ 3 done before, the rest ok", cells, before, ok, failed, farmCells)
	}
	checkAllOK(t, readOutputOnce(t, filepath.Join(p.dir, "spec.yaml")))
	if n := streamMsgs(t, js, broker.ResultsStream); n != 0 {
		t.Errorf("%d results left unacked; want 0", n)
	}
}

// TestDockerWorkerDisconnected: `docker network disconnect` of a worker
// container in the middle of a cell. The victim's cell waits for a gate of
// its own (/marks/release) that opens only once the cell's result from
// another worker is in: the cut falls inside that cell by construction,
// however long `docker network disconnect` takes on a busy machine (the
// victim used to run its cell for a fixed 2 s, and a disconnect that took
// longer let it finish and publish before the cut). The cell is
// redelivered after the ack wait and run by a compose worker, whose other
// cells wait for a gate: the sweep cannot end before the victim is back,
// by construction. The victim's gate is opened while it is still cut off,
// so it finishes its cell then; the compose worker is paused (`docker
// pause`) and the victim connected again: it notices its dead connection
// (pings), reconnects and publishes its late result, which the results
// stream drops as a duplicate (same Nats-Msg-Id: cell id and the cell
// message's sequence). Unpaused, with the gate open, the sweep ends with
// every cell exactly once, the cut-off cell's row from the compose worker.
func TestDockerWorkerDisconnected(t *testing.T) {
	requireDocker(t)
	image := testImage(t, true)
	p := newComposeProject(t, "docker-compose.yml", image, map[string]string{"faults.yml": faultsOverride})
	p.env = append(p.env, "SCHEDFARM_ACK_WAIT=3s")
	p.compose("up", "-d", "--scale", "worker=0")
	network := p.network("broker")
	marks := p.mkdirShared("marks")
	// The victim's cells wait for /marks/release: it is cut off inside its
	// first cell, which it finishes only once the test opens that gate.
	victim := p.runWorker(image, "victim", []string{"SCHEDFARM_FAULT_MARK=/marks", "SCHEDFARM_FAULT_GATE=/marks/release"}, []string{marks + ":/marks"})
	held := waitMarker(t, marks, time.Minute)
	m, _ := filepath.Glob(filepath.Join(marks, "started-*"))
	heldIndex := strings.TrimPrefix(filepath.Base(m[0]), "started-")
	dockerRun(t, "network", "disconnect", network, victim)
	cut := time.Now()
	t.Logf("cut the victim off %s while it runs cell %s (index %s)", network, held, heldIndex)
	// The compose worker takes every cell (12 slots); all but the cut-off
	// one wait for the gate.
	gate := p.gateEnv(0)
	p.env = append(p.env, "SCHEDFARM_FAULT_GATE_EXCEPT="+heldIndex, "SCHEDFARM_SLOTS="+strconv.Itoa(farmCells))
	p.compose("up", "-d", "--scale", "worker=1")
	out := filepath.Join(p.dir, "out.parquet")
	var rec *results.Record
	poll(t, time.Minute, "the cut-off cell's result in the journal", func() bool {
		var ok bool
		rec, ok = journalHas(out, held)
		return ok
	})
	t.Logf("cut-off cell completed by %s %v after the cut", rec.Result.Worker, time.Since(cut).Round(time.Millisecond))
	if strings.HasPrefix(rec.Result.Worker, "victim/") {
		t.Errorf("cut-off cell %s completed by the victim while it was cut off", held)
	}
	if p.journalLines("out.parquet") >= farmCells {
		t.Fatal("the sweep ended before the compose worker could be paused; the test proves nothing")
	}
	// The victim, still cut off, finishes its cell: its result is late.
	openGate(t, filepath.Join(marks, "release"))
	rescuer := p.container("worker")
	dockerRun(t, "pause", rescuer)
	dockerRun(t, "network", "connect", network, victim)
	healed := time.Now()
	dup := "worker victim/0: cell " + held + ": result dropped by the results stream as a duplicate"
	poll(t, 90*time.Second, "the victim's late result to be dropped as a duplicate", func() bool {
		return strings.Contains(dockerRun(t, "logs", victim), dup)
	})
	t.Logf("late result dropped %v after the victim was connected again", time.Since(healed).Round(time.Millisecond))
	openGate(t, gate)
	dockerRun(t, "unpause", rescuer)
	if code := p.waitExit("coordinator", 2*time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d; want 0", code)
	}
	recs := readOutputOnce(t, filepath.Join(p.dir, "spec.yaml"))
	checkAllOK(t, recs)
	if r := recs[held]; r != nil && strings.HasPrefix(r.Result.Worker, "victim/") {
		t.Errorf("cut-off cell %s: row from %q; want the compose worker's", held, r.Result.Worker)
	}
	if logs := dockerRun(t, "logs", victim); !strings.Contains(logs, "reconnected") {
		t.Errorf("victim's log does not show a reconnection:\n%s", logs)
	}
	if logs := p.logs("coordinator"); strings.Contains(logs, "duplicate") {
		t.Logf("coordinator:\n%s", logs)
	}
}

// TestDockerBrokerRestarted: `docker restart` of the broker container
// mid-sweep (its JetStream file store on the compose file's named volume);
// coordinator and workers reconnect and the sweep finishes with every cell
// exactly once.
func TestDockerBrokerRestarted(t *testing.T) {
	requireDocker(t)
	image := testImage(t, true)
	p := newComposeProject(t, "docker-compose.yml", image, map[string]string{"faults.yml": faultsOverride})
	gate := p.gateEnv(4) // at most 4 results before the restart: it falls inside the sweep by construction
	p.compose("up", "-d", "--scale", "worker=2")
	p.pollCoordinatorUp(time.Minute, "3 results in the journal", func() bool { return p.journalLines("out.parquet") >= 3 })
	dockerRun(t, "restart", p.container("broker"))
	done := p.journalLines("out.parquet")
	t.Logf("restarted the broker with %d of %d results in the journal", done, farmCells)
	if done >= farmCells {
		t.Fatal("the sweep was over before the broker restarted; the test proves nothing")
	}
	openGate(t, gate)
	if code := p.waitExit("coordinator", 2*time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d; want 0", code)
	}
	checkAllOK(t, readOutputOnce(t, filepath.Join(p.dir, "spec.yaml")))
	if logs := p.logs("broker"); strings.Count(logs, "listening on") < 2 {
		t.Errorf("broker log does not show a restart:\n%s", logs)
	}
	if logs := p.logs("coordinator"); !strings.Contains(logs, "nats: reconnected") {
		t.Errorf("coordinator log does not show a reconnection:\n%s", logs)
	}
}

// TestDockerClusterLeaderKilled runs docker-compose.cluster.yml: three
// brokers form a JetStream cluster and the farm's streams get three
// replicas. `docker kill` of the broker that leads the cells stream
// mid-sweep: clients fail over to the other brokers, the stream elects a
// new leader, and the sweep finishes with every cell exactly once.
func TestDockerClusterLeaderKilled(t *testing.T) {
	requireDocker(t)
	image := testImage(t, true)
	p := newComposeProject(t, "docker-compose.cluster.yml", image, map[string]string{"faults.yml": faultsOverride})
	p.env = append(p.env, "SCHEDFARM_ACK_WAIT=3s")
	gate := p.gateEnv(3) // at most 3 results before the kill
	p.compose("up", "-d", "--scale", "worker=2")
	js := p.dial("broker1", "broker2", "broker3")
	p.pollCoordinatorUp(2*time.Minute, "2 results in the journal", func() bool { return p.journalLines("out.parquet") >= 2 })
	for _, name := range []string{broker.CellsStream, broker.ResultsStream, broker.AdvisoriesStream} {
		st, err := js.Stream(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if info := st.CachedInfo(); info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
			t.Errorf("stream %s: %d replicas (cluster %+v); want 3", name, info.Config.Replicas, info.Cluster)
		}
	}
	st, err := js.Stream(context.Background(), broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	leader := st.CachedInfo().Cluster.Leader
	if !regexp.MustCompile(`^broker[123]$`).MatchString(leader) {
		t.Fatalf("cells stream leader %q; want one of broker1..3", leader)
	}
	done := p.journalLines("out.parquet")
	dockerRun(t, "kill", p.container(leader))
	t.Logf("killed %s, the cells stream's leader, with %d of %d results in", leader, done, farmCells)
	openGate(t, gate)
	if code := p.waitExit("coordinator", 3*time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d; want 0", code)
	}
	if done >= farmCells {
		t.Errorf("the sweep was over before the kill; the test proves nothing")
	}
	checkAllOK(t, readOutputOnce(t, filepath.Join(p.dir, "spec.yaml")))
	// The sweep can end before the cells stream has elected its next
	// leader (the cells were all delivered before the kill), so the stream
	// may answer no info for a while: wait for the election rather than
	// asking once. A stream that never elects another leader fails here.
	var newLeader string
	var lastErr error
	poll(t, 2*time.Minute, "the cells stream to elect a leader other than "+leader, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		info, err := st.Info(ctx)
		if err != nil {
			lastErr = err
			time.Sleep(500 * time.Millisecond)
			return false
		}
		if info.Cluster == nil {
			return false
		}
		newLeader = info.Cluster.Leader
		return newLeader != "" && newLeader != leader
	})
	if lastErr != nil {
		t.Logf("stream info while the election ran: %v", lastErr)
	}
	t.Logf("cells stream leader after the kill: %s; clients that failed over from %s: %d", newLeader, leader,
		strings.Count(p.logs("coordinator")+p.logs("worker"), "nats: reconnected"))
}
