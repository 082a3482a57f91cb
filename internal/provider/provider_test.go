package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// testAccProtoV6ProviderFactories runs the provider in the test process; the CLI reattaches to it.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"apm": func() (tfprotov6.ProviderServer, error) { return NewProtocol6Server("test")(), nil }, //nolint:unparam // the harness's factory type
}

func TestMain(m *testing.M) {
	// OpenTofu prints a warning on stdout when TF_CLI_CONFIG_FILE names a missing file, and
	// the test harness then cannot parse `tofu version`. Such a setting configures nothing.
	if f := os.Getenv("TF_CLI_CONFIG_FILE"); f != "" {
		if _, err := os.Stat(f); err != nil {
			fmt.Fprintf(os.Stderr, "provider tests: ignoring TF_CLI_CONFIG_FILE=%s (%v)\n", f, err)
			_ = os.Unsetenv("TF_CLI_CONFIG_FILE")
		}
	}
	os.Exit(m.Run())
}

// testAccPreCheck stops an acceptance test that has no CLI to run on. Without one, the
// harness would try to download Terraform and kill the whole test binary.
func testAccPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC_TERRAFORM_PATH") != "" {
		return
	}
	if _, err := exec.LookPath("terraform"); err == nil {
		return
	}
	const msg = "no Terraform CLI: set TF_ACC_TERRAFORM_PATH to an absolute path of OpenTofu or Terraform (`make tools` builds them into .clis/)"
	if os.Getenv("APM_ACC_REQUIRE_CLI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// accEnv is one acceptance test's own manager: an in-process apmsim, and an admin client
// for arranging and inspecting it out of band (as another operator would).
type accEnv struct {
	t     *testing.T
	sim   *apmsimtest.Server
	admin *apm.Client
}

func newAccEnv(t *testing.T) *accEnv {
	t.Helper()
	sim := apmsimtest.Start(t)
	admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey, MaxRetries: 0})
	if err != nil {
		t.Fatalf("admin client: %v", err)
	}
	return &accEnv{t: t, sim: sim, admin: admin}
}

// config prefixes resources with a provider block that uses the admin key.
func (e *accEnv) config(resources string) string {
	return e.configWithKey(e.sim.AdminKey, resources)
}

// configWithKey prefixes resources with a provider block that uses key.
func (e *accEnv) configWithKey(key, resources string) string {
	return fmt.Sprintf(`
provider "apm" {
  endpoint    = %q
  api_key     = %q
  max_retries = 0
}
%s`, e.sim.URL, key, resources)
}

// writes counts the requests that could have changed the manager.
func (e *accEnv) writes() int {
	n := 0
	for route, count := range e.sim.Sim.RequestCounts() {
		if !strings.HasPrefix(route, "GET ") {
			n += count
		}
	}
	return n
}

// must fails the test at once when an out-of-band arrangement fails.
func (e *accEnv) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("arranging the manager out of band: %v", err)
	}
}

func (e *accEnv) ctx() context.Context { return context.Background() }

// errorMatching matches diagnostics that contain each fragment, in order. The CLI wraps
// long lines, so any run of spaces in a fragment matches any run of white space.
func errorMatching(fragments ...string) *regexp.Regexp {
	quoted := make([]string, len(fragments))
	for i, f := range fragments {
		quoted[i] = strings.Join(strings.Fields(regexp.QuoteMeta(f)), `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// noDrift is a plan check for the plan that follows an apply: its refresh must have found
// nothing changed outside Terraform (the plan JSON's resource_drift is empty), which is
// what `plan -refresh-only -detailed-exitcode` reports as exit 0. A managed attribute
// that other resources or the platform change (a count, a status) fails it.
type noDrift struct{}

func (noDrift) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	var drifted []string
	for _, rc := range req.Plan.ResourceDrift {
		drifted = append(drifted, fmt.Sprintf("%s (%v)", rc.Address, rc.Change.Actions))
	}
	if len(drifted) > 0 {
		resp.Error = fmt.Errorf("a refresh right after apply found changes outside Terraform in %s", strings.Join(drifted, ", "))
	}
}

// cleanAfterApply is the post-apply plan check of every apply step: no drift and no
// changes, so that drift-detection jobs stay quiet after a clean apply.
var cleanAfterApply = resource.ConfigPlanChecks{
	PostApplyPostRefresh: []plancheck.PlanCheck{noDrift{}, plancheck.ExpectEmptyPlan()},
}

// test runs the steps on a real CLI against this test's manager. Afterwards no object the
// steps managed may be left in the manager.
func (e *accEnv) test(steps []resource.TestStep) {
	e.t.Helper()
	runAcc(e.t, e.checkAllGone, steps)
}

// testUntilEmpty is test for steps that also clean up what they arranged out of band:
// afterwards the manager has no system at all.
func (e *accEnv) testUntilEmpty(steps []resource.TestStep) {
	e.t.Helper()
	runAcc(e.t, resource.ComposeAggregateTestCheckFunc(e.checkAllGone, e.checkSystems()), steps)
}

// serialTests are the acceptance tests that set environment variables, which other tests
// must not see. They run one at a time, before the parallel ones (Go runs the tests that
// called t.Parallel once the sequential ones are done).
var serialTests sync.Map

// setenv is t.Setenv for acceptance tests: the test then runs serially.
func setenv(t *testing.T, name, value string) {
	t.Helper()
	serialTests.Store(t.Name(), true)
	t.Setenv(name, value)
}

// accTest runs a test case on a real CLI, in parallel with the other tests (each has its
// own apmsim) unless it set environment variables.
func accTest(t *testing.T, c resource.TestCase) {
	t.Helper()
	if _, serial := serialTests.Load(t.Name()); serial {
		resource.Test(t, c)
		return
	}
	resource.ParallelTest(t, c)
}

// runAcc runs steps on a real CLI; checkDestroy may be nil for steps that create nothing.
func runAcc(t *testing.T, checkDestroy resource.TestCheckFunc, steps []resource.TestStep) {
	t.Helper()
	accTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkDestroy,
		Steps:                    steps,
	})
}

// runWriteOnlyAcc is runAcc for steps with write-only attributes, which came with
// Terraform 1.11: older CLIs skip them, saying so (OpenTofu reports its own version, 1.11
// or later where it supports them).
func runWriteOnlyAcc(t *testing.T, checkDestroy resource.TestCheckFunc, steps []resource.TestStep) {
	t.Helper()
	accTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		CheckDestroy:             checkDestroy,
		Steps:                    steps,
	})
}
