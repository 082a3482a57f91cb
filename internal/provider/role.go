package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

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
	engine.StringField(attrID, "The role's id, the same as `role_id`; refer to a role by it, as in `role_id = apm_role.example.id`.",
		func(r *apm.Role) string { return r.AuthID }).In(engine.InResource).DerivedFrom(engine.Joined(attrRoleID)),
	engine.StringField(attrRoleID, "The role's id (`authId`): 1 to 32 letters, digits, `.`, `-` or `_`.",
		func(r *apm.Role) string { return r.AuthID }).Replacing().Validate(adminIDValidators()...),
	engine.StringField(attrName, "The role's name (`authNm`), 1 to 100 characters.",
		func(r *apm.Role) string { return r.AuthName }).Input().Validate(displayNameValidators()...),
	engine.CustomField(attrActionTypes, rschema.SetAttribute{
		MarkdownDescription: roleActionTypesDescription + " An action type changed outside Terraform shows in the next plan, and apply sets it back. Updated in place.",
		ElementType:         types.StringType, Required: true,
		Validators: []validator.Set{
			setvalidator.SizeAtLeast(1),
			setvalidator.ValueStringsAre(stringvalidator.OneOf(actionTypeValues...)),
		},
	}, stringSetType, actionTypesValue).WithDataAttribute(actionTypesDataAttribute),
	// The manager reports a role without a description as "": null, so that an imported
	// role's generated configuration (which leaves it out) plans no change.
	engine.StringField(attrDescription, "A description of the role, not empty. Left out, it is not managed; a role without a description reads as null.",
		func(r *apm.Role) string { return r.Description }).In(engine.InResource | engine.InDetail).OptionalInput().ZeroIsNull().
		Validate(stringvalidator.LengthAtLeast(1)),
}

var roleType = resourceType[apm.Role]{
	Name: "role",
	Description: "A role of the manager: a named set of action types (`READ`, `WRITE`, `EXECUTE`) that `apm_user_role` grants to users. " +
		"Every change but `role_id` is made in place. The manager refuses to delete a role that is still granted: the delete waits " +
		"for the grants to be revoked (by `apm_user_role` resources destroyed in the same run), then names the users that still hold it.",
	Fields:        roleFields,
	ImportID:      importID{Parts: []idPart{{Attr: attrRoleID, Form: "<role_id>"}}, Example: "operators"},
	REST:          &engine.RESTObject{Path: "/rest/admin/auth/{authId}", ImportID: "{authId}"},
	DeleteTimeout: engine.DefaultDeleteTimeout,
	Describe:      func(a engine.Attrs) string { return fmt.Sprintf("role %q", a.Str(attrRoleID)) },
	Create: func(ctx context.Context, c *conn, plan engine.Attrs) error {
		return c.CreateRole(ctx, apm.RoleSpec{AuthID: plan.Str(attrRoleID), AuthName: plan.Str(attrName),
			ActionTypes: actionTypesOf(plan), Description: plan.Str(attrDescription)})
	},
	Read: func(ctx context.Context, c *conn, a engine.Attrs) (*apm.Role, error) {
		return c.GetRole(ctx, a.Str(attrRoleID))
	},
	Update: func(ctx context.Context, c *conn, plan, state engine.Attrs) error {
		upd := apm.RoleUpdate{AuthName: plan.Str(attrName), ActionTypes: actionTypesOf(plan)}
		switch {
		case plan.Known(attrDescription):
			d := plan.Str(attrDescription)
			upd.Description = &d
		case state.Known(attrDescription):
			// Left out now: the description set by Terraform is cleared.
			upd.Description = new(string)
		}
		return c.ModifyRole(ctx, state.Str(attrRoleID), upd)
	},
	Delete: func(ctx context.Context, c *conn, state engine.Attrs) error {
		return c.DeleteRole(ctx, state.Str(attrRoleID))
	},
	Blockers: roleHolders,
}

// actionTypesOf is the action types a plan declares, in the manager's order.
func actionTypesOf(a engine.Attrs) []apm.ActionType {
	have := stringsOf(a[attrActionTypes])
	out := make([]apm.ActionType, 0, len(have))
	for _, v := range actionTypeValues {
		if slices.Contains(have, v) {
			out = append(out, apm.ActionType(v))
		}
	}
	return out
}

// roleHolders names the users that hold the role.
func roleHolders(ctx context.Context, c *conn, state engine.Attrs) ([]engine.Blocker, error) {
	users, err := c.ListUsers(ctx)
	if err != nil {
		return nil, err
	}
	role := state.Str(attrRoleID)
	var held []engine.Blocker
	for _, u := range users {
		if slices.Contains(u.Roles, role) {
			// The grant holds the role; deleting the user removes its grants too.
			held = append(held, engine.HeldBy(fmt.Sprintf("user %q", u.UserID), u.UserID+"/"+role, "apm_user_role").
				AlsoReleasedBy("apm_user", u.UserID))
		}
	}
	slices.SortFunc(held, func(a, b engine.Blocker) int { return strings.Compare(a.What, b.What) })
	return held, nil
}

var actionTypesDataAttribute = dschema.SetAttribute{MarkdownDescription: roleActionTypesDescription, ElementType: types.StringType, Computed: true}

var newRoleDataSource = engine.NewDataSource(dataSourceType[apm.Role]{
	Name:        "role",
	Description: "Reads one role by `role_id`.",
	Fields:      roleFields,
	Keys:        []string{attrRoleID},
	Read: func(ctx context.Context, c *conn, config engine.Attrs) (*apm.Role, error) {
		return c.GetRole(ctx, config.Str(attrRoleID))
	},
})

var newRolesDataSource = engine.NewListDataSource(listDataSourceType[apm.Role]{
	Name:            "roles",
	Description:     "Lists every role of the manager, sorted by `role_id`, with its action types.",
	ListName:        "roles",
	ListDescription: "The roles.",
	Fields:          roleFields,
	SortBy:          func(r *apm.Role) string { return r.AuthID },
	List:            func(ctx context.Context, c *conn, _ engine.Attrs) ([]apm.Role, error) { return c.ListRoles(ctx) },
	Imports:         roleType.Target(),
})
