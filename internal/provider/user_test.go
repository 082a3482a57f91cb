package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
)

// Passwords of the tests: at least 16 characters on one line, so that secretMarks finds
// them in any JSON or log, and nothing JSON escapes.
const (
	userPw1 = "First-Passw0rd.for_alice"
	userPw2 = "Second-Passw0rd#for_alice"
)

// newUserAccEnv is an accEnv whose sim persists its world to a file, where the tests read
// the fingerprint the manager keeps of each password (it never returns the password).
func newUserAccEnv(t *testing.T) (*accEnv, string) {
	t.Helper()
	stateFile := filepath.Join(t.TempDir(), "apmsim.json")
	sim := apmsimtest.Start(t, apmsimtest.WithStateFile(stateFile))
	admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey, MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return &accEnv{t: t, sim: sim, admin: admin}, stateFile
}

// checkPassword passes when the manager's fingerprint of userID's password is that of pw.
func checkPassword(stateFile, userID, pw string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		data, err := os.ReadFile(stateFile)
		if err != nil {
			return err
		}
		sum := sha256.Sum256([]byte("user/" + userID + "\x00" + pw))
		return want(strings.Contains(string(data), `"`+hex.EncodeToString(sum[:])+`"`),
			"the manager's password of user %q is not the expected one", userID)
	}
}

// userPuts counts the PUTs of users since the last reset of the counts.
func (e *accEnv) userPuts() int { return e.sim.Sim.RequestCounts()["PUT /rest/admin/user/{usrId}"] }

func userHCL(label, id, name string, lines ...string) string {
	return fmt.Sprintf(`
resource "apm_user" %q {
  user_id   = %q
  user_name = %q
  %s
}
`, label, id, name, strings.Join(lines, "\n  "))
}

func roleHCL(label, id, name string, actions []string, lines ...string) string {
	quoted := make([]string, len(actions))
	for i, a := range actions {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return fmt.Sprintf(`
resource "apm_role" %q {
  role_id      = %q
  name         = %q
  action_types = [%s]
  %s
}
`, label, id, name, strings.Join(quoted, ", "), strings.Join(lines, "\n  "))
}

// checkUser passes when the manager's user userID passes check.
func (e *accEnv) checkUser(userID string, check func(u *apm.User) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		u, err := e.admin.GetUser(e.ctx(), userID)
		if err != nil {
			return err
		}
		return check(u)
	}
}

func userNamed(name string, roles ...string) func(u *apm.User) error {
	return func(u *apm.User) error {
		got := slices.Sorted(slices.Values(u.Roles))
		return want(u.UserName == name && slices.Equal(got, roles), "user %q has name %q and roles %v, want %q and %v", u.UserID, u.UserName, got, name, roles)
	}
}

// checkUserGone passes when the manager has no user userID.
func (e *accEnv) checkUserGone(userID string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := e.admin.GetUser(e.ctx(), userID)
		return want(apm.IsNotFound(err), "user %q: %v, want not found", userID, err)
	}
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

// A user with the sensitive password, which every CLI supports: created, imported (the
// manager never reports the password), renamed in place without sending the password,
// its password changed in place, repaired after a rename outside Terraform, replaced on a
// new user_id, and created again after a delete outside Terraform. The password is in
// plan and state, as documented.
func TestAccUser_sensitivePassword(t *testing.T) {
	env, stateFile := newUserAccEnv(t)
	config := func(id, name, pw string) string {
		return env.config(userHCL("a", id, name, fmt.Sprintf("password = %q", pw)))
	}
	env.test([]resource.TestStep{
		{
			Config:           config("alice", "Alice", userPw1),
			ConfigPlanChecks: applied(creates("apm_user.a"), planHoldsKey{userPw1, true}),
			ConfigStateChecks: []statecheck.StateCheck{
				stateHoldsKey{userPw1, true},
				statecheck.ExpectSensitiveValue("apm_user.a", tfjsonpath.New("password")),
				attrString("apm_user.a", "id", "alice"),
			},
			Check: resource.ComposeAggregateTestCheckFunc(env.checkUser("alice", userNamed("Alice")), checkPassword(stateFile, "alice", userPw1)),
		},
		{
			ResourceName:            "apm_user.a",
			ImportState:             true,
			ImportStateId:           "alice",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"password", "password_wo", "password_wo_version"},
		},
		{
			// A new name only: the PUT does not send the password again.
			PreConfig:        env.sim.Sim.ResetRequestCounts,
			Config:           config("alice", "Alice Example", userPw1),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkUser("alice", userNamed("Alice Example")), checkPassword(stateFile, "alice", userPw1),
				func(*terraform.State) error { return want(env.userPuts() == 1, "%d user PUTs, want 1", env.userPuts()) },
			),
		},
		{
			Config:           config("alice", "Alice Example", userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}),
			Check:            checkPassword(stateFile, "alice", userPw2),
		},
		{
			PreConfig:        func() { env.must(env.admin.ModifyUser(env.ctx(), "alice", apm.UserUpdate{UserName: "Mallory"})) },
			Config:           config("alice", "Alice Example", userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkUser("alice", userNamed("Alice Example")), checkPassword(stateFile, "alice", userPw2)),
		},
		{
			Config:           config("alice2", "Alice Example", userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkUserGone("alice"), env.checkUser("alice2", userNamed("Alice Example")),
				checkPassword(stateFile, "alice2", userPw2)),
		},
		{
			PreConfig:        func() { env.must(env.admin.DeleteUser(env.ctx(), "alice2")) },
			Config:           config("alice2", "Alice Example", userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionCreate}),
			Check:            env.checkUser("alice2", userNamed("Alice Example")),
		},
	})
}

// A user with the write-only password (Terraform 1.11 and later, OpenTofu): the password
// reaches the manager but neither the plan, the state (show -json) nor the TRACE log; a
// new version rotates it in place with one PUT.
func TestAccUser_writeOnlyPassword(t *testing.T) {
	env, stateFile := newUserAccEnv(t)
	cliLog := filepath.Join(t.TempDir(), "cli.log")
	setenv(t, "TF_LOG", "TRACE")
	setenv(t, "TF_ACC_LOG_PATH", cliLog)
	// Read with file(): a literal would be part of the configuration, which a saved plan
	// carries.
	dir := t.TempDir()
	config := func(pw string, version int) string {
		pwFile := filepath.Join(dir, fmt.Sprintf("pw-%d", version))
		if err := os.WriteFile(pwFile, []byte(pw), 0o600); err != nil {
			t.Fatal(err)
		}
		return env.config(userHCL("a", "alice", "Alice",
			fmt.Sprintf("password_wo = file(%q)", pwFile), fmt.Sprintf("password_wo_version = %d", version)))
	}
	runWriteOnlyAcc(t, env.checkAllGone, []resource.TestStep{
		{
			Config:            config(userPw1, 1),
			ConfigPlanChecks:  applied(creates("apm_user.a"), planHoldsKey{userPw1, false}),
			ConfigStateChecks: writeOnlyStored("apm_user.a", "password", 1, userPw1, userPw2),
			Check:             checkPassword(stateFile, "alice", userPw1),
		},
		{
			// The rotation: a new version sends the new password, in place.
			PreConfig:         env.sim.Sim.ResetRequestCounts,
			Config:            config(userPw2, 2),
			ConfigPlanChecks:  applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}, planHoldsKey{userPw2, false}),
			ConfigStateChecks: writeOnlyStored("apm_user.a", "password", 2, userPw1, userPw2),
			Check: resource.ComposeAggregateTestCheckFunc(
				checkPassword(stateFile, "alice", userPw2),
				func(*terraform.State) error { return want(env.userPuts() == 1, "%d user PUTs, want 1", env.userPuts()) },
			),
		},
	})
	data, err := os.ReadFile(cliLog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "apm_method=PUT") || !strings.Contains(text, "apm_path=/rest/admin/user/alice") {
		t.Errorf("the TRACE log (%d bytes) has no line of the user's PUT; the check below would prove nothing", len(data))
	}
	for name, pw := range map[string]string{"first": userPw1, "second": userPw2} {
		if strings.Contains(text, pw) {
			t.Errorf("the TRACE log contains the %s password", name)
		}
	}
}

// A role: created, imported, changed in place, repaired after its action types were
// changed outside Terraform, replaced on a new role_id.
func TestAccRole_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	config := func(id, name string, actions []string, lines ...string) string {
		return env.config(roleHCL("r", id, name, actions, lines...))
	}
	final := config("ops", "Operations", []string{"EXECUTE", "READ"})
	env.test([]resource.TestStep{
		{
			Config:           config("ops", "Operators", []string{"READ", "WRITE"}, `description = "Runs things"`),
			ConfigPlanChecks: applied(creates("apm_role.r")),
			Check:            env.checkRole("ops", "Operators", apm.ActionRead, apm.ActionWrite),
		},
		{
			ResourceName:      "apm_role.r",
			ImportState:       true,
			ImportStateId:     "ops",
			ImportStateVerify: true,
		},
		{
			// description left out: cleared in the manager, not managed afterwards.
			Config:           final,
			ConfigPlanChecks: applied(exactActions{"apm_role.r": plancheck.ResourceActionUpdate}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkRole("ops", "Operations", apm.ActionRead, apm.ActionExecute),
				func(*terraform.State) error {
					r, err := env.admin.GetRole(env.ctx(), "ops")
					if err != nil {
						return err
					}
					return want(r.Description == "", "description %q, want cleared", r.Description)
				}),
		},
		{
			PreConfig: func() {
				env.must(env.admin.ModifyRole(env.ctx(), "ops", apm.RoleUpdate{ActionTypes: []apm.ActionType{apm.ActionWrite}}))
			},
			Config: final,
			ConfigPlanChecks: applied(exactActions{"apm_role.r": plancheck.ResourceActionUpdate},
				plancheck.ExpectKnownValue("apm_role.r", tfjsonpath.New("action_types"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("READ"), knownvalue.StringExact("EXECUTE")}))),
			Check: env.checkRole("ops", "Operations", apm.ActionRead, apm.ActionExecute),
		},
		{
			Config:           config("ops2", "Operations", []string{"EXECUTE", "READ"}),
			ConfigPlanChecks: applied(exactActions{"apm_role.r": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkRole("ops2", "Operations", apm.ActionRead, apm.ActionExecute),
				func(*terraform.State) error {
					_, err := env.admin.GetRole(env.ctx(), "ops")
					return want(apm.IsNotFound(err), "role ops: %v, want not found", err)
				}),
		},
	})
}

// A role still granted outside Terraform: its delete waits out timeouts.delete, then
// names the user; once the grant is revoked, the delete goes through.
func TestAccRole_deleteWhileGranted(t *testing.T) {
	env := newAccEnv(t)
	role := env.config(roleHCL("r", "ops", "Operators", []string{"READ"}, `timeouts = { delete = "2s" }`))
	env.test([]resource.TestStep{
		{Config: role, ConfigPlanChecks: applied()},
		{
			PreConfig: func() {
				env.must(env.admin.CreateUser(env.ctx(), apm.UserSpec{UserID: "bob", UserName: "Bob", Password: userPw1}))
				env.must(env.admin.GrantRole(env.ctx(), "bob", "ops"))
			},
			Config:      env.config(""),
			ExpectError: errorMatching("gave up after 2s", `still held by user "bob"`, "Role ops is granted to user(s) bob"),
		},
		{
			PreConfig: func() { env.must(env.admin.RevokeRole(env.ctx(), "bob", "ops")) },
			Config:    env.config(""),
			Check: func(*terraform.State) error {
				_, err := env.admin.GetRole(env.ctx(), "ops")
				return want(apm.IsNotFound(err), "role ops: %v, want not found", err)
			},
		},
	})
}

// A grant: created, imported, granted again after a revoke outside Terraform, leaving
// the roles granted outside Terraform alone when it is destroyed. The data sources read
// the user with its roles, and the roles.
func TestAccUserRole_lifecycle(t *testing.T) {
	env := newAccEnv(t)
	base := userHCL("a", "alice", "Alice", fmt.Sprintf("password = %q", userPw1)) + roleHCL("r", "ops", "Operators", []string{"READ", "EXECUTE"})
	grant := `
resource "apm_user_role" "g" {
  user_id = apm_user.a.id
  role_id = apm_role.r.id
}
`
	data := `
data "apm_user" "a" {
  user_id = apm_user_role.g.user_id
}
data "apm_users" "all" {
  depends_on = [apm_user_role.g]
}
data "apm_role" "r" {
  role_id = apm_user_role.g.role_id
}
data "apm_roles" "all" {
  depends_on = [apm_role.r]
}
`
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
	env.test([]resource.TestStep{
		{
			Config:           env.config(base + grant + data),
			ConfigPlanChecks: applied(creates("apm_user_role.g")),
			ConfigStateChecks: []statecheck.StateCheck{
				attrString("apm_user_role.g", "id", "alice/ops"),
				statecheck.ExpectKnownValue("data.apm_user.a", tfjsonpath.New("roles"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"role_id": knownvalue.StringExact("ops"), "name": knownvalue.StringExact("Operators")}),
				})),
				attrString("data.apm_user.a", "user_name", "Alice"),
				attrMatches("data.apm_user.a", "created_at", dateRegexp),
				statecheck.ExpectKnownValue("data.apm_users.all", tfjsonpath.New("users"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"user_id": knownvalue.StringExact("alice"), "user_name": knownvalue.StringExact("Alice"),
						"roles": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
							"role_id": knownvalue.StringExact("ops"), "name": knownvalue.StringExact("Operators"),
						})}),
					}),
				})),
				statecheck.ExpectKnownValue("data.apm_role.r", tfjsonpath.New("action_types"),
					knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("READ"), knownvalue.StringExact("EXECUTE")})),
				statecheck.ExpectKnownValue("data.apm_roles.all", tfjsonpath.New("roles"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"role_id": knownvalue.StringExact("ops"), "name": knownvalue.StringExact("Operators"),
						"action_types": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("READ"), knownvalue.StringExact("EXECUTE")}),
					}),
				})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(env.checkUser("alice", userNamed("Alice", "ops")), noPassword),
		},
		{
			ResourceName:      "apm_user_role.g",
			ImportState:       true,
			ImportStateId:     "alice/ops",
			ImportStateVerify: true,
		},
		{
			// A role granted outside Terraform is left alone; our grant, revoked outside,
			// is granted again.
			PreConfig: func() {
				env.must(env.admin.CreateRole(env.ctx(), apm.RoleSpec{AuthID: "audit", AuthName: "Auditors", ActionTypes: []apm.ActionType{apm.ActionRead}}))
				env.must(env.admin.GrantRole(env.ctx(), "alice", "audit"))
				env.must(env.admin.RevokeRole(env.ctx(), "alice", "ops"))
			},
			Config:           env.config(base + grant),
			ConfigPlanChecks: applied(exactActions{"apm_user_role.g": plancheck.ResourceActionCreate}),
			Check:            env.checkUser("alice", userNamed("Alice", "audit", "ops")),
		},
		{
			// Destroying the grant revokes only its role.
			Config:           env.config(base),
			ConfigPlanChecks: applied(exactActions{"apm_user_role.g": plancheck.ResourceActionDestroy}),
			Check:            env.checkUser("alice", userNamed("Alice", "audit")),
		},
	})
}

var dateRegexp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// The password policy's message lists what is missing and never quotes the value.
func TestPasswordPolicyNeverQuotesTheValue(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"Str0ng-enough", ""},
		{"a1!", "must be at least 8 characters long"}, // short only: has every class
		{"abc!", "must be at least 8 characters long and contain at least one digit"},
		{"abcdefgh", "must contain at least one digit and one special character"},
		{"12345678!", "must contain at least one letter"},
		{"abcd1234", "must contain at least one special character"},
		{"        ", "must contain at least one letter, one digit and one special character"},
		{"abc\tdef1!", "must not contain control characters"},
		{strings.Repeat("aB3!", 33), "must be at most 128 characters long"},
	} {
		var resp validator.StringResponse
		passwordPolicyValidator{}.ValidateString(context.Background(),
			validator.StringRequest{Path: path.Root("password"), ConfigValue: types.StringValue(tc.value)}, &resp)
		if tc.want == "" {
			if resp.Diagnostics.HasError() {
				t.Errorf("%d characters: unexpected error %v", len(tc.value), resp.Diagnostics)
			}
			continue
		}
		if !resp.Diagnostics.HasError() {
			t.Errorf("%d characters: accepted, want %q", len(tc.value), tc.want)
			continue
		}
		detail := resp.Diagnostics[0].Detail()
		if !strings.Contains(detail, tc.want) {
			t.Errorf("%d characters: %q, want it to contain %q", len(tc.value), detail, tc.want)
		}
		if strings.TrimSpace(tc.value) != "" && strings.Contains(detail+resp.Diagnostics[0].Summary(), tc.value) {
			t.Errorf("the diagnostic quotes the value: %s", detail)
		}
	}
	// "a1!" is short but has every class: the message must not claim a class is missing.
	if p := passwordProblem("a1!"); p != "must be at least 8 characters long" {
		t.Errorf("short password with every class: %q", p)
	}
}
