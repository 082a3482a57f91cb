package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
)

// A CLI without actions and list resources (OpenTofu 1.12, Terraform before 1.14) is served
// by the provider that registers them without a word about them: init, validate, plan,
// apply, a plan after it and destroy of a configuration that uses what such a CLI has
// instead (a resource and a list data source) print no warning and no error. The test runs
// on every CLI; on those that have both features it checks that they stay quiet too.
func TestAccOlderCLIs_servedWithoutWarnings(t *testing.T) {
	cli, version := accCLI(t)
	ctx := context.Background()
	registered := &apmProvider{}
	if n, m := len(registered.Actions(ctx)), len(registered.ListResources(ctx)); n == 0 || m == 0 {
		t.Fatalf("the provider registers %d actions and %d list resources: the test needs both", n, m)
	}
	for _, f := range []clifeatures.Feature{clifeatures.Actions, clifeatures.ListResources} {
		if why := f.Missing(version); why != "" {
			t.Logf("%s: the provider registers them all the same", why)
		}
	}
	env, ca := newTLSAccEnv(t)
	dir := t.TempDir()
	name := env.name("older-cli")
	config := fmt.Sprintf("provider \"apm\" {\n  endpoint    = %q\n  api_key     = %q\n  ca_cert_pem = %q\n  max_retries = 0\n}\n%s",
		env.sim.URL, env.sim.AdminKey, ca, tf(t, "older_clis/system_and_list.tf", "name", name))
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		// An empty plugin directory: the provider is reattached, never looked up.
		{"init", "-input=false", "-no-color", "-backend=false", "-plugin-dir=" + t.TempDir()},
		{"validate", "-no-color"},
		{"plan", "-input=false", "-no-color", "-out=tfplan"},
		{"apply", "-input=false", "-no-color", "-auto-approve", "tfplan"},
		{"plan", "-input=false", "-no-color", "-detailed-exitcode"},
		{"output", "-no-color", "discovered"},
		{"destroy", "-input=false", "-no-color", "-auto-approve"},
	} {
		out, ok := runCLI(t, cli, dir, args...)
		if !ok {
			t.Fatalf("%s: %s failed:\n%s", version, strings.Join(args, " "), redact(out, env.sim.AdminKey))
		}
		if diagnostic := warningOrError(out); diagnostic != "" {
			t.Errorf("%s: %s printed %q:\n%s", version, args[0], diagnostic, redact(out, env.sim.AdminKey))
		}
		if args[0] == "output" && strings.TrimSpace(out) != "true" {
			t.Errorf("%s: apm_systems did not list the system it depends on: output %q", version, strings.TrimSpace(out))
		}
	}
	systems, err := env.admin.ListSystems(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range systems {
		if s.SystemName == name {
			t.Errorf("%s: destroy left system %s in the manager", version, name)
		}
	}
}

// newTLSAccEnv is an acceptance environment whose apmsim serves HTTPS, and whose config
// with opts, and its CA certificate (PEM) for the provider: over plain HTTP the provider rightly warns
// about the endpoint.
func newTLSAccEnv(t *testing.T, opts ...func(*apmsim.Options)) (*accEnv, string) {
	t.Helper()
	if os.Getenv(envAccEndpoint) != "" {
		t.Skipf("runs on apmsim only: it starts an HTTPS apmsim of its own (%s is set)", envAccEndpoint)
	}
	sim, ca := apmsimtest.StartTLS(t, opts...)
	admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey, CACertPEM: ca, MaxRetries: 0})
	if err != nil {
		t.Fatalf("admin client: %v", err)
	}
	return &accEnv{t: t, sim: sim, admin: admin}, ca
}

// cliDiagnostic is the heading of a CLI's warning or error ("Warning: ...", "Error: ...",
// after the box-drawing character of -no-color output or none).
var cliDiagnostic = regexp.MustCompile(`(?m)^[│╷ ]*(Warning|Error):.*$`)

// cliNotes are warnings of the CLI itself that say nothing about the provider: Terraform
// 1.16's on init that the provider is reattached (TF_REATTACH_PROVIDERS, the test's way of
// serving it), and `terraform query`'s that a list block found nothing.
var cliNotes = []string{"Warning: Unmanaged providers are in effect", "Warning: list block(s)"}

// warningOrError is the first warning or error the CLI printed, or "".
func warningOrError(out string) string {
	for _, heading := range cliDiagnostic.FindAllString(out, -1) {
		heading = strings.TrimSpace(strings.TrimLeft(heading, "│╷ "))
		if !slices.ContainsFunc(cliNotes, func(note string) bool { return strings.HasPrefix(heading, note) }) {
			return heading
		}
	}
	return ""
}
