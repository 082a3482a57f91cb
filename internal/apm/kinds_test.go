package apm

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The kinds of error the provider reasons in, so that it needs no HTTP status of its own.
func TestErrorKinds(t *testing.T) {
	notFound := &Error{Method: "GET", StatusCode: 404, Code: "NOT_FOUND"}
	gatewayOnWrite := &Error{Method: "POST", StatusCode: 502}
	unavailable := &Error{Method: "PUT", StatusCode: 503}
	lostRead := &TransportError{Method: "GET"}
	wrapped := func(err error) error { return fmt.Errorf("reading: %w", err) }
	cases := []struct {
		name                                  string
		err                                   error
		notFoundAnswer, failure, unavail, get bool
	}{
		{"any 404", wrapped(notFound), true, false, false, true},
		{"a gateway's 502 on a write", gatewayOnWrite, false, true, false, false},
		{"503", unavailable, false, true, true, false},
		{"a read that got no answer", wrapped(lostRead), false, false, false, true},
		{"not an answer at all", errors.New("x"), false, false, false, false},
	}
	for _, c := range cases {
		if got := IsNotFoundAnswer(c.err); got != c.notFoundAnswer {
			t.Errorf("%s: IsNotFoundAnswer = %v", c.name, got)
		}
		if got := IsServerFailure(c.err); got != c.failure {
			t.Errorf("%s: IsServerFailure = %v", c.name, got)
		}
		if got := IsUnavailable(c.err); got != c.unavail {
			t.Errorf("%s: IsUnavailable = %v", c.name, got)
		}
		if got := WasRead(c.err); got != c.get {
			t.Errorf("%s: WasRead = %v", c.name, got)
		}
	}
	conflict := NewConflict("there already")
	if !IsConflict(fmt.Errorf("create: %w", conflict)) || conflict.Error() == "" {
		t.Errorf("NewConflict is not a conflict: %v", conflict)
	}
}

// Each documented 409 message has its kind, so that the advice fits it.
func TestConflictKinds(t *testing.T) {
	for msg, want := range map[string]ConflictKind{
		"System already exists: shop":                                                            ConflictExists,
		"Datasource already attached: orders-ds":                                                 ConflictExists,
		"Application already deployed: /shop":                                                    ConflictExists,
		"Port 8080 is already used by was-1 on node app-01":                                      ConflictPortUsed,
		"System shop still has 2 node(s); delete them first":                                     ConflictInUse,
		"Database orders-db is used by datasource(s) orders-ds; delete them first":               ConflictInUse,
		"Datasource orders-ds is attached to WAS server(s) was-1 (app-01/shop); detach it first": ConflictInUse,
		"Server was-2 is a load balancer worker of web server web-1; remove the worker first":    ConflictInUse,
		"Role operators is granted to user(s) alice; revoke it first":                            ConflictInUse,
		"something else": ConflictOther,
	} {
		if got := ConflictOf(fmt.Errorf("x: %w", &Error{StatusCode: 409, Code: "CONFLICT", Message: msg})); got != want {
			t.Errorf("%q: kind %d, want %d", msg, got, want)
		}
	}
	if ConflictOf(&Error{StatusCode: 404, Code: "NOT_FOUND", Message: "System already exists: x"}) != ConflictOther {
		t.Error("only a 409 has a conflict kind")
	}
}

// A 404 of the manager that names another object than the request's is a missing
// reference, without the advice about the endpoint's path prefix.
func TestMissingReference(t *testing.T) {
	r := redactor{}
	ref := r.newHTTPError("POST", "/rest/resource/datasource", "orders-ds", 404, []byte(`{"error":"Database not found: orders-db","code":"NOT_FOUND"}`))
	if got, ok := MissingReference(ref); !ok || got != `Database "orders-db"` || IsNotFound(ref) || strings.Contains(ref.Error(), "path prefix") {
		t.Errorf("missing reference %q %v; error %v", got, ok, ref)
	}
	proxy := r.newHTTPError("GET", "/rest/systems/shop", "shop", 404, []byte(`<html>not here</html>`))
	if _, ok := MissingReference(proxy); ok || !strings.Contains(proxy.Error(), "path prefix") {
		t.Errorf("a proxy's 404 is no missing reference: %v", proxy)
	}
	gone := r.newHTTPError("GET", "/rest/systems/shop", "shop", 404, []byte(`{"error":"System not found: shop","code":"NOT_FOUND"}`))
	if _, ok := MissingReference(gone); ok || !IsNotFound(gone) {
		t.Errorf("the object itself missing is IsNotFound: %v", gone)
	}
}
