package repocheck

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/apmplatform/terraform-provider-apm/internal/docsnippets"
	apmprovider "github.com/apmplatform/terraform-provider-apm/internal/provider"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// adoptGuideTemplate is the guide "Adopting an existing platform", whose marked snippets
// internal/provider's TestAccAdoptionGuide_* run on a CLI.
const adoptGuideTemplate = "templates/guides/adopt-existing-platform.md.tmpl"

// The guide's discovery configuration writes import blocks for every resource type, each
// with the attributes of the type's identity; its query lists every type. A type added
// later fails here until the guide adopts it.
func TestAdoptionGuide_coversEveryType(t *testing.T) {
	snippets, err := docsnippets.MarkedIn(root, adoptGuideTemplate)
	if err != nil {
		t.Fatal(err)
	}
	snippet := func(name, lang string) *hclsyntax.Body {
		t.Helper()
		s, ok := snippets[name]
		if !ok || s.Lang != lang {
			t.Fatalf("%s has no %s snippet %q", adoptGuideTemplate, lang, name)
		}
		f, diags := hclsyntax.ParseConfig([]byte(s.Text), name, hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("snippet %s: %s", name, diags.Error())
		}
		return f.Body.(*hclsyntax.Body) //nolint:forcetypeassert // hclsyntax always returns its own body
	}
	managed := maps.Clone(providerSchemas(t).ResourceSchemas)
	maps.DeleteFunc(managed, func(_ string, s *tfprotov6.Schema) bool { return !engine.ManagesAnObject(s) })
	types := slices.Sorted(maps.Keys(managed))

	body := snippet("discover", "terraform")
	objects, identity := localExpr(t, body, "objects"), localExpr(t, body, "identity")
	if got := objectKeys(t, objects); !slices.Equal(got, types) {
		t.Errorf("discover: local.objects has %v, want every registered type %v", got, types)
	}
	identityValue, diags := identity.Value(nil)
	if diags.HasErrors() {
		t.Fatalf("discover: local.identity: %s", diags.Error())
	}
	server, err := providerserver.NewProtocol6WithError(apmprovider.New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range types {
		var want []string
		for _, a := range schemas.IdentitySchemas[name].IdentityAttributes {
			want = append(want, a.Name)
		}
		slices.Sort(want)
		var got []string
		if identityValue.Type().IsObjectType() && identityValue.Type().HasAttribute(name) {
			for _, v := range identityValue.GetAttr(name).AsValueSlice() {
				got = append(got, v.AsString())
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("discover: local.identity.%s is %v, want the attributes of its identity %v", name, got, want)
		}
	}

	var listed []string
	for _, b := range snippet("query", "hcl").Blocks {
		if b.Type == "list" && len(b.Labels) == 2 {
			listed = append(listed, b.Labels[0])
		}
	}
	if slices.Sort(listed); !slices.Equal(listed, types) {
		t.Errorf("query: list blocks for %v, want one for every registered type %v", listed, types)
	}
}

// localExpr is the expression of a local value of body.
func localExpr(t *testing.T, body *hclsyntax.Body, name string) hclsyntax.Expression {
	t.Helper()
	for _, b := range body.Blocks {
		if a, ok := b.Body.Attributes[name]; ok && b.Type == "locals" {
			return a.Expr
		}
	}
	t.Fatalf("no local value %s", name)
	return nil
}

// objectKeys are the keys of an object constructor, sorted.
func objectKeys(t *testing.T, expr hclsyntax.Expression) []string {
	t.Helper()
	cons, ok := expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		t.Fatalf("%T is no object constructor", expr)
	}
	var keys []string
	for _, item := range cons.Items {
		keys = append(keys, hcl.ExprAsKeyword(item.KeyExpr))
	}
	slices.Sort(keys)
	return keys
}
