package provider

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// checkApplications compares the context paths deployed on was-1 with want, and the data
// source's list with the manager's statuses.
func (e *accEnv) checkApplications(dataAddr string, contextPaths ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		apps, err := e.admin.ApplicationStatuses(e.ctx(), e.shopWAS("was-1"))
		if err != nil {
			return err
		}
		var got []string
		for _, a := range apps {
			got = append(got, a.ContextPath)
		}
		if !slices.Equal(got, contextPaths) {
			return fmt.Errorf("was-1 has the applications %q deployed, want %q", got, contextPaths)
		}
		rs, ok := s.RootModule().Resources[dataAddr]
		if !ok {
			return fmt.Errorf("%s is not in state", dataAddr)
		}
		attrs := rs.Primary.Attributes
		if attrs["applications.#"] != strconv.Itoa(len(apps)) {
			return fmt.Errorf("%s lists %s applications, the manager %d", dataAddr, attrs["applications.#"], len(apps))
		}
		for i, a := range apps {
			item := fmt.Sprintf("%s:%s:%s", attrs[fmt.Sprintf("applications.%d.context_path", i)], attrs[fmt.Sprintf("applications.%d.status", i)],
				attrs[fmt.Sprintf("applications.%d.sessions", i)])
			if fresh := fmt.Sprintf("%s:%s:%d", a.ContextPath, a.Status, a.Sessions); item != fresh || a.Status != "running" || a.Sessions < 1 {
				return fmt.Errorf("%s lists %s, the manager %s (of a running server, with sessions)", dataAddr, item, fresh)
			}
		}
		return nil
	}
}

// A deployed application on a running server, read back by the data source: deploy,
// undeployed outside Terraform and deployed again, import by its id and by the other
// spelling, a new archive redeploys it. A context path without its slash fails at plan.
func TestAccWASApplication_lifecycle(t *testing.T) {
	// No transition delay: the data source reads the application right after its deploy,
	// when a manager with one would still report it deploying.
	env := newAccEnvWith(t, apmsimtest.WithTransitionDelay(-1))
	sim := env.needsSim("counts the undeploys and deploys that a new archive sends")
	shop := env.name("shop")
	config := func(contextPath, source string) string {
		return env.config(tf(t, "was_application/deployed.tf", "system_name", shop, "context_path", contextPath, "source_path", source))
	}
	first, second := config("/shop", "/opt/releases/shop-1.0.war"), config("/shop", "/opt/releases/shop-1.1.war")
	verify := []string{"source_path", "application_name"} // not reported by the manager
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:      config("shop", "/opt/releases/shop-1.0.war"),
			PlanOnly:    true,
			ExpectError: errorMatching("context_path", "must start with /"),
		},
		{
			Config:           first,
			ConfigPlanChecks: applied(creates("apm_was_application.shop")),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_was_application.shop"),
				checkIDIs("apm_was_application.shop", "apm_was_server.a", "/shop"),
				env.checkApplications("data.apm_was_applications.was1", "/shop"),
			),
		},
		{
			PreConfig:        func() { env.must(env.admin.UndeployApplication(env.ctx(), env.shopWAS("was-1"), "/shop")) },
			Config:           first,
			ConfigPlanChecks: applied(exactActions{"apm_was_application.shop": plancheck.ResourceActionCreate}),
			Check:            env.checkApplications("data.apm_was_applications.was1", "/shop"),
		},
		{
			ResourceName:            "apm_was_application.shop",
			ImportState:             true,
			ImportStateIdFunc:       importIDFrom("apm_was_application.shop", ""),
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: verify,
		},
		{
			ResourceName:            "apm_was_application.shop",
			ImportState:             true,
			ImportStateId:           shop + "/app-01/was-1//shop",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: verify,
		},
		{
			// A new archive: undeployed, then deployed again.
			PreConfig:        sim.ResetRequestCounts,
			Config:           second,
			ConfigPlanChecks: applied(exactActions{"apm_was_application.shop": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkApplications("data.apm_was_applications.was1", "/shop"),
				func(*terraform.State) error {
					undeploys, deploys := routeCount(sim, "DELETE", "/application"), routeCount(sim, "POST", "/application")
					return want(undeploys == 1 && deploys == 1, "%d undeploys and %d deploys, want one each", undeploys, deploys)
				},
			),
		},
	})
}

// ---- without a CLI ----

// The import ID of an application: the server's three parts, then the context path with
// or without its slash.
func TestWASApplicationImportID(t *testing.T) {
	for raw, want := range map[string][2]string{ // server part, context path; none: an error
		"shop/app-01/was-1/shop":      {"shop/app-01/was-1", "/shop"},
		"shop/app-01/was-1//shop":     {"shop/app-01/was-1", "/shop"},
		"shop/app-01/was-1//":         {"shop/app-01/was-1", "/"},
		"shop/app-01/was-1/":          {"shop/app-01/was-1", "/"}, // the root context's own id
		"shop/app-01/was-1/api/v1":    {"shop/app-01/was-1", "/api/v1"},
		"SYS-0001/app-01/was-1//shop": {"SYS-0001/app-01/was-1", "/shop"},
		"shop/app-01/was-1":           {},
		"shop//was-1/shop":            {},
	} {
		parts, err := wasApplicationType.ImportID.Parse(raw)
		if want[0] == "" {
			if err == nil {
				t.Errorf("%q: parsed as %q, want an error", raw, parts)
			} else if !strings.Contains(err.Error(), "for example shop/app-01/was-1/shop") {
				t.Errorf("%q: error %q does not show the example", raw, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", raw, err)
			continue
		}
		got, _ := contextPathPart.Resolve(context.Background(), nil, parts[1])
		if parts[0] != want[0] || got != want[1] {
			t.Errorf("%q: server %q and context path %q, want %q and %q", raw, parts[0], got, want[0], want[1])
		}
	}
}
