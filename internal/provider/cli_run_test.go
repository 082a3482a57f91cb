package provider

// Running a real CLI against a provider served in this process: the helpers of the tests
// that drive the CLI themselves (the bad-input corpus, the actions, the upgrade of a state
// written by an earlier build).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// redact removes the keys from text that is about to be shown: the CLI quotes the
// configuration's source lines in its diagnostics.
func redact(text string, secrets ...string) string {
	for _, s := range secrets {
		if s != "" {
			text = strings.ReplaceAll(text, s, "<redacted>")
		}
	}
	return text
}

// runCLI runs one CLI command against a provider server of its own, and reports whether
// the command succeeded. The CLI not starting at all fails the test.
func runCLI(t *testing.T, cli, dir string, args ...string) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	reattach, stop := serveProvider(t)
	defer stop()

	cmd := exec.CommandContext(ctx, cli, args...)
	cmd.Dir = dir
	cmd.Env = cliEnv(reattach)
	out, status := runToEnd(ctx, t, cmd)
	return out, status == 0
}

// runToEnd runs cmd, made with exec.CommandContext(ctx, ...), and returns its output
// (stdout and stderr together) and its exit status. A command that cannot start or that
// outlives ctx fails the test.
func runToEnd(ctx context.Context, t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s: %v after %s\n%s", strings.Join(cmd.Args, " "), ctx.Err(), cliTimeout, out.String())
	case err != nil && !errors.As(err, &exit):
		t.Fatalf("%s: %v", strings.Join(cmd.Args, " "), err)
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

// cliEnv is this process's environment for the CLI, without what would change its
// behaviour or output, and with the reattach information of the provider.
func cliEnv(reattach string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_LOG") || strings.HasPrefix(name, "TF_CLI_ARGS") || strings.HasPrefix(name, "TF_VAR_") ||
			name == "TF_WORKSPACE" || name == "TF_REATTACH_PROVIDERS" || name == "TF_INPUT" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_REATTACH_PROVIDERS="+reattach)
}

// serveProvider serves a fresh provider in this process, as the plugin test framework
// does, and returns the TF_REATTACH_PROVIDERS value and a function that stops it. The
// provider keeps its configuration per server, so no two commands share one.
func serveProvider(t *testing.T) (string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reattachCh := make(chan *plugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	served := make(chan error, 1)
	go func() {
		served <- tf6server.Serve(providerAddress("registry.terraform.io"), NewProtocol6Server("test"),
			tf6server.WithDebug(ctx, reattachCh, closeCh),
			tf6server.WithoutLogStderrOverride(),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			// The provider's own log then follows TF_LOG and TF_ACC_LOG_PATH, as in the
			// other acceptance tests, instead of going to stderr at trace level.
			tf6server.WithLoggingSink(t),
		)
	}()
	stop := func() {
		cancel()
		<-closeCh
	}
	var cfg *plugin.ReattachConfig
	select {
	case cfg = <-reattachCh:
	case err := <-served:
		cancel()
		t.Fatalf("the provider server stopped before it served: %v", err)
	case <-time.After(30 * time.Second):
		stop()
		t.Fatal("the provider server did not start within 30s")
	}
	conf := map[string]any{
		"Protocol": string(cfg.Protocol), "ProtocolVersion": cfg.ProtocolVersion, "Pid": cfg.Pid, "Test": cfg.Test,
		"Addr": map[string]string{"Network": cfg.Addr.Network(), "String": cfg.Addr.String()},
	}
	// Terraform resolves the implied provider "apm" to registry.terraform.io/hashicorp/apm,
	// OpenTofu to registry.opentofu.org/hashicorp/apm: one entry for each.
	data, err := json.Marshal(map[string]any{
		providerAddress("registry.terraform.io"): conf,
		providerAddress("registry.opentofu.org"): conf,
	})
	if err != nil {
		stop()
		t.Fatal(err)
	}
	return string(data), stop
}

// providerAddress is the provider's source address on host, in the namespace the
// acceptance tests use (TF_ACC_PROVIDER_NAMESPACE, default hashicorp).
func providerAddress(host string) string {
	ns := os.Getenv("TF_ACC_PROVIDER_NAMESPACE")
	if ns == "" {
		ns = "hashicorp"
	}
	return host + "/" + ns + "/apm"
}
