package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// idForms are the composite import ID forms of the registered resources, by noun: what
// the provider's functions are made of.
func idForms(t *testing.T) map[string]engine.IDForm {
	t.Helper()
	forms := map[string]engine.IDForm{}
	for _, newResource := range (&apmProvider{}).Resources(context.Background()) {
		if _, operation := newResource().(*engine.Operation[*conn]); operation {
			continue // it has no id of the manager's
		}
		r, ok := newResource().(interface{ IDForm() engine.IDForm })
		if !ok {
			t.Fatalf("%T has no IDForm", newResource())
		}
		// The first type of a noun gives its functions' example, as in the provider.
		if f := r.IDForm(); len(f.Pieces) > 1 && forms[f.Noun].Noun == "" {
			forms[f.Noun] = f
		}
	}
	return forms
}

// Every composite ID form has its parse and build function, and nothing else is served.
// (internal/repocheck checks that each function has its example and page.)
func TestFunctionsCoverEveryCompositeID(t *testing.T) {
	ctx := context.Background()
	served := map[string]bool{}
	for _, newFunction := range (&apmProvider{}).Functions(ctx) {
		var resp function.MetadataResponse
		newFunction().Metadata(ctx, function.MetadataRequest{}, &resp)
		served[resp.Name] = true
	}
	forms := idForms(t)
	if len(forms) < 5 {
		t.Fatalf("%d composite ID forms, want at least node, server, was_datasource, was_application and user_role", len(forms))
	}
	for noun := range forms {
		t.Run(noun, func(t *testing.T) {
			for _, name := range []string{"parse_" + noun + "_id", "build_" + noun + "_id"} {
				if !served[name] {
					t.Errorf("no function %s", name)
				}
				delete(served, name)
			}
		})
	}
	for name := range served {
		t.Errorf("function %s belongs to no composite ID", name)
	}
}

// Each parse function splits its example into the named pieces and the build function
// joins them back, on a real CLI; an ID of another form and an empty piece are errors
// that give the form and the example.
func TestAccFunctions_parseAndBuildEveryID(t *testing.T) {
	needs(t, clifeatures.Functions)
	forms := idForms(t)
	var hcl strings.Builder
	var checks []statecheck.StateCheck
	for noun, f := range forms {
		parse := fmt.Sprintf("provider::apm::parse_%s_id(%q)", noun, f.Example)
		pieces := strings.SplitN(f.Example, "/", len(f.Pieces))
		want := map[string]knownvalue.Check{}
		args := make([]string, len(f.Pieces))
		for i, name := range f.Pieces {
			want[name] = knownvalue.StringExact(pieces[i])
			args[i] = parse + "." + name
		}
		fmt.Fprintf(&hcl, "output %q {\n  value = %s\n}\n", noun+"_parsed", parse)
		fmt.Fprintf(&hcl, "output %q {\n  value = provider::apm::build_%s_id(%s)\n}\n", noun+"_built", noun, strings.Join(args, ", "))
		checks = append(checks,
			statecheck.ExpectKnownOutputValue(noun+"_parsed", knownvalue.ObjectExact(want)),
			statecheck.ExpectKnownOutputValue(noun+"_built", knownvalue.StringExact(f.Example)))
	}
	server := forms["server"]
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: hcl.String(), ConfigStateChecks: checks},
			{
				Config:      `output "x" { value = provider::apm::parse_server_id("shop/web-01") }`,
				ExpectError: errorMatching(`"shop/web-01" is not a server ID`, "expected "+server.Format, `for example "`+server.Example+`"`),
			},
			{
				Config:      `output "x" { value = provider::apm::build_server_id("shop", "", "web-1") }`,
				ExpectError: errorMatching(`node "" must be non-empty and hold no "/"`, "expected "+server.Format),
			},
		},
	})
}
