package provider

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// With TF_LOG=TRACE the log (the harness writes the CLI's and the in-process provider's
// lines to TF_ACC_LOG_PATH) must show the provider's requests, and never the API key.
func TestAccSecrets_keyNeverLogged(t *testing.T) {
	env := newAccEnv(t)
	dir := t.TempDir()
	cliLog := filepath.Join(dir, "cli.log")
	setenv(t, "TF_LOG", "TRACE")
	setenv(t, "TF_ACC_LOG_PATH", cliLog)
	setenv(t, engine.EnvEndpoint, env.sim.URL)
	setenv(t, engine.EnvAPIKey, env.sim.AdminKey)
	shop := env.name("shop")
	config := tf(t, "provider/from_environment.tf") + env.shopsWithNode("shop", "10.0.0.11", 7730)

	env.test([]resource.TestStep{
		{Config: config, ConfigPlanChecks: applied()},
		{
			// A failed request logs too: an out-of-band delete, then the 404 of the node's
			// read on refresh.
			PreConfig: func() { env.deleteNode(shop, "web-01") },
			Config:    config,
			ConfigPlanChecks: applied(
				exactActions{"apm_node.test": plancheck.ResourceActionCreate},
			),
		},
	})

	data, err := os.ReadFile(cliLog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	// The 404 of the node's read: one line with the request's path and status.
	readPath := "apm_path=/rest/nodes/web-01/systems/" + shop
	notFound := false
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "APM API response") && strings.Contains(line, readPath) && strings.Contains(line, "apm_status=404") {
			notFound = true
		}
	}
	if !notFound {
		t.Errorf("the TRACE log (%d bytes) has no line of the node read's 404 (APM API response, %s, apm_status=404); the check below would prove little", len(data), readPath)
	}
	for _, want := range []string{"APM API request", "apm_method=POST", "apm_path=/rest/nodes"} {
		if !strings.Contains(text, want) {
			t.Errorf("the TRACE log lacks %q (%d bytes); the check below would prove nothing", want, len(data))
		}
	}
	if strings.Contains(text, env.sim.AdminKey) {
		t.Error("the TRACE log contains the API key")
	}
}

// A key typed into the endpoint by mistake (a query, or the path) shows in no diagnostic
// and no line of the TRACE log: the endpoint's errors name scheme and host only. Before,
// the error echoed the whole endpoint, and the log with it.
func TestAccSecrets_keyTypedIntoEndpointNeverShown(t *testing.T) {
	env := newAccEnv(t)
	const typed = "SEKRETtyped4711"
	for _, tc := range []struct{ name, endpoint, refusal string }{
		{"query", env.sim.URL + "/?key=" + typed, "must not contain a query"},
		{"scheme", "ftp://127.0.0.1/" + typed, "must start with https:// or http://"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cliLog := filepath.Join(t.TempDir(), "cli.log")
			setenv(t, "TF_LOG", "TRACE")
			setenv(t, "TF_ACC_LOG_PATH", cliLog)
			setenv(t, engine.EnvEndpoint, tc.endpoint)
			setenv(t, engine.EnvAPIKey, env.sim.AdminKey)
			runAcc(t, nil, []resource.TestStep{{
				Config:      tf(t, "provider/from_environment.tf") + env.shopsWithNode("shop", "10.0.0.11", 7730),
				ExpectError: regexp.MustCompile(regexp.QuoteMeta(tc.refusal)),
			}})
			data, err := os.ReadFile(cliLog)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), tc.refusal) {
				t.Fatalf("the TRACE log (%d bytes) lacks the refusal %q; the check below would prove nothing", len(data), tc.refusal)
			}
			if strings.Contains(string(data), typed) {
				t.Errorf("the TRACE log shows what was typed into the endpoint")
			}
		})
	}
}

// providerConfig is testdata/provider/settings.tf: a provider block for endpoint with
// max_retries = 0, and the settings given (pairs of an argument's name and its value, as
// for tf); the other arguments are null, as if not set.
func providerConfig(t testing.TB, endpoint string, settings ...any) string {
	t.Helper()
	vars := []any{"endpoint", endpoint, "max_retries", 0}
	for _, name := range []string{"api_key", "request_timeout", "ca_cert_pem", "skip_connection_check", "adopt_existing"} {
		vars = append(vars, name, hclExpr("null"))
	}
	return tf(t, "provider/settings.tf", append(vars, settings...)...) // later pairs win
}

// closedEndpoint is an http:// URL on which nothing listens.
func closedEndpoint(t *testing.T) string {
	t.Helper()
	// Port 1 (tcpmux, unused in practice): a port freed after a listen on :0 would come from
	// the ephemeral range, where the apmsim of a test running in parallel may take it.
	const addr = "127.0.0.1:1"
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		_ = c.Close()
		t.Fatalf("something listens on %s: the test needs a port that refuses connections", addr)
	}
	return "http://" + addr
}

// A wrong key fails the plan, not the apply: nothing is written.
func TestAccProvider_wrongKeyFailsAtPlan(t *testing.T) {
	env := newAccEnv(t)
	env.test([]resource.TestStep{
		{
			Config:   env.configWithKey("not-a-key", tf(t, "system/one.tf", "name", env.name("nope"))),
			PlanOnly: true,
			ExpectError: errorMatching("Cannot use the APM manager at "+env.sim.URL, "401",
				"api_key argument of the provider or the APM_API_KEY", "skip_connection_check"),
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("a rejected key made %d write requests", n)
	}
	if err := env.checkSystems()(nil); err != nil {
		t.Error(err)
	}
}

// An unreachable endpoint fails the plan and names the endpoint; skip_connection_check
// lets a plan that needs no request succeed.
func TestAccProvider_unreachableEndpointFailsAtPlan(t *testing.T) {
	endpoint := closedEndpoint(t)
	config := func(settings ...any) string {
		return providerConfig(t, endpoint, append([]any{"api_key", "some-key", "request_timeout", "5s"}, settings...)...) +
			tf(t, "system/one.tf", "name", "shop")
	}
	runAcc(t, nil, []resource.TestStep{
		{
			Config:      config(),
			PlanOnly:    true,
			ExpectError: errorMatching("Cannot use the APM manager at "+endpoint, "could not be reached", "skip_connection_check = true"),
		},
		{
			Config:             config("skip_connection_check", true),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
				creates("apm_system.test"),
			}},
		},
	})
}

// An HTTPS manager whose certificate the provider does not trust fails the plan; with its
// CA in ca_cert_pem it works.
func TestAccProvider_tls(t *testing.T) {
	sim, caPEM := apmsimtest.StartTLS(t)
	admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey, CACertPEM: caPEM, MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	env := &accEnv{t: t, sim: sim, admin: admin}
	if !strings.HasPrefix(sim.URL, "https://") {
		t.Fatalf("apmsimtest.StartTLS serves %s", sim.URL)
	}
	secure := env.name("secure")
	system := tf(t, "system/one.tf", "name", secure)
	untrusted := providerConfig(t, sim.URL, "api_key", sim.AdminKey) + system
	trusted := providerConfig(t, sim.URL, "api_key", sim.AdminKey, "ca_cert_pem", caPEM) + system
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:      untrusted,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Cannot use the APM manager at ` + regexp.QuoteMeta(sim.URL) + `.*(?i:certificate|x509|tls)`),
		},
		{
			Config:           trusted,
			ConfigPlanChecks: applied(creates("apm_system.test")),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkSystemInManager(), env.checkSystems(secure)),
		},
	})
	if n := env.writes(); n != 2 { // the create and the destroy
		t.Errorf("%d write requests, want 2 (the untrusted plan must write nothing)", n)
	}
}

// An endpoint without scheme is refused with the URL it probably means.
func TestAccProvider_endpointWithoutScheme(t *testing.T) {
	runAcc(t, nil, []resource.TestStep{
		{
			Config:      providerConfig(t, "127.0.0.1:8443", "api_key", "k") + tf(t, "system/one.tf", "name", "shop"),
			PlanOnly:    true,
			ExpectError: errorMatching("APM endpoint without a scheme", "https://127.0.0.1:8443"),
		},
	})
}

func TestAccProvider_missingEndpointNamesEnvironment(t *testing.T) {
	setenv(t, engine.EnvEndpoint, "")
	setenv(t, engine.EnvAPIKey, "")
	runAcc(t, nil, []resource.TestStep{
		{
			Config:      tf(t, "provider/from_environment.tf") + tf(t, "system/one.tf", "name", "x"),
			PlanOnly:    true,
			ExpectError: errorMatching("Missing APM endpoint", "APM_ENDPOINT"),
		},
	})
}

// Without an API key the public data sources work, and a managed resource fails the plan.
func TestAccProvider_noKey(t *testing.T) {
	env := newAccEnv(t)
	setenv(t, engine.EnvAPIKey, "")
	info, err := env.admin.ManagerInfo(env.ctx())
	env.must(err)
	keyless := providerConfig(t, env.sim.URL)
	public := tf(t, "data_sources/public.tf")
	env.test([]resource.TestStep{
		{
			Config:           keyless + public,
			ConfigPlanChecks: applied(),
			ConfigStateChecks: []statecheck.StateCheck{
				attrString("data.apm_manager_info.this", "version", info.Version),
				statecheck.ExpectKnownValue("data.apm_public_nodes.all", tfjsonpath.New("nodes"), knownvalue.NotNull()),
			},
		},
		{
			Config:      keyless + public + tf(t, "system/one.tf", "name", env.name("shop")),
			PlanOnly:    true,
			ExpectError: errorMatching("Missing APM API key", "APM_API_KEY"),
		},
		{
			Config:      keyless + tf(t, "data_sources/systems.tf"),
			PlanOnly:    true,
			ExpectError: errorMatching("Missing APM API key", "APM_API_KEY"),
		},
	})
	if n := env.writes(); n != 0 {
		t.Errorf("a provider without key made %d write requests", n)
	}
	if err := env.checkSystems()(nil); err != nil {
		t.Error(err)
	}
}
