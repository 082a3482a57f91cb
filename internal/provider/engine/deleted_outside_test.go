package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// checkedThingType is thingType whose plan check refuses the flavor "retired", as a type
// refuses a reference to a system that exists nowhere.
func checkedThingType() ResourceType[thing, *thingManager] {
	typ := thingType()
	typ.CheckPlan = func(_ context.Context, _ *thingManager, plan, _ Attrs, diags *diag.Diagnostics) {
		if plan.Str("flavor") == "retired" {
			diags.AddError("Unknown flavor", fmt.Sprintf("No flavor %q.", plan.Str("flavor")))
		}
	}
	return typ
}

// The create of a thing that the walk's refresh found deleted outside Terraform (as the
// refresh before a destroy plans it) warns where its plan check fails; a thing new to the
// state still fails.
func TestWorldMovedChecksOfARecreateWarn(t *testing.T) {
	rig := newPlanRig(t, checkedThingType(), Settings{})
	rig.refresh(map[string]any{"name": "a", "flavor": "retired", "port": 1}) // gone: the manager has no things

	moved := rig.create(map[string]any{"name": "a", "flavor": "retired", "port": 1})
	if errs := errorsOf(moved); errs != "" {
		t.Errorf("recreate of a thing deleted outside Terraform: errors %s", errs)
	}
	if w := text(moved.Diagnostics, tfprotov6.DiagnosticSeverityWarning); !strings.Contains(w, `No flavor "retired".`) || !strings.Contains(w, "deleted outside Terraform") {
		t.Errorf("recreate: want the check as a warning that says why, got %q", w)
	}

	fresh := rig.create(map[string]any{"name": "b", "flavor": "retired", "port": 2})
	if errs := errorsOf(fresh); !strings.Contains(errs, `No flavor "retired".`) || strings.Contains(errs, "deleted outside Terraform") {
		t.Errorf("create of a new thing: want the check's error alone, got %q", errs)
	}
}

// A value a data source made up refers to nothing: with objects of the type found gone in
// the walk, the check warns; without, it fails and says where the value came from.
func TestWorldMovedPlaceholders(t *testing.T) {
	var p planned
	plan := Attrs{"flavor": str("other"), "name": str("c")}
	if p.movedUnder("thing", "apm_thing c", plan) {
		t.Fatal("nothing gone, nothing made up: not moved")
	}
	p.madeUp("other")
	if p.madeUpIn(plan) != "other" {
		t.Errorf("madeUpIn = %q, want other", p.madeUpIn(plan))
	}
	if p.movedUnder("thing", "apm_thing c", plan) {
		t.Error("a made-up value alone (a typo in a data source) is not a moved world")
	}
	p.readGone("thing", "apm_thing a")
	if !p.movedUnder("thing", "apm_thing c", plan) {
		t.Error("a made-up value with things found gone is a moved world")
	}
	if p.movedUnder("node", "apm_node c", plan) {
		t.Error("things found gone say nothing of nodes")
	}
}

// A data source's placeholder keeps what the configuration gives and makes its id of the
// lookup keys; everything else is null.
func TestWorldMovedPlaceholderState(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id": tftypes.String, "system_name": tftypes.String, "name": tftypes.String, "host_ip": tftypes.String, "agent_port": tftypes.Number,
	}}
	config := Attrs{"system_name": str("shop"), "name": str("web-01"), "id": tftypes.NewValue(tftypes.String, nil)}
	v, id := placeholder(typ, config, []string{"system_name", "name"})
	got, err := AttrsOf(v)
	if err != nil {
		t.Fatal(err)
	}
	if id != "shop/web-01" || got.Str("id") != id || got.Str("system_name") != "shop" || got.Str("name") != "web-01" {
		t.Errorf("placeholder = %v, id %q", got, id)
	}
	for _, name := range []string{"host_ip", "agent_port"} {
		if !got[name].IsNull() {
			t.Errorf("%s = %v, want null", name, got[name])
		}
	}
}
