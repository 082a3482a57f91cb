package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// What tests and tools may ask of a declared resource type.

// Parity checks the type's declaration against the schema the framework serves: every
// field once, of the schema's type, and an import ID made of attributes.
func (r *Resource[T, C]) Parity(ctx context.Context) (err error) {
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	typ := objectTypeOf(ctx, resp.Schema)
	seen := map[string]bool{}
	for _, f := range r.Type.Fields {
		if seen[f.name] {
			return fmt.Errorf("field %s is declared twice", f.name)
		}
		seen[f.name] = true
		at, inSchema := typ.AttributeTypes[f.name]
		if inSchema != (f.views&InResource != 0) {
			return fmt.Errorf("field %s: in schema %v, in the resource view %v", f.name, inSchema, f.views&InResource != 0)
		}
		if inSchema && !at.Equal(f.typ) {
			return fmt.Errorf("field %s is a %s, the schema says %s", f.name, f.typ, at)
		}
	}
	for _, p := range r.Type.ImportID.Parts {
		for _, name := range []string{p.Attr, p.FromPlan} {
			if _, ok := typ.AttributeTypes[name]; name != "" && !ok {
				return fmt.Errorf("the import ID part %s names %s, which is no attribute", p.Form, name)
			}
		}
	}
	if err := identityParity(r.Type.ImportID, r.Type.Fields); err != nil {
		return err
	}
	if len(r.Type.ImportID.Parts) == 0 || r.Type.ImportID.Example == "" {
		return errors.New("the type declares no import ID with an example")
	}
	for name := range typ.AttributeTypes {
		if !seen[name] && name != "timeouts" {
			return fmt.Errorf("attribute %s has no field", name)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("flattening does not fit the schema: %v", p)
		}
	}()
	var zero T
	Flatten(typ, r.Type.Fields, &zero, Attrs{})
	return nil
}

// TypeName is the resource type's name, such as apm_system.
func (r *Resource[T, C]) TypeName() string { return "apm_" + r.Type.Name }

// Exists runs the type's read on attributes in flatmap form (as the test harness holds
// them): whether the object they identify exists in the manager.
func (r *Resource[T, C]) Exists(ctx context.Context, m C, flat map[string]string) (bool, error) {
	state := Attrs{}
	for _, f := range r.Type.Fields {
		s, ok := flat[f.name]
		if !ok || f.views&InResource == 0 {
			continue
		}
		switch f.kind {
		case kindString:
			state[f.name] = tftypes.NewValue(tftypes.String, s)
		case kindInt64:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return false, fmt.Errorf("%s.%s = %q: %w", r.TypeName(), f.name, s, err)
			}
			state[f.name] = Int64Value(n)
		}
	}
	_, err := r.Type.Read(ctx, m, state)
	if GoneWithParent(err) {
		return false, nil
	}
	return err == nil, err
}

// CheckIdentity reports whether values, by attribute, make an identity that an import
// block can give: exactly the identity's attributes, each in the form of its part of the
// import ID.
func (r *Resource[T, C]) CheckIdentity(values map[string]string) error {
	if len(values) != len(r.Type.ImportID.Parts) {
		return fmt.Errorf("%d attributes, the identity has %d", len(values), len(r.Type.ImportID.Parts))
	}
	for _, p := range r.Type.ImportID.Parts {
		v, ok := values[p.Attr]
		if !ok {
			return fmt.Errorf("no attribute %s", p.Attr)
		}
		if err := p.check(v); err != nil {
			return err
		}
	}
	return nil
}
