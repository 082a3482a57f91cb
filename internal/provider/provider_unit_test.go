package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

func protocolServer(t *testing.T) tfprotov6.ProviderServer {
	t.Helper()
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	return server
}

// The framework validates every schema when it serves them; a broken schema shows here
// without a CLI.
func TestProviderSchemasAreValid(t *testing.T) {
	resp, err := protocolServer(t).GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	for _, name := range []string{"apm_system", "apm_node"} {
		if resp.ResourceSchemas[name] == nil {
			t.Errorf("resource %s is not served", name)
		}
	}
	for _, name := range []string{"apm_systems", "apm_system", "apm_nodes", "apm_node", "apm_public_nodes", "apm_manager_info"} {
		if resp.DataSourceSchemas[name] == nil {
			t.Errorf("data source %s is not served", name)
		}
	}
	sensitive := map[string]bool{}
	for _, a := range resp.Provider.Block.Attributes {
		sensitive[a.Name] = a.Sensitive
	}
	if !sensitive["api_key"] || sensitive["endpoint"] {
		t.Errorf("only api_key must be sensitive: %v", sensitive)
	}
}

func TestNodeImportIDMustNameSystemAndNode(t *testing.T) {
	server := protocolServer(t)
	for id, ok := range map[string]bool{"shop/web-01": true, "web-01": false, "/web-01": false, "shop/": false, "a/b/c": false} {
		resp, err := server.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{TypeName: "apm_node", ID: id})
		if err != nil {
			t.Fatal(err)
		}
		gotOK := len(resp.Diagnostics) == 0 && len(resp.ImportedResources) == 1
		if gotOK != ok {
			t.Errorf("import %q: ok=%v, want %v (%v)", id, gotOK, ok, resp.Diagnostics)
		}
		if !ok && (len(resp.Diagnostics) == 0 || !strings.Contains(resp.Diagnostics[0].Detail, "<system_name>/<name>")) {
			t.Errorf("import %q: the error must show the expected form: %v", id, resp.Diagnostics)
		}
	}
}

func TestClientConfigUsesEnvironmentAndDefaults(t *testing.T) {
	t.Setenv(envEndpoint, "https://env.example:8443")
	t.Setenv(envAPIKey, "env-key")
	t.Setenv(envCACertPEM, "")
	p := &apmProvider{version: "1.2.3"}

	cfg, diags := p.clientConfig(providerModel{RequestTimeout: types.StringNull(), MaxRetries: types.Int64Null()})
	if diags.HasError() {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	if cfg.Endpoint != "https://env.example:8443" || cfg.APIKey != "env-key" {
		t.Errorf("endpoint/key from environment: got %q / %q", cfg.Endpoint, cfg.APIKey)
	}
	if cfg.RequestTimeout != apm.DefaultRequestTimeout || cfg.MaxRetries != apm.DefaultMaxRetries {
		t.Errorf("defaults: got timeout %v retries %d", cfg.RequestTimeout, cfg.MaxRetries)
	}
	if cfg.UserAgent != "terraform-provider-apm/1.2.3" {
		t.Errorf("user agent %q", cfg.UserAgent)
	}

	cfg, _ = p.clientConfig(providerModel{
		Endpoint: types.StringValue("https://conf.example"), APIKey: types.StringValue("conf-key"),
		RequestTimeout: types.StringValue("5s"), MaxRetries: types.Int64Value(0),
	})
	if cfg.Endpoint != "https://conf.example" || cfg.APIKey != "conf-key" || cfg.RequestTimeout != 5*time.Second || cfg.MaxRetries != 0 {
		t.Errorf("configuration must win over environment: %+v", cfg)
	}
}

func TestClientConfigMissingSettingsNameTheEnvironment(t *testing.T) {
	t.Setenv(envEndpoint, "")
	t.Setenv(envAPIKey, "")
	_, diags := (&apmProvider{}).clientConfig(providerModel{})
	if diags.ErrorsCount() != 2 {
		t.Fatalf("want 2 errors, got %v", diags)
	}
	text := fmt.Sprint(diags)
	for _, want := range []string{"APM_ENDPOINT", "APM_API_KEY"} {
		if !strings.Contains(text, want) {
			t.Errorf("diagnostics do not name %s: %s", want, text)
		}
	}
}

func TestUnknownSettingsAreListed(t *testing.T) {
	got := unknownSettings(providerModel{Endpoint: types.StringUnknown(), APIKey: types.StringUnknown(), MaxRetries: types.Int64Value(1)})
	if strings.Join(got, ",") != "api_key,endpoint" {
		t.Errorf("got %v", got)
	}
	data := &providerData{unconfigured: "the provider arguments endpoint are not known until apply"}
	if _, diags := data.apiClient(); !diags.HasError() || !strings.Contains(fmt.Sprint(diags), "not known until apply") {
		t.Errorf("an unconfigured provider must explain itself, got %v", diags)
	}
}

func TestExplainGivesAdvicePerKind(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&apm.Error{StatusCode: 401, Code: "UNAUTHORIZED", Message: "Unauthorized"}, "APM_API_KEY"},
		{&apm.Error{StatusCode: 403, Code: "FORBIDDEN", Message: "Access denied"}, "administrator key"},
		{&apm.Error{StatusCode: 400, Code: "BAD_REQUEST", Message: "bad"}, "Correct the configuration"},
		{&apm.Error{StatusCode: 200, Code: "ACTION_FAILED", Message: "port in use"}, "reported that the operation failed"},
		{&apm.Error{StatusCode: 503, Code: "", Message: "down"}, "failed internally"},
		{errors.New("dial tcp 127.0.0.1:1: connection refused"), "could not be reached"},
		{fmt.Errorf("GET /rest/systems: %w", context.DeadlineExceeded), "ran out of time"},
	}
	for _, c := range cases {
		if got := explain(c.err); !strings.Contains(got, c.want) || !strings.Contains(got, c.err.Error()) {
			t.Errorf("explain(%v) = %q, want the error and %q", c.err, got, c.want)
		}
	}
}

func TestCreateConflictSuggestsImport(t *testing.T) {
	d := createError(`create node "shop/web-01"`, "apm_node", "shop/web-01",
		&apm.Error{StatusCode: 409, Code: "CONFLICT", Message: "Node already exists: web-01"})
	for _, want := range []string{"terraform import apm_node.<name> shop/web-01", `id = "shop/web-01"`, "Node already exists"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
	other := createError("create system", "apm_system", "x", &apm.Error{StatusCode: 400, Message: "bad"})
	if strings.Contains(other.Detail(), "import") {
		t.Errorf("only conflicts suggest an import: %s", other.Detail())
	}
}

func TestValidators(t *testing.T) {
	ip := ipAddressValidator{}
	for value, ok := range map[string]bool{"10.0.0.1": true, "::1": true, "fe80::1": true, "300.1.1.1": false, "host": false, "": false} {
		resp := &validator.StringResponse{}
		ip.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("host_ip"), ConfigValue: types.StringValue(value)}, resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("host_ip %q: error=%v, want valid=%v", value, resp.Diagnostics.HasError(), ok)
		}
	}
	d := durationValidator{}
	for value, ok := range map[string]bool{"30s": true, "1m30s": true, "0s": false, "-1s": false, "30": false} {
		resp := &validator.StringResponse{}
		d.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("request_timeout"), ConfigValue: types.StringValue(value)}, resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("request_timeout %q: error=%v, want valid=%v", value, resp.Diagnostics.HasError(), ok)
		}
	}
	for name, ok := range map[string]bool{"shop": true, "a_b-C9": true, "12345678901234567890": true, "123456789012345678901": false, "a b": false, "": false} {
		if systemNamePattern.MatchString(name) != ok {
			t.Errorf("system name %q: want valid=%v", name, ok)
		}
	}
	for name, ok := range map[string]bool{"web-01": true, "a.b": true, "...": true, ".": false, "..": false, "a b": false} {
		var diags diag.Diagnostics
		for _, v := range nodeNameValidators() {
			resp := &validator.StringResponse{}
			v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("name"), ConfigValue: types.StringValue(name)}, resp)
			diags.Append(resp.Diagnostics...)
		}
		if diags.HasError() == ok {
			t.Errorf("node name %q: error=%v, want valid=%v", name, diags.HasError(), ok)
		}
	}
}

func TestSameIPIgnoresSpelling(t *testing.T) {
	if !sameIP("::1", "0:0:0:0:0:0:0:1") || sameIP("10.0.0.1", "10.0.0.2") || sameIP("x", "x") {
		t.Error("sameIP compares addresses, not strings")
	}
}

func TestNodeModelKeepsUserSpellingOfSameAddress(t *testing.T) {
	prior := nodeModel{SystemName: types.StringValue("shop"), Name: types.StringValue("web-01"), HostIP: types.StringValue("fd00::1")}
	got := nodeModelFrom(&apm.Node{NodeID: "ND-1", HostIP: "fd00:0:0:0:0:0:0:1", AgentPort: 7730, Status: "running"}, prior)
	if got.HostIP.ValueString() != "fd00::1" || got.ID.ValueString() != "shop/web-01" || got.NodeID.ValueString() != "ND-1" {
		t.Errorf("got %+v", got)
	}
	moved := nodeModelFrom(&apm.Node{HostIP: "10.0.0.9"}, prior)
	if moved.HostIP.ValueString() != "10.0.0.9" {
		t.Errorf("a different address is drift and must show: got %s", moved.HostIP)
	}
}

func TestSystemModelFallsBackToNodeList(t *testing.T) {
	m := systemModelFrom(&apm.System{SystemID: "S1", SystemName: "shop", Nodes: []apm.SystemNode{{NodeName: "a"}, {NodeName: "b"}}})
	if m.NodeCount.ValueInt64() != 2 {
		t.Errorf("node_count = %d, want 2 from the node list", m.NodeCount.ValueInt64())
	}
}
