package engine

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// References to parents, checked at plan. An object that names its parent by a literal
// (a server's node_id, a part's web_server_id, a grant's user_id) is refused by the manager
// at apply when the parent does not exist, often after other writes of the run went
// through. The parent's existence is one GET away, so plan asks, and the run fails before
// anything is sent:
//
//   - only a value known at plan is looked up (one that comes from a resource created in
//     this run is unknown, and its object will exist);
//   - not one that a resource planned earlier in this walk declares (PlannedObject): this
//     configuration creates or keeps it;
//   - not one the prior state holds already: the object kept it, and the manager deletes
//     no parent in use;
//   - each distinct value once per walk, however many resources name it;
//   - nothing with skip_connection_check.

// Parent is a kind of object that others refer to by its id, and how to find one.
type Parent[C any] struct {
	// Type is its Terraform type, such as "apm_node": an object of that type that this
	// configuration declares under the import ID that is the value is not looked up. ""
	// for a parent whose id is not its import ID (a system's id, made by the manager, is
	// unknown at plan until the system exists).
	Type string
	// Noun names it in the error's summary: "node", "WAS server".
	Noun string
	// Find reads the object with the id (one GET). It returns "" when the manager has
	// it; otherwise what the manager has instead, as a sentence that names the object by
	// name (`the manager has no node "app-09" in system "shop"; its nodes are app-01`).
	// An error is a look-up that failed, which plan only warns about.
	Find func(ctx context.Context, m C, id string) (missing string, err error)
	// Refer is how a configuration refers to one, such as "apm_node.example.id", and
	// List the data source that lists them, for the advice.
	Refer, List string
}

// Reference is an attribute that names a Parent by its id.
type Reference[C any] struct {
	Attr string
	To   Parent[C]
}

// lookups remembers, for one walk, what the look-ups of referenced objects found, so that
// each distinct value is asked about once.
type lookups struct {
	mu    sync.Mutex
	found map[string]*lookup
}

// lookup is the answer for one referenced object; once makes concurrent plannings that
// name the same object wait for one GET.
type lookup struct {
	once    sync.Once
	missing string
	err     error
}

// of is the lookup entry of the object of the kind noun with the id, made on first use.
func (l *lookups) of(noun, id string) *lookup {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.found == nil {
		l.found = map[string]*lookup{}
	}
	key := noun + " " + id
	if l.found[key] == nil {
		l.found[key] = &lookup{}
	}
	return l.found[key]
}

// checkReferences fails the plan of a resource whose references name objects that the
// manager does not have and this configuration does not declare.
func (r *Resource[T, C]) checkReferences(ctx context.Context, plan, prior Attrs, diags *diag.Diagnostics) {
	if r.data.skipLookups {
		return
	}
	for _, ref := range r.Type.References {
		id := plan.Str(ref.Attr)
		if !plan.Known(ref.Attr) || id == "" || (len(prior) > 0 && prior.Str(ref.Attr) == id) {
			continue
		}
		if _, declared := r.data.planned.declares(ref.To.Type, id); declared && ref.To.Type != "" {
			continue
		}
		found := r.data.planned.lookups.of(ref.To.Noun, id)
		found.once.Do(func() { found.missing, found.err = ref.To.Find(ctx, r.data.conn, id) })
		switch {
		case found.err != nil:
			diags.AddAttributeWarning(path.Root(ref.Attr), fmt.Sprintf("Could not check %s %q", ref.Attr, id),
				Explain(found.err)+"\n\nApply sends the changes all the same; should the object not exist, the manager refuses them naming it.")
		case found.missing != "":
			diags.AddAttributeError(path.Root(ref.Attr), "Unknown "+ref.To.Noun, fmt.Sprintf(
				"%s is %q, but %s, and no resource planned before this one declares it: apply would fail, so nothing is sent. "+
					"Declare the %s in this configuration and refer to it by its id, as in %s = %s, which also makes Terraform create it first "+
					"(a literal value does not); or correct %s (the data source %s lists what the manager has).",
				ref.Attr, id, found.missing, ref.To.Noun, ref.Attr, ref.To.Refer, ref.Attr, ref.To.List))
		}
	}
}

// declares is PlannedObject for the engine's own checks.
func (p *planned) declares(typeName, importID string) (Attrs, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h, ok := p.held[typeName+" "+importID]
	return h.plan, ok
}

// ReferenceAttrs are the attributes of the type that name a parent by its id, for the
// registry-driven tests.
func (r *Resource[T, C]) ReferenceAttrs() []string {
	out := make([]string, 0, len(r.Type.References))
	for _, ref := range r.Type.References {
		out = append(out, ref.Attr)
	}
	return out
}
