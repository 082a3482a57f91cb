package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// checkCluster compares the manager's session clustering of a WAS server of shop/app-01
// with want (nil: none).
func (e *accEnv) checkCluster(serverID string, cluster *apm.SessionCluster) resource.TestCheckFunc {
	return e.checkServer(e.shopWAS(serverID), func(s *apm.Server) error {
		same := (s.SessionCluster == nil) == (cluster == nil) && (cluster == nil || *s.SessionCluster == *cluster)
		return want(same, "has session clustering %s, want %s", clusterText(s.SessionCluster), clusterText(cluster))
	})
}

func clusterText(c *apm.SessionCluster) string {
	if c == nil {
		return "none"
	}
	return fmt.Sprintf("%+v", *c)
}

// Session clustering: create, a secondary server added outside Terraform is drift that
// apply removes (in place), secondary set in place, removal outside Terraform re-created,
// import, and a move to another server replaces it. Half a secondary fails at plan.
func TestAccWASSessionCluster_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	shop := env.name("shop")
	// Session clustering on WAS server serverID (was-1 or was-2), primary 10.0.0.31; a
	// secondary host or port of null leaves it out.
	config := func(serverID string, primaryPort int, secondaryHost, secondaryPort any) string {
		return env.config(tf(t, "was_session_cluster/on_two_servers.tf", "system_name", shop, "server_id", serverID,
			"primary_port", primaryPort, "secondary_host", secondaryHost, "secondary_port", secondaryPort))
	}
	none := hclExpr("null")
	primaryOnly := config("was-1", 15200, none, none)
	withSecondary := config("was-1", 15201, "10.0.0.32", 15200)
	wantPrimary := &apm.SessionCluster{PrimaryHost: "10.0.0.31", PrimaryPort: 15200}
	wantSecondary := &apm.SessionCluster{PrimaryHost: "10.0.0.31", PrimaryPort: 15201, SecondaryHost: "10.0.0.32", SecondaryPort: 15200}
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:      config("was-1", 15200, "10.0.0.32", none),
			PlanOnly:    true,
			ExpectError: errorMatching("These attributes must be configured together", "secondary_host", "secondary_port"),
		},
		{
			Config:           primaryOnly,
			ConfigPlanChecks: applied(creates("apm_was_session_cluster.c")),
			ConfigStateChecks: []statecheck.StateCheck{
				attrNull("apm_was_session_cluster.c", "secondary_host"),
				attrNull("apm_was_session_cluster.c", "secondary_port"),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkExists("apm_was_session_cluster.c"),
				resource.TestCheckResourceAttrPair("apm_was_session_cluster.c", "id", "apm_was_server.was.0", "id"),
				env.checkCluster("was-1", wantPrimary),
				env.checkCluster("was-2", nil),
			),
		},
		{
			// Another operator added a secondary server: the configuration has none.
			PreConfig: func() {
				env.must(env.admin.SetSessionCluster(env.ctx(), env.shopWAS("was-1"),
					apm.SessionCluster{PrimaryHost: "10.0.0.31", PrimaryPort: 15200, SecondaryHost: "10.0.0.99", SecondaryPort: 15300}))
			},
			Config: primaryOnly,
			ConfigPlanChecks: applied(
				exactActions{"apm_was_session_cluster.c": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_was_session_cluster.c", tfjsonpath.New("secondary_host"), knownvalue.Null()),
			),
			Check: env.checkCluster("was-1", wantPrimary),
		},
		{
			Config:           withSecondary,
			ConfigPlanChecks: applied(exactActions{"apm_was_session_cluster.c": plancheck.ResourceActionUpdate}),
			Check:            env.checkCluster("was-1", wantSecondary),
		},
		{
			// Removed outside Terraform: the next apply sets it up again.
			PreConfig:        func() { env.must(env.admin.RemoveSessionCluster(env.ctx(), env.shopWAS("was-1"))) },
			Config:           withSecondary,
			ConfigPlanChecks: applied(exactActions{"apm_was_session_cluster.c": plancheck.ResourceActionCreate}),
			Check:            env.checkCluster("was-1", wantSecondary),
		},
		{
			ResourceName:      "apm_was_session_cluster.c",
			ImportState:       true,
			ImportStateId:     shop + "/app-01/was-1",
			ImportStateVerify: true,
		},
		{
			Config:           config("was-2", 15200, none, none),
			ConfigPlanChecks: applied(exactActions{"apm_was_session_cluster.c": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkCluster("was-1", nil),
				env.checkCluster("was-2", wantPrimary),
			),
		},
	})
}
