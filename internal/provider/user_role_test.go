package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

var dateRegexp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// A grant: created, imported, granted again after a revoke outside Terraform, leaving
// the roles granted outside Terraform alone when it is destroyed. The data sources read
// the user with its roles, and the roles.
func TestAccUserRole_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	env.needsSim("expects apm_users and apm_roles to list the test's user and role and no other")
	alice, ops, audit := env.name("alice"), env.name("ops"), env.name("audit")
	base := userTF(t, alice, "Alice", "password", userPw1) + roleTF(t, ops, "Operators", []string{"READ", "EXECUTE"})
	grant := tf(t, "user_role/one.tf", "user_id", hclExpr("apm_user.a.id"), "role_id", hclExpr("apm_role.r.id"))
	noPassword := func(s *terraform.State) error {
		for _, addr := range []string{"data.apm_user.a", "data.apm_users.all"} {
			for k := range s.RootModule().Resources[addr].Primary.Attributes {
				if strings.Contains(k, "password") {
					return fmt.Errorf("%s has the attribute %s", addr, k)
				}
			}
		}
		return nil
	}
	opsRole := knownvalue.ObjectExact(map[string]knownvalue.Check{"role_id": knownvalue.StringExact(ops), "name": knownvalue.StringExact("Operators")})
	env.test([]resource.TestStep{
		{
			Config:           env.config(base + grant + tf(t, "user_role/data_sources.tf")),
			ConfigPlanChecks: applied(creates("apm_user_role.g")),
			ConfigStateChecks: []statecheck.StateCheck{
				attrString("apm_user_role.g", "id", alice+"/"+ops),
				statecheck.ExpectKnownValue("data.apm_user.a", tfjsonpath.New("roles"), knownvalue.ListExact([]knownvalue.Check{opsRole})),
				attrString("data.apm_user.a", "user_name", "Alice"),
				attrMatches("data.apm_user.a", "created_at", dateRegexp),
				statecheck.ExpectKnownValue("data.apm_users.all", tfjsonpath.New("users"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"user_id": knownvalue.StringExact(alice), "user_name": knownvalue.StringExact("Alice"), "import_id": knownvalue.StringExact(alice),
						"roles": knownvalue.ListExact([]knownvalue.Check{opsRole}),
					}),
				})),
				statecheck.ExpectKnownValue("data.apm_role.r", tfjsonpath.New("action_types"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("READ"), knownvalue.StringExact("EXECUTE")})),
				statecheck.ExpectKnownValue("data.apm_roles.all", tfjsonpath.New("roles"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"role_id": knownvalue.StringExact(ops), "name": knownvalue.StringExact("Operators"), "import_id": knownvalue.StringExact(ops),
						"action_types": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("READ"), knownvalue.StringExact("EXECUTE")}),
					}),
				})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(env.checkUser(alice, userNamed("Alice", ops)), noPassword),
		},
		{
			ResourceName:      "apm_user_role.g",
			ImportState:       true,
			ImportStateId:     alice + "/" + ops,
			ImportStateVerify: true,
		},
		{
			// A role granted outside Terraform is left alone; our grant, revoked outside,
			// is granted again.
			PreConfig: func() {
				env.must(env.admin.CreateRole(env.ctx(), apm.RoleSpec{AuthID: audit, AuthName: "Auditors", ActionTypes: []apm.ActionType{apm.ActionRead}}))
				env.must(env.admin.GrantRole(env.ctx(), alice, audit))
				env.must(env.admin.RevokeRole(env.ctx(), alice, ops))
			},
			Config:           env.config(base + grant),
			ConfigPlanChecks: applied(exactActions{"apm_user_role.g": plancheck.ResourceActionCreate}),
			Check:            env.checkUser(alice, userNamed("Alice", audit, ops)),
		},
		{
			// Destroying the grant revokes only its role.
			Config:           env.config(base),
			ConfigPlanChecks: applied(exactActions{"apm_user_role.g": plancheck.ResourceActionDestroy}),
			Check:            env.checkUser(alice, userNamed("Alice", audit)),
		},
	})
}

// A grant that exists already is refused at plan with the import advice (issue 21, item
// 12): a grant sent twice succeeds, so before, the create took it over silently and two
// configurations owned one grant. Nothing is written.
func TestAccUserRole_existingGrantRefusedAtPlan(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests that reach the manager")
	user, role := env.name("alice"), env.name("auditors")
	env.must(env.admin.CreateUser(env.ctx(), apm.UserSpec{UserID: user, UserName: "Alice", Password: "Str0ng-enough!"}))
	t.Cleanup(func() { _ = env.admin.DeleteUser(env.ctx(), user) })
	env.must(env.admin.CreateRole(env.ctx(), apm.RoleSpec{AuthID: role, AuthName: "Auditors", ActionTypes: []apm.ActionType{apm.ActionRead}}))
	t.Cleanup(func() { _ = env.admin.DeleteRole(env.ctx(), role) })
	env.must(env.admin.GrantRole(env.ctx(), user, role))
	sim.ResetRequestCounts()
	env.test([]resource.TestStep{{
		Config:      env.config(tf(t, "user_role/one.tf", "user_id", user, "role_id", role)),
		ExpectError: errorMatching("already exists", "import", user+"/"+role),
	}})
	if n := env.writes(); n != 0 {
		t.Errorf("%d writes reached the manager; a grant refused at plan sends none", n)
	}
}
