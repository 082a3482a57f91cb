package provider

import (
	"context"
	"fmt"
	"slices"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

// userGrant is one role granted to one user; RoleName is the role's name where a list of
// the user's roles told it.
type userGrant struct{ UserID, RoleID, RoleName string }

var userRoleFields = []engine.Field[userGrant]{
	engine.StringField(attrID, "`<user_id>/<role_id>`.", func(g *userGrant) string { return g.UserID + "/" + g.RoleID }).
		In(engine.InResource | engine.InList).DerivedFrom(engine.Joined(attrUserID, attrRoleID)),
	engine.StringField(attrUserID, "The `user_id` of the user, such as `apm_user.example.id`.",
		func(g *userGrant) string { return g.UserID }).In(engine.InResource | engine.InList).Replacing().Validate(adminIDValidators()...),
	engine.StringField(attrRoleID, "The `role_id` of the role, such as `apm_role.example.id`.",
		func(g *userGrant) string { return g.RoleID }).In(engine.InResource | engine.InList).Replacing().Validate(adminIDValidators()...),
	engine.StringField("role_name", "The role's name (`authNm`).", func(g *userGrant) string { return g.RoleName }).In(engine.InList),
}

var userRoleType = resourceType[userGrant]{
	Name: "user_role",
	Noun: "grant",
	Description: "One role granted to one user. Creating it grants the role, destroying it revokes it; other roles of the user, granted outside Terraform " +
		"or by other `apm_user_role` resources, are left alone. A grant revoked outside Terraform is granted again by the next apply.",
	Fields:     userRoleFields,
	References: []reference{refersTo(attrUserID, userParent), refersTo(attrRoleID, roleParent)},
	ImportID: importID{Parts: []idPart{{Attr: attrUserID, Form: "<user_id>"}, {Attr: attrRoleID, Form: "<role_id>"}},
		Example: "alice/operators"},
	IdempotentCreate: true,
	// A grant that exists already is another configuration's (or nobody's yet: import it).
	ExistingIsTaken: true,
	Describe: func(a engine.Attrs) string {
		return fmt.Sprintf("grant of role %q to user %q", a.Str(attrRoleID), a.Str(attrUserID))
	},
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.GrantRole(ctx, plan.Str(attrUserID), plan.Str(attrRoleID))
	},
	Read:   readGrant,
	Update: func(context.Context, *conn, engine.Attrs, engine.Attrs) error { return nil }, // every input replaces
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		err := c.RevokeRole(ctx, state.Str(attrUserID), state.Str(attrRoleID))
		if err != nil && !engine.IsGone(err) && apm.IsNotFoundAnswer(err) {
			// The role may be gone, and its grants with it.
			if _, rerr := c.GetRole(ctx, state.Str(attrRoleID)); apm.IsNotFound(rerr) {
				return nil
			}
		}
		return err
	},
}

// readGrant reads the user's roles: the grant is gone when the role is not among them
// (or the user is gone).
func readGrant(ctx context.Context, c *conn, a engine.Attrs) (*userGrant, error) {
	userID, roleID := a.Str(attrUserID), a.Str(attrRoleID)
	grants, err := listUserRoles(ctx, c, userID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(grants, func(g userGrant) bool { return g.RoleID == roleID })
	if i < 0 {
		return nil, fmt.Errorf("user %q does not hold role %q: %w", userID, roleID, engine.ErrGone)
	}
	return &grants[i], nil
}

// listUserRoles is the roles granted to the user userID: one read of the user's roles.
func listUserRoles(ctx context.Context, c *conn, userID string) ([]userGrant, error) {
	roles, err := c.ListUserRoles(ctx, userID)
	if err != nil {
		return nil, err
	}
	grants := make([]userGrant, 0, len(roles))
	for _, r := range roles {
		grants = append(grants, userGrant{UserID: userID, RoleID: r.AuthID, RoleName: r.AuthName})
	}
	return grants, nil
}

var newUserRolesDataSource = engine.NewListDataSource(listDataSourceType[userGrant]{
	Name:            "user_roles",
	Description:     "Lists the roles granted to one user, sorted by `role_id`, each with the ID to import its grant as `apm_user_role`. A user without roles lists none.",
	ListName:        "grants",
	ListDescription: "The user's grants, one for each role.",
	Fields:          userRoleFields,
	Filters: map[string]dschema.Attribute{
		attrUserID: requiredString("The `user_id` of the user whose roles to list, such as `apm_user.example.id` or the `user_id` of an item of `apm_users`.", adminIDValidators()...),
	},
	SortBy: func(g *userGrant) string { return g.RoleID },
	List: func(ctx context.Context, c *conn, config engine.Attrs) ([]userGrant, error) {
		return listUserRoles(ctx, c, config.Str(attrUserID))
	},
	Imports: userRoleType.Target(),
})
