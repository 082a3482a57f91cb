package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// engineType is what the tests need of any registered resource type: its name, and
// whether the object a state identifies exists, asked with the type's own read call.
type engineType interface {
	typeName() string
	exists(ctx context.Context, m *manager, flat map[string]string) (bool, error)
	parity(ctx context.Context) error
}

// parity checks the type's field table against the schema the framework serves.
func (r *engineResource[T]) parity(ctx context.Context) (err error) {
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	typ := objectTypeOf(ctx, resp.Schema)
	seen := map[string]bool{}
	for _, f := range r.t.fields {
		if seen[f.name] {
			return fmt.Errorf("field %s is declared twice", f.name)
		}
		seen[f.name] = true
		at, inSchema := typ.AttributeTypes[f.name]
		if inSchema != (f.views&inResource != 0) {
			return fmt.Errorf("field %s: in schema %v, in the resource view %v", f.name, inSchema, f.views&inResource != 0)
		}
		if inSchema && !at.Equal(f.typ) {
			return fmt.Errorf("field %s is a %s, the schema says %s", f.name, f.typ, at)
		}
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
	flatten(typ, r.t.fields, &zero, attrs{})
	return nil
}

func (r *engineResource[T]) typeName() string { return "apm_" + r.t.name }

// exists runs the type's read on the attributes the test harness holds (flatmap form).
func (r *engineResource[T]) exists(ctx context.Context, m *manager, flat map[string]string) (bool, error) {
	state := attrs{}
	for _, f := range r.t.fields {
		s, ok := flat[f.name]
		if !ok || f.views&inResource == 0 {
			continue
		}
		switch f.kind {
		case kindString:
			state[f.name] = tftypes.NewValue(tftypes.String, s)
		case kindInt64:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return false, fmt.Errorf("%s.%s = %q: %w", r.typeName(), f.name, s, err)
			}
			state[f.name] = int64Value(n)
		}
	}
	_, err := r.t.read(ctx, m, state)
	if isGone(err) {
		return false, nil
	}
	return err == nil, err
}

// registeredTypes are the provider's resource types by name, as the provider serves them.
func registeredTypes() map[string]engineType {
	out := map[string]engineType{}
	for _, newResource := range (&apmProvider{}).Resources(context.Background()) {
		r := newResource()
		if t, ok := r.(engineType); ok {
			out[t.typeName()] = t
		}
	}
	return out
}

// accManager is the provider's view of the test's apmsim, with the admin key.
func (e *accEnv) accManager() *manager {
	return newManager(e.admin, false)
}

// checkExists passes when every named resource of the state exists in the manager,
// looked up with its type's own read call.
func (e *accEnv) checkExists(addresses ...string) tfresource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, addr := range addresses {
			rs, ok := s.RootModule().Resources[addr]
			if !ok {
				return fmt.Errorf("%s is not in state", addr)
			}
			found, err := e.lookup(rs)
			if err != nil {
				return fmt.Errorf("%s: %w", addr, err)
			}
			if !found {
				return fmt.Errorf("%s (id %s) is in state but not in the manager", addr, rs.Primary.ID)
			}
		}
		return nil
	}
}

// checkAllGone is a CheckDestroy: no apm resource of the last state may still exist.
func (e *accEnv) checkAllGone(s *terraform.State) error {
	var left []string
	for addr, rs := range s.RootModule().Resources {
		if !strings.HasPrefix(rs.Type, "apm_") || strings.HasPrefix(addr, "data.") {
			continue
		}
		found, err := e.lookup(rs)
		if err != nil {
			return fmt.Errorf("%s: %w", addr, err)
		}
		if found {
			left = append(left, addr)
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("still in the manager after destroy: %s", strings.Join(left, ", "))
	}
	return nil
}

func (e *accEnv) lookup(rs *terraform.ResourceState) (bool, error) {
	t, ok := registeredTypes()[rs.Type]
	if !ok {
		return false, fmt.Errorf("no registered resource type %s", rs.Type)
	}
	return t.exists(e.ctx(), e.accManager(), rs.Primary.Attributes)
}
