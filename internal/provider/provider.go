// Package provider is the Terraform glue of the APM provider: schemas, plan modifiers,
// validators and diagnostics. All HTTP goes through internal/apm.
package provider

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // time_zone names resolve on machines without a zone database

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
	"github.com/apmplatform/terraform-provider-apm/internal/tfserver"
)

// Environment variables read when the matching provider argument is not set.
const (
	envAdopt = "APM_ADOPT_EXISTING"
)

var (
	_ provider.Provider                  = (*apmProvider)(nil)
	_ provider.ProviderWithFunctions     = (*apmProvider)(nil)
	_ provider.ProviderWithListResources = (*apmProvider)(nil)
)

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
	AdoptExisting       types.Bool   `tfsdk:"adopt_existing"`
	TimeZone            types.String `tfsdk:"time_zone"`
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
				MarkdownDescription: "Base URL of the manager, for example `https://apm.example.com:8443`. May also be set with the `" + engine.EnvEndpoint + "` environment variable; a configured value wins, so it must not be empty.",
				Optional:            true,
				Validators:          []validator.String{notEmpty("endpoint", engine.EnvEndpoint), endpointValidator()},
			},
			"api_key": schema.StringAttribute{
				MarkdownDescription: "API key sent with every request outside `/rest/public`. Prefer the `" + engine.EnvAPIKey + "` environment variable, or pass the key from an `ephemeral` variable: " +
					"a value from a normal (even `sensitive`) variable is stored in saved plan files. A configured value wins over the environment, so it must not be empty. " +
					"Without a key only `apm_manager_info` and `apm_public_nodes` work; resources then fail at plan.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{notEmpty("api_key", engine.EnvAPIKey), apiKeyValidator()},
			},
			"ca_cert_pem": schema.StringAttribute{
				MarkdownDescription: "PEM-encoded CA certificate(s) trusted in addition to the system roots when connecting over HTTPS. May also be set with the `" + engine.EnvCACertPEM + "` environment variable; a configured value wins, so it must not be empty.",
				Optional:            true,
				Validators:          []validator.String{notEmpty("ca_cert_pem", engine.EnvCACertPEM), caCertValidator()},
			},
			"insecure_skip_verify": schema.BoolAttribute{
				MarkdownDescription: "Skip verification of the manager's TLS certificate. For testing only. Defaults to `false`.",
				Optional:            true,
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: "Time limit of one HTTP request attempt, as a Go duration from `1s` to `10m` such as `30s` or `2m`. Defaults to `30s`.",
				Optional:            true,
				Validators:          []validator.String{engine.DurationValidator(minRequestTimeout, maxRequestTimeout)},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "How many times a failed request is retried, from `0` (never) to `20`. Which failures are retried, and how long the provider waits between attempts, " +
					"is described under \"Timeouts and retries\" on the provider's page. Defaults to `4`.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 20)},
			},
			"skip_connection_check": schema.BoolAttribute{
				MarkdownDescription: "Skip the one request with which the provider checks the endpoint, the TLS settings and the API key when it starts " +
					"(a list of the systems, or the public manager information when no key is set), and the look-up with which plan checks that an object to be " +
					"created does not exist yet. Set it to plan without network access to the manager. Defaults to `false`.",
				Optional: true,
			},
			"adopt_existing": schema.BoolAttribute{
				MarkdownDescription: "When a create finds that an object with the same identity already exists (the manager answers 409), take it into the state if it matches the configuration " +
					"exactly, and fail naming the differences if it does not. For recovering from an interrupted run whose state was lost (a killed CLI). " +
					"Risk: two configurations can then both manage one object. May also be set with the `" + envAdopt + "` environment variable (`true` or `false`). Defaults to `false`.",
				Optional: true,
			},
			"time_zone": schema.StringAttribute{
				MarkdownDescription: "IANA name of the manager's time zone, such as `Europe/Berlin`. The manager's times carry no zone (they are its local wall clock): " +
					"data sources give each one as the manager does and also in RFC 3339 read in this zone, and count the days until a license expires from today in it. Defaults to `" + defaultTimeZone + "`.",
				Optional:   true,
				Validators: []validator.String{timeZoneValidator()},
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
		data.Unconfigured(fmt.Sprintf("the provider arguments %s are not known until apply", strings.Join(unknown, ", ")))
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
	adopt, err := adoptSetting(cfg.AdoptExisting)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("adopt_existing"), "Invalid "+envAdopt, err.Error())
		return
	}
	zone, err := loadTimeZone(cmp.Or(cfg.TimeZone.ValueString(), defaultTimeZone))
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("time_zone"), "Invalid time zone", err.Error())
		return
	}
	c := newConn(client)
	c.zone = zone
	if !cfg.SkipConnectionCheck.ValueBool() {
		if err := c.checkConnection(ctx, clientCfg.APIKey != ""); err != nil {
			resp.Diagnostics.AddError("Cannot use the APM manager at "+apm.ShownEndpoint(clientCfg.Endpoint), engine.Explain(err)+
				"\n\nThe provider checks the endpoint and the API key when it starts. To plan without a manager, set skip_connection_check = true.")
			return
		}
	}
	data.Connect(c, engine.Settings{HasKey: clientCfg.APIKey != "", Adopt: adopt, MaxRetries: client.MaxRetries(),
		SkipLookups: cfg.SkipConnectionCheck.ValueBool()})
}

// checkConnection makes one cheap request, so that a wrong endpoint, an untrusted
// certificate or a rejected key fail the plan rather than the apply. With a key it lists
// the systems, which the directory keeps for the children's reads; without one it can
// only reach the public manager information.
func (c *conn) checkConnection(ctx context.Context, withKey bool) error {
	if !withKey {
		_, err := c.ManagerInfo(ctx)
		return err
	}
	_, err := c.listSystems(ctx)
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
		"adopt_existing":        cfg.AdoptExisting.IsUnknown(),
		"time_zone":             cfg.TimeZone.IsUnknown(),
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
		Endpoint:           stringOrEnv(cfg.Endpoint, engine.EnvEndpoint),
		APIKey:             stringOrEnv(cfg.APIKey, engine.EnvAPIKey),
		CACertPEM:          stringOrEnv(cfg.CACertPEM, engine.EnvCACertPEM),
		InsecureSkipVerify: cfg.InsecureSkipVerify.ValueBool(),
		RequestTimeout:     apm.DefaultRequestTimeout,
		MaxRetries:         apm.DefaultMaxRetries,
		UserAgent:          "terraform-provider-apm/" + p.version,
		Silent:             tfserver.ProviderLogsOff(),
	}
	if out.Endpoint == "" {
		diags.AddAttributeError(path.Root("endpoint"), "Missing APM endpoint",
			"Set the endpoint argument of the apm provider, or the "+engine.EnvEndpoint+" environment variable, to the manager's base URL, for example https://apm.example.com:8443.")
	}
	if summary, detail := endpointProblem(out.Endpoint); out.Endpoint != "" && summary != "" {
		diags.AddAttributeError(path.Root("endpoint"), summary, detail)
	}
	if cfg.CACertPEM.IsNull() && out.CACertPEM != "" {
		// The attribute's validator checks a configured value; one from the environment is
		// checked here, naming the variable it came from.
		if err := apm.CheckCACertPEM(out.CACertPEM); err != nil {
			diags.AddError("Invalid "+engine.EnvCACertPEM, fmt.Sprintf("The %s environment variable, which stands in for ca_cert_pem, is not usable: %v. "+
				"Set it to the PEM contents of the CA certificate(s), for example with export %s=\"$(cat ca.pem)\", or unset it.", engine.EnvCACertPEM, err, engine.EnvCACertPEM))
		}
	}
	diags.Append(transportWarnings(cfg, out)...)
	if !cfg.RequestTimeout.IsNull() {
		// Already validated at plan time by engine.DurationValidator.
		if d, err := time.ParseDuration(cfg.RequestTimeout.ValueString()); err == nil {
			out.RequestTimeout = d
		}
	}
	if !cfg.MaxRetries.IsNull() {
		out.MaxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	return out, diags
}

// transportWarnings are the settings that expose the API key to anyone on the network path:
// plain HTTP, and TLS without verification (a man in the middle gets the key as easily).
// The endpoint is read as the client reads it, trimmed: a value from a YAML block scalar or
// $(cat file) starts or ends with white space.
func transportWarnings(cfg providerModel, out apm.Config) diag.Diagnostics {
	var diags diag.Diagnostics
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(out.Endpoint)), "http://") {
		diags.AddAttributeWarning(path.Root("endpoint"), "APM endpoint without TLS",
			"The endpoint uses plain http://, so the API key and everything else travel unencrypted. Use https:// for any manager outside a test set-up.")
	}
	if !out.InsecureSkipVerify {
		return diags
	}
	diags.AddAttributeWarning(path.Root("insecure_skip_verify"), "APM manager's certificate not verified",
		"insecure_skip_verify = true accepts any certificate, so whoever sits on the network path can pose as the manager and receive the API key. "+
			"Give the CA certificate that signed the manager's certificate in ca_cert_pem (or "+engine.EnvCACertPEM+") instead, for any manager outside a test set-up.")
	if out.CACertPEM != "" {
		from := "ca_cert_pem"
		if cfg.CACertPEM.IsNull() {
			from = "the " + engine.EnvCACertPEM + " environment variable"
		}
		diags.AddAttributeWarning(path.Root("insecure_skip_verify"), "CA certificate ignored",
			"The CA certificate in "+from+" is not used while insecure_skip_verify = true: no certificate is verified. Remove insecure_skip_verify to verify the manager with that CA.")
	}
	return diags
}

// stringOrEnv is the configured value, else the environment's. A configured empty string
// is refused at validation (notEmpty), so it never falls back here.
func stringOrEnv(v types.String, env string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	return os.Getenv(env)
}

// adoptSetting is adopt_existing as configured, else from APM_ADOPT_EXISTING
// (strconv.ParseBool spellings).
func adoptSetting(v types.Bool) (bool, error) {
	if !v.IsNull() {
		return v.ValueBool(), nil
	}
	raw := strings.TrimSpace(os.Getenv(envAdopt))
	if raw == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		return false, fmt.Errorf("%s=%q is not a boolean: use true or false", envAdopt, raw)
	}
	return b, nil
}
