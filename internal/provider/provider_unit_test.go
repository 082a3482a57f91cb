package provider

import (
	"context"
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
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

func protocolServer(t *testing.T) tfprotov6.ProviderServer {
	t.Helper()
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	return server
}

func TestClientConfigUsesEnvironmentAndDefaults(t *testing.T) {
	t.Setenv(engine.EnvEndpoint, "https://env.example:8443")
	t.Setenv(engine.EnvAPIKey, "env-key")
	t.Setenv(engine.EnvCACertPEM, "")
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

func TestClientConfigChecksEndpoint(t *testing.T) {
	t.Setenv(engine.EnvEndpoint, "")
	t.Setenv(engine.EnvAPIKey, "")
	_, diags := (&apmProvider{}).clientConfig(providerModel{})
	if diags.ErrorsCount() != 1 || !strings.Contains(fmt.Sprint(diags), "APM_ENDPOINT") {
		t.Errorf("a missing endpoint must be the only error (a key is optional) and name APM_ENDPOINT: %v", diags)
	}
	_, diags = (&apmProvider{}).clientConfig(providerModel{Endpoint: types.StringValue("10.0.0.1:8443")})
	if !diags.HasError() || !strings.Contains(fmt.Sprint(diags), "https://10.0.0.1:8443") {
		t.Errorf("an endpoint without scheme must suggest one: %v", diags)
	}
	_, diags = (&apmProvider{}).clientConfig(providerModel{Endpoint: types.StringValue("http://10.0.0.1:8080")})
	if diags.HasError() || diags.WarningsCount() != 1 || !strings.Contains(fmt.Sprint(diags), "without TLS") {
		t.Errorf("plain http must be a warning only: %v", diags)
	}
}

func TestUnknownSettingsAreListed(t *testing.T) {
	got := unknownSettings(providerModel{Endpoint: types.StringUnknown(), APIKey: types.StringUnknown(), MaxRetries: types.Int64Value(1)})
	if strings.Join(got, ",") != "api_key,endpoint" {
		t.Errorf("got %v", got)
	}
}

func TestValidators(t *testing.T) {
	ip := ipAddressValidator()
	for value, ok := range map[string]bool{
		"10.0.0.1": true, "::1": true, "fe80::1": true, "2001:db8::7": true,
		"300.1.1.1": false, "host": false, "": false, "fe80::1%eth0": false, "0.0.0.0": false, "::": false,
		"224.0.0.1": false, "ff02::1": false, "255.255.255.255": false, " 10.0.0.1": false, "10.0.0.1/24": false,
	} {
		resp := &validator.StringResponse{}
		ip.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("host_ip"), ConfigValue: types.StringValue(value)}, resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("host_ip %q: error=%v, want valid=%v", value, resp.Diagnostics.HasError(), ok)
		}
	}
	d := engine.DurationValidator(minRequestTimeout, maxRequestTimeout)
	for value, ok := range map[string]bool{"30s": true, "1m30s": true, "1s": true, "10m": true, "0s": false, "-1s": false, "30": false, "1ns": false, "999ms": false, "10m1s": false} {
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

func TestNotEmptyRefusesOnlyEmptyValues(t *testing.T) {
	v := notEmpty("api_key", engine.EnvAPIKey)
	for value, ok := range map[string]bool{"k": true, "": false, "  ": false} {
		resp := &validator.StringResponse{}
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("api_key"), ConfigValue: types.StringValue(value)}, resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("api_key %q: error=%v, want valid=%v", value, resp.Diagnostics.HasError(), ok)
		}
		if !ok && !strings.Contains(fmt.Sprint(resp.Diagnostics), "Remove the argument to use "+engine.EnvAPIKey) {
			t.Errorf("the error must say how to use the environment: %v", resp.Diagnostics)
		}
	}
	resp := &validator.StringResponse{}
	v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("api_key"), ConfigValue: types.StringNull()}, resp)
	if resp.Diagnostics.HasError() {
		t.Errorf("an unset argument is fine: %v", resp.Diagnostics)
	}
}

func TestConfiguredSettingsWinOverEnvironment(t *testing.T) {
	t.Setenv(engine.EnvAPIKey, "from-env")
	t.Setenv(envAdopt, "true")
	if got := stringOrEnv(types.StringValue("configured"), engine.EnvAPIKey); got != "configured" {
		t.Errorf("configured value lost: %q", got)
	}
	if got := stringOrEnv(types.StringNull(), engine.EnvAPIKey); got != "from-env" {
		t.Errorf("unset value must come from the environment: %q", got)
	}
	if got, err := adoptSetting(types.BoolValue(false)); err != nil || got {
		t.Errorf("adopt_existing = false must win over %s=true: %v %v", envAdopt, got, err)
	}
	if got, err := adoptSetting(types.BoolNull()); err != nil || !got {
		t.Errorf("unset adopt_existing must come from the environment: %v %v", got, err)
	}
	t.Setenv(envAdopt, "maybe")
	if _, err := adoptSetting(types.BoolNull()); err == nil || !strings.Contains(err.Error(), envAdopt) {
		t.Errorf("a bad %s must be an error naming it: %v", envAdopt, err)
	}
}

// A CA certificate from the environment that is no certificate fails naming the variable
// (the attribute's own validator only sees a configured value).
func TestClientConfigNamesABadCACertVariable(t *testing.T) {
	t.Setenv(engine.EnvEndpoint, "https://10.0.0.1:8443")
	t.Setenv(engine.EnvCACertPEM, "not a certificate")
	_, diags := (&apmProvider{}).clientConfig(providerModel{})
	if !diags.HasError() || !strings.Contains(fmt.Sprint(diags), "Invalid APM_CA_CERT_PEM") || !strings.Contains(fmt.Sprint(diags), "unset it") {
		t.Errorf("a bad %s must be an error naming it: %v", engine.EnvCACertPEM, diags)
	}
	t.Setenv(engine.EnvCACertPEM, "")
	if _, diags := (&apmProvider{}).clientConfig(providerModel{}); diags.HasError() {
		t.Errorf("without the variable there is nothing to refuse: %v", diags)
	}
}

// No diagnostic about the endpoint shows what was typed into it beyond scheme and host: a
// key typed into the endpoint (its query, its path) was shown in full by the validator and
// the provider's configuration, and from there in the TRACE log.
func TestEndpointDiagnosticsNeverEchoTheEndpoint(t *testing.T) {
	const secret = "SEKRETadmin123"
	for _, raw := range []string{"https://127.0.0.1:18443/?key=" + secret, "ftp://host/" + secret, "host:1/" + secret, "https://host:1/#" + secret} {
		t.Setenv(engine.EnvEndpoint, raw)
		_, diags := (&apmProvider{}).clientConfig(providerModel{})
		resp := &validator.StringResponse{}
		endpointValidator().ValidateString(context.Background(), validator.StringRequest{Path: path.Root("endpoint"), ConfigValue: types.StringValue(raw)}, resp)
		diags.Append(resp.Diagnostics...)
		if !diags.HasError() {
			t.Errorf("%q accepted", raw)
		}
		if text := fmt.Sprint(diags); strings.Contains(text, secret) {
			t.Errorf("%q: a diagnostic shows the secret: %s", raw, text)
		}
	}
}

// Every setting that lets the key reach someone on the network path warns: plain HTTP also
// when the value starts with white space (a YAML block scalar, $(cat file)), which skipped
// the warning before; and insecure_skip_verify, which warned of nothing, also saying that a
// CA certificate set beside it is ignored.
func TestClientConfigWarnsWhereTheKeyTravelsExposed(t *testing.T) {
	const ca = "-----BEGIN CERTIFICATE-----"
	for _, tc := range []struct {
		name    string
		cfg     providerModel
		envCA   string
		want    []string
		wantNot string
	}{
		{"plain http after white space", providerModel{Endpoint: types.StringValue(" \n http://10.0.0.1:8080")}, "", []string{"without TLS"}, "not verified"},
		{"verification off", providerModel{Endpoint: types.StringValue("https://h:1"), InsecureSkipVerify: types.BoolValue(true)}, "", []string{"not verified"}, "CA certificate ignored"},
		{"verification off beside ca_cert_pem", providerModel{Endpoint: types.StringValue("https://h:1"), InsecureSkipVerify: types.BoolValue(true), CACertPEM: types.StringValue(ca)}, "",
			[]string{"not verified", "CA certificate in ca_cert_pem is not used"}, ""},
		{"verification off beside the CA variable", providerModel{Endpoint: types.StringValue("https://h:1"), InsecureSkipVerify: types.BoolValue(true)}, ca,
			[]string{"not verified", "in the " + engine.EnvCACertPEM + " environment variable is not used"}, ""},
		{"verified https", providerModel{Endpoint: types.StringValue("https://h:1")}, "", nil, "Warning"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(engine.EnvCACertPEM, tc.envCA)
			out := apm.Config{Endpoint: tc.cfg.Endpoint.ValueString(), InsecureSkipVerify: tc.cfg.InsecureSkipVerify.ValueBool(), CACertPEM: stringOrEnv(tc.cfg.CACertPEM, engine.EnvCACertPEM)}
			diags := transportWarnings(tc.cfg, out)
			text := fmt.Sprint(diags)
			if diags.HasError() || diags.WarningsCount() != len(tc.want) {
				t.Errorf("%d warnings, want %d: %s", diags.WarningsCount(), len(tc.want), text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("no %q among %s", w, text)
				}
			}
			if tc.wantNot != "" && strings.Contains(text, tc.wantNot) {
				t.Errorf("%q among %s", tc.wantNot, text)
			}
		})
	}
}
