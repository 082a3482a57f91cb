package engine

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Configured is what the provider's Configure hands to every resource and data source:
// the connection to the manager (C, the provider's own type, which the engine passes to
// the types' calls without looking into it) and what the engine keeps for one provider
// process.
type Configured[C any] struct {
	conn      C
	connected bool
	// unconfigured says why there is no connection (provider arguments unknown at plan
	// time).
	unconfigured string
	// hasKey is false when no API key is configured: only the public calls can work.
	hasKey bool
	// adopt is the adopt_existing setting: a create that finds its object already there
	// takes it over when it matches the configuration.
	adopt bool
	// maxRetries is the client's retry budget, which also bounds how often a create
	// whose answer was lost is sent again.
	maxRetries int
	// creating holds the identities that resources of this run create, so that a second
	// block declaring the same object is refused before it sends anything (and is never
	// told to import, or allowed to adopt, what the first block manages).
	creating *claims
	// importing holds the objects that resources of this run import, for the same reason.
	importing *claims
	// skipLookups is skip_connection_check: plan looks up no object in the manager.
	skipLookups bool
	// planned is what the resources planned so far declare (plan.go): one provider
	// configuration plans every resource of a run, so it can compare them.
	planned planned
}

// Settings are the provider settings the engine acts on.
type Settings struct {
	HasKey     bool // an API key is configured
	Adopt      bool // adopt_existing
	MaxRetries int  // max_retries
	// SkipLookups is skip_connection_check: plan makes no request to look up the objects
	// that creates declare.
	SkipLookups bool
}

// Connect records the connection the types' calls get.
func (d *Configured[C]) Connect(conn C, s Settings) {
	d.conn, d.connected, d.hasKey, d.adopt, d.maxRetries, d.skipLookups = conn, true, s.HasKey, s.Adopt, s.MaxRetries, s.SkipLookups
	d.creating, d.importing = newClaims(), newClaims()
}

// Unconfigured records why the provider has no connection: every call that needs one
// fails with that reason.
func (d *Configured[C]) Unconfigured(why string) { d.unconfigured = why }

// Conn returns the connection, or an error diagnostic saying why there is none.
func (d *Configured[C]) Conn() (C, diag.Diagnostics) {
	var diags diag.Diagnostics
	switch {
	case d == nil:
		diags.AddError("APM provider not configured",
			"The apm provider was not configured before this call. This is a bug in the provider; please report it.")
	case !d.connected:
		diags.AddError("APM provider configuration not known yet",
			"This operation needs the manager, but "+d.unconfigured+". Apply the resources that the provider configuration depends on first (for example with -target), then run again.")
	default:
		return d.conn, diags
	}
	var none C
	return none, diags
}

// requireKey fails when no API key is configured, so that a configuration with managed
// objects fails at plan rather than at apply. Unknown settings are left to apply.
func (d *Configured[C]) requireKey() diag.Diagnostics {
	var diags diag.Diagnostics
	if d != nil && d.connected && !d.hasKey {
		diags.AddError("Missing APM API key", MissingKeyAdvice)
	}
	return diags
}

// MissingKeyAdvice says what to do when a call needs an API key and none is configured.
const MissingKeyAdvice = "This needs an API key of the manager (only apm_manager_info and apm_public_nodes work without one). " +
	"Set the " + EnvAPIKey + " environment variable (preferred) or the api_key argument of the apm provider."

// configured converts the untyped provider data of a Configure request. It is nil
// before the provider is configured (the validation RPCs run before that).
func configured[C any](v any, diags *diag.Diagnostics) *Configured[C] {
	if v == nil {
		return nil
	}
	data, ok := v.(*Configured[C])
	if !ok {
		diags.AddError("Unexpected provider data",
			fmt.Sprintf("Expected %T, got %T. This is a bug in the provider; please report it.", data, v))
	}
	return data
}
