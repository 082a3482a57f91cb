package provider

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
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

// accEnv is one acceptance test's manager and an admin client for arranging and
// inspecting it out of band (as another operator would). By default the manager is the
// test's own in-process apmsim. With APM_ACC_ENDPOINT and APM_ACC_API_KEY set, it is that
// manager instead, shared by every test: the names of top-level objects then carry a
// random prefix (name), and tests that need what only apmsim offers (its admin
// interface, an empty manager, injected faults) skip, saying why (needsSim).
type accEnv struct {
	t *testing.T
	// sim is the test's apmsim; on a real manager only its URL and AdminKey are set.
	sim    *apmsimtest.Server
	admin  *apm.Client
	prefix string
}

// Environment variables that point the acceptance tests at a real manager.
const (
	envAccEndpoint = "APM_ACC_ENDPOINT"
	envAccAPIKey   = "APM_ACC_API_KEY"
)

func newAccEnv(t *testing.T) *accEnv {
	t.Helper()
	return newAccEnvWith(t)
}

// newAccEnvWith is newAccEnv with options for the test's apmsim, such as
// apmsimtest.WithOmitOptionalFields(); a test that passes any runs on apmsim only.
func newAccEnvWith(t *testing.T, opts ...func(*apmsim.Options)) *accEnv {
	t.Helper()
	sim, prefix := realManager(t)
	if sim == nil {
		sim = apmsimtest.Start(t, opts...)
	} else if len(opts) > 0 {
		t.Skipf("runs on apmsim only: it sets up the simulator's behaviour (%s is set)", envAccEndpoint)
	}
	admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey, MaxRetries: 0})
	if err != nil {
		t.Fatalf("admin client: %v", err)
	}
	return &accEnv{t: t, sim: sim, admin: admin, prefix: prefix}
}

// realManager is the manager named by APM_ACC_ENDPOINT, with a random prefix for this
// test's objects; nil when it is not set.
func realManager(t *testing.T) (*apmsimtest.Server, string) {
	t.Helper()
	endpoint := os.Getenv(envAccEndpoint)
	if endpoint == "" {
		return nil, ""
	}
	key := os.Getenv(envAccAPIKey)
	if key == "" {
		t.Fatalf("%s is set but %s is not: the tests need an administrator key of that manager", envAccEndpoint, envAccAPIKey)
	}
	return &apmsimtest.Server{URL: endpoint, AdminKey: key}, fmt.Sprintf("t%04x-", rand.IntN(1<<16))
}

// name is the name of a top-level object of this test (a system, database, datasource,
// user or role): base itself on apmsim, base with the test's prefix on a real manager.
func (e *accEnv) name(base string) string { return e.prefix + base }

// needsSim skips the test on a real manager, saying why it needs apmsim, and returns
// the simulator.
func (e *accEnv) needsSim(why string) *apmsim.Sim {
	e.t.Helper()
	if e.sim.Sim == nil {
		e.t.Skipf("runs on apmsim only: it %s (%s is set)", why, envAccEndpoint)
	}
	return e.sim.Sim
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
	for route, count := range e.needsSim("counts the requests the manager received").RequestCounts() {
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

// front puts handle between the provider and the test's apmsim: the environment it returns
// points the provider at the front, while the test's own checks still talk to apmsim.
// handle serves each request: it passes it on to manager (apmsim), or answers in its stead,
// as a real manager may where apmsim never does, or as a network in between fails.
func (e *accEnv) front(handle func(w http.ResponseWriter, r *http.Request, manager http.Handler)) *accEnv {
	e.t.Helper()
	manager := e.needsSim("puts a front before apmsim").Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handle(w, r, manager) }))
	e.t.Cleanup(srv.Close)
	viaFront := *e
	viaFront.sim = &apmsimtest.Server{URL: srv.URL, AdminKey: e.sim.AdminKey, ViewerKey: e.sim.ViewerKey, Sim: e.sim.Sim}
	return &viaFront
}

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

// runWriteOnlyAcc is runAcc for steps with write-only attributes (Terraform 1.11,
// OpenTofu 1.11): older CLIs skip them, saying so.
func runWriteOnlyAcc(t *testing.T, checkDestroy resource.TestCheckFunc, steps []resource.TestStep) {
	t.Helper()
	needs(t, clifeatures.WriteOnly)
	runAcc(t, checkDestroy, steps)
}

// engineType is what the tests need of any registered resource type: its name, and
// whether the object a state identifies exists, asked with the type's own read call.
type engineType interface {
	TypeName() string
	Exists(ctx context.Context, c *conn, flat map[string]string) (bool, error)
	Parity(ctx context.Context) error
}

// registeredTypes are the provider's resource types by name, as the provider serves them.
func registeredTypes() map[string]engineType {
	out := map[string]engineType{}
	for _, newResource := range (&apmProvider{}).Resources(context.Background()) {
		r := newResource()
		if t, ok := r.(engineType); ok {
			out[t.TypeName()] = t
		}
	}
	return out
}

// accConn is the provider's view of the test's apmsim, with the admin key.
func (e *accEnv) accConn() *conn {
	return newConn(e.admin)
}

// checkExists passes when every named resource of the state exists in the manager,
// looked up with its type's own read call.
func (e *accEnv) checkExists(addresses ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, addr := range addresses {
			rs, ok := s.RootModule().Resources[addr]
			if !ok {
				return fmt.Errorf("%s is not in state", addr)
			}
			found, err := e.lookup(rs)
			if err != nil {
				return fmt.Errorf("%s: %w", addr, err)
			}
			if !found {
				return fmt.Errorf("%s (id %s) is in state but not in the manager", addr, rs.Primary.ID)
			}
		}
		return nil
	}
}

// checkAllGone is a CheckDestroy: no apm resource of the last state may still exist.
func (e *accEnv) checkAllGone(s *terraform.State) error {
	var left []string
	for addr, rs := range s.RootModule().Resources {
		if !strings.HasPrefix(rs.Type, "apm_") || strings.HasPrefix(addr, "data.") {
			continue
		}
		found, err := e.lookup(rs)
		if err != nil {
			return fmt.Errorf("%s: %w", addr, err)
		}
		if found {
			left = append(left, addr)
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("still in the manager after destroy: %s", strings.Join(left, ", "))
	}
	return nil
}

func (e *accEnv) lookup(rs *terraform.ResourceState) (bool, error) {
	t, ok := registeredTypes()[rs.Type]
	if !ok {
		return false, fmt.Errorf("no registered resource type %s", rs.Type)
	}
	return t.Exists(e.ctx(), e.accConn(), rs.Primary.Attributes)
}

// applied is the plan checks of an apply step: the PreApply checks given, and after the
// apply no drift and an empty plan.
func applied(preApply ...plancheck.PlanCheck) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: preApply, PostApplyPostRefresh: cleanAfterApply.PostApplyPostRefresh}
}

// exactActions is a plan check: each listed managed resource has its action, and every
// other managed resource of the plan is a no-op.
type exactActions map[string]plancheck.ResourceActionType

func (want exactActions) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	var errs []error
	for addr, action := range want {
		sub := &plancheck.CheckPlanResponse{}
		plancheck.ExpectResourceAction(addr, action).CheckPlan(ctx, req, sub)
		if sub.Error != nil {
			errs = append(errs, sub.Error)
		}
	}
	for _, rc := range req.Plan.ResourceChanges {
		if _, listed := want[rc.Address]; listed || rc.Mode != "managed" {
			continue
		}
		if rc.Change == nil || !rc.Change.Actions.NoOp() {
			errs = append(errs, fmt.Errorf("%s: want no-op, got %v", rc.Address, rc.Change.Actions))
		}
	}
	resp.Error = errors.Join(errs...)
}

// stateAttr reads an attribute of a resource from a test state.
func stateAttr(s *terraform.State, addr, attr string) (string, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok {
		return "", fmt.Errorf("%s is not in state", addr)
	}
	v, ok := rs.Primary.Attributes[attr]
	if !ok {
		return "", fmt.Errorf("%s has no attribute %s in state", addr, attr)
	}
	return v, nil
}

// importIDFrom is an ImportStateIdFunc: the resource's id in the state, with an optional
// suffix (such as "/web-01").
func importIDFrom(addr, suffix string) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		v, err := stateAttr(s, addr, "id")
		return v + suffix, err
	}
}

// hclExpr is a variable's value written into a configuration as an expression (a
// reference such as apm_system.shop.id) rather than as a literal.
type hclExpr string

// hclNull gives a variable of a testdata configuration the value null: as if its argument
// were left out.
const hclNull = hclExpr("null")

// tf is the configuration in testdata/<file>, with values for its variables: pairs of a
// variable's name and its value (a string, an integer, a bool or an hclExpr). Each file
// declares its variables one a line, `variable "name" { type = string }`, so that it is
// valid Terraform on its own (with the bases it includes: testdataWithIncludes); tf drops
// those lines and writes every var.<name> as the value's literal. (Real Terraform variables would not do: Terraform 1.5 takes no
// variables in import blocks.)
func tf(t testing.TB, file string, vars ...any) string {
	t.Helper()
	src := testdataWithIncludes(t, file, map[string]bool{})
	if len(vars)%2 != 0 {
		t.Fatalf("tf(%s): variables come in name, value pairs", file)
	}
	values := map[string]string{}
	for i := 0; i < len(vars); i += 2 {
		name, _ := vars[i].(string)
		switch v := vars[i+1].(type) {
		case hclExpr:
			values[name] = string(v)
		case string:
			values[name] = strconv.Quote(v)
		case int, int64, bool:
			values[name] = fmt.Sprint(v)
		default:
			t.Fatalf("tf(%s): variable %s has a value of type %T", file, name, v)
		}
	}
	out := varDeclaration.ReplaceAllStringFunc(src, func(line string) string {
		if _, given := values[varDeclaration.FindStringSubmatch(line)[1]]; given {
			return ""
		}
		return line
	})
	out = varReference.ReplaceAllStringFunc(out, func(ref string) string {
		if v, ok := values[ref[len("var."):]]; ok {
			return v
		}
		return ref
	})
	if left := varReference.FindString(out); left != "" && !strings.Contains(out, `variable "`+left[len("var."):]+`"`) {
		t.Fatalf("tf(%s): no value for %s", file, left)
	}
	return out
}

// includeLine is a testdata file's "# include: _base/shop_app.tf": the base configuration
// (a path under testdata/) that the file builds on, so that a file states only what it
// tests.
var includeLine = regexp.MustCompile(`(?m)^# include: (\S+)\n`)

// testdataWithIncludes is the testdata file with each include line replaced by the file it
// names (whose own includes are expanded too, each file once).
func testdataWithIncludes(t testing.TB, file string, seen map[string]bool) string {
	t.Helper()
	if seen[file] {
		return ""
	}
	seen[file] = true
	src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(file)))
	if err != nil {
		t.Fatalf("test configuration: %v", err)
	}
	return includeLine.ReplaceAllStringFunc(string(src), func(line string) string {
		return testdataWithIncludes(t, includeLine.FindStringSubmatch(line)[1], seen) + "\n"
	})
}

var (
	varDeclaration = regexp.MustCompile(`(?m)^variable "(\w+)" \{[^\n]*\}\n`)
	varReference   = regexp.MustCompile(`\bvar\.\w+`)
)

// attrPath is a tfjsonpath from a dotted path such as "workers.0.host" (numbers index
// lists).
func attrPath(dotted string) tfjsonpath.Path {
	parts := strings.Split(dotted, ".")
	p := tfjsonpath.New(parts[0])
	for _, part := range parts[1:] {
		if i, err := strconv.Atoi(part); err == nil {
			p = p.AtSliceIndex(i)
		} else {
			p = p.AtMapKey(part)
		}
	}
	return p
}

// State checks of one attribute of addr, by dotted path.
func attrString(addr, dotted, want string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, attrPath(dotted), knownvalue.StringExact(want))
}

func attrInt(addr, dotted string, want int64) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, attrPath(dotted), knownvalue.Int64Exact(want))
}

func attrBool(addr, dotted string, want bool) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, attrPath(dotted), knownvalue.Bool(want))
}

// notFound is the state checks of a data source that found nothing: id is the placeholder
// made of the names given ("" for a data source without an id), observed is null.
func notFound(addr, id, observed string) []statecheck.StateCheck {
	checks := []statecheck.StateCheck{attrNull(addr, observed)}
	if id != "" {
		checks = append(checks, attrString(addr, "id", id))
	}
	return checks
}

func attrNull(addr, dotted string) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, attrPath(dotted), knownvalue.Null())
}

func attrMatches(addr, dotted string, re *regexp.Regexp) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, attrPath(dotted), knownvalue.StringRegexp(re))
}

// Plan checks of the action planned for addr.
func creates(addr string) plancheck.PlanCheck {
	return plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)
}

func updates(addr string) plancheck.PlanCheck {
	return plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)
}

func leaves(addr string) plancheck.PlanCheck {
	return plancheck.ExpectResourceAction(addr, plancheck.ResourceActionNoop)
}
