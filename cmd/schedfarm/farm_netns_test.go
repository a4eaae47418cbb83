package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// The tests in this file run the farm the way the README's "Running workers
// on other machines" describes, on separate network hosts: the broker and
// each worker in a Linux network namespace of its own, the coordinator in the
// root namespace, all joined by a bridge, with TLS and a token. They need
// root (or CAP_NET_ADMIN and CAP_SYS_ADMIN) and iproute2's ip; without them
// they skip, unless SCHEDFARM_REQUIRE_NETNS=1, which makes that a failure.

// netnsToken is the broker's token in these tests.
const netnsToken = "netns-s3cret"

// netnsBrokerPort is the broker's port; the broker has a namespace of its
// own, so a fixed port cannot collide with anything.
const netnsBrokerPort = 4222

var netnsSeq atomic.Int32

// netnsHosts is a bridge in the root namespace (the coordinator's host) and
// a namespace for the broker and for each worker, each with a veth pair
// whose outer end is a port of the bridge.
type netnsHosts struct {
	broker   string            // namespace of the broker host
	workers  []string          // namespaces of the worker hosts
	outer    map[string]string // namespace → its veth end on the bridge
	bridgeIP string
	brokerIP string
	url      string // the broker's client URL
	pki      netnsPKI
}

// netnsUnavailable skips the test, or fails it when SCHEDFARM_REQUIRE_NETNS=1.
func netnsUnavailable(t *testing.T, reason string) {
	t.Helper()
	if os.Getenv("SCHEDFARM_REQUIRE_NETNS") == "1" {
		t.Fatalf("network namespaces are required (SCHEDFARM_REQUIRE_NETNS=1) but unavailable: %s", reason)
	}
	t.Skipf("needs network namespaces (root and iproute2's ip): %s", reason)
}

func ipCmd(args ...string) error {
	out, err := exec.Command("ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

func mustIP(t *testing.T, args ...string) {
	t.Helper()
	if err := ipCmd(args...); err != nil {
		t.Fatal(err)
	}
}

// freeNetnsSubnet returns the first three octets of a 10.213.X.0/24 that no
// address or route of the root namespace uses, starting at a point derived
// from the process id so that concurrent runs spread out.
func freeNetnsSubnet(t *testing.T, seq int) string {
	t.Helper()
	var used bytes.Buffer
	for _, args := range [][]string{{"-4", "-o", "addr", "show"}, {"-4", "route", "show", "table", "all"}} {
		out, err := exec.Command("ip", args...).Output()
		if err != nil {
			t.Fatalf("ip %s: %v", strings.Join(args, " "), err)
		}
		used.Write(out)
	}
	start := (os.Getpid()*7 + seq*31) % 254
	for i := range 254 {
		prefix := fmt.Sprintf("10.213.%d", (start+i)%254+1)
		if !strings.Contains(used.String(), prefix+".") {
			return prefix
		}
	}
	t.Fatal("no free 10.213.X.0/24 subnet")
	return ""
}

// newNetnsHosts builds the topology with the given number of worker hosts
// and a PKI for the broker's address; everything is removed when the test
// ends, after the processes (registered later) are killed.
func newNetnsHosts(t *testing.T, f *farmFixture, workers int) *netnsHosts {
	t.Helper()
	if _, err := exec.LookPath("ip"); err != nil {
		netnsUnavailable(t, err.Error())
	}
	seq := int(netnsSeq.Add(1))
	// Interface names are limited to 15 bytes: "sf" + pid in base 36 (at
	// most 5) + sequence + a 3-byte suffix.
	name := "sf" + strconv.FormatInt(int64(os.Getpid()), 36) + strconv.Itoa(seq%100)
	h := &netnsHosts{broker: name + "-broker", outer: map[string]string{}}
	var undo []func()
	t.Cleanup(func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	})
	if err := ipCmd("netns", "add", h.broker); err != nil {
		netnsUnavailable(t, err.Error())
	}
	undo = append(undo, func() { logIPErr(t, ipCmd("netns", "del", h.broker)) })
	subnet := freeNetnsSubnet(t, seq)
	bridge := name + "br"
	mustIP(t, "link", "add", bridge, "type", "bridge")
	undo = append(undo, func() { logIPErr(t, ipCmd("link", "del", bridge)) })
	// Where Docker runs, the FORWARD chain drops by default and bridged
	// frames pass through it (net.bridge.bridge-nf-call-iptables=1), which
	// would cut the hosts off one another: accept what stays on the test's
	// bridge, as Docker does for its own bridges, until the test ends.
	if allowBridged(t, bridge) {
		undo = append(undo, func() { logIPErr(t, iptablesCmd("-D", "FORWARD", "-i", bridge, "-o", bridge, "-j", "ACCEPT")) })
	}
	h.bridgeIP = subnet + ".1"
	mustIP(t, "addr", "add", h.bridgeIP+"/24", "dev", bridge)
	mustIP(t, "link", "set", bridge, "up")

	addHost := func(ns, outer, ip string) {
		mustIP(t, "link", "add", outer, "type", "veth", "peer", "name", "eth0", "netns", ns)
		undo = append(undo, func() { logIPErr(t, ipCmd("link", "del", outer)) })
		mustIP(t, "link", "set", outer, "master", bridge)
		mustIP(t, "link", "set", outer, "up")
		mustIP(t, "-n", ns, "addr", "add", ip+"/24", "dev", "eth0")
		mustIP(t, "-n", ns, "link", "set", "eth0", "up")
		mustIP(t, "-n", ns, "link", "set", "lo", "up")
		h.outer[ns] = outer
	}
	h.brokerIP = subnet + ".2"
	addHost(h.broker, name+"brk", h.brokerIP)
	for i := range workers {
		ns := fmt.Sprintf("%s-worker%d", name, i+1)
		mustIP(t, "netns", "add", ns)
		undo = append(undo, func() { logIPErr(t, ipCmd("netns", "del", ns)) })
		addHost(ns, fmt.Sprintf("%sw%d", name, i+1), fmt.Sprintf("%s.%d", subnet, 11+i))
		h.workers = append(h.workers, ns)
	}
	h.url = fmt.Sprintf("tls://%s", net.JoinHostPort(h.brokerIP, strconv.Itoa(netnsBrokerPort)))
	h.pki = writeNetnsPKI(t, filepath.Join(f.dir, "pki"), net.ParseIP(h.brokerIP))
	return h
}

// allowBridged inserts an iptables rule accepting forwarded traffic within
// bridge, when iptables exists and its FORWARD chain does not accept
// everything; it reports whether it did.
func allowBridged(t *testing.T, bridge string) bool {
	t.Helper()
	if _, err := exec.LookPath("iptables"); err != nil {
		return false
	}
	out, err := exec.Command("iptables", "-S", "FORWARD").Output()
	if err != nil || strings.Contains(string(out), "-P FORWARD ACCEPT") {
		return false
	}
	if err := iptablesCmd("-I", "FORWARD", "1", "-i", bridge, "-o", bridge, "-j", "ACCEPT"); err != nil {
		t.Fatal(err)
	}
	return true
}

func iptablesCmd(args ...string) error {
	out, err := exec.Command("iptables", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("iptables %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

func logIPErr(t *testing.T, err error) {
	if err != nil {
		t.Logf("cleanup: %v", err)
	}
}

// netnsPKI are PEM files: a CA, the broker's certificate (issued by the CA
// for the broker's IP address) and key, and an unrelated CA.
type netnsPKI struct {
	ca, cert, key, otherCA string
}

func writeNetnsPKI(t *testing.T, dir string, brokerIP net.IP) netnsPKI {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := netnsPKI{ca: filepath.Join(dir, "ca.pem"), cert: filepath.Join(dir, "broker.pem"),
		key: filepath.Join(dir, "broker-key.pem"), otherCA: filepath.Join(dir, "other-ca.pem")}
	writePEM := func(path, typ string, der []byte) {
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	newCA := func(serial int64, cn, path string) (*x509.Certificate, *ecdsa.PrivateKey) {
		key := newKey()
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(serial),
			Subject:               pkix.Name{CommonName: cn},
			NotBefore:             time.Now().Add(-time.Hour),
			NotAfter:              time.Now().Add(24 * time.Hour),
			KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
			BasicConstraintsValid: true,
			IsCA:                  true,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			t.Fatal(err)
		}
		writePEM(path, "CERTIFICATE", der)
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		return cert, key
	}
	ca, caKey := newCA(1, "schedfarm netns test CA", p.ca)
	newCA(2, "schedfarm netns test unrelated CA", p.otherCA)
	key := newKey()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(3),
		Subject:      pkix.Name{CommonName: "schedfarm broker host"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		IPAddresses:  []net.IP{brokerIP},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(p.cert, "CERTIFICATE", der)
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	writePEM(p.key, "EC PRIVATE KEY", kder)
	return p
}

// netnsCommand is the test binary run in namespace ns (the root namespace
// when ns is ""), in dir, with the environment of start.
func netnsCommand(ctx context.Context, ns, dir string, env []string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if ns == "" {
		cmd = exec.CommandContext(ctx, farmBin, args...)
	} else {
		// ip netns exec execs the program in place, so the process is the
		// schedfarm binary itself and signals reach it.
		cmd = exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", ns, farmBin}, args...)...)
	}
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SCHEDFARM_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// startIn is start for a process on the host of namespace ns.
func (f *farmFixture) startIn(t *testing.T, ns string, env []string, args ...string) *farmProc {
	t.Helper()
	cmd := netnsCommand(context.Background(), ns, f.dir, env, args...)
	return launch(t, cmd, strings.Join(args, " ")+" (host "+ns+")")
}

// runIn runs the binary on the host of namespace ns to completion and
// returns its exit code, stdout and stderr.
func (f *farmFixture) runIn(t *testing.T, ns string, d time.Duration, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := netnsCommand(ctx, ns, f.dir, nil, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("schedfarm %s: %v", strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		t.Fatalf("schedfarm %s on host %s still running after %v; stderr:\n%s", strings.Join(args, " "), ns, d, stderr.String())
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// credentials are the client flags of a coordinator or worker that has the
// token and the CA.
func (h *netnsHosts) credentials() []string {
	return []string{"--nats", h.url, "--token", netnsToken, "--tls-ca", h.pki.ca}
}

// startBroker starts the broker on its host, listening on its own address
// only, with TLS and the token, and waits until it listens.
func (h *netnsHosts) startBroker(t *testing.T, f *farmFixture) *farmProc {
	t.Helper()
	b := f.startIn(t, h.broker, nil, "broker", "--listen", net.JoinHostPort(h.brokerIP, strconv.Itoa(netnsBrokerPort)),
		"--store", filepath.Join(f.dir, "broker-store"), "--token", netnsToken, "--tls-cert", h.pki.cert, "--tls-key", h.pki.key)
	poll(t, 30*time.Second, "the broker to listen", func() bool {
		return strings.Contains(b.out.String(), "(clients: "+h.url+")")
	})
	return b
}

// startWorker starts a one-slot worker named id on worker host i and waits
// until it is connected.
func (h *netnsHosts) startWorker(t *testing.T, f *farmFixture, i int, id string, env []string) *farmProc {
	t.Helper()
	w := f.startIn(t, h.workers[i], env, append([]string{"worker", "--slots", "1", "--id", id}, h.credentials()...)...)
	poll(t, 30*time.Second, "worker "+id+" to connect", func() bool {
		return strings.Contains(w.out.String(), "1 slots on "+h.url)
	})
	return w
}

// dial connects the test itself (on the coordinator's host) to the broker.
func (h *netnsHosts) dial(t *testing.T) jetstream.JetStream {
	t.Helper()
	nc, err := broker.Dial(broker.ClientOptions{URL: h.url, Token: netnsToken, CAFile: h.pki.ca, Name: "netns test", ConnectTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// stop sends SIGTERM and expects exit code 0.
func (p *farmProc) stop(t *testing.T, what string) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Errorf("%s: exit code %d after SIGTERM; want 0; output:\n%s", what, code, p.out.String())
	}
}

// readOutputOnce reads the Parquet output of the spec at specPath (written
// by a coordinator that ran in the spec's directory) and checks that it has
// each of the spec's cells exactly once; it returns the records by cell id.
func readOutputOnce(t *testing.T, specPath string) map[string]*results.Record {
	t.Helper()
	return readOutputIn(t, specPath, filepath.Dir(specPath))
}

// readOutputIn is readOutputOnce for a coordinator that ran in workDir.
func readOutputIn(t *testing.T, specPath, workDir string) map[string]*results.Record {
	t.Helper()
	spec, err := farmLoadSpec(specPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadFile(filepath.Join(workDir, spec.Output))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, c := range spec.Cells() {
		want[c.ID] = true
	}
	got := map[string]*results.Record{}
	for _, r := range recs {
		if got[r.Cell.ID] != nil {
			t.Errorf("cell %s appears more than once in the output", r.Cell.ID)
		}
		got[r.Cell.ID] = r
		if !want[r.Cell.ID] {
			t.Errorf("output has cell %s, which is not in the spec", r.Cell.ID)
		}
	}
	for id := range want {
		if got[id] == nil {
			t.Errorf("cell %s missing from the output", id)
		}
	}
	if len(recs) != len(want) {
		t.Errorf("output has %d rows; want %d", len(recs), len(want))
	}
	return got
}

// journalHas reports whether the journal of output has a complete record
// of the cell, and returns it.
func journalHas(output, cellID string) (*results.Record, bool) {
	b, err := os.ReadFile(results.JournalPath(output))
	if err != nil {
		return nil, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r results.Record
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Cell.ID == cellID {
			return &r, true
		}
	}
	return nil, false
}

const netnsSpecText = `name: acrosshosts
platform:
  procs: 16
workload:
  trace: trace.swf
schedulers:
  - fcfs
  - easy
axes:
  - param: workload.load
    values: [0.5, 0.6, 0.7, 0.8, 0.9]
replications: 2
seed: 11
output: hosts.parquet
`

// TestFarmAcrossHosts proves that the farm works across network hosts as
// the README describes: a broker on one host (TLS, token, listening on its
// own address only), a one-slot worker on each of two other hosts and a
// coordinator on a fourth (the root namespace) run a 20-cell sweep to
// completion; the output has every cell exactly once, all ok, and both
// worker hosts ran cells.
func TestFarmAcrossHosts(t *testing.T) {
	f := newFarmFixture(t, false)
	spec := f.writeSpec(t, "hosts.yaml", netnsSpecText)
	h := newNetnsHosts(t, f, 2)
	b := h.startBroker(t, f)
	// A short delay per cell keeps one worker from taking every cell
	// before the other fetches.
	slow := []string{"SCHEDFARM_FAULT_DELAY=100ms"}
	w1 := h.startWorker(t, f, 0, "host1", slow)
	w2 := h.startWorker(t, f, 1, "host2", slow)
	coord := f.start(t, nil, append([]string{"coordinator", "--progress-every", "1s"}, append(h.credentials(), spec)...)...)
	if code := coord.wait(t, 2*time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d; want 0; output:\n%s", code, coord.out.String())
	}
	if out := coord.out.String(); !strings.Contains(out, "acrosshosts: 20 cells, 0 done before, 20 ok, 0 failed") {
		t.Errorf("coordinator summary does not report 20 ok cells:\n%s", out)
	}
	recs := readOutputOnce(t, spec)
	if len(recs) != 20 {
		t.Fatalf("spec expands to %d cells; the test assumes 20", len(recs))
	}
	checkAllOK(t, recs)
	perHost := map[string]int{}
	for _, r := range recs {
		host, _, _ := strings.Cut(r.Result.Worker, "/")
		perHost[host]++
	}
	if perHost["host1"] == 0 || perHost["host2"] == 0 || perHost["host1"]+perHost["host2"] != 20 {
		t.Errorf("cells per worker host: %v; want both host1 and host2 to have run cells, and nobody else", perHost)
	}
	t.Logf("cells per worker host: %v", perHost)
	w1.stop(t, "worker host1")
	w2.stop(t, "worker host2")
	b.stop(t, "broker")
}

// TestFarmNetnsRefusesBadCredentials proves that, across hosts, the broker
// admits only clients that have both the token and the CA: a worker with a
// wrong or no token exits 1 with an authorization error, and a worker that
// cannot verify the broker's certificate (no --tls-ca, an unrelated CA, or a
// nats:// URL, which the server upgrades to TLS) exits 1 naming the failed
// certificate verification; a coordinator with a wrong token is refused the
// same way. A worker with the right credentials on the same host connects,
// so the refusals are not network trouble.
func TestFarmNetnsRefusesBadCredentials(t *testing.T) {
	f := newFarmFixture(t, false)
	h := newNetnsHosts(t, f, 1)
	h.startBroker(t, f)
	good := h.startWorker(t, f, 0, "good", nil)
	good.stop(t, "worker with the right credentials")

	const (
		authz = "nats: Authorization Violation"
		x509  = "tls: failed to verify certificate: x509: certificate signed by unknown authority"
	)
	plainURL := fmt.Sprintf("nats://%s", net.JoinHostPort(h.brokerIP, strconv.Itoa(netnsBrokerPort)))
	cases := []struct {
		name string
		ns   string
		args []string
		want string
	}{
		{"wrong token", h.workers[0], []string{"worker", "--nats", h.url, "--token", "wrong", "--tls-ca", h.pki.ca}, authz},
		{"no token", h.workers[0], []string{"worker", "--nats", h.url, "--tls-ca", h.pki.ca}, authz},
		{"no CA", h.workers[0], []string{"worker", "--nats", h.url, "--token", netnsToken}, x509},
		{"unrelated CA", h.workers[0], []string{"worker", "--nats", h.url, "--token", netnsToken, "--tls-ca", h.pki.otherCA}, x509},
		{"nats:// URL without CA", h.workers[0], []string{"worker", "--nats", plainURL, "--token", netnsToken}, x509},
		{"coordinator with a wrong token", "", []string{"coordinator", "--nats", h.url, "--token", "wrong", "--tls-ca", h.pki.ca, f.spec}, authz},
	}
	for _, c := range cases {
		code, stdout, stderr := f.runIn(t, c.ns, 30*time.Second, c.args...)
		if code != 1 {
			t.Errorf("%s: exit code %d; want 1; stdout %q, stderr %q", c.name, code, stdout, stderr)
		}
		if !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "connect to NATS at ") {
			t.Errorf("%s: stderr %q; want a connection error containing %q", c.name, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, "out.parquet")); err == nil {
		t.Error("the refused coordinator wrote an output")
	}
}

// TestFarmWorkerHostPartitioned proves that a network partition of a worker
// host in the middle of a cell loses nothing and duplicates nothing: the
// partitioned worker's cell is redelivered after the ack wait and completed
// by the worker on the other host; when the link comes back, the partitioned
// worker's late (stale) result for that cell does not add a second row; the
// sweep ends with every cell exactly once, and the healed worker goes on to
// run cells (it alone completes a follow-up experiment).
func TestFarmWorkerHostPartitioned(t *testing.T) {
	f := newFarmFixture(t, false)
	h := newNetnsHosts(t, f, 2)
	h.startBroker(t, f)
	js := h.dial(t)
	out := filepath.Join(f.dir, "out.parquet")

	coord := f.start(t, nil, append([]string{"coordinator", "--ack-wait", "1s", "--progress-every", "1s"}, append(h.credentials(), f.spec)...)...)
	// Start the worker once the coordinator has set the 1s ack wait, so that
	// the worker heartbeats every third of it.
	var cons jetstream.Consumer
	poll(t, 30*time.Second, "the coordinator to create the workers consumer with a 1s ack wait", func() bool {
		c, err := js.Consumer(context.Background(), broker.CellsStream, broker.WorkersConsumer)
		if err != nil || c.CachedInfo().Config.AckWait != time.Second {
			return false
		}
		cons = c
		return true
	})
	// Worker host 1 holds its first cell until the gate opens, after the
	// partition has healed: the partition falls inside that cell by
	// construction. host2 is slow enough (0.4 s a cell) that the sweep is
	// usually still running when host1's late result for that cell arrives.
	gate := filepath.Join(f.dir, "gate-host1")
	w1 := h.startWorker(t, f, 0, "host1", []string{"SCHEDFARM_FAULT_GATE=" + gate})
	poll(t, 30*time.Second, "worker host1 to take a cell", func() bool {
		info, err := cons.Info(context.Background())
		return err == nil && info.NumAckPending == 1
	})
	// host1 was alone, so it holds the first cell the coordinator published.
	cellsSt, err := js.Stream(context.Background(), broker.CellsStream)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := cellsSt.GetMsg(context.Background(), 1)
	if err != nil {
		t.Fatalf("cell message 1, held by host1: %v", err)
	}
	var held runner.Cell
	if err := json.Unmarshal(raw.Data, &held); err != nil {
		t.Fatal(err)
	}
	link := h.outer[h.workers[0]]
	mustIP(t, "link", "set", link, "down")
	cut := time.Now()
	t.Logf("cut host1's link %s while it runs cell %s (index %d)", link, held.ID, held.Index)

	w2 := h.startWorker(t, f, 1, "host2", []string{"SCHEDFARM_FAULT_DELAY=400ms"})
	var rec *results.Record
	poll(t, 30*time.Second, "the held cell's result in the journal", func() bool {
		var ok bool
		rec, ok = journalHas(out, held.ID)
		return ok
	})
	t.Logf("held cell completed by %s %v after the cut", rec.Result.Worker, time.Since(cut).Round(time.Millisecond))
	if !strings.HasPrefix(rec.Result.Worker, "host2/") {
		t.Errorf("held cell %s completed by %q while host1 was cut off; want host2", held.ID, rec.Result.Worker)
	}
	// Heal the partition while the sweep still runs: host1 finishes its
	// cell and publishes its stale result for the held cell.
	mustIP(t, "link", "set", link, "up")
	openGate(t, gate)
	if code := coord.wait(t, time.Minute); code != 0 {
		t.Fatalf("coordinator exit code %d; want 0; output:\n%s", code, coord.out.String())
	}
	recs := f.readExactlyOnce(t, f.dir)
	checkAllOK(t, recs)
	if r := recs[held.ID]; r != nil && !strings.HasPrefix(r.Result.Worker, "host2/") {
		t.Errorf("held cell %s: output row from %q; want host2's", held.ID, r.Result.Worker)
	}
	perHost := map[string]int{}
	for _, r := range recs {
		host, _, _ := strings.Cut(r.Result.Worker, "/")
		perHost[host]++
	}
	t.Logf("cells per worker host: %v", perHost)

	// host1 recovers: with host2 gone it alone runs a follow-up experiment.
	w2.stop(t, "worker host2")
	after := f.writeSpec(t, "after.yaml", strings.NewReplacer("name: farmtest", "name: farmtest-after",
		"values: [0.5, 0.7, 0.9]", "values: [0.5]", "replications: 2", "replications: 1",
		"output: out.parquet", "output: after.parquet", "  - easy\n", "").Replace(farmSpecText))
	coord2 := f.start(t, nil, append([]string{"coordinator", "--ack-wait", "1s"}, append(h.credentials(), after)...)...)
	if code := coord2.wait(t, time.Minute); code != 0 {
		t.Fatalf("follow-up coordinator exit code %d; want 0; output:\n%s", code, coord2.out.String())
	}
	for id, r := range readOutputOnce(t, after) {
		if !strings.HasPrefix(r.Result.Worker, "host1/") || r.Result.Status != runner.StatusOK {
			t.Errorf("follow-up cell %s: worker %q, status %s; want ok from host1", id, r.Result.Worker, r.Result.Status)
		}
	}
	w1.stop(t, "worker host1")

	// The stale result did not come back either: the first output is as it
	// was, and nothing of the experiment is left in the streams.
	checkAllOK(t, f.readExactlyOnce(t, f.dir))
	for _, name := range []string{broker.CellsStream, broker.ResultsStream} {
		st, err := js.Stream(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		info, err := st.Info(context.Background(), jetstream.WithSubjectFilter("schedfarm.>"))
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs != 0 {
			t.Errorf("stream %s holds %d messages after both sweeps (subjects %v); want 0", name, info.State.Msgs, info.State.Subjects)
		}
	}
}
