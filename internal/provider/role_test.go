package provider

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// roleTF is testdata/role/one.tf: apm_role.r, the role id named name with the action
// types, and the optional settings given as name and value pairs (description, timeouts).
func roleTF(t testing.TB, id, name string, actions []string, settings ...any) string {
	t.Helper()
	quoted := make([]string, len(actions))
	for i, a := range actions {
		quoted[i] = strconv.Quote(a)
	}
	vars := []any{"role_id", id, "name", name, "action_types", hclExpr("[" + strings.Join(quoted, ", ") + "]")}
	return tf(t, "role/one.tf", orNull(append(vars, settings...), "description", "timeouts")...)
}

func (e *accEnv) checkRole(roleID, name string, actions ...apm.ActionType) resource.TestCheckFunc {
	return func(*terraform.State) error {
		r, err := e.admin.GetRole(e.ctx(), roleID)
		if err != nil {
			return err
		}
		return want(r.AuthName == name && slices.Equal(r.ActionTypes, actions), "role %q is %q %v, want %q %v", roleID, r.AuthName, r.ActionTypes, name, actions)
	}
}

// checkRoleGone passes when the manager has no role roleID.
func (e *accEnv) checkRoleGone(roleID string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := e.admin.GetRole(e.ctx(), roleID)
		return want(apm.IsNotFound(err), "role %s: %v, want not found", roleID, err)
	}
}

// A role: created, imported, changed in place, repaired after its action types were
// changed outside Terraform, replaced on a new role_id.
func TestAccRole_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	ops, ops2 := env.name("ops"), env.name("ops2")
	config := func(id, name string, actions []string, settings ...any) string {
		return env.config(roleTF(t, id, name, actions, settings...))
	}
	final := config(ops, "Operations", []string{"EXECUTE", "READ"})
	env.test([]resource.TestStep{
		{
			Config:           config(ops, "Operators", []string{"READ", "WRITE"}, "description", "Runs things"),
			ConfigPlanChecks: applied(creates("apm_role.r")),
			Check:            env.checkRole(ops, "Operators", apm.ActionRead, apm.ActionWrite),
		},
		{
			ResourceName:      "apm_role.r",
			ImportState:       true,
			ImportStateId:     ops,
			ImportStateVerify: true,
		},
		{
			// description left out: cleared in the manager, not managed afterwards.
			Config:           final,
			ConfigPlanChecks: applied(exactActions{"apm_role.r": plancheck.ResourceActionUpdate}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkRole(ops, "Operations", apm.ActionRead, apm.ActionExecute),
				func(*terraform.State) error {
					r, err := env.admin.GetRole(env.ctx(), ops)
					if err != nil {
						return err
					}
					return want(r.Description == "", "description %q, want cleared", r.Description)
				}),
		},
		{
			PreConfig: func() {
				env.must(env.admin.ModifyRole(env.ctx(), ops, apm.RoleUpdate{ActionTypes: []apm.ActionType{apm.ActionWrite}}))
			},
			Config: final,
			ConfigPlanChecks: applied(exactActions{"apm_role.r": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_role.r", tfjsonpath.New("action_types"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("READ"), knownvalue.StringExact("EXECUTE")}))),
			Check: env.checkRole(ops, "Operations", apm.ActionRead, apm.ActionExecute),
		},
		{
			Config:           config(ops2, "Operations", []string{"EXECUTE", "READ"}),
			ConfigPlanChecks: applied(exactActions{"apm_role.r": plancheck.ResourceActionDestroyBeforeCreate}),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkRole(ops2, "Operations", apm.ActionRead, apm.ActionExecute), env.checkRoleGone(ops)),
		},
	})
}

// A role still granted outside Terraform: its delete waits out timeouts.delete, then
// names the user; once the grant is revoked, the delete goes through.
func TestAccRole_deleteWhileGranted(t *testing.T) {
	env := newAccEnv(t)
	ops, bob := env.name("ops"), env.name("bob")
	role := env.config(roleTF(t, ops, "Operators", []string{"READ"}, "timeouts", hclExpr(`{ delete = "2s" }`)))
	env.test([]resource.TestStep{
		{Config: role, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.CreateUser(env.ctx(), apm.UserSpec{UserID: bob, UserName: "Bob", Password: userPw1}))
				env.must(env.admin.GrantRole(env.ctx(), bob, ops))
			},
			Config:      env.config(""),
			ExpectError: errorMatching("gave up after 2s", fmt.Sprintf("still held by user %q", bob), fmt.Sprintf("Role %s is granted to user(s) %s", ops, bob)),
		},
		{
			PreConfig: func() { env.must(env.admin.RevokeRole(env.ctx(), bob, ops)) },
			Config:    env.config(""),
			Check:     env.checkRoleGone(ops),
		},
	})
}
