// Package provider is the Terraform glue of the APM provider: schemas, plan modifiers,
// validators and diagnostics. All HTTP goes through internal/apm.
package provider

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// Environment variables read when the matching provider argument is not set.
const (
	envEndpoint  = "APM_ENDPOINT"
	envAPIKey    = "APM_API_KEY"
	envCACertPEM = "APM_CA_CERT_PEM"
)

var _ provider.Provider = (*apmProvider)(nil)

// New returns a constructor for the provider, as providerserver expects.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &apmProvider{version: version} }
}

type apmProvider struct {
	version string
}

type providerModel struct {
	Endpoint            types.String `tfsdk:"endpoint"`
	APIKey              types.String `tfsdk:"api_key"`
	CACertPEM           types.String `tfsdk:"ca_cert_pem"`
	InsecureSkipVerify  types.Bool   `tfsdk:"insecure_skip_verify"`
	RequestTimeout      types.String `tfsdk:"request_timeout"`
	MaxRetries          types.Int64  `tfsdk:"max_retries"`
	SkipConnectionCheck types.Bool   `tfsdk:"skip_connection_check"`
}

func (p *apmProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "apm"
	resp.Version = p.version
}

func (p *apmProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages systems, nodes and servers of an application platform manager through its HTTP/JSON management interface.",
		Attributes: map[string]schema.Attribute{
			"endpoint": schema.StringAttribute{
				MarkdownDescription: "Base URL of the manager, for example `https://apm.example.com:8443`. May also be set with the `" + envEndpoint + "` environment variable.",
				Optional:            true,
			},
			"api_key": schema.StringAttribute{
				MarkdownDescription: "API key sent with every request outside `/rest/public`. May also be set with the `" + envAPIKey + "` environment variable, which is preferred: keep keys out of configuration files. " +
					"Without a key only `apm_manager_info` and `apm_public_nodes` work; resources then fail at plan.",
				Optional:  true,
				Sensitive: true,
			},
			"ca_cert_pem": schema.StringAttribute{
				MarkdownDescription: "PEM-encoded CA certificate(s) trusted in addition to the system roots when connecting over HTTPS. May also be set with the `" + envCACertPEM + "` environment variable.",
				Optional:            true,
			},
			"insecure_skip_verify": schema.BoolAttribute{
				MarkdownDescription: "Skip verification of the manager's TLS certificate. For testing only. Defaults to `false`.",
				Optional:            true,
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: "Time limit of one HTTP request attempt, as a Go duration such as `30s` or `2m`. Defaults to `30s`.",
				Optional:            true,
				Validators:          []validator.String{durationValidator{}},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "How many times a failed request is retried, with capped exponential backoff that honours `Retry-After`: " +
					"GET, PUT and DELETE on connection errors, time-outs, 429, 502, 503 and 504; POST only when the connection could not be opened (nothing was sent). " +
					"4xx answers are never retried. Defaults to `4`.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 20)},
			},
			"skip_connection_check": schema.BoolAttribute{
				MarkdownDescription: "Skip the one request with which the provider checks the endpoint, the TLS settings and the API key when it starts " +
					"(a list of the systems, or the public manager information when no key is set). Set it to plan without network access to the manager. Defaults to `false`.",
				Optional: true,
			},
		},
	}
}

func (p *apmProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	data := &providerData{}
	// Set the data before any early return so that every kind sees the same value.
	resp.DataSourceData = data
	resp.ResourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
	resp.ListResourceData = data

	if unknown := unknownSettings(cfg); len(unknown) > 0 {
		// Configuration derived from resources not yet created: Terraform can still plan
		// creations, and any call that needs the manager explains why it cannot run.
		data.unconfigured = fmt.Sprintf("the provider arguments %s are not known until apply", strings.Join(unknown, ", "))
		return
	}

	clientCfg, diags := p.clientConfig(cfg)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	client, err := apm.New(clientCfg)
	if err != nil {
		resp.Diagnostics.AddError("Invalid APM provider configuration", err.Error())
		return
	}
	m := &manager{Client: client, systems: newSystemDirectory()}
	if !cfg.SkipConnectionCheck.ValueBool() {
		if err := m.checkConnection(ctx, clientCfg.APIKey != ""); err != nil {
			resp.Diagnostics.AddError("Cannot use the APM manager at "+clientCfg.Endpoint, explain(err)+
				"\n\nThe provider checks the endpoint and the API key when it starts. To plan without a manager, set skip_connection_check = true.")
			return
		}
	}
	data.m, data.hasKey = m, clientCfg.APIKey != ""
}

// checkConnection makes one cheap request, so that a wrong endpoint, an untrusted
// certificate or a rejected key fail the plan rather than the apply. With a key it lists
// the systems, which the directory keeps for the children's reads; without one it can
// only reach the public manager information.
func (m *manager) checkConnection(ctx context.Context, withKey bool) error {
	if !withKey {
		_, err := m.ManagerInfo(ctx)
		return err
	}
	_, err := m.listSystems(ctx)
	return err
}

// unknownSettings names the provider arguments whose values are unknown at this point.
func unknownSettings(cfg providerModel) []string {
	var names []string
	for name, unknown := range map[string]bool{
		"endpoint":              cfg.Endpoint.IsUnknown(),
		"api_key":               cfg.APIKey.IsUnknown(),
		"ca_cert_pem":           cfg.CACertPEM.IsUnknown(),
		"insecure_skip_verify":  cfg.InsecureSkipVerify.IsUnknown(),
		"request_timeout":       cfg.RequestTimeout.IsUnknown(),
		"max_retries":           cfg.MaxRetries.IsUnknown(),
		"skip_connection_check": cfg.SkipConnectionCheck.IsUnknown(),
	} {
		if unknown {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// clientConfig merges configuration, environment variables and defaults.
func (p *apmProvider) clientConfig(cfg providerModel) (apm.Config, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := apm.Config{
		Endpoint:           stringOrEnv(cfg.Endpoint, envEndpoint),
		APIKey:             stringOrEnv(cfg.APIKey, envAPIKey),
		CACertPEM:          stringOrEnv(cfg.CACertPEM, envCACertPEM),
		InsecureSkipVerify: cfg.InsecureSkipVerify.ValueBool(),
		RequestTimeout:     apm.DefaultRequestTimeout,
		MaxRetries:         apm.DefaultMaxRetries,
		UserAgent:          "terraform-provider-apm/" + p.version,
	}
	if out.Endpoint == "" {
		diags.AddAttributeError(path.Root("endpoint"), "Missing APM endpoint",
			"Set the endpoint argument of the apm provider, or the "+envEndpoint+" environment variable, to the manager's base URL, for example https://apm.example.com:8443.")
	}
	if out.Endpoint != "" && !strings.Contains(out.Endpoint, "://") {
		diags.AddAttributeError(path.Root("endpoint"), "APM endpoint without a scheme",
			fmt.Sprintf("The endpoint %q has no scheme. Write it as a URL: https://%s (or http:// for a manager without TLS).", out.Endpoint, out.Endpoint))
	}
	if strings.HasPrefix(strings.ToLower(out.Endpoint), "http://") {
		diags.AddAttributeWarning(path.Root("endpoint"), "APM endpoint without TLS",
			"The endpoint uses plain http://, so the API key and everything else travel unencrypted. Use https:// for any manager outside a test set-up.")
	}
	if !cfg.RequestTimeout.IsNull() {
		// Already validated at plan time by durationValidator.
		if d, err := time.ParseDuration(cfg.RequestTimeout.ValueString()); err == nil {
			out.RequestTimeout = d
		}
	}
	if !cfg.MaxRetries.IsNull() {
		out.MaxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	return out, diags
}

func stringOrEnv(v types.String, env string) string {
	if !v.IsNull() && v.ValueString() != "" {
		return v.ValueString()
	}
	return os.Getenv(env)
}

func (p *apmProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newSystemResource,
		newNodeResource,
	}
}

func (p *apmProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newSystemsDataSource,
		newSystemDataSource,
		newNodesDataSource,
		newNodeDataSource,
		newPublicNodesDataSource,
		newManagerInfoDataSource,
	}
}
