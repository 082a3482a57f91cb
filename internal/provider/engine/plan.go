package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Conflicts that plan can tell before anything is sent. Terraform configures the provider
// once for each walk (validate, plan, apply) and plans every resource of the walk through
// that one configuration, so the engine can compare the resources of a run:
//
//   - two resources that declare one object (one import ID) are twins: the second one
//     planned fails, whatever its type;
//   - two resources that declare what only one object can hold (a port of a node: a
//     type's Exclusives) fail the same way;
//   - a create whose object the manager has already fails with the import advice that the
//     create's 409 would give at apply, unless adopt_existing is on.
//
// A resource can be planned twice in one walk: Terraform plans a replacement first with
// its prior state, then once more as a create with no prior state, handing that second
// planning the private data that the first one returned. So every planning with a prior
// state leaves the import ID of its object there (replacingKey), and a create that carries
// one is the second half of that replacement, not a twin. A tainted object is planned as a
// create with no private data at all; the refresh before it has read the object, which
// the engine remembers (inState), so its replacement is not taken for an object created
// outside Terraform.

// Exclusive is something that at most one object of a configuration can hold, such as a
// port of a node.
type Exclusive struct {
	Key    string // names it among everything any type declares, such as "port 8080 of node SYS-1/app-01"
	Attr   string // the attribute that declares it
	What   string // how errors name it, such as `port 8080 on node "app-01"`
	Advice string // what to do when two resources declare it
}

// replacingKey is the private data key under which a planning with a prior state leaves
// the import ID of its object, for the create planning of a replacement.
const replacingKey = "replacing"

// planned is what the resources planned so far in one walk declare.
type planned struct {
	mu sync.Mutex
	// held maps each claimed key (an object's claimKey, or an Exclusive's Key) to the
	// planning that holds it.
	held map[string]holder
	// inState holds the claimKeys of the objects that a refresh of this walk read: objects
	// that the state has (a tainted one among them).
	inState map[string]bool
	// creates numbers the plannings of creates, each its own holder.
	creates int
	// gone is what the walk found deleted outside Terraform (deleted_outside.go).
	gone goneObjects
	// lookups is what the look-ups of referenced objects found (references.go).
	lookups lookups
}

// holder is one planning of a resource.
type holder struct {
	// owner tells plannings of one resource from those of others: "was <claimKey>" for a
	// resource with a prior state (in either of the plannings of its replacement), "new
	// #<n>" for a create, which no other planning is.
	owner string
	what  string // the object as the type describes it
	plan  Attrs  // what the planning declares
	// manages is true for a resource with a prior state: it manages its object already.
	manages bool
}

// claim takes key for h; it returns the holder when another resource holds it.
func (p *planned) claim(key string, h holder) (holder, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if other, ok := p.held[key]; ok && other.owner != h.owner {
		return other, false
	}
	if p.held == nil {
		p.held = map[string]holder{}
	}
	p.held[key] = h
	return h, true
}

// newCreate is the owner of a create's planning.
func (p *planned) newCreate() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.creates++
	return fmt.Sprintf("new #%d", p.creates)
}

// read remembers that a refresh read the object key.
func (p *planned) read(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inState == nil {
		p.inState = map[string]bool{}
	}
	p.inState[key] = true
}

// readAny reports whether a refresh of this walk read objects of the state: then an
// object it did not read is no resource's of this configuration (Terraform refreshes the
// objects a resource refers to before it plans the resource).
func (p *planned) readAny() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.inState) > 0
}

func (p *planned) wasRead(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inState[key]
}

// claimPlanned claims, for one planning, the object that the plan declares and what it
// holds exclusively, and refuses what another resource of the walk holds. prior is the
// prior state (empty for a create). It returns the claimKey of the object that a create
// replaces (the second planning of a replacement), or "".
func (r *Resource[T, C]) claimPlanned(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan, prior Attrs) string {
	var replaced string
	me := holder{what: r.Type.Describe(plan), plan: plan}
	switch {
	case len(prior) > 0:
		was := r.claimKey(prior)
		me.owner, me.manages = "was "+was, true
		// Should Terraform replace the object, its create planning gets this back.
		value, err := json.Marshal(was)
		if err == nil {
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacingKey, value)...)
		}
	default:
		replaced = replacingOf(ctx, req.Private)
		if replaced == "" {
			me.owner = r.data.planned.newCreate()
			break
		}
		me.owner, me.manages = "was "+replaced, true
		// It has served: the created object's private data does not keep it.
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacingKey, nil)...)
	}
	if r.Type.ImportID.importID(plan) != "" {
		if other, ok := r.data.planned.claim(r.claimKey(plan), me); !ok {
			does := "creates it too"
			if other.manages {
				does = "manages it already"
			}
			resp.Diagnostics.Append(r.duplicateError(plan, does))
			return replaced
		}
	}
	if r.Type.Exclusives == nil {
		return replaced
	}
	for _, x := range r.Type.Exclusives(plan) {
		if other, ok := r.data.planned.claim(x.Key, me); !ok {
			resp.Diagnostics.AddAttributeError(path.Root(x.Attr), upperFirst(x.What)+" is declared twice", fmt.Sprintf(
				"%s declares %s (%s), and so does %s in this configuration: only one of them can have it. %s",
				me.what, x.What, x.Attr, other.what, x.Advice))
		}
	}
	return replaced
}

// runKey keys, in the context that a type's CheckPlan gets, what the engine knows of the
// walk being planned (walkView).
type runKey struct{}

// walkView is what CheckPlan can ask of the walk: a check of a reference to another object
// must know whether this configuration declares the object, which the manager does not
// have yet when this run creates it.
type walkView struct {
	planned     *planned
	skipLookups bool
	// replaced is the claimKey of the object that the create being planned replaces (the
	// second planning of a replacement), or "".
	replaced string
}

// forCheck is ctx for a type's CheckPlan, with what it can ask of the walk.
func (p *planned) forCheck(ctx context.Context, skipLookups bool, replaced string) context.Context {
	return context.WithValue(ctx, runKey{}, &walkView{planned: p, skipLookups: skipLookups, replaced: replaced})
}

// Replaces is the import ID of the object of type typeName that the create being planned
// replaces: Terraform plans a replacement a second time as a create without the prior
// state, whose object still holds what it holds (a port) until it is deleted.
func Replaces(ctx context.Context, typeName string) (string, bool) {
	w, _ := ctx.Value(runKey{}).(*walkView)
	if w == nil {
		return "", false
	}
	return strings.CutPrefix(w.replaced, typeName+" ")
}

// PlannedObject is the plan of the object of type typeName (such as "apm_database") with
// the import ID importID, when a resource planned earlier in this walk declares it: an
// object this configuration creates or keeps. Terraform plans a resource after those its
// configuration refers to, so a reference (apm_database.example.id) is always planned
// first; an object named by a literal may not be yet. Only the context that CheckPlan gets
// knows the walk.
func PlannedObject(ctx context.Context, typeName, importID string) (Attrs, bool) {
	w, _ := ctx.Value(runKey{}).(*walkView)
	if w == nil {
		return nil, false
	}
	return w.planned.declares(typeName, importID)
}

// LookupsSkipped reports whether plan must not ask the manager (skip_connection_check):
// a CheckPlan then leaves to apply what only a read could tell.
func LookupsSkipped(ctx context.Context) bool {
	w, _ := ctx.Value(runKey{}).(*walkView)
	return w != nil && w.skipLookups
}

// replacingOf is the claimKey that a planning with a prior state left in the private data.
func replacingOf(ctx context.Context, p privateState) string {
	if p == nil {
		return ""
	}
	value, _ := p.GetKey(ctx, replacingKey)
	var key string
	if len(value) == 0 || json.Unmarshal(value, &key) != nil {
		return ""
	}
	return key
}

// lookUpCreated fails the plan of a create whose object the manager has already, with the
// advice that the create's 409 would give at apply. replaced is the claimKey of the
// object the create replaces, if any: that one exists, and is deleted first. A look-up
// that fails is a warning: apply will tell.
func (r *Resource[T, C]) lookUpCreated(ctx context.Context, plan Attrs, replaced string, diags *diag.Diagnostics) {
	d := r.data
	// Parts that a create sets on an existing object (IdempotentCreate) never conflict.
	if d.skipLookups || d.adopt || (r.Type.IdempotentCreate && !r.Type.ExistingIsTaken) || r.Type.NoLookupAtPlan || r.Type.ImportID.importID(plan) == "" {
		return
	}
	key := r.claimKey(plan)
	if key == replaced || d.planned.wasRead(key) {
		return
	}
	what := r.Type.Describe(plan)
	_, err := r.Type.Read(ctx, d.conn, plan)
	switch {
	case err == nil:
		diags.AddError(what+" already exists", fmt.Sprintf(
			"The manager already has %s, which this resource would create; apply would fail.\n\n%s", what, r.existsAdvice(plan, d.planned.readAny())))
	case IsGone(err) || isMissingReference(err):
		// Not there, or its parent is not (yet): the create can go ahead.
	default:
		diags.AddWarning("Could not check whether "+what+" exists already", Explain(err)+
			"\n\nApply sends the create all the same; should the object be there, it fails with the import ID to use.")
	}
}
