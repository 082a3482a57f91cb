package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

func urisAre(expected ...string) func(s *apm.Server) error {
	return func(s *apm.Server) error {
		return want(slices.Equal(s.URIs, expected), "URIs %q, want %q", s.URIs, expected)
	}
}

// URI patterns: created over a pattern set outside Terraform (removed), imported, changed
// in place, repaired after one was removed and another added outside Terraform, and
// removed from the web server when the resource goes.
func TestAccWebURIPatterns_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	shop, web1 := env.name("shop"), env.shopWeb1()
	webServer := env.config(tf(t, "web_uri_patterns/web_server.tf", "system_name", shop))
	patterns := func(first, second string) string {
		return env.config(tf(t, "web_uri_patterns/two_patterns.tf", "system_name", shop, "first", first, "second", second))
	}
	second := patterns("/api/*", "/static/*")
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:           webServer,
			ConfigPlanChecks: applied(),
		},
		{
			PreConfig:        func() { env.must(env.admin.AddURIs(env.ctx(), web1, []string{"/legacy/*"})) },
			Config:           patterns("/shop/*", "/api/*"),
			ConfigPlanChecks: applied(exactActions{"apm_web_uri_patterns.u": plancheck.ResourceActionCreate}),
			Check:            env.checkServer(web1, urisAre("/api/*", "/shop/*")),
		},
		{
			// The manager reports every pattern: nothing to ignore.
			ResourceName:      "apm_web_uri_patterns.u",
			ImportState:       true,
			ImportStateId:     shop + "/app-01/web-1",
			ImportStateVerify: true,
		},
		{
			Config:           second,
			ConfigPlanChecks: applied(exactActions{"apm_web_uri_patterns.u": plancheck.ResourceActionUpdate}),
			Check:            env.checkServer(web1, urisAre("/api/*", "/static/*")),
		},
		{
			PreConfig: func() {
				env.must(env.admin.DeleteURIs(env.ctx(), web1, []string{"/api/*"}))
				env.must(env.admin.AddURIs(env.ctx(), web1, []string{"/admin/*"}))
			},
			Config: second,
			ConfigPlanChecks: applied(
				exactActions{"apm_web_uri_patterns.u": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_web_uri_patterns.u", tfjsonpath.New("patterns"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("/api/*"), knownvalue.StringExact("/static/*")})),
			),
			Check: env.checkServer(web1, urisAre("/api/*", "/static/*")),
		},
		{
			Config:           webServer,
			ConfigPlanChecks: applied(exactActions{"apm_web_uri_patterns.u": plancheck.ResourceActionDestroy}),
			Check:            env.checkServer(web1, urisAre()),
		},
	})
}
