package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// Administration: the manager's users (by usrId), roles (by authId) and the grants
// between them. A user's password is a secret input: the manager keeps only a
// fingerprint of it and never reports it, so state keeps what was applied (nothing, for
// the write-only form). A role still granted cannot be deleted: its delete waits for the
// grants to go, then names the users that still hold it.

func userResources() []func() resource.Resource {
	return []func() resource.Resource{NewResource(userType), NewResource(roleType), NewResource(userRoleType)}
}

func userDataSources() []func() datasource.DataSource {
	return []func() datasource.DataSource{newUsersDataSource, newUserDataSource, newRolesDataSource, newRoleDataSource}
}

// adminIDPattern is the manager's rule for usrId and authId.
var adminIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,32}$`)

func adminIDValidators() []validator.String {
	return []validator.String{stringvalidator.RegexMatches(adminIDPattern, "must be 1 to 32 characters, each a letter, a digit, '.', '-' or '_'")}
}

func displayNameValidators() []validator.String {
	return []validator.String{stringvalidator.LengthBetween(1, 100)}
}

// ---- users ----

// userObject is a user with the names of its roles, where a read looked them up.
type userObject struct {
	apm.User
	roleNames map[string]string
}

// userRoleItem is one role of a user, in data sources.
type userRoleItem struct{ RoleID, Name string }

var userRoleItemFields = []field[userRoleItem]{
	stringField("role_id", "The role's `authId`.", func(r *userRoleItem) string { return r.RoleID }),
	stringField("name", "The role's name (`authNm`).", func(r *userRoleItem) string { return r.Name }),
}

// rolesOf is the user's roles, sorted by id.
func (u *userObject) rolesOf() []userRoleItem {
	ids := slices.Sorted(slices.Values(u.Roles))
	out := make([]userRoleItem, 0, len(ids))
	for _, id := range slices.Compact(ids) {
		out = append(out, userRoleItem{RoleID: id, Name: u.roleNames[id]})
	}
	return out
}

// userPassword is the user's password, a secret input changed in place.
var userPassword = secret{
	name: "password", what: "the user's password",
	change: "Changing it sets the new password in place.",
	rules:  []validator.String{passwordPolicyValidator{}},
}

var userFields = append([]field[userObject]{
	stringField("id", "The user's id, the same as `user_id`; refer to a user by it, as in `user_id = apm_user.example.id`.",
		func(u *userObject) string { return u.UserID }).in(inResource).derivedFrom(joined("user_id")),
	stringField("user_id", "The user's login id (`usrId`): 1 to 32 letters, digits, `.`, `-` or `_`.",
		func(u *userObject) string { return u.UserID }).replacing().validate(adminIDValidators()...),
	stringField("user_name", "The user's display name (`usrNm`), 1 to 100 characters.",
		func(u *userObject) string { return u.UserName }).input().validate(displayNameValidators()...),
	stringField("created_at", "The day the user was created, `yyyy-MM-dd`, in the manager's time zone.",
		func(u *userObject) string { return u.CreatedAt.Raw }).in(inDetail),
	listField("roles", "The roles granted to the user, sorted by id.", userRoleItemFields, (*userObject).rolesOf).in(observed),
}, secretFields[userObject](userPassword)...)

var userType = resourceType[userObject]{
	name: "user",
	description: "A user of the manager. Changing `user_name` or the password is done in place; changing `user_id` replaces the user. " +
		"The password must have 8 to 128 characters with at least one letter, one digit and one special character; the manager never reports it, " +
		"so give it as the write-only `password_wo` where the CLI supports it (Terraform 1.11 or later, OpenTofu), which keeps it out of plan and state, " +
		"and change `password_wo_version` to set a new one. Roles are granted with `apm_user_role`; deleting a user removes its grants.",
	fields:     userFields,
	importID:   importID{parts: []idPart{{attr: "user_id", form: "<user_id>"}}, example: "alice"},
	describe:   func(a attrs) string { return fmt.Sprintf("user %q", a.str("user_id")) },
	validators: userPassword.validators(),
	create: func(ctx context.Context, m *manager, plan attrs) error {
		return m.CreateUser(ctx, apm.UserSpec{UserID: plan.str("user_id"), UserName: plan.str("user_name"), Password: userPassword.value(plan)})
	},
	read: readUser,
	update: func(ctx context.Context, m *manager, plan, state attrs) error {
		upd := apm.UserUpdate{UserName: plan.str("user_name")}
		if passwordChanged(plan, state) {
			upd.Password = userPassword.value(plan)
		}
		return m.ModifyUser(ctx, state.str("user_id"), upd)
	},
	delete: func(ctx context.Context, m *manager, state attrs) error {
		return m.DeleteUser(ctx, state.str("user_id"))
	},
}

// passwordChanged tells whether an update must send the password: its version or its
// sensitive value changed (the write-only value is never in state to compare).
func passwordChanged(plan, state attrs) bool {
	return !plan[userPassword.version()].Equal(state[userPassword.version()]) || !plan[userPassword.name].Equal(state[userPassword.name])
}

func readUser(ctx context.Context, m *manager, a attrs) (*userObject, error) {
	u, err := m.GetUser(ctx, a.str("user_id"))
	if err != nil {
		return nil, err
	}
	return &userObject{User: *u}, nil
}

// passwordPolicyValidator checks the manager's password policy at plan: 8 to 128
// characters, at least one letter, one digit and one special character (anything but a
// letter, a digit or white space), no control characters. Its message lists everything
// missing, and never the value.
type passwordPolicyValidator struct{}

func (passwordPolicyValidator) Description(context.Context) string {
	return "must have 8 to 128 characters with at least one letter, one digit and one special character, and no control characters"
}

func (v passwordPolicyValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (passwordPolicyValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := passwordProblem(req.ConfigValue.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Password does not meet the manager's policy",
			fmt.Sprintf("%s %s (the value is not shown here). The manager requires 8 to 128 characters with at least one letter, one digit "+
				"and one special character.", req.Path, problem))
	}
}

// passwordProblem says what the password lacks, as the manager words it, or "" when it
// meets the policy. It never quotes the password.
func passwordProblem(pw string) string {
	var letter, digit, special bool
	n := 0
	for _, r := range pw {
		n++
		switch {
		case unicode.IsControl(r):
			return "must not contain control characters"
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r):
			digit = true
		case !unicode.IsSpace(r):
			special = true
		}
	}
	if n > 128 {
		return "must be at most 128 characters long"
	}
	var missing []string
	for _, m := range []struct {
		lacks bool
		what  string
	}{{!letter, "one letter"}, {!digit, "one digit"}, {!special, "one special character"}} {
		if m.lacks {
			missing = append(missing, m.what)
		}
	}
	lacking := ""
	switch len(missing) {
	case 0:
	case 1:
		lacking = missing[0]
	default:
		lacking = strings.Join(missing[:len(missing)-1], ", ") + " and " + missing[len(missing)-1]
	}
	switch {
	case n < 8 && lacking != "":
		return "must be at least 8 characters long and contain at least " + lacking
	case n < 8:
		return "must be at least 8 characters long"
	case lacking != "":
		return "must contain at least " + lacking
	}
	return ""
}

// ---- roles ----

var actionTypeValues = []string{string(apm.ActionRead), string(apm.ActionWrite), string(apm.ActionExecute)}

// actionTypesValue is a role's action types as a set of strings.
func actionTypesValue(r *apm.Role) tftypes.Value {
	items := make([]string, 0, len(r.ActionTypes))
	for _, a := range r.ActionTypes {
		items = append(items, string(a))
	}
	return stringSetValue(items)
}

const roleActionTypesDescription = "What the role allows: a non-empty set of `READ`, `WRITE` and `EXECUTE`."

var roleFields = []field[apm.Role]{
	stringField("id", "The role's id, the same as `role_id`; refer to a role by it, as in `role_id = apm_role.example.id`.",
		func(r *apm.Role) string { return r.AuthID }).in(inResource).derivedFrom(joined("role_id")),
	stringField("role_id", "The role's id (`authId`): 1 to 32 letters, digits, `.`, `-` or `_`.",
		func(r *apm.Role) string { return r.AuthID }).replacing().validate(adminIDValidators()...),
	stringField("name", "The role's name (`authNm`), 1 to 100 characters.",
		func(r *apm.Role) string { return r.AuthName }).input().validate(displayNameValidators()...),
	customField("action_types", rschema.SetAttribute{
		MarkdownDescription: roleActionTypesDescription + " An action type changed outside Terraform shows in the next plan, and apply sets it back. Updated in place.",
		ElementType:         types.StringType, Required: true,
		Validators: []validator.Set{
			setvalidator.SizeAtLeast(1),
			setvalidator.ValueStringsAre(stringvalidator.OneOf(actionTypeValues...)),
		},
	}, stringSetType, actionTypesValue).withDataAttribute(actionTypesDataAttribute),
	stringField("description", "A description of the role. Left out, it is not managed.",
		func(r *apm.Role) string { return r.Description }).in(inResource | inDetail).optionalInput(),
}

var roleType = resourceType[apm.Role]{
	name: "role",
	description: "A role of the manager: a named set of action types (`READ`, `WRITE`, `EXECUTE`) that `apm_user_role` grants to users. " +
		"Every change but `role_id` is made in place. The manager refuses to delete a role that is still granted: the delete waits " +
		"for the grants to be revoked (by `apm_user_role` resources destroyed in the same run), then names the users that still hold it.",
	fields:        roleFields,
	importID:      importID{parts: []idPart{{attr: "role_id", form: "<role_id>"}}, example: "operators"},
	deleteTimeout: 2 * time.Minute,
	describe:      func(a attrs) string { return fmt.Sprintf("role %q", a.str("role_id")) },
	create: func(ctx context.Context, m *manager, plan attrs) error {
		return m.CreateRole(ctx, apm.RoleSpec{AuthID: plan.str("role_id"), AuthName: plan.str("name"),
			ActionTypes: actionTypesOf(plan), Description: plan.str("description")})
	},
	read: func(ctx context.Context, m *manager, a attrs) (*apm.Role, error) {
		return m.GetRole(ctx, a.str("role_id"))
	},
	update: func(ctx context.Context, m *manager, plan, state attrs) error {
		upd := apm.RoleUpdate{AuthName: plan.str("name"), ActionTypes: actionTypesOf(plan)}
		switch {
		case plan.known("description"):
			d := plan.str("description")
			upd.Description = &d
		case state.known("description"):
			// Left out now: the description set by Terraform is cleared.
			upd.Description = new(string)
		}
		return m.ModifyRole(ctx, state.str("role_id"), upd)
	},
	delete: func(ctx context.Context, m *manager, state attrs) error {
		return m.DeleteRole(ctx, state.str("role_id"))
	},
	blockers: roleHolders,
}

// actionTypesOf is the action types a plan declares, in the manager's order.
func actionTypesOf(a attrs) []apm.ActionType {
	have := stringsOf(a["action_types"])
	out := make([]apm.ActionType, 0, len(have))
	for _, v := range actionTypeValues {
		if slices.Contains(have, v) {
			out = append(out, apm.ActionType(v))
		}
	}
	return out
}

// roleHolders names the users that hold the role.
func roleHolders(ctx context.Context, m *manager, state attrs) ([]string, error) {
	users, err := m.ListUsers(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, u := range users {
		if slices.Contains(u.Roles, state.str("role_id")) {
			names = append(names, fmt.Sprintf("user %q", u.UserID))
		}
	}
	slices.Sort(names)
	return names, nil
}

// ---- grants ----

// userGrant is one role granted to one user.
type userGrant struct{ UserID, RoleID string }

var userRoleFields = []field[userGrant]{
	stringField("id", "`<user_id>/<role_id>`.", func(g *userGrant) string { return g.UserID + "/" + g.RoleID }).
		in(inResource).derivedFrom(joined("user_id", "role_id")),
	stringField("user_id", "The `user_id` of the user, such as `apm_user.example.id`.",
		func(g *userGrant) string { return g.UserID }).in(inResource).replacing().validate(adminIDValidators()...),
	stringField("role_id", "The `role_id` of the role, such as `apm_role.example.id`.",
		func(g *userGrant) string { return g.RoleID }).in(inResource).replacing().validate(adminIDValidators()...),
}

var userRoleType = resourceType[userGrant]{
	name: "user_role",
	noun: "grant",
	description: "One role granted to one user. Creating it grants the role, destroying it revokes it; other roles of the user, granted outside Terraform " +
		"or by other `apm_user_role` resources, are left alone. A grant revoked outside Terraform is granted again by the next apply.",
	fields: userRoleFields,
	importID: importID{parts: []idPart{{attr: "user_id", form: "<user_id>"}, {attr: "role_id", form: "<role_id>"}},
		example: "alice/operators"},
	idempotentCreate: true,
	describe: func(a attrs) string {
		return fmt.Sprintf("grant of role %q to user %q", a.str("role_id"), a.str("user_id"))
	},
	create: func(ctx context.Context, m *manager, plan attrs) error {
		return m.GrantRole(ctx, plan.str("user_id"), plan.str("role_id"))
	},
	read:   readGrant,
	update: func(context.Context, *manager, attrs, attrs) error { return nil }, // every input replaces
	delete: func(ctx context.Context, m *manager, state attrs) error {
		err := m.RevokeRole(ctx, state.str("user_id"), state.str("role_id"))
		if err != nil && !isGone(err) && apm.HasStatus(err, 404) {
			// The role may be gone, and its grants with it.
			if _, rerr := m.GetRole(ctx, state.str("role_id")); apm.IsNotFound(rerr) {
				return nil
			}
		}
		return err
	},
}

// readGrant reads the user's roles: the grant is gone when the role is not among them
// (or the user is gone).
func readGrant(ctx context.Context, m *manager, a attrs) (*userGrant, error) {
	roles, err := m.ListUserRoles(ctx, a.str("user_id"))
	if err != nil {
		return nil, err
	}
	g := &userGrant{UserID: a.str("user_id"), RoleID: a.str("role_id")}
	if !slices.ContainsFunc(roles, func(r apm.UserRole) bool { return r.AuthID == g.RoleID }) {
		return nil, fmt.Errorf("user %q does not hold role %q: %w", g.UserID, g.RoleID, errGone)
	}
	return g, nil
}

// ---- data sources ----

var newUserDataSource = NewDataSource(dataSourceType[userObject]{
	name:        "user",
	description: "Reads one user by `user_id`, with its roles. The manager never reports a password. Fails when the user does not exist.",
	fields:      userFields,
	keys:        []string{"user_id"},
	read: func(ctx context.Context, m *manager, config attrs) (*userObject, error) {
		u, err := readUser(ctx, m, config)
		if err != nil {
			return nil, err
		}
		roles, err := m.ListUserRoles(ctx, u.UserID)
		if err != nil {
			return nil, err
		}
		u.roleNames = map[string]string{}
		for _, r := range roles {
			u.roleNames[r.AuthID] = r.AuthName
			if !slices.Contains(u.Roles, r.AuthID) {
				u.Roles = append(u.Roles, r.AuthID)
			}
		}
		return u, nil
	},
})

var newUsersDataSource = NewListDataSource(listDataSourceType[userObject]{
	name:        "users",
	description: "Lists every user of the manager, sorted by `user_id`, with their roles. The manager never reports a password.",
	listName:    "users",
	listDesc:    "The users.",
	fields:      userFields,
	list: func(ctx context.Context, m *manager, _ attrs) ([]userObject, error) {
		users, err := m.ListUsers(ctx)
		if err != nil {
			return nil, err
		}
		roles, err := m.ListRoles(ctx)
		if err != nil {
			return nil, err
		}
		names := map[string]string{}
		for _, r := range roles {
			names[r.AuthID] = r.AuthName
		}
		out := make([]userObject, 0, len(users))
		for _, u := range users {
			out = append(out, userObject{User: u, roleNames: names})
		}
		slices.SortFunc(out, func(a, b userObject) int { return strings.Compare(a.UserID, b.UserID) })
		return out, nil
	},
})

var actionTypesDataAttribute = dschema.SetAttribute{MarkdownDescription: roleActionTypesDescription, ElementType: types.StringType, Computed: true}

var newRoleDataSource = NewDataSource(dataSourceType[apm.Role]{
	name:        "role",
	description: "Reads one role by `role_id`. Fails when the role does not exist.",
	fields:      roleFields,
	keys:        []string{"role_id"},
	read: func(ctx context.Context, m *manager, config attrs) (*apm.Role, error) {
		return m.GetRole(ctx, config.str("role_id"))
	},
})

var newRolesDataSource = NewListDataSource(listDataSourceType[apm.Role]{
	name:        "roles",
	description: "Lists every role of the manager, sorted by `role_id`, with its action types.",
	listName:    "roles",
	listDesc:    "The roles.",
	fields:      roleFields,
	list: func(ctx context.Context, m *manager, _ attrs) ([]apm.Role, error) {
		roles, err := m.ListRoles(ctx)
		slices.SortFunc(roles, func(a, b apm.Role) int { return strings.Compare(a.AuthID, b.AuthID) })
		return roles, err
	},
})
