package apm

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// testKey contains characters that URL encoding changes, so that the redaction of the
// encoded spelling is exercised too.
const testKey = "Sk+9/zQ=test-key-4711"

// recorded is what the test server saw of one request.
type recorded struct {
	Method      string
	Path        string // escaped, without query
	Query       string // raw query
	Key         string // decoded `key` parameter
	HasKey      bool
	Accept      string
	ContentType string
	UserAgent   string
	Body        string
}

type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

func (r *recorder) add(req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	path, query, _ := strings.Cut(req.RequestURI, "?")
	_, hasKey := req.URL.Query()["key"]
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, recorded{
		Method: req.Method, Path: path, Query: query,
		Key: req.URL.Query().Get("key"), HasKey: hasKey,
		Accept: req.Header.Get("Accept"), ContentType: req.Header.Get("Content-Type"),
		UserAgent: req.Header.Get("User-Agent"), Body: string(body),
	})
}

func (r *recorder) all() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.reqs...)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// serve starts a test server that records every request, then lets respond answer it.
// respond gets the 1-based number of the request.
func serve(t *testing.T, respond func(w http.ResponseWriter, r *http.Request, n int)) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.add(r)
		respond(w, r, rec.count())
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

// reply writes status and a JSON body.
func reply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// testConfig is a fast configuration: millisecond backoffs, 3 retries.
func testConfig(endpoint string) Config {
	return Config{
		Endpoint:       endpoint,
		APIKey:         testKey,
		RequestTimeout: 5 * time.Second,
		MaxRetries:     3,
		RetryWaitMin:   time.Millisecond,
		RetryWaitMax:   4 * time.Millisecond,
	}
}

func newTestClient(t *testing.T, endpoint string, mods ...func(*Config)) *Client {
	t.Helper()
	cfg := testConfig(endpoint)
	for _, m := range mods {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// closedEndpoint returns an http URL on which nothing listens.
func closedEndpoint(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr
}

// assertNoKey fails when s contains the key in any spelling.
func assertNoKey(t *testing.T, what, s string) {
	t.Helper()
	for _, secret := range newRedactor(testKey).secrets {
		if strings.Contains(s, secret) {
			t.Errorf("%s contains the API key (%q): %s", what, secret, s)
		}
	}
	if strings.Contains(s, "key=Sk") {
		t.Errorf("%s contains a key parameter: %s", what, s)
	}
}

func withMaxRetries(n int) func(*Config) { return func(c *Config) { c.MaxRetries = n } }

// requestCase is one client call and the single request it must send.
type requestCase struct {
	name     string
	call     func(c *Client) error
	method   string
	path     string // escaped
	query    string // besides the key, encoded with sorted names; "" for none
	body     string // JSON; "" for no body
	response string
}

// runRequestCases checks that each call sends exactly one request with the method, path,
// query and body given, and succeeds on the canned response.
func runRequestCases(t *testing.T, cases []requestCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, tc.response) })
			if err := tc.call(newTestClient(t, srv.URL)); err != nil {
				t.Fatal(err)
			}
			reqs := rec.all()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != tc.method || r.Path != tc.path {
				t.Errorf("request = %s %s, want %s %s", r.Method, r.Path, tc.method, tc.path)
			}
			got, err := url.ParseQuery(r.Query)
			switch {
			case isPublic(tc.path):
				if got.Has("key") {
					t.Errorf("query %q carries the key on a public path", r.Query)
				}
			case err != nil || got.Get("key") != testKey || len(got["key"]) != 1:
				t.Errorf("query %q does not carry the key once", r.Query)
			}
			got.Del("key")
			if got.Encode() != tc.query {
				t.Errorf("query without the key = %q, want %q", got.Encode(), tc.query)
			}
			assertJSONBody(t, r, tc.body)
		})
	}
}

func assertJSONBody(t *testing.T, r recorded, want string) {
	t.Helper()
	if want == "" {
		if r.Body != "" || r.ContentType != "" {
			t.Errorf("body = %q (Content-Type %q), want none", r.Body, r.ContentType)
		}
		return
	}
	if r.ContentType != "application/json" {
		t.Errorf("Content-Type = %q", r.ContentType)
	}
	var got, exp any
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
		t.Fatalf("body %q: %v", r.Body, err)
	}
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		t.Fatalf("bad expectation %q: %v", want, err)
	}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("body = %s, want %s", r.Body, want)
	}
}
