package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Resource identity (Terraform and OpenTofu 1.12 and later): the object's identifying
// attributes, stored beside its state, which an import block may give instead of an
// import ID. A type declares nothing for it: the identity is made of the attributes its
// import ID fills (ImportID.Parts), each under the attribute's own name and with the
// value the state holds, such as {system_id = "SYS-0001", name = "web-01"} for a node.
// These are the values an import ID resolves to (a system's id, never its name, which a
// rename changes), and every one of them is fixed for the object's life: a change
// replaces the object (Parity checks it), so the identity never changes.
//
// The engine fills the identity after every create, read, update and import from the
// state they leave, the way one interceptor does it for every resource of
// terraform-provider-aws; the types' calls never see it. A state written before the
// provider had identities gets its identity on the next refresh, with no change planned.
// CLIs before 1.12 never ask for identities and ignore them.

var _ resource.ResourceWithIdentity = (*Resource[struct{}, struct{}])(nil)

// IdentitySchema is the identity the type's import ID makes.
func (r *Resource[T, C]) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchemaOf(r.Type.ImportID, r.Type.Fields)
}

// identitySchemaOf is one string attribute per part of the import ID, required for an
// import by identity (no part can be left out of an import ID either), described as its
// field.
func identitySchemaOf[T, C any](id ImportID[C], fields []Field[T]) identityschema.Schema {
	attributes := make(map[string]identityschema.Attribute, len(id.Parts))
	for _, p := range id.Parts {
		description := ""
		if i := slices.IndexFunc(fields, func(f Field[T]) bool { return f.name == p.Attr }); i >= 0 {
			description = fields[i].description
		}
		attributes[p.Attr] = identityschema.StringAttribute{RequiredForImport: true, Description: description}
	}
	return identityschema.Schema{Attributes: attributes}
}

// identify sets identity from the first of states that holds an object: what a create,
// read, update or import leaves, and for a read that found the object gone, the state it
// had (a state written before identities has none, and the framework requires one after
// every successful read). It leaves identity as it is when no state holds every part.
// identity is nil where the framework passes none.
func (r *Resource[T, C]) identify(ctx context.Context, identity *tfsdk.ResourceIdentity, states ...*tftypes.Value) {
	if identity == nil {
		return
	}
	for _, state := range states {
		if state.IsNull() {
			continue
		}
		values, ok := r.Type.ImportID.identityValues(*state)
		if !ok {
			return
		}
		typ := identity.Schema.Type().TerraformType(ctx)
		identity.Raw = tftypes.NewValue(typ, values)
		return
	}
}

// identityValues are the identity's attributes in a state, ok only when each is a known
// string.
func (id ImportID[C]) identityValues(state tftypes.Value) (map[string]tftypes.Value, bool) {
	a, err := AttrsOf(state)
	if err != nil || len(id.missing(a)) > 0 {
		return nil, false
	}
	values := make(map[string]tftypes.Value, len(id.Parts))
	for _, p := range id.Parts {
		values[p.Attr] = a[p.Attr]
	}
	return values, true
}

// missing names the identity's attributes that a holds no string for.
func (id ImportID[C]) missing(a Attrs) []string {
	var out []string
	for _, p := range id.Parts {
		if _, ok := StringOf(a[p.Attr]); !ok {
			out = append(out, p.Attr)
		}
	}
	return out
}

// importedBy is what an import names, part by part as Parse returns them, and how
// diagnostics call it: the import ID, or for an import block with an identity the
// import ID it stands for.
func (r *Resource[T, C]) importedBy(req resource.ImportStateRequest, diags *diag.Diagnostics) (pieces []string, label string, ok bool) {
	if req.ID == "" && req.Identity != nil && !req.Identity.Raw.IsNull() {
		pieces, err := r.Type.ImportID.fromIdentity(req.Identity.Raw)
		if err != nil {
			diags.AddError("Invalid import identity for apm_"+r.Type.Name, err.Error())
			return nil, "", false
		}
		return pieces, strings.Join(pieces, "/"), true
	}
	pieces, err := r.Type.ImportID.Parse(req.ID)
	if err != nil {
		diags.AddError("Invalid import ID for apm_"+r.Type.Name, "Expected "+strings.TrimPrefix(err.Error(), "expected "))
		return nil, "", false
	}
	return pieces, req.ID, true
}

// fromIdentity reads the parts of an import from the identity of an import block: each
// attribute is one part, in the form it takes in the import ID.
func (id ImportID[C]) fromIdentity(identity tftypes.Value) ([]string, error) {
	a, err := AttrsOf(identity)
	if err != nil {
		return nil, fmt.Errorf("the identity is not an object of the identity's attributes: %w", err)
	}
	pieces := make([]string, len(id.Parts))
	for i, p := range id.Parts {
		v, _ := StringOf(a[p.Attr])
		if err := p.check(v); err != nil {
			return nil, err
		}
		pieces[i] = v
	}
	return pieces, nil
}

// check reports whether v can stand for the part: as many non-empty "/"-separated pieces
// as the part spans (at least as many for the last, rest part).
func (p IDPart[C]) check(v string) error {
	n, limit := max(p.Pieces, 1), -1
	if p.Rest {
		limit = n
	}
	pieces := strings.SplitN(v, "/", limit)
	if len(pieces) == n && !slices.Contains(pieces, "") {
		return nil
	}
	accepts := ""
	if p.Accepts != "" {
		accepts = fmt.Sprintf(", where %s is %s", p.Form, p.Accepts)
	}
	return fmt.Errorf("identity attribute %s must be %s%s; got %q. Give the value the attribute %s has in the state of the object, "+
		"such as a reference to it, or import by the import ID instead", p.Attr, p.Form, accepts, v, p.Attr)
}

// identityParity checks that the import ID makes an identity: each part fills a string
// attribute of the resource that no update changes (the framework refuses an identity
// that changes, and an object that keeps its identity must keep these values).
func identityParity[T, C any](id ImportID[C], fields []Field[T]) error {
	for _, p := range id.Parts {
		i := slices.IndexFunc(fields, func(f Field[T]) bool { return f.name == p.Attr })
		switch {
		case i < 0 || fields[i].views&InResource == 0:
			return fmt.Errorf("the import ID part %s names %s, which is no attribute", p.Form, p.Attr)
		case fields[i].kind != kindString:
			return fmt.Errorf("the import ID part %s names %s, which is not a string: identity attributes are strings", p.Form, p.Attr)
		case fields[i].role == roleInPlace:
			return fmt.Errorf("the import ID part %s names %s, which an update changes in place: the object's identity would change", p.Form, p.Attr)
		}
	}
	return nil
}
