package provider

import (
	"context"
	"fmt"
	"strings"

	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// engineType is what the tests need of any registered resource type: its name, and
// whether the object a state identifies exists, asked with the type's own read call.
type engineType interface {
	TypeName() string
	Exists(ctx context.Context, m *conn, flat map[string]string) (bool, error)
	Parity(ctx context.Context) error
}

// registeredTypes are the provider's resource types by name, as the provider serves them.
func registeredTypes() map[string]engineType {
	out := map[string]engineType{}
	for _, newResource := range (&apmProvider{}).Resources(context.Background()) {
		r := newResource()
		if t, ok := r.(engineType); ok {
			out[t.TypeName()] = t
		}
	}
	return out
}

// accConn is the provider's view of the test's apmsim, with the admin key.
func (e *accEnv) accConn() *conn {
	return newConn(e.admin)
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
	return t.Exists(e.ctx(), e.accConn(), rs.Primary.Attributes)
}
