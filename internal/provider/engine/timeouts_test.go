package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A timeout that is no positive duration fails at validate, naming the attribute, the
// value and what is allowed.
func TestTimeoutsAreCheckedAtValidate(t *testing.T) {
	server := providerserver.NewProtocol6(oneResourceProvider{NewResource(*testNodeType)})()
	ctx := context.Background()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	typ := schemas.ResourceSchemas["apm_node"].ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema is an object
	for value, wantError := range map[string]bool{"-5m": true, "soon": true, "0s": true, "90s": false} {
		vals := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			vals[name] = tftypes.NewValue(at, nil)
		}
		timeoutsType := typ.AttributeTypes["timeouts"].(tftypes.Object) //nolint:forcetypeassert // the timeouts block is an object
		ops := map[string]tftypes.Value{}
		for op := range timeoutsType.AttributeTypes {
			ops[op] = tftypes.NewValue(tftypes.String, nil)
		}
		ops["delete"] = tftypes.NewValue(tftypes.String, value)
		vals["timeouts"] = tftypes.NewValue(timeoutsType, ops)
		config, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "apm_node", Config: &config})
		if err != nil {
			t.Fatal(err)
		}
		var text []string
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				text = append(text, d.Detail)
			}
		}
		got := strings.Join(text, "\n")
		if wantError != strings.Contains(got, "timeouts.delete must be a positive duration such as 30s, 5m or 1h30m, got: \""+value+"\"") {
			t.Errorf("timeouts.delete = %q: errors %q", value, got)
		}
	}
}
