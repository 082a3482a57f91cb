// Package apm is the HTTP client of the Application Platform Manager REST interface
// (api/rest-interface.md, "the spec" in comments, with the decisions of api/decisions.md
// where the spec leaves gaps). It knows nothing of Terraform: it sends requests, retries
// what is safe to retry, decodes leniently and turns failures into typed errors.
//
// The API key travels as the `key` query parameter, so every URL that carries it is
// secret. The client builds the keyed URL per attempt and never stores or prints it; error
// text, log lines and String methods go through a redactor.
//
// One file per API area (systems.go, nodes.go, public.go, ...) adds the calls on top of
// the helpers in request.go: getList and getOne (over c.get) for reads, c.send for
// writes. A call about one named object passes about(name) (getOne does it), or a 404 can
// never mean that the object is gone (IsNotFound). Poll (poll.go) waits for a state the
// manager reaches after a request returns.
package apm

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

const (
	// DefaultRequestTimeout bounds one attempt (connect, send, and read the whole response).
	DefaultRequestTimeout = 30 * time.Second
	// DefaultMaxRetries is the number of retries after the first attempt.
	DefaultMaxRetries = 4
	// DefaultRetryWaitMin is the first backoff; it doubles per retry up to DefaultRetryWaitMax.
	DefaultRetryWaitMin = 500 * time.Millisecond
	// DefaultRetryWaitMax caps a backoff and a server's Retry-After.
	DefaultRetryWaitMax = 30 * time.Second
	// DefaultUserAgent is sent when Config.UserAgent is empty.
	DefaultUserAgent = "terraform-provider-apm/dev"
)

// Config configures a Client. Its String, GoString and Format methods redact the API key,
// so a Config can be printed with any verb.
type Config struct {
	Endpoint           string        // "https://host:port" or "http://host:port"; a trailing slash is fine
	APIKey             string        // sent as the `key` query parameter outside /rest/public
	CACertPEM          string        // extra trusted CA certificates, PEM
	InsecureSkipVerify bool          // do not verify the manager's certificate
	RequestTimeout     time.Duration // per attempt; 0 means DefaultRequestTimeout
	MaxRetries         int           // retries after the first attempt; 0 means none
	UserAgent          string        // empty means DefaultUserAgent
	RetryWaitMin       time.Duration // 0 means DefaultRetryWaitMin
	RetryWaitMax       time.Duration // 0 means DefaultRetryWaitMax
	// Silent says that no logger listens (the provider switched its logger off): the
	// client then builds no log lines and no masked logging context per request.
	Silent bool
}

func (c Config) String() string {
	r := newRedactor(c.APIKey)
	return r.String(fmt.Sprintf(
		"apm.Config{Endpoint:%q, APIKey:%s, CACertPEM:%s, InsecureSkipVerify:%t, RequestTimeout:%s, MaxRetries:%d, UserAgent:%q, RetryWaitMin:%s, RetryWaitMax:%s}",
		c.Endpoint, presence(c.APIKey, redactedText), presence(c.CACertPEM, fmt.Sprintf("(%d bytes)", len(c.CACertPEM))),
		c.InsecureSkipVerify, c.RequestTimeout, c.MaxRetries, c.UserAgent, c.RetryWaitMin, c.RetryWaitMax))
}

// GoString makes %#v safe as well.
func (c Config) GoString() string { return c.String() }

// Format makes every verb safe (%d or %x of a struct would otherwise print its fields).
func (c Config) Format(f fmt.State, verb rune) { formatSafe(f, verb, c.String()) }

func presence(v, shown string) string {
	if v == "" {
		return `""`
	}
	return shown
}

func formatSafe(f fmt.State, verb rune, s string) {
	if verb == 'q' {
		s = fmt.Sprintf("%q", s)
	}
	_, _ = io.WriteString(f, s)
}

// Client calls the manager. It is immutable after New, but for whether the manager has
// answered yet, and safe for concurrent use; all requests share one http.Client and its
// connection pool.
type Client struct {
	baseURL string // scheme://host[:port][/prefix], no trailing slash, no query: safe to print
	// auth is behind a function so that no fmt verb can reach the key: fmt prints a func as
	// an address, while it would print a *auth's fields (for example with a bad verb on a
	// Client value).
	auth       func() *auth
	userAgent  string
	httpClient *http.Client
	timeout    time.Duration
	maxRetries int
	waitMin    time.Duration
	waitMax    time.Duration
	silent     bool
	// answered turns true at the first HTTP answer from the endpoint (any status). Until
	// then an endpoint that does not resolve or refuses connections is most likely wrong,
	// and is not retried (see unreachable in retry.go). A pointer, so that a copy of a
	// Client (printing one by value) copies no lock.
	answered *atomic.Bool
}

type auth struct {
	key    string
	redact redactor
}

func hide(a *auth) func() *auth { return func() *auth { return a } }

// New validates cfg and builds a Client. Its errors never contain the API key.
func New(cfg Config) (*Client, error) {
	r := newRedactor(cfg.APIKey)
	c, err := newClient(cfg, r)
	if err != nil {
		return nil, errors.New(r.String(err.Error()))
	}
	return c, nil
}

func newClient(cfg Config, r redactor) (*Client, error) {
	base, err := parseEndpoint(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	if err := checkDurations(cfg); err != nil {
		return nil, err
	}
	tlsConfig, err := newTLSConfig(cfg)
	if err != nil {
		return nil, err
	}
	c := &Client{
		baseURL:    base,
		auth:       hide(&auth{key: cfg.APIKey, redact: r}),
		userAgent:  valueOr(cfg.UserAgent, DefaultUserAgent),
		httpClient: newHTTPClient(tlsConfig),
		timeout:    durationOr(cfg.RequestTimeout, DefaultRequestTimeout),
		maxRetries: cfg.MaxRetries,
		waitMin:    durationOr(cfg.RetryWaitMin, DefaultRetryWaitMin),
		waitMax:    durationOr(cfg.RetryWaitMax, DefaultRetryWaitMax),
		silent:     cfg.Silent,
		answered:   new(atomic.Bool),
	}
	if c.waitMin > c.waitMax {
		return nil, fmt.Errorf("retry wait minimum (%s) is larger than the maximum (%s)", c.waitMin, c.waitMax)
	}
	return c, nil
}

// MaxRetries is how often the client retries a failed request; callers that repeat a
// whole operation (a create whose outcome they checked) keep to the same budget.
func (c *Client) MaxRetries() int { return c.maxRetries }

func (c *Client) String() string { return "apm.Client{endpoint=" + c.baseURL + "}" }

// Endpoint is the manager's base URL, without query or credentials: safe to print.
func (c *Client) Endpoint() string { return c.baseURL }

// GoString makes %#v safe as well.
func (c *Client) GoString() string { return c.String() }

// Format makes every verb safe.
func (c *Client) Format(f fmt.State, verb rune) { formatSafe(f, verb, c.String()) }

// ShownEndpoint is how messages name an endpoint: its scheme and host, as "https://host:port"
// (or the host alone when there is no scheme). The path, query, fragment and user
// information are left out, since that is where a key typed into the endpoint by mistake
// sits.
func ShownEndpoint(raw string) string {
	rest := strings.TrimSpace(raw)
	scheme, afterScheme, hasScheme := strings.Cut(rest, "://")
	if hasScheme {
		rest = afterScheme
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = rest[i+1:]
	}
	if !hasScheme {
		return rest
	}
	return scheme + "://" + rest
}

// CheckEndpoint reports what New would find wrong with an endpoint, so that callers can
// refuse it before they have a key or anything else to build a Client with.
func CheckEndpoint(raw string) error {
	_, err := parseEndpoint(raw)
	return err
}

// CheckCACertPEM reports what New would find wrong with CA certificates in PEM.
func CheckCACertPEM(pemText string) error {
	return addPEMCertificates(x509.NewCertPool(), []byte(pemText))
}

// parseEndpoint checks the endpoint and returns it without trailing slash. A path prefix
// (a manager behind a reverse proxy under /apm) is kept. A query is refused: the key must
// only ever be added by the client, and other parameters would be silently dropped. Its
// errors name the endpoint as ShownEndpoint does, never as written: a key typed into it
// by mistake would otherwise be shown.
func parseEndpoint(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("endpoint is empty: set it to the manager's base URL, for example https://apm.example.com:8443")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// The parser's text quotes the input (a port, a host), which may hold a key.
		return "", errors.New("endpoint is not a valid URL: write it as https://host:port, with the path prefix of a proxy if there is one")
	}
	shown := ShownEndpoint(raw)
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("endpoint %s must start with https:// or http://", shown)
	case u.User != nil:
		return "", errors.New("endpoint must not contain user information (user:password@); authentication uses the API key")
	case u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("endpoint %s has no host", shown)
	case u.RawQuery != "" || u.ForceQuery:
		return "", fmt.Errorf("endpoint %s must not contain a query (the API key is added by the provider)", shown)
	case u.Fragment != "":
		return "", fmt.Errorf("endpoint %s must not contain a fragment", shown)
	}
	return u.Scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/"), nil
}

func checkDurations(cfg Config) error {
	switch {
	case cfg.RequestTimeout < 0:
		return fmt.Errorf("request timeout must not be negative, got %s", cfg.RequestTimeout)
	case cfg.MaxRetries < 0:
		return fmt.Errorf("max retries must not be negative, got %d", cfg.MaxRetries)
	case cfg.RetryWaitMin < 0 || cfg.RetryWaitMax < 0:
		return errors.New("retry waits must not be negative")
	}
	return nil
}

// newTLSConfig trusts the system roots plus the configured CA certificates.
func newTLSConfig(cfg Config) (*tls.Config, error) {
	tc := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: cfg.InsecureSkipVerify, //nolint:gosec // explicit user opt-in for self-signed test managers
	}
	if strings.TrimSpace(cfg.CACertPEM) == "" {
		return tc, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if err := addPEMCertificates(pool, []byte(cfg.CACertPEM)); err != nil {
		return nil, err
	}
	tc.RootCAs = pool
	return tc, nil
}

// addPEMCertificates is stricter than CertPool.AppendCertsFromPEM, which silently skips
// bad blocks: a typo in a CA bundle should fail at configure time, not as a TLS error later.
func addPEMCertificates(pool *x509.CertPool, data []byte) error {
	n := 0
	for {
		block, rest := pem.Decode(data)
		if block == nil {
			break
		}
		data = rest
		n++
		if block.Type != "CERTIFICATE" {
			return fmt.Errorf("CA certificate PEM: block %d is a %q, expected CERTIFICATE", n, block.Type)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return fmt.Errorf("CA certificate PEM: block %d: %v", n, err)
		}
		pool.AddCert(cert)
	}
	if n == 0 {
		return errors.New("CA certificate PEM: no PEM-encoded certificate found")
	}
	return nil
}

// newHTTPClient builds the one http.Client that serves every request of a Client. The
// transport keeps connections alive and allows enough idle connections per host for
// Terraform's default parallelism (10) plus headroom.
func newHTTPClient(tlsConfig *tls.Config) *http.Client {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       tlsConfig,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: 1 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		// Redirects are not followed: the keyed URL must not be replayed to wherever a
		// Location points, and a POST must not silently turn into a GET. A 3xx becomes an
		// *Error that names the target, so the user can fix the endpoint.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func valueOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func durationOr(v, def time.Duration) time.Duration {
	if v == 0 {
		return def
	}
	return v
}
