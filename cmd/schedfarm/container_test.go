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

// These tests check the image and the compose file without a Docker
// engine (farm_docker_test.go runs them for real where one is reachable):
// the build command both Dockerfiles share is run and its root file system
// checked, and the compose services are started as plain processes with
// their own commands and environment.

// repoRoot is the module root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// dockerfileStages returns the instructions of a Dockerfile (continuation
// lines joined, comments and blank lines dropped) split into stages at
// each FROM, and its ARG defaults.
func dockerfileStages(t *testing.T, name string) (stages [][]string, args map[string]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), name))
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.ReplaceAll(string(data), "\\\n", " ")
	args = map[string]string{}
	for _, line := range strings.Split(joined, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "FROM ") {
			stages = append(stages, nil)
		}
		if len(stages) == 0 {
			t.Fatalf("%s: instruction %q before the first FROM", name, line)
		}
		if kv, ok := strings.CutPrefix(line, "ARG "); ok {
			k, v, _ := strings.Cut(kv, "=")
			args[k] = v
		}
		stages[len(stages)-1] = append(stages[len(stages)-1], line)
	}
	return stages, args
}

// TestDockerfilesShareTheBuild checks that ./Dockerfile (FROM scratch, fed
// by scripts/build-image) and Dockerfile.multistage (for users who can pull
// golang:1.26) make the same image: the multi-stage build runs the same
// script to stage the root file system, and its runtime stage is
// ./Dockerfile's, instruction for instruction, reading the staged files
// from the build stage instead of the build context. Then it runs the
// multi-stage file's build command here (a commit given as the build
// argument) and checks the staged root file system: a static binary that
// reports that commit, the CA bundle, the schedfarm user, /data and /state;
// as root it also runs a sweep chrooted into that file system as uid 65532,
// with nothing else in it.
func TestDockerfilesShareTheBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	scratch, _ := dockerfileStages(t, "Dockerfile")
	multi, args := dockerfileStages(t, "Dockerfile.multistage")
	if len(scratch) != 1 || scratch[0][0] != "FROM scratch" {
		t.Fatalf("Dockerfile: stages %q; want one stage FROM scratch", scratch)
	}
	for _, in := range scratch[0] {
		if strings.HasPrefix(in, "RUN ") {
			t.Errorf("Dockerfile: %q; a FROM scratch image has nothing to run it with", in)
		}
	}
	if len(multi) != 2 {
		t.Fatalf("Dockerfile.multistage: %d stages; want a build stage and a runtime stage", len(multi))
	}
	var run string
	for _, in := range multi[0] {
		if strings.HasPrefix(in, "RUN ") && strings.Contains(in, "scripts/build-image --stage /stage") {
			run = strings.TrimPrefix(in, "RUN ")
		}
		if strings.HasPrefix(in, "RUN ") && strings.Contains(in, "go build") {
			t.Errorf("Dockerfile.multistage: %q runs go build itself; want it to run scripts/build-image, the one build command", in)
		}
	}
	if run == "" {
		t.Fatal("Dockerfile.multistage: no RUN scripts/build-image --stage /stage in the build stage")
	}
	runtime := strings.Join(multi[1], "\n")
	runtime = strings.ReplaceAll(runtime, "--from=build ", "")
	runtime = strings.ReplaceAll(runtime, " /stage/", " ")
	if want := strings.Join(scratch[0], "\n"); runtime != want {
		t.Errorf("Dockerfile.multistage runtime stage, reading from the build context:\n%s\nwant ./Dockerfile's:\n%s", runtime, want)
	}

	stage := t.TempDir()
	args["COMMIT"] = "c0ffee0test"
	for k, v := range args {
		run = strings.ReplaceAll(run, "${"+k+"}", v)
	}
	run = strings.Replace(run, "--stage /stage", "--stage "+stage, 1)
	build := exec.Command("sh", "-c", run)
	build.Dir = repoRoot(t)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", run, err, b)
	}
	root := filepath.Join(stage, "rootfs")
	bin := filepath.Join(root, "usr", "local", "bin", "schedfarm")
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("binary has a program interpreter (dynamically linked); a FROM scratch image has no libc")
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("binary needs shared libraries %v (%v); want none", libs, err)
	}
	v, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("schedfarm version: %v\n%s", err, v)
	}
	if want := "(commit c0ffee0test,"; !strings.Contains(string(v), want) {
		t.Errorf("schedfarm version = %q; want it to contain %q", v, want)
	}
	if ca, err := os.ReadFile(filepath.Join(root, "etc", "ssl", "certs", "ca-certificates.crt")); err != nil || !strings.Contains(string(ca), "BEGIN CERTIFICATE") {
		t.Errorf("staged CA bundle: %v; want PEM certificates", err)
	}
	if pw, err := os.ReadFile(filepath.Join(root, "etc", "passwd")); err != nil || !strings.Contains(string(pw), "schedfarm:x:65532:65532:") {
		t.Errorf("staged /etc/passwd %q (%v); want the schedfarm user, uid 65532", pw, err)
	}
	for _, d := range []string{"data", "state"} {
		if fi, err := os.Stat(filepath.Join(stage, "writable", d)); err != nil || !fi.IsDir() {
			t.Errorf("staged /%s: %v; want a directory", d, err)
		}
	}

	// The staged file system alone, as the image has it, run as its user.
	if os.Geteuid() != 0 {
		t.Log("not root: the run in the staged root file system is skipped")
		return
	}
	data := filepath.Join(root, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(data, 65532, 65532); err != nil {
		t.Fatal(err)
	}
	writeFarmTrace(t, filepath.Join(data, "trace.swf"))
	if err := os.WriteFile(filepath.Join(data, "spec.yaml"), []byte(farmSpecText), 0o644); err != nil {
		t.Fatal(err)
	}
	sweep := exec.Command("/usr/local/bin/schedfarm", "run", "--workers", "2", "spec.yaml")
	sweep.Dir = "/data"
	sweep.Env = []string{}
	sweep.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: 65532, Gid: 65532}}
	if b, err := sweep.CombinedOutput(); err != nil {
		t.Fatalf("schedfarm run in the staged root file system: %v\n%s", err, b)
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

var composeVar = regexp.MustCompile(`\$\{(\w+)(:[-?]([^}]*))?\}`)

// TestComposeServicesRunAsWritten starts the compose file's broker, two
// workers and the coordinator as processes, each with the command and
// environment the compose file gives it (${VAR:-default} and ${VAR:?error} expanded, the
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
	// What the user sets on the command line.
	vars := map[string]string{"SPEC": "spec.yaml", "SCHEDFARM_NATS_TOKEN": "compose-s3cret"}
	expand := func(s string) string {
		s = composeVar.ReplaceAllStringFunc(s, func(m string) string {
			g := composeVar.FindStringSubmatch(m)
			if v, ok := vars[g[1]]; ok {
				return v
			}
			if strings.HasPrefix(g[2], ":?") {
				t.Fatalf("docker-compose.yml: %s is required and the test does not set it", g[1])
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
