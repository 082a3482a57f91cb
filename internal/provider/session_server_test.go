package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// A session server: install stopped, start and move its port in place, a server stopped
// outside Terraform started again, import, and replacement by a new server id.
func TestAccSessionServer_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	config := func(id string, port int, state string) string {
		return env.serverConfig(apm.KindSession, "server_id", id, "server_port", port, "state", state)
	}
	port := func(id string, p int64, status string) resource.TestCheckFunc {
		return env.checkServer(env.shopRef(apm.KindSession, id), func(s *apm.Server) error {
			return want(s.ServerPort == p && s.Status == status, "port %d %s, want %d %s", s.ServerPort, s.Status, p, status)
		})
	}
	env.testUntilEmpty([]resource.TestStep{
		{Config: config("session-1", 15200, "stopped"), ConfigPlanChecks: applied(), Check: port("session-1", 15200, "stopped")},
		{
			Config:           config("session-1", 15201, "running"),
			ConfigPlanChecks: applied(exactActions{"apm_session_server.s": plancheck.ResourceActionUpdate}),
			Check:            port("session-1", 15201, "running"),
		},
		{
			PreConfig: func() { env.must(env.admin.StopServer(env.ctx(), env.shopRef(apm.KindSession, "session-1"), false)) },
			Config:    config("session-1", 15201, "running"),
			ConfigPlanChecks: applied(exactActions{"apm_session_server.s": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_session_server.s", tfjsonpath.New("state"), knownvalue.StringExact("running"))),
			Check: port("session-1", 15201, "running"),
		},
		{
			ResourceName: "apm_session_server.s", ImportState: true, ImportStateVerify: true,
			ImportStateId:           env.shop() + "/app-01/session-1",
			ImportStateVerifyIgnore: []string{"mode"}, // not reported by the manager
		},
		{
			Config:           config("session-2", 15201, "running"),
			ConfigPlanChecks: applied(exactActions{"apm_session_server.s": plancheck.ResourceActionDestroyBeforeCreate}),
			Check:            resource.ComposeAggregateTestCheckFunc(port("session-2", 15201, "running"), env.checkGone(env.shopRef(apm.KindSession, "session-1"))),
		},
	})
}

// Without state in the configuration the running state is not managed: a server started
// outside Terraform is no drift.
func TestAccSessionServer_stateLeftAlone(t *testing.T) {
	env := newAccEnv(t)
	ref := env.shopRef(apm.KindSession, "session-1")
	env.testUntilEmpty([]resource.TestStep{
		{
			Config:            env.serverConfig(apm.KindSession),
			ConfigPlanChecks:  applied(),
			ConfigStateChecks: []statecheck.StateCheck{attrNull("apm_session_server.s", "state")},
			Check:             env.checkServer(ref, func(s *apm.Server) error { return want(s.Status == "stopped", "status %s", s.Status) }),
		},
		{
			PreConfig: func() { env.must(env.admin.StartServer(env.ctx(), ref)) },
			Config:    env.serverConfig(apm.KindSession),
			PlanOnly:  true,
		},
	})
}

// Where the node is created in the same run, its id is unknown at plan: the registration
// fails at apply (when the plan is made again with the node known), listing what the node
// offers.
func TestAccSessionServer_registerUnknownFailsAtApply(t *testing.T) {
	env := newAccEnv(t)
	env.testUntilEmpty([]resource.TestStep{{
		Config:      env.serverConfig(apm.KindSession, "server_id", "nope", "mode", "register", "server_port", 15300),
		ExpectError: errorMatching(`Error running apply`, `offers no registerable session server "nope"; it offers session servers "session-reg-1"`),
	}})
}

// A node whose read-back fails is recorded with its id, so that the server on it is
// created in the same apply (before, the server failed: node_id had no value).
func TestAccSessionServer_nodeReadBackFailsServerStillCreated(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("injects faults")
	env.testUntilEmpty([]resource.TestStep{{
		PreConfig: func() { env.faults("GET /rest/nodes/* status=502 times=1") },
		Config:    env.serverConfig(apm.KindSession),
		// The node's values that only the manager knows (node_id) fill in at the next refresh.
		ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		Check: resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckResourceAttrPair("apm_session_server.s", "node_id", "apm_node.app", "id"),
			env.checkServer(env.shopRef(apm.KindSession, "session-1"), func(s *apm.Server) error { return want(s.ServerPort == 15200, "port %d", s.ServerPort) }),
		),
	}})
}
