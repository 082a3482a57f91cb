package apm

import (
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestNewRejectsBadConfig(t *testing.T) {
	good := testConfig("https://apm.example.com:8443")
	cases := map[string]struct {
		mod  func(*Config)
		want string
	}{
		"empty endpoint":      {func(c *Config) { c.Endpoint = "" }, "endpoint is empty"},
		"ftp scheme":          {func(c *Config) { c.Endpoint = "ftp://h:21" }, "https:// or http://"},
		"no scheme":           {func(c *Config) { c.Endpoint = "apm.example.com:8443" }, "https:// or http://"},
		"no host":             {func(c *Config) { c.Endpoint = "https://" }, "no host"},
		"port only":           {func(c *Config) { c.Endpoint = "https://:8443" }, "no host"},
		"query":               {func(c *Config) { c.Endpoint = "https://h:1/?a=b" }, "must not contain a query"},
		"empty query":         {func(c *Config) { c.Endpoint = "https://h:1/?" }, "must not contain a query"},
		"fragment":            {func(c *Config) { c.Endpoint = "https://h:1/#x" }, "fragment"},
		"user info":           {func(c *Config) { c.Endpoint = "https://u:pw@h:1" }, "user information"},
		"unparsable":          {func(c *Config) { c.Endpoint = "https://h:1/%zz" }, "not a valid URL"},
		"negative retries":    {func(c *Config) { c.MaxRetries = -1 }, "max retries must not be negative"},
		"negative timeout":    {func(c *Config) { c.RequestTimeout = -time.Second }, "request timeout"},
		"negative wait":       {func(c *Config) { c.RetryWaitMin = -time.Second }, "retry waits"},
		"min above max":       {func(c *Config) { c.RetryWaitMin, c.RetryWaitMax = time.Second, time.Millisecond }, "larger than the maximum"},
		"garbage PEM":         {func(c *Config) { c.CACertPEM = "not a certificate" }, "no PEM-encoded certificate"},
		"key PEM":             {func(c *Config) { c.CACertPEM = pemBlock("PRIVATE KEY", []byte("x")) }, `"PRIVATE KEY", expected CERTIFICATE`},
		"broken certificate":  {func(c *Config) { c.CACertPEM = pemBlock("CERTIFICATE", []byte("not DER")) }, "block 1"},
		"key in the endpoint": {func(c *Config) { c.Endpoint = "https://h:1/?key=" + testKey }, "must not contain a query"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := good
			tc.mod(&cfg)
			c, err := New(cfg)
			if err == nil {
				t.Fatalf("New(%v) succeeded, want error containing %q", cfg, tc.want)
			}
			if c != nil {
				t.Errorf("New returned a client with its error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			assertNoKey(t, "New error", err.Error())
		})
	}
}

func pemBlock(typ string, der []byte) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

func TestNewDefaults(t *testing.T) {
	c, err := New(Config{Endpoint: "https://apm.example.com:8443/", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	if c.timeout != DefaultRequestTimeout || c.waitMin != DefaultRetryWaitMin || c.waitMax != DefaultRetryWaitMax {
		t.Errorf("defaults not applied: timeout=%s waitMin=%s waitMax=%s", c.timeout, c.waitMin, c.waitMax)
	}
	if c.maxRetries != 0 {
		t.Errorf("maxRetries = %d, want the configured 0", c.maxRetries)
	}
	if c.userAgent != "terraform-provider-apm/dev" {
		t.Errorf("userAgent = %q", c.userAgent)
	}
	if got := c.String(); got != "apm.Client{endpoint=https://apm.example.com:8443}" {
		t.Errorf("String() = %q", got)
	}
	tr, ok := c.httpClient.Transport.(*http.Transport)
	if !ok || tr.MaxIdleConnsPerHost < 16 || tr.DisableKeepAlives {
		t.Errorf("transport not tuned for reuse: %#v", c.httpClient.Transport)
	}
}

func TestConfigAndClientPrintSafely(t *testing.T) {
	cfg := testConfig("https://apm.example.com:8443")
	cfg.CACertPEM = "-----BEGIN CERTIFICATE-----"
	c, err := New(testConfig("https://apm.example.com:8443"))
	if err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x"} {
		for name, v := range map[string]any{"Config": cfg, "*Config": &cfg, "*Client": c, "Client": *c} {
			out := fmt.Sprintf(verb, v)
			assertNoKey(t, verb+" of "+name, out)
			if out == "" {
				t.Errorf("%s of %s printed nothing", verb, name)
			}
		}
	}
	if s := cfg.String(); !strings.Contains(s, "APIKey:REDACTED") || !strings.Contains(s, "apm.example.com:8443") {
		t.Errorf("Config.String() = %s", s)
	}
	if s := fmt.Sprintf("%+v", c); s != "apm.Client{endpoint=https://apm.example.com:8443}" {
		t.Errorf("%%+v of client = %s", s)
	}
}

func TestKeyQueryAndHeaders(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		switch r.URL.Path {
		case "/rest/public/managerInfo":
			reply(w, 200, `{"version":"1"}`)
		case "/rest/public/nodes":
			reply(w, 200, `{"nodeList":[]}`)
		case "/rest/systems":
			reply(w, 200, `{"systems":[]}`)
		default:
			reply(w, 200, `{"actionResult":"Y"}`)
		}
	})
	c := newTestClient(t, srv.URL+"/", func(c *Config) { c.UserAgent = "terraform-provider-apm/1.2.3" })
	ctx := context.Background()
	if _, err := c.ListSystems(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateSystem(ctx, "prod"); err != nil {
		t.Fatal(err)
	}
	if err := c.RenameSystem(ctx, "prod", "prod2"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ManagerInfo(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListPublicNodes(ctx); err != nil {
		t.Fatal(err)
	}
	reqs := rec.all()
	if len(reqs) != 5 {
		t.Fatalf("got %d requests, want 5", len(reqs))
	}
	for _, r := range reqs {
		public := strings.HasPrefix(r.Path, "/rest/public/")
		if public && (r.HasKey || r.Query != "") {
			t.Errorf("%s %s: public request carries a query %q", r.Method, r.Path, r.Query)
		}
		if !public && r.Key != testKey {
			t.Errorf("%s %s: key = %q, want the API key", r.Method, r.Path, r.Key)
		}
		if r.Accept != "application/json" {
			t.Errorf("%s %s: Accept = %q", r.Method, r.Path, r.Accept)
		}
		if r.UserAgent != "terraform-provider-apm/1.2.3" {
			t.Errorf("%s %s: User-Agent = %q", r.Method, r.Path, r.UserAgent)
		}
		wantCT := ""
		if r.Method == http.MethodPost || r.Method == http.MethodPut {
			wantCT = "application/json"
		}
		if r.ContentType != wantCT {
			t.Errorf("%s %s: Content-Type = %q, want %q", r.Method, r.Path, r.ContentType, wantCT)
		}
	}
}

func TestEndpointPathPrefix(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{"systems":[]}`) })
	c := newTestClient(t, srv.URL+"/apm/")
	if _, err := c.ListSystems(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := rec.all()[0].Path; got != "/apm/rest/systems" {
		t.Errorf("path = %q, want /apm/rest/systems", got)
	}
}

func tlsServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reply(w, 200, `{"version":"9.5","haMode":true}`)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // handshake failures are expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func TestTLSTrustsConfiguredCA(t *testing.T) {
	srv := tlsServer(t)
	c := newTestClient(t, srv.URL, func(c *Config) { c.CACertPEM = pemBlock("CERTIFICATE", srv.Certificate().Raw) })
	info, err := c.ManagerInfo(context.Background())
	if err != nil {
		t.Fatalf("request with the server's CA trusted: %v", err)
	}
	if info.Version != "9.5" || !info.HAMode {
		t.Errorf("info = %+v", info)
	}
}

func TestTLSInsecureSkipVerify(t *testing.T) {
	srv := tlsServer(t)
	c := newTestClient(t, srv.URL, func(c *Config) { c.InsecureSkipVerify = true })
	if _, err := c.ManagerInfo(context.Background()); err != nil {
		t.Fatalf("request with verification off: %v", err)
	}
}

func TestTLSUntrustedFailsWithoutRetryOrKey(t *testing.T) {
	srv := tlsServer(t)
	c := newTestClient(t, srv.URL)
	_, err := c.ListSystems(context.Background())
	if err == nil {
		t.Fatal("request to an untrusted server succeeded")
	}
	te := asTransportError(t, err)
	if te.Attempts != 1 {
		t.Errorf("attempts = %d, want 1: certificate errors do not heal by retrying", te.Attempts)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "GET /rest/systems: TLS handshake failed: ") || !strings.Contains(msg, "certificate") {
		t.Errorf("error = %q", msg)
	}
	assertNoKey(t, "TLS error", msg)
}

func TestConcurrentUse(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		reply(w, 200, `{"systems":[{"systemName":"a"}]}`)
	})
	c := newTestClient(t, srv.URL)
	var wg sync.WaitGroup
	errs := make(chan error, 32*5)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				s, err := c.ListSystems(context.Background())
				if err == nil && (len(s) != 1 || s[0].SystemName != "a") {
					err = fmt.Errorf("got %+v", s)
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if rec.count() != 160 {
		t.Errorf("server saw %d requests, want 160", rec.count())
	}
}

// CheckEndpoint knows no key (the endpoint's validator runs before the provider has one),
// so its errors must not echo what the user typed: a key typed into the endpoint's query,
// path, port or user information was shown in full before.
func TestCheckEndpointNeverEchoesTheEndpoint(t *testing.T) {
	const secret = "SEKRETadmin123"
	for _, raw := range []string{
		"https://127.0.0.1:18443/?key=" + secret,
		"ftp://host/" + secret,
		" http://host:1/#" + secret,
		"https://host:" + secret,
		"host/" + secret,
		"https://" + secret + "@host",
		"https://host/%zz" + secret,
	} {
		err := CheckEndpoint(raw)
		if err == nil {
			t.Errorf("%q accepted", raw)
			continue
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), secret[:6]) {
			t.Errorf("%q: the error shows the secret: %v", raw, err)
		}
	}
}

func TestShownEndpointIsSchemeAndHost(t *testing.T) {
	for raw, want := range map[string]string{
		"https://apm.example.com:8443/apm/?key=x": "https://apm.example.com:8443",
		" http://u:pw@h:1/p#f":                    "http://h:1",
		"ftp://host/secret":                       "ftp://host",
		"host:8443/?key=x":                        "host:8443",
	} {
		if got := ShownEndpoint(raw); got != want {
			t.Errorf("ShownEndpoint(%q) = %q, want %q", raw, got, want)
		}
	}
}
