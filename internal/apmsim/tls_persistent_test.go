package apmsim

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"io"
	"log"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// handshake connects a client that trusts only caPEM to a server using cfg, by the
// server's IP address.
func handshake(t *testing.T, cfg *tls.Config, caPEM []byte) error {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // a refused handshake is expected in some tests
	srv.TLS = cfg
	srv.StartTLS()
	defer srv.Close()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("CA PEM does not parse")
	}
	conn, err := tls.Dial("tcp", srv.Listener.Addr().String(), &tls.Config{RootCAs: roots})
	if err != nil {
		return err
	}
	return conn.Close()
}

func TestPersistentTLS(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls") // missing: made by the first call
	cfg1, ca1, err := PersistentTLS(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{".": 0o700, caKeyFile: 0o600} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", name, fi.Mode().Perm(), want)
		}
	}
	if onDisk, err := os.ReadFile(filepath.Join(dir, caCertFile)); err != nil || !bytes.Equal(onDisk, ca1) {
		t.Errorf("%s holds %q, %v; want the returned CA", caCertFile, onDisk, err)
	}

	// A restart: same CA, fresh server certificate for the hosts asked for now.
	cfg2, ca2, err := PersistentTLS(dir, []string{"apm.example"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ca1, ca2) {
		t.Fatal("the second call made another CA")
	}
	leaf1, leaf2 := cfg1.Certificates[0].Leaf, cfg2.Certificates[0].Leaf
	if leaf1.SerialNumber.Cmp(leaf2.SerialNumber) == 0 || !slices.Contains(leaf2.DNSNames, "apm.example") {
		t.Errorf("second server certificate: serial %v (first %v), DNS names %v", leaf2.SerialNumber, leaf1.SerialNumber, leaf2.DNSNames)
	}
	if err := handshake(t, cfg2, ca1); err != nil {
		t.Fatalf("a client trusting the first run's CA: %v", err)
	}

	// Another directory is another CA, which that client does not trust.
	cfg3, _, err := PersistentTLS(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := handshake(t, cfg3, ca1); err == nil {
		t.Fatal("a client trusting one directory's CA accepted another's")
	}
}

// readDir maps the names of the files in dir to their contents.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// Bad files are reported by name and left as they are.
func TestPersistentTLSBadFiles(t *testing.T) {
	write := func(name, content string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	remove := func(name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	otherKey := func(t *testing.T, dir string) {
		other := t.TempDir()
		if _, _, err := PersistentTLS(other, nil); err != nil {
			t.Fatal(err)
		}
		key, err := os.ReadFile(filepath.Join(other, caKeyFile))
		if err != nil {
			t.Fatal(err)
		}
		write(caKeyFile, string(key))(t, dir)
	}
	leafAsCA := func(t *testing.T, dir string) {
		cfg, _, err := SelfSignedTLS(nil)
		if err != nil {
			t.Fatal(err)
		}
		write(caCertFile, string(pemCertificate(cfg.Certificates[0].Leaf)))(t, dir)
	}
	expired := func(t *testing.T, dir string) {
		remove(caCertFile)(t, dir)
		remove(caKeyFile)(t, dir)
		certPath, keyPath := filepath.Join(dir, caCertFile), filepath.Join(dir, caKeyFile)
		if _, err := createCA(dir, certPath, keyPath, time.Now().AddDate(-2, 0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	garbageKey := string(pem.EncodeToMemory(&pem.Block{Type: pemTypePrivateKey, Bytes: []byte("not a key")}))
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, dir string)
		file  string // named in the error
		want  string
	}{
		{"key missing", remove(caKeyFile), caKeyFile, "is missing next to"},
		{"certificate missing", remove(caCertFile), caCertFile, "is missing next to"},
		{"certificate not PEM", write(caCertFile, "garbage"), caCertFile, `no PEM "CERTIFICATE" block`},
		{"key not PEM", write(caKeyFile, "garbage"), caKeyFile, `no PEM "PRIVATE KEY" block`},
		{"key does not parse", write(caKeyFile, garbageKey), caKeyFile, "CA key"},
		{"key of another CA", otherKey, caKeyFile, "does not belong to the certificate"},
		{"not a CA", leafAsCA, caCertFile, "is not a CA certificate"},
		{"expired", expired, caCertFile, "expired on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, _, err := PersistentTLS(dir, nil); err != nil {
				t.Fatal(err)
			}
			tc.spoil(t, dir)
			before := readDir(t, dir)
			_, _, err := PersistentTLS(dir, nil)
			if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, tc.file)) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("PersistentTLS = %v, want an error naming %s with %q", err, tc.file, tc.want)
			}
			if after := readDir(t, dir); !maps.Equal(before, after) {
				t.Fatalf("files changed: %v -> %v", slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
			}
		})
	}
}
