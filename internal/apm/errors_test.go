package apm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHTTPErrors(t *testing.T) {
	type helpers struct {
		badRequest, unauthorized, forbidden, notFound, conflict, actionFailed, rateLimited, plainHTTP bool
	}
	cases := []struct {
		name     string
		status   int
		body     string
		wantCode string
		wantMsg  string
		wantText string // {endpoint} stands for the test server's URL
		want     helpers
	}{
		{"400", 400, `{"error":"systemName is required","code":"BAD_REQUEST"}`, "BAD_REQUEST", "systemName is required",
			"POST /rest/systems: 400 BAD_REQUEST: systemName is required", helpers{badRequest: true}},
		{"401", 401, `{"error":"Unauthorized","code":"UNAUTHORIZED"}`, "UNAUTHORIZED", "Unauthorized",
			"POST /rest/systems: 401 UNAUTHORIZED: Unauthorized", helpers{unauthorized: true}},
		{"403", 403, `{"error":"Access denied","code":"FORBIDDEN"}`, "FORBIDDEN", "Access denied",
			"POST /rest/systems: 403 FORBIDDEN: Access denied", helpers{forbidden: true}},
		// A create names no object, so no 404 says that the object asked for is gone.
		{"404 of the manager", 404, `{"error":"System not found: prod","code":"NOT_FOUND"}`, "NOT_FOUND", "System not found: prod",
			"POST /rest/systems: 404 NOT_FOUND: System not found: prod", helpers{}},
		{"404 of something else", 404, `<html>Not Found</html>`, "NOT_FOUND", "<html>Not Found</html>",
			"POST /rest/systems: 404 NOT_FOUND: <html>Not Found</html>; this answer from {endpoint} does not say that " +
				"the object asked for does not exist: check that the endpoint, including its path prefix, is the manager's", helpers{}},
		{"409", 409, `{"error":"System already exists: prod","code":"CONFLICT"}`, "CONFLICT", "System already exists: prod",
			"POST /rest/systems: 409 CONFLICT: System already exists: prod", helpers{conflict: true}},
		{"429", 429, `{"error":"slow down"}`, "TOO_MANY_REQUESTS", "slow down",
			"POST /rest/systems: 429 TOO_MANY_REQUESTS: slow down", helpers{rateLimited: true}},
		{"500 without code", 500, `{"error":"database down"}`, "INTERNAL_SERVER_ERROR", "database down",
			"POST /rest/systems: 500 INTERNAL_SERVER_ERROR: database down", helpers{}},
		{"non-JSON body", 502, "<html>\n  <body>Bad   gateway</body>\n</html>\n", "BAD_GATEWAY", "<html> <body>Bad gateway</body> </html>",
			"POST /rest/systems: 502 BAD_GATEWAY: <html> <body>Bad gateway</body> </html>", helpers{}},
		{"empty body", 500, "", "INTERNAL_SERVER_ERROR", "Internal Server Error",
			"POST /rest/systems: 500 INTERNAL_SERVER_ERROR: Internal Server Error", helpers{}},
		{"JSON without message", 418, `{"code":"TEAPOT"}`, "TEAPOT", "I'm a teapot",
			"POST /rest/systems: 418 TEAPOT: I'm a teapot", helpers{}},
		{"unknown status, no code", 499, `{"error":"client went away"}`, "", "client went away",
			"POST /rest/systems: 499: client went away", helpers{}},
		// IsNotFound needs the 404 itself; the code alone no longer decides.
		{"code only decides", 400, `{"error":"gone","code":"NOT_FOUND"}`, "NOT_FOUND", "gone",
			"POST /rest/systems: 400 NOT_FOUND: gone", helpers{badRequest: true}},
		{"plain HTTP to nginx's HTTPS port", 400,
			"<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>\r\n" +
				"<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>\r\n" +
				"<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
			CodePlainHTTPToHTTPS, "The plain HTTP request was sent to HTTPS port",
			"POST /rest/systems: 400 PLAIN_HTTP_TO_HTTPS: The plain HTTP request was sent to HTTPS port; the endpoint {endpoint} " +
				"sends plain HTTP to a port that speaks HTTPS: change it to https://{host}", helpers{plainHTTP: true}},
		{"phrase in another status", 404, "Client sent an HTTP request to an HTTPS server.\n", "NOT_FOUND",
			"Client sent an HTTP request to an HTTPS server.",
			"POST /rest/systems: 404 NOT_FOUND: Client sent an HTTP request to an HTTPS server.; this answer from {endpoint} does not say that " +
				"the object asked for does not exist: check that the endpoint, including its path prefix, is the manager's", helpers{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, tc.status, tc.body) })
			err := newTestClient(t, srv.URL, withMaxRetries(0)).CreateSystem(context.Background(), "prod")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if e.StatusCode != tc.status || e.Code != tc.wantCode || e.Message != tc.wantMsg || e.Method != "POST" || e.Path != "/rest/systems" {
				t.Errorf("error = %+v", *e)
			}
			want := strings.NewReplacer("{endpoint}", srv.URL, "{host}", srv.Listener.Addr().String()).Replace(tc.wantText)
			if err.Error() != want {
				t.Errorf("text = %q\nwant   %q", err.Error(), want)
			}
			got := helpers{IsBadRequest(err), IsUnauthorized(err), IsForbidden(err), IsNotFound(err), IsConflict(err),
				IsActionFailed(err), IsRateLimited(err), IsPlainHTTPToHTTPS(err)}
			if got != tc.want {
				t.Errorf("helpers = %+v, want %+v", got, tc.want)
			}
			if !HasStatus(err, tc.status) || HasStatus(err, tc.status+1) {
				t.Errorf("HasStatus does not report exactly %d", tc.status)
			}
			if rec.count() != 1 {
				t.Errorf("attempts = %d, want 1", rec.count())
			}
		})
	}
}

func TestHelpersOnOtherErrors(t *testing.T) {
	for _, err := range []error{nil, errors.New("plain"), &TransportError{Method: "GET", Path: "/x", Err: context.Canceled}} {
		if IsNotFound(err) || IsConflict(err) || IsUnauthorized(err) || IsForbidden(err) || IsBadRequest(err) || IsActionFailed(err) ||
			IsRateLimited(err) || IsPlainHTTPToHTTPS(err) || HasStatus(err, 0) || OutcomeUnknown(err) {
			t.Errorf("a helper matched %v", err)
		}
	}
	// Only the client can tell that a 404 came from the manager, naming the object.
	built := &Error{StatusCode: 404, Code: "NOT_FOUND", Message: "System not found: prod"}
	if IsNotFound(built) || !HasStatus(built, 404) {
		t.Errorf("a 404 built by hand: IsNotFound %t, HasStatus %t; want false, true", IsNotFound(built), HasStatus(built, 404))
	}
	if !strings.Contains(built.Error(), "this answer from the endpoint does not say") {
		t.Errorf("text = %q", built)
	}

	srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		reply(w, 404, `{"error":"System not found: prod","code":"NOT_FOUND"}`)
	})
	_, err := newTestClient(t, srv.URL).GetSystem(context.Background(), "prod")
	if wrapped := fmt.Errorf("reading: %w", errors.Join(errors.New("context"), err)); !IsNotFound(wrapped) || !HasStatus(wrapped, 404) {
		t.Errorf("the helpers do not see through wrapping: %v", wrapped)
	}
}

func TestLongErrorBodyIsTruncated(t *testing.T) {
	body := strings.Repeat("é", 600) // 1200 bytes, two per rune
	srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 500, body) })
	err := newTestClient(t, srv.URL).CreateSystem(context.Background(), "prod")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v", err)
	}
	if len(e.Message) > maxMessageBytes+3 || !strings.HasSuffix(e.Message, "...") || !strings.HasPrefix(e.Message, "éé") {
		t.Errorf("message not truncated: %d bytes", len(e.Message))
	}
	if !strings.HasPrefix(strings.TrimSuffix(e.Message, "..."), strings.Repeat("é", 256)) {
		t.Errorf("message cut inside a rune: %q", e.Message[len(e.Message)-8:])
	}
}

func TestActionResult(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		wantErr bool
		wantMsg string
	}{
		{"Y", `{"actionResult":"Y"}`, false, ""},
		{"Y with extra fields", `{"actionResult":"Y","message":"done"}`, false, ""},
		{"no actionResult", `{"systemName":"a"}`, false, ""},
		{"empty body", ``, false, ""},
		{"non-JSON body", `OK`, false, ""},
		{"N with message", `{"actionResult":"N","message":"node agent unreachable"}`, true, "node agent unreachable"},
		{"N with error", `{"actionResult":"N","error":"port in use"}`, true, "port in use"},
		{"N with errorMessage", `{"actionResult":"N","errorMessage":"disk full"}`, true, "disk full"},
		{"lower-case n", `{"actionResult":"n","message":"x"}`, true, "x"},
		{"N without message", `{"actionResult":"N"}`, true, "no reason given"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, tc.body) })
			err := newTestClient(t, srv.URL).RenameSystem(context.Background(), "a", "b")
			if !tc.wantErr {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if e.StatusCode != 200 || e.Code != CodeActionFailed || e.Message != tc.wantMsg || !IsActionFailed(err) {
				t.Errorf("error = %+v", *e)
			}
			if IsNotFound(err) || IsBadRequest(err) || IsConflict(err) {
				t.Error("a status helper matched an action failure")
			}
			want := `PUT /rest/systems/a: the manager reported actionResult "N": ` + tc.wantMsg
			if err.Error() != want {
				t.Errorf("text = %q\nwant   %q", err.Error(), want)
			}
			if rec.count() != 1 {
				t.Errorf("attempts = %d, want 1", rec.count())
			}
		})
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Redirect(w, r, "https://elsewhere.example.com/rest/systems?"+r.URL.RawQuery, http.StatusFound)
	})
	_, err := newTestClient(t, srv.URL).ListSystems(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != http.StatusFound {
		t.Fatalf("got %v, want a 302 *Error", err)
	}
	if !strings.Contains(e.Message, "redirect to https://elsewhere.example.com/rest/systems?key=REDACTED not followed") {
		t.Errorf("message = %q", e.Message)
	}
	assertNoKey(t, "redirect error", err.Error())
	if rec.count() != 1 {
		t.Errorf("requests = %d, want 1", rec.count())
	}
}

func TestEmptyPathSegmentsAreRefused(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{}`) })
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	for name, err := range map[string]error{
		"DeleteSystem empty": c.DeleteSystem(ctx, ""),
		"DeleteNode dotdot":  c.DeleteNode(ctx, "sys", ".."),
		"UpdateNode dot":     c.UpdateNode(ctx, ".", "n", UpdateNodeRequest{}),
		"RenameSystem empty": c.RenameSystem(ctx, "", "x"),
	} {
		if err == nil || !strings.Contains(err.Error(), "invalid path segment") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := c.GetSystem(ctx, ""); err == nil {
		t.Error("GetSystem(\"\") succeeded")
	}
	if _, err := c.GetNode(ctx, "s", ""); err == nil {
		t.Error("GetNode with empty node succeeded")
	}
	if rec.count() != 0 {
		t.Errorf("%d requests sent for invalid names", rec.count())
	}
}

// Found by FuzzClientResponses: a refusal whose reason is not a plain string used to be
// taken for a success, because the whole body failed to decode.
func TestActionFailureWithUnexpectedReasonShape(t *testing.T) {
	for _, body := range []string{
		`{"actionResult":"N","error":{"detail":"port in use"}}`,
		`{"actionResult":"N","message":["a","b"]}`,
		`{"actionResult":"N","code":{"x":1},"message":"stopped"}`,
	} {
		err := (redactor{}).actionFailure("POST", "/rest/systems", 200, []byte(body))
		if err == nil || err.Code != CodeActionFailed {
			t.Errorf("%s: got %v, want an ACTION_FAILED error", body, err)
			continue
		}
		if err.Message == "" {
			t.Errorf("%s: the error carries no message", body)
		}
	}
}

// An http:// endpoint for a port that speaks TLS: Go's server answers 400 with its phrase.
func TestPlainHTTPToHTTPSPort(t *testing.T) {
	srv := tlsServer(t)
	host := srv.Listener.Addr().String()
	_, err := newTestClient(t, "http://"+host).ListSystems(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Code != CodePlainHTTPToHTTPS || e.Message != "Client sent an HTTP request to an HTTPS server." {
		t.Fatalf("err = %#v, want a PLAIN_HTTP_TO_HTTPS *Error", err)
	}
	if !IsPlainHTTPToHTTPS(err) || IsBadRequest(err) || !HasStatus(err, http.StatusBadRequest) || e.Attempts != 1 {
		t.Errorf("IsPlainHTTPToHTTPS %t, IsBadRequest %t, HasStatus(400) %t, attempts %d; want true, false, true, 1",
			IsPlainHTTPToHTTPS(err), IsBadRequest(err), HasStatus(err, http.StatusBadRequest), e.Attempts)
	}
	want := "GET /rest/systems: 400 PLAIN_HTTP_TO_HTTPS: Client sent an HTTP request to an HTTPS server.; the endpoint http://" + host +
		" sends plain HTTP to a port that speaks HTTPS: change it to https://" + host
	if err.Error() != want {
		t.Errorf("text = %q\nwant   %q", err, want)
	}
}

// With an https:// endpoint the same answer comes from something behind it.
func TestPlainHTTPBehindHTTPSEndpoint(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "<center>The plain HTTP request was sent to HTTPS port</center>")
	}))
	t.Cleanup(srv.Close)
	_, err := newTestClient(t, srv.URL, func(c *Config) { c.InsecureSkipVerify = true }).ListSystems(context.Background())
	want := "GET /rest/systems: 400 PLAIN_HTTP_TO_HTTPS: The plain HTTP request was sent to HTTPS port; plain HTTP reached a port " +
		"that speaks HTTPS although " + srv.URL + " uses HTTPS: check the proxy in between"
	if !IsPlainHTTPToHTTPS(err) || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}
