package apm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Sub-operations that only web servers have (spec 4.3). Each takes a ServerRef whose Kind
// is KindWeb or empty (meaning web).

// Worker is a load-balancer worker of a web server: a WAS server it forwards to over AJP.
// Host, AJPPort and LBFactor are optional in a request; the manager fills them from the
// WAS server (host and AJP port) and with 1 (factor).
type Worker struct {
	ServerID, NodeName, SystemName string // the WAS server
	Host                           string
	AJPPort, LBFactor              int64
}

// SSLConfig is the body of a web server's SSL set-up. Its String, GoString and Format
// methods never show the PEMs, so it can be printed and logged.
type SSLConfig struct {
	HTTPSPort      int64
	CertificatePEM string
	PrivateKeyPEM  string // secret
	CAChainPEM     string // optional
}

func (s SSLConfig) String() string {
	return fmt.Sprintf("apm.SSLConfig{HTTPSPort:%d, CertificatePEM:%s, PrivateKeyPEM:%s, CAChainPEM:%s}",
		s.HTTPSPort, pemSize(s.CertificatePEM), presence(s.PrivateKeyPEM, redactedText), pemSize(s.CAChainPEM))
}

// GoString makes %#v safe as well.
func (s SSLConfig) GoString() string { return s.String() }

// Format makes every verb safe.
func (s SSLConfig) Format(f fmt.State, verb rune) { formatSafe(f, verb, s.String()) }

func pemSize(p string) string { return presence(p, fmt.Sprintf("(%d bytes)", len(p))) }

type wireWorker struct {
	ServerID   flexString `json:"serverId"`
	NodeName   flexString `json:"nodeName"`
	SystemName flexString `json:"systemName"`
	Host       flexString `json:"host"`
	AJPPort    flexInt    `json:"ajpPort"`
	LBFactor   flexInt    `json:"lbFactor"`
}

func (w wireWorker) worker() Worker {
	return Worker{
		ServerID: string(w.ServerID), NodeName: string(w.NodeName), SystemName: string(w.SystemName),
		Host: string(w.Host), AJPPort: int64(w.AJPPort), LBFactor: int64(w.LBFactor),
	}
}

type workerBody struct {
	ServerID   string `json:"serverId"`
	NodeName   string `json:"nodeName"`
	SystemName string `json:"systemName"`
	Host       string `json:"host,omitempty"`
	AJPPort    int64  `json:"ajpPort,omitempty"`
	LBFactor   int64  `json:"lbFactor,omitempty"`
}

type workersBody struct {
	Workers []workerBody `json:"workers"`
}

// SetWorkers replaces the web server's load-balancer workers (PUT .../worker); an empty
// list removes them all. Each worker must name an existing WAS server (404 otherwise).
func (c *Client) SetWorkers(ctx context.Context, ref ServerRef, workers []Worker) error {
	body := workersBody{Workers: mapAll(workers, func(w Worker) workerBody { return workerBody(w) })} // [] rather than null
	return c.subSend(ctx, KindWeb, http.MethodPut, ref, "/worker", nil, body)
}

type sslBody struct {
	HTTPSPort      int64  `json:"httpsPort"`
	CertificatePEM string `json:"certificatePem"`
	PrivateKeyPEM  string `json:"privateKeyPem"`
	CAChainPEM     string `json:"caChainPem,omitempty"`
}

// ConfigureSSL enables HTTPS on the web server (POST .../ssl). The manager has no inverse
// operation (api/decisions.md). Should the manager quote the private key in an error, it is
// removed from the error text.
func (c *Client) ConfigureSSL(ctx context.Context, ref ServerRef, cfg SSLConfig) error {
	err := c.subSend(ctx, KindWeb, http.MethodPost, ref, "/ssl", nil, sslBody(cfg))
	scrubSecretPEM(err, cfg.PrivateKeyPEM)
	return err
}

// scrubSecretPEM removes a PEM, and each of its lines, from the message of an *Error.
func scrubSecretPEM(err error, secret string) {
	var e *Error
	if secret == "" || !errors.As(err, &e) {
		return
	}
	parts := append([]string{strings.TrimSpace(secret)}, strings.Split(secret, "\n")...)
	for _, p := range parts {
		if p = strings.TrimSpace(p); len(p) >= 16 {
			e.Message = strings.ReplaceAll(e.Message, p, redactedText)
		}
	}
}

type urisBody struct {
	URIs []string `json:"uris"`
}

// AddURIs adds URI patterns such as "/api/*" to the web server (PUT .../uri?type=create).
// Patterns already present are left as they are.
func (c *Client) AddURIs(ctx context.Context, ref ServerRef, uris []string) error {
	return c.changeURIs(ctx, ref, "create", uris)
}

// DeleteURIs removes URI patterns from the web server (PUT .../uri?type=delete). Patterns
// not present are ignored.
func (c *Client) DeleteURIs(ctx context.Context, ref ServerRef, uris []string) error {
	return c.changeURIs(ctx, ref, "delete", uris)
}

func (c *Client) changeURIs(ctx context.Context, ref ServerRef, typ string, uris []string) error {
	body := urisBody{URIs: append([]string{}, uris...)} // [] rather than null
	return c.subSend(ctx, KindWeb, http.MethodPut, ref, "/uri", url.Values{"type": {typ}}, body)
}
