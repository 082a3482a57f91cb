package apm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Error codes set by the client itself. The others come from the manager's error body.
const (
	// CodeActionFailed marks a 2xx response whose body says `"actionResult": "N"`.
	CodeActionFailed = "ACTION_FAILED"
	// CodeInvalidResponse marks a 2xx response whose body cannot be decoded.
	CodeInvalidResponse = "INVALID_RESPONSE"
)

// maxMessageBytes bounds the error text taken from a non-JSON body (an HTML error page of a
// proxy, for example) so that diagnostics stay readable.
const maxMessageBytes = 512

// Error is a failure reported by the manager: a non-2xx response, or a 2xx response whose
// body carries `"actionResult": "N"`. Its fields never contain the API key.
type Error struct {
	StatusCode int    // HTTP status; the 2xx status (normally 200) for an actionResult "N" failure
	Code       string // body "code" (BAD_REQUEST, NOT_FOUND, ...), derived from the status when the body has none; ACTION_FAILED for actionResult "N"
	Message    string // the manager's own message
	Method     string
	Path       string // request path without query
	Attempts   int    // attempts made; more than 1 only when the request was retried
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", e.Method, e.Path)
	if e.Code == CodeActionFailed {
		fmt.Fprintf(&b, "the manager reported actionResult %q: %s", "N", e.Message)
	} else {
		b.WriteString(e.statusText())
		if e.Message != "" {
			b.WriteString(": " + e.Message)
		}
	}
	b.WriteString(attemptsSuffix(e.Attempts))
	return scrubKeyParams(b.String())
}

// statusText is "409 CONFLICT", or "418 I'm a teapot" when there is no code.
func (e *Error) statusText() string {
	if e.Code != "" {
		return fmt.Sprintf("%d %s", e.StatusCode, e.Code)
	}
	return strings.TrimSpace(fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode)))
}

func attemptsSuffix(n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (after %d attempts)", n)
}

// TransportError is a request that got no usable response: the connection failed, TLS
// verification failed, the attempt timed out, the context was cancelled, or the response
// could not be read. Its text and its cause never contain the API key or the keyed URL.
type TransportError struct {
	Method   string
	Path     string // request path without query
	Attempts int    // attempts made; more than 1 only when the request was retried
	Err      error  // sanitized cause; errors.Is(err, context.Canceled) works through it

	what string // short description such as "connection failed"
}

func (e *TransportError) Error() string {
	what := e.what
	if what == "" {
		what = "request failed"
	}
	msg := fmt.Sprintf("%s %s: %s%s", e.Method, e.Path, what, attemptsSuffix(e.Attempts))
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return scrubKeyParams(msg)
}

func (e *TransportError) Unwrap() error { return e.Err }

// IsNotFound reports whether err is a 404 / NOT_FOUND from the manager.
func IsNotFound(err error) bool { return hasStatusOrCode(err, http.StatusNotFound, "NOT_FOUND") }

// IsConflict reports whether err is a 409 / CONFLICT (the object exists already).
func IsConflict(err error) bool { return hasStatusOrCode(err, http.StatusConflict, "CONFLICT") }

// IsUnauthorized reports whether err is a 401 / UNAUTHORIZED (API key missing or invalid).
func IsUnauthorized(err error) bool {
	return hasStatusOrCode(err, http.StatusUnauthorized, "UNAUTHORIZED")
}

// IsForbidden reports whether err is a 403 / FORBIDDEN (key valid, access denied).
func IsForbidden(err error) bool { return hasStatusOrCode(err, http.StatusForbidden, "FORBIDDEN") }

// IsBadRequest reports whether err is a 400 / BAD_REQUEST.
func IsBadRequest(err error) bool {
	return hasStatusOrCode(err, http.StatusBadRequest, "BAD_REQUEST")
}

// IsActionFailed reports whether err is an actionResult "N" answer.
func IsActionFailed(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeActionFailed
}

func hasStatusOrCode(err error, status int, code string) bool {
	var e *Error
	if !errors.As(err, &e) || e.Code == CodeActionFailed {
		return false
	}
	return e.StatusCode == status || strings.EqualFold(e.Code, code)
}

// codeForStatus fills Code when the body has none, so that the text and the Is* helpers
// behave the same for a bare proxy error as for the manager's own body.
var codeForStatus = map[int]string{
	http.StatusBadRequest:          "BAD_REQUEST",
	http.StatusUnauthorized:        "UNAUTHORIZED",
	http.StatusForbidden:           "FORBIDDEN",
	http.StatusNotFound:            "NOT_FOUND",
	http.StatusConflict:            "CONFLICT",
	http.StatusTooManyRequests:     "TOO_MANY_REQUESTS",
	http.StatusInternalServerError: "INTERNAL_SERVER_ERROR",
	http.StatusBadGateway:          "BAD_GATEWAY",
	http.StatusServiceUnavailable:  "SERVICE_UNAVAILABLE",
	http.StatusGatewayTimeout:      "GATEWAY_TIMEOUT",
}

// errorBody is the manager's error body (part 7 of the spec). The message is also accepted
// under the names used with actionResult, since a real manager may mix them.
type errorBody struct {
	Error        flexString `json:"error"`
	Message      flexString `json:"message"`
	ErrorMessage flexString `json:"errorMessage"`
	Code         flexString `json:"code"`
}

func (b errorBody) message() string {
	for _, m := range []flexString{b.Error, b.Message, b.ErrorMessage} {
		if s := strings.TrimSpace(string(m)); s != "" {
			return s
		}
	}
	return ""
}

// newHTTPError builds the *Error for a non-2xx response. A body that is not the standard
// JSON error body still yields an *Error, with the body text (trimmed) as its message.
func (r redactor) newHTTPError(method, path string, status int, body []byte) *Error {
	e := &Error{StatusCode: status, Method: method, Path: path}
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err == nil {
		e.Code = strings.TrimSpace(string(eb.Code))
		e.Message = eb.message()
	} else {
		e.Message = bodyText(body)
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	if e.Code == "" {
		e.Code = codeForStatus[status]
	}
	e.Message = r.String(e.Message)
	e.Code = r.String(e.Code)
	return e
}

// actionFailure returns an *Error when a 2xx body says `"actionResult": "N"`, nil otherwise
// (including for bodies that are not JSON objects).
func (r redactor) actionFailure(method, path string, status int, body []byte) *Error {
	trimmed := strings.TrimSpace(string(body))
	if !strings.HasPrefix(trimmed, "{") {
		return nil
	}
	// The verdict is read on its own: a message field of an unexpected shape (an object,
	// an array) must not turn a refusal into a success. A body whose actionResult cannot
	// be read is no action failure; whether it decodes as what the caller expects is
	// checked elsewhere.
	var verdict struct {
		ActionResult flexString `json:"actionResult"`
	}
	if err := json.Unmarshal(body, &verdict); err != nil {
		return nil //nolint:nilerr // see above
	}
	if !strings.EqualFold(strings.TrimSpace(string(verdict.ActionResult)), "N") {
		return nil
	}
	msg := "no reason given"
	var reason errorBody
	if err := json.Unmarshal(body, &reason); err != nil {
		msg = bodyText(body) // reason fields of an unexpected shape: show them as sent
	} else if m := reason.message(); m != "" {
		msg = m
	}
	return &Error{
		StatusCode: status,
		Code:       CodeActionFailed,
		Message:    r.String(msg),
		Method:     method,
		Path:       path,
	}
}

// bodyText is the body as one trimmed line, cut to maxMessageBytes on a rune boundary.
func bodyText(body []byte) string {
	s := strings.Join(strings.Fields(string(body)), " ")
	if len(s) <= maxMessageBytes {
		return s
	}
	cut := maxMessageBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
