package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

// Passwords of the tests: at least 16 characters on one line, so that secretMarks finds
// them in any JSON or log, and nothing JSON escapes.
const (
	userPw1 = "First-Passw0rd.for_alice"
	userPw2 = "Second-Passw0rd#for_alice"
)

// checkPassword passes when the manager's password of userID is pw (it never returns the
// password; the sim checks it against the fingerprint it keeps).
func checkPassword(sim *apmsim.Sim, userID, pw string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		return want(sim.UserPasswordMatches(userID, pw), "the manager's password of user %q is not the expected one", userID)
	}
}

// checkUserPuts passes when the sim received n PUTs of users since the last reset of its
// request counts.
func checkUserPuts(sim *apmsim.Sim, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := sim.RequestCounts()["PUT /rest/admin/user/{usrId}"]
		return want(got == n, "%d user PUTs, want %d", got, n)
	}
}

// userTF is testdata/user/one.tf: apm_user.a, the user id named name, with the optional
// settings given as name and value pairs (password, password_wo, password_wo_version).
func userTF(t testing.TB, id, name string, settings ...any) string {
	t.Helper()
	return tf(t, "user/one.tf", orNull(append([]any{"user_id", id, "user_name", name}, settings...),
		"password", "password_wo", "password_wo_version")...)
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

// A user with the sensitive password, which every CLI supports: created, imported (the
// manager never reports the password), renamed in place without sending the password,
// its password changed in place, repaired after a rename outside Terraform, replaced on a
// new user_id, and created again after a delete outside Terraform. The password is in
// plan and state, as documented.
func TestAccUser_sensitivePassword(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the user updates the manager received")
	alice, alice2 := env.name("alice"), env.name("alice2")
	config := func(id, name, pw string) string {
		return env.config(userTF(t, id, name, "password", pw))
	}
	env.test([]resource.TestStep{
		{
			Config:           config(alice, "Alice", userPw1),
			ConfigPlanChecks: applied(creates("apm_user.a"), planHoldsKey{userPw1, true}),
			ConfigStateChecks: []statecheck.StateCheck{
				stateHoldsKey{userPw1, true},
				statecheck.ExpectSensitiveValue("apm_user.a", tfjsonpath.New("password")),
				attrString("apm_user.a", "id", alice),
			},
			Check: resource.ComposeAggregateTestCheckFunc(env.checkUser(alice, userNamed("Alice")), checkPassword(sim, alice, userPw1)),
		},
		{
			ResourceName:            "apm_user.a",
			ImportState:             true,
			ImportStateId:           alice,
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"password", "password_wo", "password_wo_version"},
		},
		{
			// A new name only: the PUT does not send the password again.
			PreConfig:        sim.ResetRequestCounts,
			Config:           config(alice, "Alice Example", userPw1),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				env.checkUser(alice, userNamed("Alice Example")), checkPassword(sim, alice, userPw1), checkUserPuts(sim, 1),
			),
		},
		{
			Config:           config(alice, "Alice Example", userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}),
			Check:            checkPassword(sim, alice, userPw2),
		},
		{
			PreConfig:        func() { env.must(env.admin.ModifyUser(env.ctx(), alice, apm.UserUpdate{UserName: "Mallory"})) },
			Config:           config(alice, "Alice Example", userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}),
			Check:            resource.ComposeAggregateTestCheckFunc(env.checkUser(alice, userNamed("Alice Example")), checkPassword(sim, alice, userPw2)),
		},
		{
			Config:           config(alice2, "Alice Example", userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionDestroyBeforeCreate}),
			Check: resource.ComposeAggregateTestCheckFunc(env.checkUserGone(alice), env.checkUser(alice2, userNamed("Alice Example")),
				checkPassword(sim, alice2, userPw2)),
		},
		{
			PreConfig:        func() { env.must(env.admin.DeleteUser(env.ctx(), alice2)) },
			Config:           config(alice2, "Alice Example", userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionCreate}),
			Check:            env.checkUser(alice2, userNamed("Alice Example")),
		},
	})
}

// A user with the write-only password (Terraform 1.11 and later, OpenTofu): the password
// reaches the manager but neither the plan, the state (show -json) nor the TRACE log; a
// new version rotates it in place with one PUT.
func TestAccUser_writeOnlyPassword(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the user updates the manager received")
	alice := env.name("alice")
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
		return env.config(userTF(t, alice, "Alice",
			"password_wo", hclExpr(fmt.Sprintf("file(%q)", pwFile)), "password_wo_version", version))
	}
	runWriteOnlyAcc(t, env.checkAllGone, []resource.TestStep{
		{
			Config:            config(userPw1, 1),
			ConfigPlanChecks:  applied(creates("apm_user.a"), planHoldsKey{userPw1, false}),
			ConfigStateChecks: writeOnlyStored("apm_user.a", "password", 1, userPw1, userPw2),
			Check:             checkPassword(sim, alice, userPw1),
		},
		{
			// The rotation: a new version sends the new password, in place.
			PreConfig:         sim.ResetRequestCounts,
			Config:            config(userPw2, 2),
			ConfigPlanChecks:  applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}, planHoldsKey{userPw2, false}),
			ConfigStateChecks: writeOnlyStored("apm_user.a", "password", 2, userPw1, userPw2),
			Check:             resource.ComposeAggregateTestCheckFunc(checkPassword(sim, alice, userPw2), checkUserPuts(sim, 1)),
		},
	})
	data, err := os.ReadFile(cliLog)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "apm_method=PUT") || !strings.Contains(text, "apm_path=/rest/admin/user/"+alice) {
		t.Errorf("the TRACE log (%d bytes) has no line of the user's PUT; the check below would prove nothing", len(data))
	}
	for name, pw := range map[string]string{"first": userPw1, "second": userPw2} {
		if strings.Contains(text, pw) {
			t.Errorf("the TRACE log contains the %s password", name)
		}
	}
}

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
		passwordPolicyValidator().ValidateString(context.Background(),
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

// A user password rotation with roles granted: the new password is set in place with
// one PUT, in one apply; the grants, one naming the user by reference and one by a
// literal id, are left alone, the user still holds both roles, and the plan that follows
// is empty.
func TestAccUser_rotationKeepsGrants(t *testing.T) {
	env := newAccEnv(t)
	sim := env.needsSim("counts the requests of the rotation")
	alice, ops, audit := env.name("alice"), env.name("ops"), env.name("audit")
	config := func(pw string) string {
		return env.config(tf(t, "user/rotation.tf", "user_id", alice, "password", pw, "ops_role_id", ops, "audit_role_id", audit))
	}
	env.test([]resource.TestStep{
		{Config: config(userPw1), ConfigPlanChecks: applied(), Check: env.checkUser(alice, userNamed("Alice", audit, ops))},
		{
			PreConfig:        sim.ResetRequestCounts,
			Config:           config(userPw2),
			ConfigPlanChecks: applied(exactActions{"apm_user.a": plancheck.ResourceActionUpdate}),
			Check: resource.ComposeAggregateTestCheckFunc(
				checkPassword(sim, alice, userPw2), checkUserPuts(sim, 1), env.checkUser(alice, userNamed("Alice", audit, ops)),
				func(*terraform.State) error {
					return want(env.writes() == 1, "%d writes in the rotation, want the one PUT: %v", env.writes(), sim.RequestCounts())
				},
			),
		},
	})
}
