package engine

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Objects deleted outside Terraform must not make a destroy fail. Before it plans the
// deletes, `terraform destroy` (and OpenTofu's) refreshes with a normal plan: it reads every
// data source and plans every resource, creates included for resources whose objects are
// gone, and any error there stops the destroy. Terraform tells the provider nothing of
// this; the provider only sees a plan. So:
//
//   - a data source whose object is gone (or whose parent is) warns instead of failing: its
//     lookup keys stay as given, its id is a placeholder made of them, and everything else
//     is null (a list data source lists nothing), so that resources referring to it still
//     validate;
//   - a create whose own object the walk's refresh found gone, or one that refers to a
//     placeholder while the walk found objects of its type gone, is a world that moved:
//     what the type's plan checks find wrong with it (a system or a database that exists
//     nowhere) is a warning, and apply says it again as an error should anyone apply it.
//
// A create that is new to the state is no such case: its checks stay errors, so a typo in a
// data source's name still fails the plan of what is created in it.

// goneObjects is what the refreshes and data sources of one walk found gone.
type goneObjects struct {
	keys         map[string]bool // claimKeys of objects a refresh found gone
	types        map[string]bool // the resource types of those
	placeholders map[string]bool // the ids that data sources made up for objects not found
}

// readGone remembers that a refresh found the object key, of resource type typ, gone.
func (p *planned) readGone(typ, key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone.keys == nil {
		p.gone.keys, p.gone.types = map[string]bool{}, map[string]bool{}
	}
	p.gone.keys[key], p.gone.types[typ] = true, true
}

// madeUp remembers an id that a data source made up for an object it did not find.
func (p *planned) madeUp(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone.placeholders == nil {
		p.gone.placeholders = map[string]bool{}
	}
	p.gone.placeholders[id] = true
}

// movedUnder reports whether the create of key, of resource type typ, with plan recreates
// an object deleted outside Terraform, as explained above.
func (p *planned) movedUnder(typ, key string, plan Attrs) bool {
	p.mu.Lock()
	gone, typeGone := p.gone.keys[key], p.gone.types[typ]
	p.mu.Unlock()
	return gone || typeGone && p.madeUpIn(plan) != ""
}

// madeUpIn is the first value of plan that a data source made up, or "".
func (p *planned) madeUpIn(plan Attrs) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, v := range plan {
		var s string
		if v.Type().Is(tftypes.String) && v.IsKnown() && !v.IsNull() && v.As(&s) == nil && p.gone.placeholders[s] {
			return s
		}
	}
	return ""
}

// worldMoved adjusts what a type's plan checks found wrong with a create: warnings when
// the create recreates an object deleted outside Terraform, and for errors on a value a
// data source made up, the reason.
func (r *Resource[T, C]) worldMoved(checks diag.Diagnostics, plan Attrs) diag.Diagnostics {
	p := &r.data.planned
	if p.movedUnder(r.Type.Name, r.claimKey(plan), plan) {
		return asWarnings(checks, r.Type.Describe(plan))
	}
	if id := p.madeUpIn(plan); id != "" && checks.HasError() {
		return withNote(checks, fmt.Sprintf("%q is the placeholder id of a data source that found nothing (see its warning): "+
			"check the names given to it, or create what it looks for.", id))
	}
	return checks
}

// asWarnings turns the errors of diags into warnings that say why.
func asWarnings(diags diag.Diagnostics, what string) diag.Diagnostics {
	return rewrite(diags, diag.SeverityWarning, fmt.Sprintf("%s was deleted outside Terraform, and so was what it refers to. A destroy goes ahead; "+
		"an apply of this plan would fail until what it refers to exists again.", upperFirst(what)))
}

// withNote adds note to the errors of diags.
func withNote(diags diag.Diagnostics, note string) diag.Diagnostics {
	return rewrite(diags, diag.SeverityError, note)
}

// rewrite gives the errors of diags the severity and adds note to their detail.
func rewrite(diags diag.Diagnostics, severity diag.Severity, note string) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(diags))
	for _, d := range diags {
		if d.Severity() != diag.SeverityError {
			out = append(out, d)
			continue
		}
		detail := d.Detail() + "\n\n" + note
		wp, hasPath := d.(diag.DiagnosticWithPath)
		switch {
		case severity == diag.SeverityWarning && hasPath:
			out = append(out, diag.NewAttributeWarningDiagnostic(wp.Path(), d.Summary(), detail))
		case severity == diag.SeverityWarning:
			out = append(out, diag.NewWarningDiagnostic(d.Summary(), detail))
		case hasPath:
			out = append(out, diag.NewAttributeErrorDiagnostic(wp.Path(), d.Summary(), detail))
		default:
			out = append(out, diag.NewErrorDiagnostic(d.Summary(), detail))
		}
	}
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// placeholder is the state of a data source whose object was not found: the lookup keys
// and the arguments as configured, id made of the keys, everything else null.
func placeholder(typ tftypes.Object, config Attrs, keys []string) (tftypes.Value, string) {
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		var s string
		if v, ok := config[k]; ok && v.IsKnown() && !v.IsNull() && v.As(&s) == nil {
			parts = append(parts, s)
		}
	}
	id := strings.Join(parts, "/")
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, t := range typ.AttributeTypes {
		switch v, ok := config[name]; {
		case name == "id" && t.Is(tftypes.String) && (!ok || v.IsNull()):
			vals[name] = tftypes.NewValue(t, id)
		case ok && v.IsFullyKnown():
			vals[name] = v
		default:
			vals[name] = tftypes.NewValue(t, nil)
		}
	}
	return tftypes.NewValue(typ, vals), id
}
