package main

import (
	"debug/elf"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// This machine has no Docker engine, so the image and the compose file are
// checked without one: the Dockerfile's own build command is run and its
// binary checked for what the distroless/static base offers (nothing but
// the binary), and the compose services are started as plain processes
// with their own commands and environment.

// repoRoot is the module root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// dockerfileBuild returns the Dockerfile's `RUN … go build …` command with
// its continuation lines joined, and the ARG defaults.
func dockerfileBuild(t *testing.T) (run string, args map[string]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.ReplaceAll(string(data), "\\\n", " ")
	args = map[string]string{}
	for _, line := range strings.Split(joined, "\n") {
		line = strings.TrimSpace(line)
		if kv, ok := strings.CutPrefix(line, "ARG "); ok {
			k, v, _ := strings.Cut(kv, "=")
			args[k] = v
		}
		if cmd, ok := strings.CutPrefix(line, "RUN "); ok && strings.Contains(cmd, "go build") {
			run = cmd
		}
	}
	if run == "" {
		t.Fatal("Dockerfile: no RUN line with go build")
	}
	return run, args
}

// TestDockerfileBuildsAStaticBinary runs the Dockerfile's build command
// (with a commit given as the build argument) and checks what the
// distroless/static runtime stage needs: an ELF with no interpreter and no
// shared libraries, that reports the version and commit passed in, and that
// runs a sweep on its embedded broker in a root directory holding nothing but
// itself and the spec.
func TestDockerfileBuildsAStaticBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	run, args := dockerfileBuild(t)
	out := filepath.Join(t.TempDir(), "schedfarm")
	args["COMMIT"] = "c0ffee0test"
	for k, v := range args {
		run = strings.ReplaceAll(run, "${"+k+"}", v)
	}
	if !strings.Contains(run, "-o /out/schedfarm") {
		t.Fatalf("Dockerfile build command %q does not write /out/schedfarm (the path the runtime stage copies)", run)
	}
	run = strings.Replace(run, "-o /out/schedfarm", "-o "+out, 1)
	build := exec.Command("sh", "-c", run)
	build.Dir = repoRoot(t)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", run, err, b)
	}

	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("binary has a program interpreter (dynamically linked); distroless/static has no libc")
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("binary needs shared libraries %v (%v); want none", libs, err)
	}

	v, err := exec.Command(out, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("schedfarm version: %v\n%s", err, v)
	}
	want := fmt.Sprintf("schedfarm %s (commit %s,", args["VERSION"], args["COMMIT"])
	if !strings.HasPrefix(string(v), want) {
		t.Errorf("schedfarm version = %q; want it to start with %q", v, want)
	}

	// An empty root with the binary and the spec: what the image holds.
	if os.Geteuid() != 0 {
		t.Log("not root: the run in an empty root directory is skipped")
		return
	}
	root := t.TempDir()
	data := filepath.Join(root, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(out, filepath.Join(root, "schedfarm")); err != nil {
		t.Fatal(err)
	}
	writeFarmTrace(t, filepath.Join(data, "trace.swf"))
	if err := os.WriteFile(filepath.Join(data, "spec.yaml"), []byte(farmSpecText), 0o644); err != nil {
		t.Fatal(err)
	}
	sweep := exec.Command("/schedfarm", "run", "--workers", "2", "spec.yaml")
	sweep.Dir = "/data"
	sweep.Env = []string{}
	sweep.SysProcAttr = &syscall.SysProcAttr{Chroot: root}
	if b, err := sweep.CombinedOutput(); err != nil {
		t.Fatalf("schedfarm run in an empty root: %v\n%s", err, b)
	}
	fx := &farmFixture{dir: data, spec: filepath.Join(data, "spec.yaml")}
	checkAllOK(t, fx.readExactlyOnce(t, data))
}

// composeFile is the part of docker-compose.yml the test reads.
type composeFile struct {
	Services map[string]struct {
		Command         []string          `yaml:"command"`
		Environment     map[string]string `yaml:"environment"`
		StopGracePeriod string            `yaml:"stop_grace_period"`
	} `yaml:"services"`
}

var composeVar = regexp.MustCompile(`\$\{(\w+)(:-([^}]*))?\}`)

// TestComposeServicesRunAsWritten starts the compose file's broker, two
// workers and the coordinator as processes, each with the command and
// environment the compose file gives it (${VAR:-default} expanded, the
// broker's host name and port mapped to a free local port, volumes mapped to
// directories), and checks that the sweep completes with every cell once.
// It also checks that the worker's stop_grace_period leaves the worker's
// --grace time to finish a running cell before the container is killed.
func TestComposeServicesRunAsWritten(t *testing.T) {
	fx := newFarmFixture(t, false)
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var cf composeFile
	if err := yaml.Unmarshal(data, &cf); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	for _, name := range []string{"broker", "coordinator", "worker"} {
		if len(cf.Services[name].Command) == 0 {
			t.Fatalf("docker-compose.yml: service %s has no command", name)
		}
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	vars := map[string]string{"SPEC": "spec.yaml"} // what the user sets on the command line
	expand := func(s string) string {
		s = composeVar.ReplaceAllStringFunc(s, func(m string) string {
			g := composeVar.FindStringSubmatch(m)
			if v, ok := vars[g[1]]; ok {
				return v
			}
			return g[3]
		})
		// The service name "broker" resolves on the compose network; here the
		// broker is on loopback.
		s = strings.ReplaceAll(s, "nats://broker:4222", "nats://127.0.0.1:"+port)
		s = strings.ReplaceAll(s, "0.0.0.0:4222", "127.0.0.1:"+port)
		if s == "/state" { // the broker's volume
			return filepath.Join(fx.dir, "broker-state")
		}
		return s
	}
	service := func(name string) (args, env []string) {
		s := cf.Services[name]
		for _, a := range s.Command {
			args = append(args, expand(a))
		}
		for k, v := range s.Environment {
			env = append(env, k+"="+expand(v))
		}
		return args, env
	}

	bargs, benv := service("broker")
	fx.start(t, benv, bargs...)
	poll(t, 20*time.Second, "the broker to listen", func() bool {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	wargs, wenv := service("worker")
	for i := range 2 { // --scale worker=2
		fx.start(t, append(wenv, fmt.Sprintf("SCHEDFARM_WORKER_ID=worker-%d", i+1)), wargs...)
	}
	cargs, cenv := service("coordinator")
	coord := fx.start(t, cenv, cargs...)
	if code := coord.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("coordinator exited %d:\n%s", code, coord.out.String())
	}
	recs := fx.readExactlyOnce(t, fx.dir)
	checkAllOK(t, recs)
	seen := map[string]bool{}
	for _, r := range recs {
		seen[strings.SplitN(r.Result.Worker, "/", 2)[0]] = true
	}
	t.Logf("cells done by %v", seen)

	grace, err := time.ParseDuration(cf.Services["worker"].StopGracePeriod)
	if err != nil {
		t.Fatalf("docker-compose.yml: worker stop_grace_period %q: %v", cf.Services["worker"].StopGracePeriod, err)
	}
	workerGrace := 30 * time.Second // the worker's --grace default
	for i, a := range wargs {
		if a == "--grace" && i+1 < len(wargs) {
			if workerGrace, err = time.ParseDuration(wargs[i+1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if grace <= workerGrace {
		t.Errorf("worker stop_grace_period %v is not longer than its --grace %v: a draining worker is killed before it hands its cell back", grace, workerGrace)
	}
}
