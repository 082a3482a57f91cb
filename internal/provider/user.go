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
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Administration: the manager's users (by usrId), roles (by authId) and the grants
// between them. A user's password is a secret input: the manager keeps only a
// fingerprint of it and never reports it, so state keeps what was applied (nothing, for
// the write-only form). A role still granted cannot be deleted: its delete waits for the
// grants to go, then names the users that still hold it.

func userResources() []func() resource.Resource {
	return []func() resource.Resource{engine.NewResource(userType), engine.NewResource(roleType), engine.NewResource(userRoleType)}
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

var userRoleItemFields = []engine.Field[userRoleItem]{
	engine.StringField("role_id", "The role's `authId`.", func(r *userRoleItem) string { return r.RoleID }),
	engine.StringField("name", "The role's name (`authNm`).", func(r *userRoleItem) string { return r.Name }),
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
var userPassword = engine.Secret{
	Name: "password", What: "the user's password",
	Change: "Changing it sets the new password in place.",
	Rules:  []validator.String{passwordPolicyValidator{}},
}

var userFields = append([]engine.Field[userObject]{
	engine.StringField("id", "The user's id, the same as `user_id`; refer to a user by it, as in `user_id = apm_user.example.id`.",
		func(u *userObject) string { return u.UserID }).In(engine.InResource).DerivedFrom(engine.Joined("user_id")),
	engine.StringField("user_id", "The user's login id (`usrId`): 1 to 32 letters, digits, `.`, `-` or `_`.",
		func(u *userObject) string { return u.UserID }).Replacing().Validate(adminIDValidators()...),
	engine.StringField("user_name", "The user's display name (`usrNm`), 1 to 100 characters.",
		func(u *userObject) string { return u.UserName }).Input().Validate(displayNameValidators()...),
	engine.StringField("created_at", "The day the user was created, `yyyy-MM-dd`, in the manager's time zone.",
		func(u *userObject) string { return u.CreatedAt.Raw }).In(engine.InDetail),
	engine.ListField("roles", "The roles granted to the user, sorted by id.", userRoleItemFields, (*userObject).rolesOf).In(engine.Observed),
}, engine.SecretFields[userObject](userPassword)...)

var userType = resourceType[userObject]{
	Name: "user",
	Description: "A user of the manager. Changing `user_name` or the password is done in place; changing `user_id` replaces the user. " +
		"The password must have 8 to 128 characters with at least one letter, one digit and one special character; the manager never reports it, " +
		"so give it as the write-only `password_wo` where the CLI supports it (Terraform 1.11 or later, OpenTofu), which keeps it out of plan and state, " +
		"and change `password_wo_version` to set a new one. Roles are granted with `apm_user_role`; deleting a user removes its grants.",
	Fields:     userFields,
	ImportID:   importID{Parts: []idPart{{Attr: "user_id", Form: "<user_id>"}}, Example: "alice"},
	Describe:   func(a engine.Attrs) string { return fmt.Sprintf("user %q", a.Str("user_id")) },
	Validators: userPassword.Validators(),
	Create: func(ctx context.Context, m *conn, plan engine.Attrs) error {
		return m.CreateUser(ctx, apm.UserSpec{UserID: plan.Str("user_id"), UserName: plan.Str("user_name"), Password: userPassword.Value(plan)})
	},
	Read: readUser,
	Update: func(ctx context.Context, m *conn, plan, state engine.Attrs) error {
		upd := apm.UserUpdate{UserName: plan.Str("user_name")}
		if passwordChanged(plan, state) {
			upd.Password = userPassword.Value(plan)
		}
		return m.ModifyUser(ctx, state.Str("user_id"), upd)
	},
	Delete: func(ctx context.Context, m *conn, state engine.Attrs) error {
		return m.DeleteUser(ctx, state.Str("user_id"))
	},
}

// passwordChanged tells whether an update must send the password: its version or its
// sensitive value changed (the write-only value is never in state to compare).
func passwordChanged(plan, state engine.Attrs) bool {
	return !plan[userPassword.Version()].Equal(state[userPassword.Version()]) || !plan[userPassword.Name].Equal(state[userPassword.Name])
}

func readUser(ctx context.Context, m *conn, a engine.Attrs) (*userObject, error) {
	u, err := m.GetUser(ctx, a.Str("user_id"))
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

var roleFields = []engine.Field[apm.Role]{
	engine.StringField("id", "The role's id, the same as `role_id`; refer to a role by it, as in `role_id = apm_role.example.id`.",
		func(r *apm.Role) string { return r.AuthID }).In(engine.InResource).DerivedFrom(engine.Joined("role_id")),
	engine.StringField("role_id", "The role's id (`authId`): 1 to 32 letters, digits, `.`, `-` or `_`.",
		func(r *apm.Role) string { return r.AuthID }).Replacing().Validate(adminIDValidators()...),
	engine.StringField("name", "The role's name (`authNm`), 1 to 100 characters.",
		func(r *apm.Role) string { return r.AuthName }).Input().Validate(displayNameValidators()...),
	engine.CustomField("action_types", rschema.SetAttribute{
		MarkdownDescription: roleActionTypesDescription + " An action type changed outside Terraform shows in the next plan, and apply sets it back. Updated in place.",
		ElementType:         types.StringType, Required: true,
		Validators: []validator.Set{
			setvalidator.SizeAtLeast(1),
			setvalidator.ValueStringsAre(stringvalidator.OneOf(actionTypeValues...)),
		},
	}, stringSetType, actionTypesValue).WithDataAttribute(actionTypesDataAttribute),
	engine.StringField("description", "A description of the role. Left out, it is not managed.",
		func(r *apm.Role) string { return r.Description }).In(engine.InResource | engine.InDetail).OptionalInput(),
}

var roleType = resourceType[apm.Role]{
	Name: "role",
	Description: "A role of the manager: a named set of action types (`READ`, `WRITE`, `EXECUTE`) that `apm_user_role` grants to users. " +
		"Every change but `role_id` is made in place. The manager refuses to delete a role that is still granted: the delete waits " +
		"for the grants to be revoked (by `apm_user_role` resources destroyed in the same run), then names the users that still hold it.",
	Fields:        roleFields,
	ImportID:      importID{Parts: []idPart{{Attr: "role_id", Form: "<role_id>"}}, Example: "operators"},
	DeleteTimeout: 2 * time.Minute,
	Describe:      func(a engine.Attrs) string { return fmt.Sprintf("role %q", a.Str("role_id")) },
	Create: func(ctx context.Context, m *conn, plan engine.Attrs) error {
		return m.CreateRole(ctx, apm.RoleSpec{AuthID: plan.Str("role_id"), AuthName: plan.Str("name"),
			ActionTypes: actionTypesOf(plan), Description: plan.Str("description")})
	},
	Read: func(ctx context.Context, m *conn, a engine.Attrs) (*apm.Role, error) {
		return m.GetRole(ctx, a.Str("role_id"))
	},
	Update: func(ctx context.Context, m *conn, plan, state engine.Attrs) error {
		upd := apm.RoleUpdate{AuthName: plan.Str("name"), ActionTypes: actionTypesOf(plan)}
		switch {
		case plan.Known("description"):
			d := plan.Str("description")
			upd.Description = &d
		case state.Known("description"):
			// Left out now: the description set by Terraform is cleared.
			upd.Description = new(string)
		}
		return m.ModifyRole(ctx, state.Str("role_id"), upd)
	},
	Delete: func(ctx context.Context, m *conn, state engine.Attrs) error {
		return m.DeleteRole(ctx, state.Str("role_id"))
	},
	Blockers: roleHolders,
}

// actionTypesOf is the action types a plan declares, in the manager's order.
func actionTypesOf(a engine.Attrs) []apm.ActionType {
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
func roleHolders(ctx context.Context, m *conn, state engine.Attrs) ([]string, error) {
	users, err := m.ListUsers(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, u := range users {
		if slices.Contains(u.Roles, state.Str("role_id")) {
			names = append(names, fmt.Sprintf("user %q", u.UserID))
		}
	}
	slices.Sort(names)
	return names, nil
}

// ---- grants ----

// userGrant is one role granted to one user.
type userGrant struct{ UserID, RoleID string }

var userRoleFields = []engine.Field[userGrant]{
	engine.StringField("id", "`<user_id>/<role_id>`.", func(g *userGrant) string { return g.UserID + "/" + g.RoleID }).
		In(engine.InResource).DerivedFrom(engine.Joined("user_id", "role_id")),
	engine.StringField("user_id", "The `user_id` of the user, such as `apm_user.example.id`.",
		func(g *userGrant) string { return g.UserID }).In(engine.InResource).Replacing().Validate(adminIDValidators()...),
	engine.StringField("role_id", "The `role_id` of the role, such as `apm_role.example.id`.",
		func(g *userGrant) string { return g.RoleID }).In(engine.InResource).Replacing().Validate(adminIDValidators()...),
}

var userRoleType = resourceType[userGrant]{
	Name: "user_role",
	Noun: "grant",
	Description: "One role granted to one user. Creating it grants the role, destroying it revokes it; other roles of the user, granted outside Terraform " +
		"or by other `apm_user_role` resources, are left alone. A grant revoked outside Terraform is granted again by the next apply.",
	Fields: userRoleFields,
	ImportID: importID{Parts: []idPart{{Attr: "user_id", Form: "<user_id>"}, {Attr: "role_id", Form: "<role_id>"}},
		Example: "alice/operators"},
	IdempotentCreate: true,
	Describe: func(a engine.Attrs) string {
		return fmt.Sprintf("grant of role %q to user %q", a.Str("role_id"), a.Str("user_id"))
	},
	Create: func(ctx context.Context, m *conn, plan engine.Attrs) error {
		return m.GrantRole(ctx, plan.Str("user_id"), plan.Str("role_id"))
	},
	Read:   readGrant,
	Update: func(context.Context, *conn, engine.Attrs, engine.Attrs) error { return nil }, // every input replaces
	Delete: func(ctx context.Context, m *conn, state engine.Attrs) error {
		err := m.RevokeRole(ctx, state.Str("user_id"), state.Str("role_id"))
		if err != nil && !engine.IsGone(err) && apm.HasStatus(err, 404) {
			// The role may be gone, and its grants with it.
			if _, rerr := m.GetRole(ctx, state.Str("role_id")); apm.IsNotFound(rerr) {
				return nil
			}
		}
		return err
	},
}

// readGrant reads the user's roles: the grant is gone when the role is not among them
// (or the user is gone).
func readGrant(ctx context.Context, m *conn, a engine.Attrs) (*userGrant, error) {
	roles, err := m.ListUserRoles(ctx, a.Str("user_id"))
	if err != nil {
		return nil, err
	}
	g := &userGrant{UserID: a.Str("user_id"), RoleID: a.Str("role_id")}
	if !slices.ContainsFunc(roles, func(r apm.UserRole) bool { return r.AuthID == g.RoleID }) {
		return nil, fmt.Errorf("user %q does not hold role %q: %w", g.UserID, g.RoleID, engine.ErrGone)
	}
	return g, nil
}

// ---- data sources ----

var newUserDataSource = engine.NewDataSource(dataSourceType[userObject]{
	Name:        "user",
	Description: "Reads one user by `user_id`, with its roles. The manager never reports a password. Fails when the user does not exist.",
	Fields:      userFields,
	Keys:        []string{"user_id"},
	Read: func(ctx context.Context, m *conn, config engine.Attrs) (*userObject, error) {
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

var newUsersDataSource = engine.NewListDataSource(listDataSourceType[userObject]{
	Name:            "users",
	Description:     "Lists every user of the manager, sorted by `user_id`, with their roles. The manager never reports a password.",
	ListName:        "users",
	ListDescription: "The users.",
	Fields:          userFields,
	List: func(ctx context.Context, m *conn, _ engine.Attrs) ([]userObject, error) {
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

var newRoleDataSource = engine.NewDataSource(dataSourceType[apm.Role]{
	Name:        "role",
	Description: "Reads one role by `role_id`. Fails when the role does not exist.",
	Fields:      roleFields,
	Keys:        []string{"role_id"},
	Read: func(ctx context.Context, m *conn, config engine.Attrs) (*apm.Role, error) {
		return m.GetRole(ctx, config.Str("role_id"))
	},
})

var newRolesDataSource = engine.NewListDataSource(listDataSourceType[apm.Role]{
	Name:            "roles",
	Description:     "Lists every role of the manager, sorted by `role_id`, with its action types.",
	ListName:        "roles",
	ListDescription: "The roles.",
	Fields:          roleFields,
	List: func(ctx context.Context, m *conn, _ engine.Attrs) ([]apm.Role, error) {
		roles, err := m.ListRoles(ctx)
		slices.SortFunc(roles, func(a, b apm.Role) int { return strings.Compare(a.AuthID, b.AuthID) })
		return roles, err
	},
})
