package engine

import (
	"context"
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// The environment variables of the settings that the advice of errors names.
const (
	EnvEndpoint  = "APM_ENDPOINT"
	EnvAPIKey    = "APM_API_KEY"
	EnvCACertPEM = "APM_CA_CERT_PEM"
)

// callError turns a failed manager call into a diagnostic that says what happened and
// what to do. action reads like "create system \"prod\"".
func callError(action string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Failed to "+action, Explain(err))
}

// Explain renders an error from internal/apm with advice for its kind, and the manager it
// came from. The client never puts the API key into error text, so err.Error() is safe to
// show.
//
// The manager is named in every error of a request, whether or not the configuration has
// more than one: Terraform runs each provider configuration (each alias) in a process of
// its own and tells none of them its alias, so no process can know that another one talks
// to another manager, whose systems may have the same ids. One line is what a user with
// two aliased providers needs to tell the managers apart, and costs the others little.
func Explain(err error) string {
	text := explainKind(err)
	if endpoint, ok := apm.ManagerOf(err); ok {
		text += "\n\n(manager " + endpoint + ")"
	}
	return text
}

// explainKind is the error's text with advice for its kind.
func explainKind(err error) string {
	if errors.Is(err, ErrGone) {
		return err.Error() + "\n\nThe object it refers to does not exist in the manager. Check the reference, or create the object first."
	}
	var timedOut *apm.TimeoutError
	if errors.As(err, &timedOut) {
		return err.Error() + "\n\nThe manager did not finish within the time limit. If the object needs longer, raise the resource's timeouts; " +
			"otherwise check the object in the manager. Apply again to carry on from where it is."
	}
	var unexpected *apm.UnexpectedStateError
	if errors.As(err, &unexpected) {
		return err.Error() + "\n\nWaiting cannot bring the object to the state the configuration declares. Check it in the manager, then apply again."
	}
	var apiErr *apm.Error
	if !errors.As(err, &apiErr) {
		return explainTransport(err)
	}
	switch {
	case apm.IsPlainHTTPToHTTPS(err):
		return err.Error() + "\n\nThe endpoint uses http://, but the manager speaks HTTPS on that port. Change the endpoint argument (or " + EnvEndpoint + ") to https://."
	case apm.IsRateLimited(err):
		return err.Error() + "\n\nThe manager is limiting the rate of requests, and the provider's retries (max_retries, honouring Retry-After) did not get through. " +
			"Run with a lower -parallelism, raise max_retries, or try again later."
	case apm.IsNotFound(err):
		return err.Error() + "\n\nThe manager says that the object does not exist (any more)."
	case isMissingReference(err):
		missing, _ := apm.MissingReference(err)
		return err.Error() + "\n\nThe manager says that " + missing + ", which this refers to, does not exist. Create it first (in the same " +
			"configuration, refer to its resource" + referenceExample(missing) + ", so that Terraform creates it first), or correct the reference."
	case apm.IsNotFoundAnswer(err):
		return err.Error() + "\n\nCheck that the endpoint argument (or " + EnvEndpoint + ") is the manager's base URL, without a path prefix it does not have."
	case apm.IsConflict(err):
		return err.Error() + conflictAdvice[apm.ConflictOf(err)]
	case apm.IsUnauthorized(err):
		return err.Error() + "\n\nThe manager rejected the API key. Check the api_key argument of the provider or the " +
			EnvAPIKey + " environment variable; the key may be wrong, expired or revoked."
	case apm.IsForbidden(err) && apm.WasRead(err):
		return err.Error() + "\n\nThe API key is valid but may not read this. Use a key whose role permits it in api_key or " + EnvAPIKey + "."
	case apm.IsForbidden(err):
		// The interface has no call that tells what a key may do, so a read-only key is found
		// out only here, at its first write.
		return err.Error() + "\n\nThe API key is read-only: the manager refuses changes with it (it may only read, so plans work and applies do not). " +
			"Apply with a key that may make changes (an administrator key) in api_key or " + EnvAPIKey + "; keep the read-only key for plans and drift checks."
	case apm.IsBadRequest(err):
		return err.Error() + "\n\nThe manager rejected the request as invalid. Correct the configuration and apply again."
	case apm.IsActionFailed(err):
		return err.Error() + "\n\nThe manager accepted the request but reported that the operation failed. " +
			"Check the arguments and the current state of the object in the manager, then apply again."
	case apm.IsServerFailure(err) && !apm.IsUnavailable(err) && !apm.WasRead(err):
		return err.Error() + "\n\nThe manager or a gateway in front of it failed while handling the request, which may or may not have taken effect. " +
			"Retry later; if it persists, check the manager's logs."
	case apm.IsServerFailure(err):
		return err.Error() + "\n\nThe manager could not handle the request. Retry later; if it persists, check the manager's logs."
	default:
		return err.Error()
	}
}

// referenceExample is, for the missing object of a NOT_FOUND (`Role "ops"`), an example of
// a reference to its resource (", such as apm_role.example.id"), so that the advice names
// the right type; nothing for a kind that is no one resource type (a "Server" of a part).
func referenceExample(missing string) string {
	kind, _, _ := strings.Cut(missing, ` "`)
	switch typ := strings.ReplaceAll(strings.ToLower(kind), " ", "_"); typ {
	case "database", "datasource", "role", "user", "system", "node", "was_server", "web_server", "session_server":
		return ", such as apm_" + typ + ".example.id"
	}
	return ""
}

func isMissingReference(err error) bool {
	_, ok := apm.MissingReference(err)
	return ok
}

// conflictAdvice is what to do about each kind of 409. An object that exists already is
// explained by the create that met it, with its import ID (CreateError).
var conflictAdvice = map[apm.ConflictKind]string{
	apm.ConflictExists: "\n\nThe object already exists in the manager.",
	apm.ConflictInUse: "\n\nThe manager refuses while the objects named above still use this one. Remove them first: delete their resources, " +
		"or take this object out of them (a worker list, an attachment, a grant), then apply again.",
	apm.ConflictPortUsed: "\n\nAnother server on the node, named above, already uses the port. Choose a free port, or change or remove that server first.",
	apm.ConflictOther:    "\n\nThe manager refused the request because of the current state of its objects. Check the objects named above, then apply again.",
}

// explainTransport explains a request that got no usable answer, and errors that are no
// answer of the manager at all.
func explainTransport(err error) string {
	var te *apm.TransportError
	isTransport := errors.As(err, &te)
	sent := isTransport && apm.OutcomeUnknown(err)
	switch {
	case sent && !apm.WasRead(err):
		return err.Error() + "\n\nThe request was sent, but its answer was lost: the manager may have carried it out. " +
			"Check the network path to the manager (proxies, load balancers and their time-outs) and request_timeout."
	case sent:
		return err.Error() + "\n\nThe request was sent, but the answer did not arrive. " +
			"Check the network path to the manager (proxies, load balancers and their time-outs) and request_timeout."
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return err.Error() + "\n\nThe operation was cancelled or ran out of time before the request was sent."
	case !isTransport:
		return err.Error() // the provider's own finding, such as a name no system has
	default:
		return err.Error() + "\n\nThe manager could not be reached. Check the endpoint argument (or " + EnvEndpoint +
			"), the network path to the manager, and the TLS settings ca_cert_pem (or " + EnvCACertPEM + ") and insecure_skip_verify."
	}
}

// managerOutOfReach reports whether err says that the manager could not be reached or
// could not handle a request (no usable answer, or a 5xx), rather than that it refused
// one: an object that a write made before is still there, whatever its state.
func managerOutOfReach(err error) bool {
	var te *apm.TransportError
	return errors.As(err, &te) || apm.IsServerFailure(err)
}
