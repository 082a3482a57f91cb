package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// providerData is what Configure hands to every resource and data source.
type providerData struct {
	client *apm.Client
	// unconfigured says why there is no client (provider arguments unknown at plan time).
	unconfigured string
}

// apiClient returns the client, or an error diagnostic saying why there is none.
func (d *providerData) apiClient() (*apm.Client, diag.Diagnostics) {
	var diags diag.Diagnostics
	switch {
	case d == nil:
		diags.AddError("APM provider not configured",
			"The apm provider was not configured before this call. This is a bug in the provider; please report it.")
	case d.client == nil:
		diags.AddError("APM provider configuration not known yet",
			"This operation needs the manager, but "+d.unconfigured+". Apply the resources that the provider configuration depends on first (for example with -target), then run again.")
	default:
		return d.client, diags
	}
	return nil, diags
}

// asProviderData converts the untyped provider data of a Configure request.
func asProviderData(v any) (*providerData, diag.Diagnostics) {
	var diags diag.Diagnostics
	if v == nil {
		// Validation RPCs run before the provider is configured.
		return nil, diags
	}
	data, ok := v.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", v))
	}
	return data, diags
}

// resourceBase gives a resource its provider data; embed it in every resource type.
type resourceBase struct {
	data *providerData
}

func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	data, diags := asProviderData(req.ProviderData)
	resp.Diagnostics.Append(diags...)
	if data != nil {
		b.data = data
	}
}

// dataSourceBase gives a data source its provider data; embed it in every data source type.
type dataSourceBase struct {
	data *providerData
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	data, diags := asProviderData(req.ProviderData)
	resp.Diagnostics.Append(diags...)
	if data != nil {
		b.data = data
	}
}

// stateSetter is the part of tfsdk.State that the read-back helpers need.
type stateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// prepare is the common start of every CRUD and Read method: it decodes the request's
// model with get (req.Plan.Get, req.State.Get or req.Config.Get) and fetches the client.
// ok is false when diagnostics hold an error and the method must return.
func prepare[M any](ctx context.Context, data *providerData, get func(context.Context, any) diag.Diagnostics, diags *diag.Diagnostics) (model M, client *apm.Client, ok bool) {
	diags.Append(get(ctx, &model)...)
	client, clientDiags := data.apiClient()
	diags.Append(clientDiags...)
	return model, client, !diags.HasError()
}
