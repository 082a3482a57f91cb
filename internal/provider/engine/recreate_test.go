package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// fakePrivate is private data held in a map, as the framework's is between RPCs.
type fakePrivate map[string][]byte

func (p fakePrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

func (p fakePrivate) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	if len(value) == 0 {
		delete(p, key)
		return nil
	}
	if !json.Valid(value) {
		return diag.Diagnostics{diag.NewErrorDiagnostic("not JSON", string(value))}
	}
	p[key] = value
	return nil
}

// recreatableNode is the test node with an identity and holders to set aside, counting
// the calls.
func recreatableNode(deletes func(n int) error) (*Resource[testNode, struct{}], *recreationCalls) {
	calls := &recreationCalls{}
	typ := *testNodeType
	typ.DeleteTimeout = time.Minute
	typ.ImportID = ImportID[struct{}]{Parts: []IDPart[struct{}]{{Attr: "system_id"}, {Attr: "name"}}}
	typ.Delete = func(context.Context, struct{}, Attrs) error { calls.deletes++; return deletes(calls.deletes) }
	typ.SetAside = func(context.Context, struct{}, Attrs) ([]string, error) {
		calls.setAside++
		return []string{"holder"}, nil
	}
	typ.Restore = func(context.Context, struct{}, Attrs) error { calls.restores++; return nil }
	return &Resource[testNode, struct{}]{Type: &typ}, calls
}

type recreationCalls struct{ deletes, setAside, restores int }

// node is the identity of the test node name of system s-1.
func node(name string) Attrs { return Attrs{"system_id": str("s-1"), "name": str(name)} }

// Terraform plans a replacement twice: the existing object, then the new one as a
// create, handing it the first plan's private data. Only a second plan of the same
// identity marks a recreation; the first plan clears a mark left from before, and a
// plain create (no private data) or a new identity is none.
func TestRecreationIsMarkedByTheSecondPlanOfTheSameIdentity(t *testing.T) {
	ctx := context.Background()
	r, _ := recreatableNode(func(int) error { return nil })
	plan := func(priorNull bool, prior, planned Attrs, private fakePrivate) fakePrivate {
		var diags diag.Diagnostics
		r.markRecreation(ctx, priorNull, prior, planned, private, &diags)
		if diags.HasError() {
			t.Fatalf("markRecreation: %v", diags)
		}
		return private
	}
	first := plan(false, node("web"), node("web"), fakePrivate{recreatingKey: []byte("true"), "other": []byte(`"kept"`)})
	if recreating(ctx, first) || string(first["other"]) != `"kept"` || string(first[priorIdentityKey]) != `"s-1/web"` {
		t.Errorf("first plan: private data %q, want the identity, no mark, and the other keys kept", first)
	}
	copied := func(p fakePrivate) fakePrivate {
		out := fakePrivate{}
		for k, v := range p {
			out[k] = v
		}
		return out
	}
	if second := plan(true, Attrs{}, node("web"), copied(first)); !recreating(ctx, second) {
		t.Errorf("second plan of the same identity: private data %q, want the mark", second)
	}
	if renamed := plan(true, Attrs{}, node("web-2"), copied(first)); recreating(ctx, renamed) {
		t.Errorf("second plan of another name: private data %q, want no mark", renamed)
	}
	if created := plan(true, Attrs{}, node("web"), fakePrivate{}); recreating(ctx, created) {
		t.Errorf("a create: private data %q, want no mark", created)
	}
	plain := *r.Type
	plain.SetAside, plain.Restore = nil, nil
	var diags diag.Diagnostics
	none := fakePrivate{}
	(&Resource[testNode, struct{}]{Type: &plain}).markRecreation(ctx, false, node("web"), node("web"), none, &diags)
	if len(none) != 0 {
		t.Errorf("a type without holders to set aside: private data %q, want none", none)
	}
}

// The delete of a recreation sets the holders aside once, when the manager refuses it,
// and deletes again; a plain delete never does, and waits.
func TestRecreatingDeleteSetsAsideOnRefusal(t *testing.T) {
	refusedUntilSetAside := func(calls **recreationCalls) func(int) error {
		return func(int) error {
			if (*calls).setAside == 0 {
				return apm.NewConflict("Datasource orders-ds is attached to WAS server(s) was-1 (app-01/shop); detach it first")
			}
			return nil
		}
	}
	var calls *recreationCalls
	r, c := recreatableNode(refusedUntilSetAside(&calls))
	calls = c
	released, err := r.deleteWaiting(context.Background(), struct{}{}, node("web"), time.Minute, true)
	if err != nil || len(released) != 1 || released[0] != "holder" {
		t.Fatalf("recreating delete: released %q, error %v; want the holder released and no error", released, err)
	}
	if *calls != (recreationCalls{deletes: 2, setAside: 1}) {
		t.Errorf("recreating delete: calls %+v, want 2 deletes around 1 set-aside and no restore", *calls)
	}

	r, c = recreatableNode(refusedUntilSetAside(&calls))
	calls = c
	_, err = r.deleteWaiting(context.Background(), struct{}{}, node("web"), 300*time.Millisecond, false)
	if err == nil || !strings.Contains(err.Error(), "gave up after 300ms") || calls.setAside != 0 {
		t.Errorf("plain delete: error %v and %d set-asides, want it to wait and give up without setting aside", err, calls.setAside)
	}
}

// A recreating delete that fails after setting the holders aside puts them back, and
// says so; one whose setting aside fails stops at once, and puts back what was set aside.
func TestRecreatingDeletePutsBackWhenItFails(t *testing.T) {
	r, calls := recreatableNode(func(int) error {
		return apm.NewConflict("Datasource orders-ds is attached to WAS server(s) was-2; detach it first")
	})
	_, err := r.deleteWaiting(context.Background(), struct{}{}, node("web"), 300*time.Millisecond, true)
	if err == nil || !strings.Contains(err.Error(), "gave up after 300ms") || !strings.Contains(err.Error(), "was put back") ||
		calls.setAside != 1 || calls.restores != 1 {
		t.Errorf("error %v, calls %+v: want it to give up, set aside once and put back once", err, *calls)
	}

	r, calls = recreatableNode(func(int) error { return apm.NewConflict("Datasource orders-ds is attached; detach it first") })
	r.Type.SetAside = func(context.Context, struct{}, Attrs) ([]string, error) {
		calls.setAside++
		return nil, errors.New("detach refused")
	}
	start := time.Now()
	_, err = r.deleteWaiting(context.Background(), struct{}{}, node("web"), time.Minute, true)
	if err == nil || !strings.Contains(err.Error(), "releasing what holds it failed: detach refused") || calls.restores != 1 || time.Since(start) > 10*time.Second {
		t.Errorf("error %v, calls %+v after %s: want it to stop at once, naming the failure, and put back", err, *calls, time.Since(start))
	}
}
