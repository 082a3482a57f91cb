package provider

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tfsdklog"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/apmplatform/terraform-provider-apm/internal/tfserver"
)

// BenchmarkNodeRefresh is the provider's cost per node of a refresh: one ReadResource
// through the protocol server, as Terraform calls it, with the loggers tf6server sets up
// for each request. The manager is a recording of apmsim's answers served as is, so that
// the allocations per operation are the provider's alone (client, engine, framework and
// SDK loggers): its allocations per node of a plan. "logs=sdk-default" is what every run
// cost before the provider switched its loggers off (no TF_LOG set: the SDK logs at
// TRACE and the CLI throws the lines away); "logs=off" is that run now.
func BenchmarkNodeRefresh(b *testing.B) {
	ctx := context.Background()
	manager, systemID := recordedManager(ctx, b)
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	stderr := os.Stderr
	os.Stderr = devNull // the loggers write where Terraform would read and discard
	defer func() { os.Stderr = stderr }()

	for _, mode := range []struct{ name, level string }{{"sdk-default", ""}, {"off", "OFF"}} {
		b.Run("logs="+mode.name, func(b *testing.B) {
			for _, name := range tfserver.LoggerLevels() {
				b.Setenv(name, mode.level)
			}
			srv := NewProtocol6Server("bench")()
			configureProtocolServer(requestLoggers(ctx), b, srv, manager.URL, "bench-key")
			req := &tfprotov6.ReadResourceRequest{TypeName: "apm_node", CurrentState: nodeState(ctx, b, srv, systemID)}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				resp, err := srv.ReadResource(requestLoggers(ctx), req)
				if err != nil || failed(resp.Diagnostics) || resp.NewState == nil {
					b.Fatalf("read: %v %v", err, resp.Diagnostics)
				}
			}
		})
	}
}

// requestLoggers are the loggers tf6server puts into each request's context, with the
// levels from the environment as there.
func requestLoggers(ctx context.Context) context.Context {
	ctx = tfsdklog.NewRootSDKLogger(ctx, tfsdklog.WithLevelFromEnv("TF_LOG_SDK"))
	ctx = tfsdklog.NewSubsystem(ctx, "proto", tfsdklog.WithLevelFromEnv("TF_LOG_SDK_PROTO"))
	return tfsdklog.NewRootProviderLogger(ctx, tfsdklog.WithLogName("apm"), tflog.WithLevelFromEnv("TF_LOG_PROVIDER", "APM"))
}

// recordedManager records apmsim's answers to the list of systems and to the detail of
// node web-01 of system shop, and serves them from memory.
func recordedManager(ctx context.Context, b *testing.B) (*httptest.Server, string) {
	b.Helper()
	sim := apmsimtest.Start(b)
	admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey})
	if err != nil {
		b.Fatal(err)
	}
	if err := admin.CreateSystem(ctx, "shop"); err != nil {
		b.Fatal(err)
	}
	if err := admin.CreateNode(ctx, apm.CreateNodeRequest{NodeName: "web-01", SystemName: "shop", HostIP: "10.0.0.1", AgentPort: 7730}); err != nil {
		b.Fatal(err)
	}
	system, err := admin.GetSystem(ctx, "shop")
	if err != nil {
		b.Fatal(err)
	}
	answers := map[string][]byte{}
	for _, path := range []string{"/rest/systems", "/rest/nodes/web-01/systems/shop"} {
		resp, err := http.Get(sim.URL + path + "?key=" + sim.AdminKey) //nolint:noctx // set-up
		if err != nil {
			b.Fatal(err)
		}
		answers[path], err = io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("recording %s: %d %v", path, resp.StatusCode, err)
		}
	}
	manager := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(manager.Close)
	return manager, system.SystemID
}

// configureProtocolServer configures srv (a benchmark's, a test's) for the manager at endpoint.
func configureProtocolServer(ctx context.Context, b testing.TB, srv tfprotov6.ProviderServer, endpoint, key string) {
	b.Helper()
	schema, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	typ := schema.Provider.ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema is an object
	vals := map[string]tftypes.Value{}
	for name, t := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(t, nil)
	}
	vals["endpoint"] = tftypes.NewValue(tftypes.String, endpoint)
	vals["api_key"] = tftypes.NewValue(tftypes.String, key)
	config, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		b.Fatal(err)
	}
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &config})
	if err != nil || failed(resp.Diagnostics) {
		b.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
}

// failed reports whether diags hold an error (the http:// endpoint's warning is fine here).
func failed(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// nodeState is the state of node web-01 of the system with id systemID.
func nodeState(ctx context.Context, b *testing.B, srv tfprotov6.ProviderServer, systemID string) *tfprotov6.DynamicValue {
	b.Helper()
	schema, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	typ := schema.ResourceSchemas["apm_node"].ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema is an object
	vals := map[string]tftypes.Value{}
	for name, t := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(t, nil)
	}
	vals["id"] = tftypes.NewValue(tftypes.String, systemID+"/web-01")
	vals["system_id"] = tftypes.NewValue(tftypes.String, systemID)
	vals["name"] = tftypes.NewValue(tftypes.String, "web-01")
	vals["host_ip"] = tftypes.NewValue(tftypes.String, "10.0.0.1")
	vals["agent_port"] = engine.Int64Value(7730)
	state, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		b.Fatal(err)
	}
	return &state
}
