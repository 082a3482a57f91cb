package provider

import (
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// Naming rules of the manager (api/decisions.md), checked at plan time so that bad input never
// reaches the manager.
var (
	systemNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,20}$`)
	nodeNamePattern   = regexp.MustCompile(`^[A-Za-z0-9._-]{1,63}$`)
)

func systemNameValidators() []validator.String {
	return []validator.String{stringvalidator.RegexMatches(systemNamePattern,
		"must be 1 to 20 characters, each a letter, a digit, '-' or '_'")}
}

func nodeNameValidators() []validator.String {
	return []validator.String{
		stringvalidator.RegexMatches(nodeNamePattern, "must be 1 to 63 characters, each a letter, a digit, '.', '-' or '_'"),
		// As path segments these are cleaned away: such a node could never be read back.
		stringvalidator.NoneOf(".", ".."),
	}
}

func portValidators() []validator.Int64 {
	return []validator.Int64{int64validator.Between(1, 65535)}
}

// ipAddressValidator accepts the IPv4 or IPv6 address of a host: no interface zone (it
// means nothing to the manager, which reaches the agent from elsewhere), and no
// unspecified, multicast or broadcast address, none of which names one host.
func ipAddressValidator() validator.String {
	return engine.StringCheck("value must be the IPv4 or IPv6 address of a host, such as 10.0.0.11, without an interface zone; "+
		"unspecified (0.0.0.0, ::), multicast and broadcast addresses are not allowed",
		func(attr path.Path, raw string) (string, string) {
			if problem := hostAddressProblem(raw); problem != "" {
				return "Invalid IP address", fmt.Sprintf("Attribute %s value must be an IPv4 or IPv6 address of one host, such as 10.0.0.11; got: %q, which is %s.", attr, raw, problem)
			}
			return "", ""
		})
}

// hostAddressProblem says what is wrong with raw as a host's address, "" when nothing.
func hostAddressProblem(raw string) string {
	addr, err := netip.ParseAddr(raw)
	switch {
	case err != nil:
		return "not an IP address"
	case addr.Zone() != "":
		return "an address with an interface zone, which means nothing to the manager"
	case addr.IsUnspecified():
		return "the unspecified address"
	case addr.IsMulticast():
		return "a multicast address"
	case addr == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "the broadcast address"
	}
	return ""
}

// The bounds of request_timeout: below a second an attempt cannot even finish a TLS
// handshake over a real network; above ten minutes a hung manager stalls a run for long.
const (
	minRequestTimeout = time.Second
	maxRequestTimeout = 10 * time.Minute
)

// notEmpty refuses a provider argument set to "": a configured argument wins over its
// environment variable, so an empty one would silently mean "no value" rather than
// falling back, which is never what the user meant.
func notEmpty(name, env string) validator.String {
	return engine.StringCheck("value must not be empty; leave the argument out to use "+env, func(_ path.Path, raw string) (string, string) {
		if strings.TrimSpace(raw) != "" {
			return "", ""
		}
		return "Empty " + name, fmt.Sprintf("The %s argument is set to an empty string. A configured argument wins over the %s environment variable, so the provider would have no value. "+
			"Remove the argument to use %s, or set it to a value.", name, env, env)
	})
}

// sameIP reports whether two spellings name the same address ("::1" and "0:0::1"), so
// that a manager that normalises addresses does not cause a perpetual diff.
func sameIP(a, b string) bool {
	x, errA := netip.ParseAddr(a)
	y, errB := netip.ParseAddr(b)
	return errA == nil && errB == nil && x == y
}

// endpointValidator refuses an endpoint the client could not use, at validate rather
// than when the provider starts. A value from APM_ENDPOINT is checked at configure.
func endpointValidator() validator.String {
	return engine.StringCheck("value must be the manager's base URL with its scheme, such as https://apm.example.com:8443", func(_ path.Path, raw string) (string, string) {
		if strings.TrimSpace(raw) == "" {
			return "", "" // notEmpty reports it
		}
		return endpointProblem(raw)
	})
}

// endpointProblem says what is wrong with an endpoint, as a diagnostic's summary and
// detail; "" when nothing.
func endpointProblem(raw string) (summary, detail string) {
	if !strings.Contains(raw, "://") {
		host := apm.ShownEndpoint(raw) // never the whole value: a key may have been typed into it
		return "APM endpoint without a scheme",
			fmt.Sprintf("The endpoint %q has no scheme. Write it as a URL: https://%s (or http:// for a manager without TLS).", host, host)
	}
	if err := apm.CheckEndpoint(raw); err != nil {
		return "Invalid APM endpoint", err.Error()
	}
	return "", ""
}

// caCertValidator refuses CA certificates that do not parse, at validate.
func caCertValidator() validator.String {
	return engine.StringCheck("value must be one or more PEM-encoded CA certificates", func(_ path.Path, raw string) (string, string) {
		if strings.TrimSpace(raw) == "" {
			return "", "" // notEmpty reports it
		}
		if err := apm.CheckCACertPEM(raw); err != nil {
			return "Invalid ca_cert_pem", err.Error() + ". Give the CA certificate(s) in PEM form, for example file(\"ca.pem\")."
		}
		return "", ""
	})
}

// apiKeyValidator refuses a key with white space around it: file() keeps a file's final
// newline, and the manager would then reject the key as invalid, far from the cause.
func apiKeyValidator() validator.String {
	return engine.StringCheck("value must not start or end with white space", func(_ path.Path, key string) (string, string) {
		if trimmed := strings.TrimSpace(key); trimmed == "" || trimmed == key {
			return "", ""
		}
		return "API key with white space around it",
			"The api_key value starts or ends with white space (a key read with file() keeps the file's final newline), which the manager would reject. Use trimspace(file(...))."
	})
}

// absolutePathValidator accepts an absolute path.
func absolutePathValidator() validator.String {
	return stringvalidator.RegexMatches(regexp.MustCompile(`^/`), "must be an absolute path, starting with /")
}

// hostValidators accept a host name or an IP address.
func hostValidators() []validator.String {
	return []validator.String{stringvalidator.LengthBetween(1, 253), hostValidator()}
}

// hostNamePattern is a DNS name or an IPv4 address: letters, digits, '.', '-' and '_'.
var hostNamePattern = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// hostValidator takes a host name or an IP address, and says so when a port came along.
func hostValidator() validator.String {
	const rule = "must be a host name or an IP address, without a port"
	return engine.StringCheck(rule, func(attr path.Path, raw string) (string, string) {
		if _, err := netip.ParseAddr(raw); err == nil || hostNamePattern.MatchString(raw) {
			return "", ""
		}
		detail := fmt.Sprintf("Attribute %s %s, got: %q.", attr, rule, raw)
		if host, port, err := net.SplitHostPort(raw); err == nil {
			detail += fmt.Sprintf(" Give the host alone (%q) and the port in its own attribute (%s).", host, port)
		}
		return "Invalid host", detail
	})
}

// adminIDPattern is the manager's rule for usrId and authId.
var adminIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,32}$`)

func adminIDValidators() []validator.String {
	return []validator.String{stringvalidator.RegexMatches(adminIDPattern, "must be 1 to 32 characters, each a letter, a digit, '.', '-' or '_'")}
}

func displayNameValidators() []validator.String {
	return []validator.String{stringvalidator.LengthBetween(1, 100)}
}
