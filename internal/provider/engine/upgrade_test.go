package engine

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// oneResourceProvider serves one declared resource type, as the provider would.
type oneResourceProvider struct{ resource func() resource.Resource }

func (p oneResourceProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "apm"
}
func (oneResourceProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {
}
func (oneResourceProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (oneResourceProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (p oneResourceProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{p.resource}
}

// A schema version and its upgraders, declared with the type, upgrade a state written
// under the earlier schema (here: the attribute "label" became "name").
func TestDeclaredUpgradersUpgradeOldStates(t *testing.T) {
	type thing struct{ Name string }
	v0 := rschema.Schema{Attributes: map[string]rschema.Attribute{"label": rschema.StringAttribute{Required: true}}}
	declared := NewResource(ResourceType[thing, struct{}]{
		Name:          "thing",
		Fields:        []Field[thing]{StringField("name", "The name.", func(x *thing) string { return x.Name }).Input()},
		SchemaVersion: 1,
		UpgradeState: map[int64]resource.StateUpgrader{0: {
			PriorSchema: &v0,
			StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
				resp.State.Raw = tftypes.NewValue(resp.State.Schema.Type().TerraformType(ctx), nil)
				var label types.String
				resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("label"), &label)...)
				resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), label)...)
			},
		}},
		Describe: func(Attrs) string { return "thing" },
	})
	server := providerserver.NewProtocol6(oneResourceProvider{declared})()
	ctx := context.Background()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || schemas.ResourceSchemas["apm_thing"].Version != 1 {
		t.Fatalf("schema version: %v, %+v", err, schemas.ResourceSchemas["apm_thing"])
	}
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "apm_thing", Version: 0, RawState: &tfprotov6.RawState{JSON: []byte(`{"label":"shop"}`)},
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		for _, d := range resp.Diagnostics {
			t.Errorf("%s: %s", d.Summary, d.Detail)
		}
		t.Fatalf("upgrade: %v", err)
	}
	typ := schemas.ResourceSchemas["apm_thing"].ValueType()
	state, err := resp.UpgradedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	a, err := AttrsOf(state)
	if err != nil || a.Str("name") != "shop" {
		t.Errorf("upgraded state %v (%v), want name = shop", state, err)
	}
}
