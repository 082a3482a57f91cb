package provider

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// buildProviderForCLI builds the provider from this tree into dir and returns a CLI
// configuration file whose dev_overrides make every address a configuration can name
// (hashicorp/apm, apmplatform/apm, on either registry) run it: no init, no registry. The
// CLI then starts one provider process per provider configuration, as for a user.
func buildProviderForCLI(t *testing.T, dir string) string {
	t.Helper()
	return buildProviderFrom(t, filepath.Join("..", ".."), dir)
}

// buildProviderFrom is buildProviderForCLI of the provider's sources in src: this tree, or
// an earlier build's.
func buildProviderFrom(t *testing.T, src, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-apm"), ".")
	build.Dir = src
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider in %s: %v\n%s", src, err, out)
	}
	var overrides strings.Builder
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		for _, namespace := range []string{"hashicorp", "apmplatform"} {
			fmt.Fprintf(&overrides, "    %q = %q\n", host+"/"+namespace+"/apm", bin)
		}
	}
	rc := filepath.Join(dir, "cli.tfrc")
	if err := os.WriteFile(rc, []byte("provider_installation {\n  dev_overrides {\n"+overrides.String()+"  }\n  direct {}\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return rc
}

// twoManagersConfig declares, on each of two aliased provider configurations, a node in
// the manager's system found by name.
const twoManagersConfig = `
provider "apm" {
  alias       = "eu"
  endpoint    = %q
  api_key     = %q
  max_retries = 0
}
provider "apm" {
  alias       = "us"
  endpoint    = %q
  api_key     = %q
  max_retries = 0
}
data "apm_system" "eu" {
  provider = apm.eu
  name     = "shop-eu"
}
data "apm_system" "us" {
  provider = apm.us
  name     = "shop-us"
}
resource "apm_node" "eu" {
  provider   = apm.eu
  system_id  = data.apm_system.eu.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}
resource "apm_node" "us" {
  provider   = apm.us
  system_id  = data.apm_system.us.id
  name       = "app-01"
  host_ip    = "10.0.0.21"
  agent_port = 7730
}
`

// With two managers whose systems have the same id, each behind an aliased provider
// configuration, the error of each names the system by its name and the manager by its
// endpoint, never the system by the id that both share, so that the user can tell which
// manager refused what.
func TestAccTwoManagers_errorsNameTheSystemAndTheManager(t *testing.T) {
	cli, _ := accCLI(t)
	t.Parallel()
	managers := map[string]*apmsimtest.Server{"shop-eu": apmsimtest.Start(t), "shop-us": apmsimtest.Start(t)}
	ids := map[string]bool{}
	for name, sim := range managers {
		admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey, MaxRetries: 0})
		if err != nil {
			t.Fatal(err)
		}
		if err := admin.CreateSystem(context.Background(), name); err != nil {
			t.Fatal(err)
		}
		s, err := admin.GetSystem(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		ids[s.SystemID] = true
		// Each manager refuses the node, after the plan has found nothing wrong with it.
		if err := sim.Sim.SetFaults(apmsim.FaultRule{Method: "POST", Path: "/rest/nodes", Status: 400}); err != nil {
			t.Fatal(err)
		}
	}
	if len(ids) != 1 {
		t.Fatalf("the two managers' systems have the ids %v: the test needs one id for both", ids)
	}
	var sharedID string
	for id := range ids {
		sharedID = id
	}
	eu, us := managers["shop-eu"], managers["shop-us"]
	dir := t.TempDir()
	rc := buildProviderForCLI(t, dir)
	work := t.TempDir()
	clitest.MustWrite(t, filepath.Join(work, "main.tf"), fmt.Sprintf(twoManagersConfig, eu.URL, eu.AdminKey, us.URL, us.AdminKey))

	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, "apply", "-input=false", "-no-color", "-auto-approve") //nolint:gosec // the test's own CLI
	cmd.Dir = work
	cmd.Env = clitest.ChildEnv(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err == nil {
		t.Fatalf("apply succeeded, want each manager's refusal:\n%s", out.String())
	}
	errs := strings.Split(out.String(), "Error: ")[1:]
	for name, sim := range managers {
		found := false
		for _, e := range errs {
			e = strings.Join(strings.Fields(e), " ")
			if !strings.Contains(e, fmt.Sprintf(`node "app-01" of system %q`, name)) {
				continue
			}
			found = true
			if !strings.Contains(e, "(manager "+sim.URL+")") {
				t.Errorf("the error on %s does not name its manager %s:\n%s", name, sim.URL, e)
			}
			if strings.Contains(e, "system "+sharedID) || strings.Contains(e, fmt.Sprintf("system %q", sharedID)) {
				t.Errorf("the error on %s names the system by its id %s, which both managers have:\n%s", name, sharedID, e)
			}
		}
		if !found {
			t.Errorf("no error names the node of system %q; output:\n%s", name, out.String())
		}
	}
}
