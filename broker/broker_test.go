package broker_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/broker"
)

// writeSelfSigned writes a self-signed certificate for 127.0.0.1 (its own
// CA) and its key.
func writeSelfSigned(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "schedfarm test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}

func TestTLSAndUserPassword(t *testing.T) {
	dir := t.TempDir()
	cert, key := writeSelfSigned(t, dir)
	srv, err := broker.Start(broker.Options{Host: "127.0.0.1", Port: -1, StoreDir: filepath.Join(dir, "js"),
		User: "farm", Password: "pw", TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := srv.ClientURL()
	if !strings.HasPrefix(url, "tls://127.0.0.1:") {
		t.Fatalf("client URL %q; want tls://127.0.0.1:port", url)
	}
	nc, err := broker.Dial(broker.ClientOptions{URL: url, User: "farm", Password: "pw", CAFile: cert})
	if err != nil {
		t.Fatalf("dial with CA and credentials: %v", err)
	}
	nc.Close()
	if _, err := broker.Dial(broker.ClientOptions{URL: url, User: "farm", Password: "wrong", CAFile: cert}); err == nil {
		t.Error("dial with a wrong password succeeded")
	}
	if _, err := broker.Dial(broker.ClientOptions{URL: url, User: "farm", Password: "pw", ConnectTimeout: time.Second}); err == nil {
		t.Error("dial without the CA succeeded against a self-signed server")
	}
}

func TestOptionsReportEveryProblem(t *testing.T) {
	err := broker.Options{Port: 70000, User: "u", Token: "t", TLSCert: "c", MaxPayload: 100}.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"store directory", "port 70000", "user and password", "both user/password and token", "TLS", "max payload 100 bytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if err := (broker.ClientOptions{}).Validate(); err == nil || !strings.Contains(err.Error(), "SCHEDFARM_NATS") {
		t.Errorf("empty client options: %v; want an error naming the URL flag and variable", err)
	}
}

func TestTokenSubject(t *testing.T) {
	for in, want := range map[string]string{"load-sweep": "load-sweep", "a.b": "a_2Eb", "a_b": "a_5Fb", "c*>": "c_2A_3E", "": "_"} {
		if got := broker.Token(in); got != want {
			t.Errorf("Token(%q) = %q; want %q", in, got, want)
		}
	}
	if got := broker.CellSubject("exp.1", "abc"); got != "schedfarm.cells.exp_2E1.abc" {
		t.Errorf("CellSubject = %q", got)
	}
}
