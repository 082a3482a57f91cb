package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Administration: the manager's users (by usrId), roles (by authId) and the grants
// between them. A user's password is a secret input: the manager keeps only a
// fingerprint of it and never reports it, so state keeps what was applied (nothing, for
// the write-only form). A role still granted cannot be deleted: its delete waits for the
// grants to go, then names the users that still hold it.

// userObject is a user with the names of its roles, where a read looked them up.
type userObject struct {
	apm.User
	roleNames map[string]string
}

// userRoleItem is one role of a user, in data sources.
type userRoleItem struct{ RoleID, Name string }

var userRoleItemFields = []engine.Field[userRoleItem]{
	engine.StringField(attrRoleID, "The role's `authId`.", func(r *userRoleItem) string { return r.RoleID }),
	engine.StringField(attrName, "The role's name (`authNm`).", func(r *userRoleItem) string { return r.Name }),
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
	Name: "password", Title: "password", What: "the user's password",
	Change: "Changing it sets the new password in place.",
	Rules:  []validator.String{passwordPolicyValidator()},
}

var userFields = append([]engine.Field[userObject]{
	engine.StringField(attrID, "The user's id, the same as `user_id`; refer to a user by it, as in `user_id = apm_user.example.id`.",
		func(u *userObject) string { return u.UserID }).In(engine.InResource).DerivedFrom(engine.Joined(attrUserID)),
	engine.StringField(attrUserID, "The user's login id (`usrId`): 1 to 32 letters, digits, `.`, `-` or `_`.",
		func(u *userObject) string { return u.UserID }).Replacing().Validate(adminIDValidators()...),
	engine.StringField(attrUserName, "The user's display name (`usrNm`), 1 to 100 characters.",
		func(u *userObject) string { return u.UserName }).Input().Validate(displayNameValidators()...),
	engine.StringField(attrCreatedAt, "The day the user was created, `yyyy-MM-dd`, in the manager's time zone.",
		func(u *userObject) string { return u.CreatedAt.Raw }).In(engine.InDetail),
	engine.ListField("roles", "The roles granted to the user, sorted by id.", userRoleItemFields, (*userObject).rolesOf).In(engine.Observed),
}, engine.SecretFields[userObject](userPassword)...)

func describeUser(a engine.Attrs) string { return fmt.Sprintf("user %q", a.Str(attrUserID)) }

var userType = resourceType[userObject]{
	Name: "user",
	Description: "A user of the manager. Changing `user_name` or the password is done in place; changing `user_id` replaces the user. " +
		"The password must have 8 to 128 characters with at least one letter, one digit and one special character; the manager never reports it, " +
		"so give it as the write-only `password_wo` where the CLI supports it (Terraform 1.11 or later, OpenTofu), which keeps it out of plan and state, " +
		"and change `password_wo_version` to set a new one. Roles are granted with `apm_user_role`; deleting a user removes its grants.",
	Fields:     userFields,
	ImportID:   importID{Parts: []idPart{{Attr: attrUserID, Form: "<user_id>"}}, Example: "alice"},
	REST:       &engine.RESTObject{Path: "/rest/admin/user/{usrId}", ImportID: "{usrId}", Lists: []string{"/rest/admin/users"}},
	Describe:   describeUser,
	Validators: userPassword.Validators(describeUser),
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.CreateUser(ctx, apm.UserSpec{UserID: plan.Str(attrUserID), UserName: plan.Str(attrUserName), Password: userPassword.Value(plan)})
	},
	Read: readUser,
	Update: func(ctx context.Context, c *conn, plan, state engine.Attrs) error {
		upd := apm.UserUpdate{UserName: plan.Str(attrUserName)}
		if passwordChanged(plan, state) {
			upd.Password = userPassword.Value(plan)
		}
		return c.ModifyUser(ctx, state.Str(attrUserID), upd)
	},
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		return c.DeleteUser(ctx, state.Str(attrUserID))
	},
}

// passwordChanged tells whether an update must send the password: its version or its
// sensitive value changed (the write-only value is never in state to compare).
func passwordChanged(plan, state engine.Attrs) bool {
	return !plan[userPassword.Version()].Equal(state[userPassword.Version()]) || !plan[userPassword.Name].Equal(state[userPassword.Name])
}

func readUser(ctx context.Context, c *conn, a engine.Attrs) (*userObject, error) {
	u, err := c.GetUser(ctx, a.Str(attrUserID))
	if err != nil {
		return nil, err
	}
	return &userObject{User: *u}, nil
}

// passwordPolicyValidator checks the manager's password policy at plan: 8 to 128
// characters, at least one letter, one digit and one special character (anything but a
// letter, a digit or white space), no control characters. Its message lists everything
// missing, and never the value.
func passwordPolicyValidator() validator.String {
	return engine.StringCheck("must have 8 to 128 characters with at least one letter, one digit and one special character, and no control characters",
		func(attr path.Path, pw string) (string, string) {
			if problem := passwordProblem(pw); problem != "" {
				return "Password does not meet the manager's policy",
					fmt.Sprintf("%s %s (the value is not shown here). The manager requires 8 to 128 characters with at least one letter, one digit "+
						"and one special character.", attr, problem)
			}
			return "", ""
		})
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

var newUserDataSource = engine.NewDataSource(dataSourceType[userObject]{
	Name:        "user",
	Description: "Reads one user by `user_id`, with its roles. The manager never reports a password.",
	Fields:      userFields,
	Keys:        []string{attrUserID},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*userObject, error) {
		u, err := readUser(ctx, c, config)
		if err != nil {
			return nil, err
		}
		roles, err := c.ListUserRoles(ctx, u.UserID)
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
	SortBy:          func(u *userObject) string { return u.UserID },
	List: func(ctx context.Context, c *conn, _ engine.Attrs) ([]userObject, error) {
		users, err := c.ListUsers(ctx)
		if err != nil {
			return nil, err
		}
		roles, err := c.ListRoles(ctx)
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
		return out, nil
	},
	Imports: userType.Target(),
})
