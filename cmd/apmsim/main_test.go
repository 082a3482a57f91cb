package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// started runs run in the background and returns the lines it prints on stdout and
// stderr, in order, as they come, plus a stop function that cancels it and returns its
// error.
func started(t *testing.T, args ...string) (lines <-chan string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	out := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			out <- sc.Text()
		}
		close(out)
	}()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, args, pw, pw) // like 2>&1: warnings come before the serving line
		pw.Close()
		done <- err
	}()
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("run did not return after cancel")
			return nil
		}
	}
	t.Cleanup(func() { _ = stop() })
	return out, stop
}

func nextLine(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("run ended without printing")
		}
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no output from run")
		return ""
	}
}

// adminKey is long enough for run, which refuses keys shorter than minKeyLength.
const adminKey = "cmd-test-admin-key-0123"

var servingLine = regexp.MustCompile(`^apmsim: serving (https?://127\.0\.0\.1:[0-9]+) \((.*)\)$`)

func TestRunHTTPS(t *testing.T) {
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	lines, stop := started(t, "--addr", "127.0.0.1:0", "--ca-out", caFile, "--admin-key", adminKey, "--seed", "demo")
	line := nextLine(t, lines)
	m := servingLine.FindStringSubmatch(line)
	if m == nil || !strings.HasPrefix(m[1], "https://") || strings.HasSuffix(m[1], ":0") || m[2] != "seed demo" {
		t.Fatalf("serving line %q", line)
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		t.Fatal("CA file is not PEM")
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	defer c.CloseIdleConnections()

	var info struct {
		Version, PatchVersion, Status string
		HAMode                        bool `json:"haMode"`
	}
	getJSON(t, c, m[1]+"/rest/public/managerInfo", 200, &info)
	if info.Version != "1.0.0" || info.PatchVersion != "1.0.0.0" || info.Status != "running" || info.HAMode {
		t.Fatalf("managerInfo %+v", info)
	}
	var systems struct{ Systems []struct{ SystemName string } }
	getJSON(t, c, m[1]+"/rest/systems?key="+adminKey, 200, &systems)
	if len(systems.Systems) != 2 || systems.Systems[1].SystemName != "shop" {
		t.Fatalf("systems %+v", systems)
	}
	getJSON(t, c, m[1]+"/rest/systems?key=nope", 401, nil)

	c.CloseIdleConnections()
	if err := stop(); err != nil {
		t.Fatalf("run returned %v after cancel", err)
	}
}

// trustingClient is a client that trusts only the CA in the PEM file.
func trustingClient(t *testing.T, caFile string) *http.Client {
	t.Helper()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(mustRead(t, caFile)) {
		t.Fatal("CA file is not PEM")
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// With --tls-dir (and --state-file) a restarted sim has the same CA, so a client set up
// once keeps working, and sees the data of the run before.
func TestRunTLSDirSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	tlsDir, caFile, state := filepath.Join(dir, "tls"), filepath.Join(dir, "ca.pem"), filepath.Join(dir, "state.json")
	lines, stop := started(t, "--addr", "127.0.0.1:0", "--admin-key", adminKey, "--tls-dir", tlsDir, "--ca-out", caFile, "--state-file", state)
	m := servingLine.FindStringSubmatch(nextLine(t, lines))
	if m == nil || !strings.HasPrefix(m[1], "https://") {
		t.Fatal("no HTTPS serving line")
	}
	c := trustingClient(t, caFile)
	resp, err := c.Post(m[1]+"/rest/systems?key="+adminKey, "application/json", strings.NewReader(`{"systemName":"kept"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("create: %v %v", resp, err)
	}
	resp.Body.Close()
	c.CloseIdleConnections()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustRead(t, filepath.Join(tlsDir, "ca.pem")), mustRead(t, caFile)) {
		t.Fatal("--ca-out differs from the CA kept in --tls-dir")
	}

	lines, stop = started(t, "--addr", "127.0.0.1:0", "--admin-key", adminKey, "--tls-dir", tlsDir, "--state-file", state)
	m = servingLine.FindStringSubmatch(nextLine(t, lines))
	if m == nil {
		t.Fatal("no serving line after the restart")
	}
	getJSON(t, c, m[1]+"/rest/systems/kept?key="+adminKey, 200, nil)
	c.CloseIdleConnections()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRunHTTPGeneratesKey(t *testing.T) {
	t.Setenv("APMSIM_ADMIN_KEY", "")
	t.Setenv("APMSIM_VIEWER_KEY", "viewer-key-from-env")
	state := filepath.Join(t.TempDir(), "state.json")
	lines, stop := started(t, "--addr", "127.0.0.1:0", "--insecure-http", "--state-file", state)
	keyLine := nextLine(t, lines)
	key, ok := strings.CutPrefix(keyLine, "apmsim: generated admin key: ")
	if !ok || len(key) != 48 {
		t.Fatalf("key line %q", keyLine)
	}
	line := nextLine(t, lines)
	m := servingLine.FindStringSubmatch(line)
	if m == nil || !strings.HasPrefix(m[1], "http://") || m[2] != "seed empty" {
		t.Fatalf("serving line %q", line)
	}
	c := &http.Client{}
	getJSON(t, c, m[1]+"/rest/systems?key="+key, 200, nil)
	getJSON(t, c, m[1]+"/rest/systems?key=viewer-key-from-env", 200, nil)
	resp, err := c.Post(m[1]+"/rest/systems?key="+key, "application/json", strings.NewReader(`{"systemName":"kept"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("create: %v %v", resp, err)
	}
	resp.Body.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	// A restart on the same state file says so and keeps the data.
	t.Setenv("APMSIM_ADMIN_KEY", "admin-key-from-env")
	lines, stop = started(t, "--addr", "127.0.0.1:0", "--insecure-http", "--state-file", state, "--seed", "demo")
	line = nextLine(t, lines)
	m = servingLine.FindStringSubmatch(line)
	if m == nil || m[2] != "state file "+state {
		t.Fatalf("serving line %q", line)
	}
	var systems struct{ Systems []struct{ SystemName string } }
	getJSON(t, c, m[1]+"/rest/systems?key=admin-key-from-env", 200, &systems)
	if len(systems.Systems) != 1 || systems.Systems[0].SystemName != "kept" {
		t.Fatalf("systems %+v", systems)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestRunOmitOptionalFields(t *testing.T) {
	if c, err := parseFlags(nil); err != nil || c.omitOptional {
		t.Fatalf("default: omitOptional %v, err %v", c.omitOptional, err)
	}
	lines, stop := started(t, "--addr", "127.0.0.1:0", "--insecure-http", "--admin-key", adminKey, "--seed", "demo", "--omit-optional-fields")
	m := servingLine.FindStringSubmatch(nextLine(t, lines))
	if m == nil {
		t.Fatal("no serving line")
	}
	c := &http.Client{}
	var node map[string]any
	getJSON(t, c, m[1]+"/rest/nodes/web-01/systems/shop?key="+adminKey, 200, &node)
	if _, has := node["nodeId"]; has || node["nodeName"] != "web-01" {
		t.Fatalf("node detail %v", node)
	}
	c.CloseIdleConnections()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	halfTLSDir := t.TempDir() // a CA certificate without its key
	if err := os.WriteFile(filepath.Join(halfTLSDir, "ca.pem"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--seed", "full", "--admin-key", adminKey}, `unknown seed "full"`},
		{[]string{"--insecure-http", "--ca-out", "x.pem"}, "--ca-out needs HTTPS"},
		{[]string{"--tls-dir", "tls", "--insecure-http"}, "--tls-dir needs HTTPS"},
		{[]string{"--admin-key", adminKey, "--addr", "127.0.0.1:0", "--tls-dir", halfTLSDir}, filepath.Join(halfTLSDir, "ca-key.pem") + " is missing"},
		{[]string{"--admin-key", adminKey, "--viewer-key", adminKey}, "ViewerKey must differ"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--admin-key", adminKey, "--addr", "not-an-address"}, "missing port"},
		// Short keys are guessable by anyone who can reach a sim in shared CI.
		{[]string{"--admin-key", "fifteen-chars-k", "--addr", "127.0.0.1:0"}, "the admin key (--admin-key or $APMSIM_ADMIN_KEY) is too short: 15 characters, at least 16 needed"},
		{[]string{"--viewer-key", "v", "--addr", "127.0.0.1:0"}, "the viewer key (--viewer-key or $APMSIM_VIEWER_KEY) is too short: 1 characters, at least 16 needed"},
	} {
		// Should run accept the arguments, it serves until the deadline and returns nil.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := run(ctx, tc.args, io.Discard, io.Discard)
		cancel()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run(%q) = %v, want %q", tc.args, err, tc.want)
		}
	}
}

// A short key from the environment is refused like one from a flag.
func TestRunRejectsShortKeyFromEnv(t *testing.T) {
	t.Setenv("APMSIM_ADMIN_KEY", "k")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := run(ctx, []string{"--addr", "127.0.0.1:0"}, io.Discard, io.Discard)
	if want := "the admin key (--admin-key or $APMSIM_ADMIN_KEY) is too short: 1 characters, at least 16 needed"; err == nil || err.Error() != want {
		t.Fatalf("run = %v, want %q", err, want)
	}
}

func getJSON(t *testing.T, c *http.Client, url string, status int, v any) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != status {
		t.Fatalf("GET %s: status %d, want %d", url, resp.StatusCode, status)
	}
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
}
