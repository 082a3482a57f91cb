package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// providerData is what Configure hands to every resource and data source.
type providerData struct {
	m *manager
	// unconfigured says why there is no manager (provider arguments unknown at plan time).
	unconfigured string
	// hasKey is false when no API key is configured: only the public calls can work.
	hasKey bool
}

// manager returns the manager, or an error diagnostic saying why there is none.
func (d *providerData) manager() (*manager, diag.Diagnostics) {
	var diags diag.Diagnostics
	switch {
	case d == nil:
		diags.AddError("APM provider not configured",
			"The apm provider was not configured before this call. This is a bug in the provider; please report it.")
	case d.m == nil:
		diags.AddError("APM provider configuration not known yet",
			"This operation needs the manager, but "+d.unconfigured+". Apply the resources that the provider configuration depends on first (for example with -target), then run again.")
	default:
		return d.m, diags
	}
	return nil, diags
}

// requireKey fails when no API key is configured, so that a configuration with managed
// objects fails at plan rather than at apply. Unknown settings are left to apply.
func (d *providerData) requireKey() diag.Diagnostics {
	var diags diag.Diagnostics
	if d != nil && d.m != nil && !d.hasKey {
		diags.AddError("Missing APM API key", missingKeyAdvice)
	}
	return diags
}

const missingKeyAdvice = "This needs an API key of the manager (only apm_manager_info and apm_public_nodes work without one). " +
	"Set the " + envAPIKey + " environment variable (preferred) or the api_key argument of the apm provider."

// configureData converts the untyped provider data of a Configure request. It is nil
// before the provider is configured (the validation RPCs run before that).
func configureData(v any, diags *diag.Diagnostics) *providerData {
	if v == nil {
		return nil
	}
	data, ok := v.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", v))
	}
	return data
}
