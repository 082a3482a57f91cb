package apm

import (
	"errors"
	"fmt"
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
