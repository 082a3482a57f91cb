package engine

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// flavoredThings is thingType whose flavor names a parent, a flavor, which the manager has
// when it is among flavors; finds counts the look-ups.
func flavoredThings(finds *atomic.Int32, flavors ...string) ResourceType[thing, *thingManager] {
	typ := thingType()
	typ.References = []Reference[*thingManager]{{Attr: "flavor", To: Parent[*thingManager]{
		Type: "apm_flavor", Noun: "flavor", Refer: "apm_flavor.example.id", List: "apm_flavors",
		Find: func(_ context.Context, _ *thingManager, id string) (string, error) {
			finds.Add(1)
			for _, f := range flavors {
				if f == id {
					return "", nil
				}
			}
			return fmt.Sprintf("the manager has no flavor %q", id), nil
		},
	}}}
	return typ
}

// A reference known at plan is looked up once per walk, however many resources name it,
// and fails the plan naming the attribute, the value and what the manager has; an unknown
// one, one the prior state holds already, and one that exists are let through, and
// skip_connection_check looks nothing up.
func TestPlanLooksUpEachReferenceOnce(t *testing.T) {
	var finds atomic.Int32
	rig := newPlanRig(t, flavoredThings(&finds, "sweet"), Settings{})
	expectClean(t, "an unknown flavor", rig.create(map[string]any{"name": "a", "flavor": tftypes.UnknownValue}))
	if n := finds.Load(); n != 0 {
		t.Errorf("an unknown reference was looked up %d times", n)
	}
	expectError(t, "a missing flavor", rig.create(map[string]any{"name": "b", "flavor": "sour"}),
		"Unknown flavor", `flavor is "sour", but the manager has no flavor "sour"`, "flavor = apm_flavor.example.id", "apm_flavors")
	expectError(t, "the same missing flavor again", rig.create(map[string]any{"name": "c", "flavor": "sour"}), "Unknown flavor")
	expectClean(t, "a flavor the manager has", rig.create(map[string]any{"name": "d", "flavor": "sweet"}))
	expectClean(t, "the same flavor again", rig.create(map[string]any{"name": "e", "flavor": "sweet"}))
	if n := finds.Load(); n != 2 {
		t.Errorf("two distinct flavors were looked up %d times, want 2", n)
	}

	kept := newPlanRig(t, flavoredThings(&finds), Settings{}, thing{Name: "f", Flavor: "bitter"})
	prior := kept.value(map[string]any{"name": "f", "flavor": "bitter"})
	expectClean(t, "a flavor the state holds already", kept.plan(prior, map[string]any{"name": "f", "flavor": "bitter", "port": 81}, nil))
	skipped := newPlanRig(t, flavoredThings(&finds), Settings{SkipLookups: true})
	expectClean(t, "skip_connection_check", skipped.create(map[string]any{"name": "g", "flavor": "sour"}))
	if n := finds.Load(); n != 2 {
		t.Errorf("%d look-ups after the kept and the skipped ones, want still 2", n)
	}
}
