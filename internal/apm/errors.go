package apm

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Error codes set by the client itself. The others come from the manager's error body.
const (
	// CodeActionFailed marks a 2xx response whose body says `"actionResult": "N"`.
	CodeActionFailed = "ACTION_FAILED"
	// CodeInvalidResponse marks a 2xx response whose body cannot be decoded.
	CodeInvalidResponse = "INVALID_RESPONSE"
	// CodePlainHTTPToHTTPS marks the 400 a TLS server gives to a plain HTTP request: the
	// endpoint says http:// for a port that speaks HTTPS.
	CodePlainHTTPToHTTPS = "PLAIN_HTTP_TO_HTTPS"
)

// maxMessageBytes bounds the text taken from the manager into an error: its JSON message, or
// a non-JSON body (an HTML error page of a proxy, for example), so that diagnostics stay
// readable whatever the manager sends (a 3 MB message once filled the user's terminal).
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

	endpoint       string // the client's base URL (no query, so no key), named in advice
	subject        string // the object the request asked about (see about)
	gone           bool   // the manager said that subject does not exist (see IsNotFound)
	missing        string // another object the manager said does not exist, "Database orders-db" (see MissingReference)
	outcomeUnknown bool   // see OutcomeUnknown
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
	if h := e.hint(); h != "" {
		b.WriteString("; " + h)
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

// hint is advice for the answers that usually come from a wrong endpoint rather than from
// the manager: the user reads the text, and must learn to check the endpoint.
func (e *Error) hint() string {
	endpoint := cmp.Or(e.endpoint, "the endpoint")
	switch {
	case e.Code == CodePlainHTTPToHTTPS && strings.HasPrefix(e.endpoint, "http://"):
		return fmt.Sprintf("the endpoint %s sends plain HTTP to a port that speaks HTTPS: change it to https://%s",
			e.endpoint, strings.TrimPrefix(e.endpoint, "http://"))
	case e.Code == CodePlainHTTPToHTTPS:
		return fmt.Sprintf("plain HTTP reached a port that speaks HTTPS although %s uses HTTPS: check the proxy in between", endpoint)
	case e.StatusCode == http.StatusNotFound && !e.gone && e.missing == "":
		return fmt.Sprintf("this answer from %s does not say that %s does not exist: check that the endpoint, including its path prefix, is the manager's",
			endpoint, e.object())
	}
	return ""
}

// object names the object asked about in advice.
func (e *Error) object() string {
	if e.subject == "" {
		return "the object asked for"
	}
	return strconv.Quote(e.subject)
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

	what           string // short description such as "connection failed"
	advice         string // what to check, after the cause; "" for none
	outcomeUnknown bool   // see OutcomeUnknown
	endpoint       string // the client's base URL (see ManagerOf)
}

// ManagerOf is the endpoint of the manager that a request's error came from (the client's
// base URL, which holds no key). The provider names it in every error, since one process
// cannot tell which of a configuration's providers it is.
func ManagerOf(err error) (string, bool) {
	var apiErr *Error
	if errors.As(err, &apiErr) && apiErr.endpoint != "" {
		return apiErr.endpoint, true
	}
	var te *TransportError
	if errors.As(err, &te) && te.endpoint != "" {
		return te.endpoint, true
	}
	return "", false
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
	if e.advice != "" {
		msg += "; " + e.advice
	}
	return scrubKeyParams(msg)
}

func (e *TransportError) Unwrap() error { return e.Err }

// IsNotFound reports whether the manager said that the object the request asked about does
// not exist: a 404 whose body is the manager's error body with code NOT_FOUND and the
// message "<Kind> not found: <name>" naming that object. Any other 404 (a proxy's page, a
// wrong path prefix, a missing parent such as the system of a node) is not: the caller
// must not conclude that the object is gone. HasStatus sees every 404.
func IsNotFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.gone
}

// HasStatus reports whether err is an *Error for an answer with this HTTP status (an
// actionResult "N" refusal has its 2xx status). It does not interpret the answer: for "the
// object does not exist" use IsNotFound.
func HasStatus(err error, status int) bool {
	var e *Error
	return errors.As(err, &e) && e.StatusCode == status
}

// IsNotFoundAnswer reports whether the answer was a 404 of any shape: the object asked
// about, a parent it lives under, or a path the manager does not have. Only IsNotFound
// says that the object itself does not exist.
func IsNotFoundAnswer(err error) bool { return HasStatus(err, http.StatusNotFound) }

// IsServerFailure reports whether the manager, or a gateway in front of it, answered with
// a 5xx: it could not handle the request.
func IsServerFailure(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.StatusCode >= 500 && e.StatusCode <= 599
}

// IsUnavailable reports whether the answer was 503: the manager refused the request
// before doing anything.
func IsUnavailable(err error) bool { return HasStatus(err, http.StatusServiceUnavailable) }

// WasRead reports whether the failed request was a read (GET), which changes nothing
// whatever became of it.
func WasRead(err error) bool {
	var e *Error
	if errors.As(err, &e) {
		return e.Method == http.MethodGet
	}
	var te *TransportError
	return errors.As(err, &te) && te.Method == http.MethodGet
}

// NewConflict is a 409 / CONFLICT found by the caller rather than answered by the
// manager (an object there already that a write would replace), so that it is handled as
// the manager's own.
func NewConflict(message string) *Error {
	return &Error{StatusCode: http.StatusConflict, Code: "CONFLICT", Message: message}
}

// ConflictKind says what a 409 / CONFLICT is about, from the manager's message
// (api/rest-interface.md part 7, api/decisions.md "Deleting what others use").
type ConflictKind int

const (
	ConflictOther    ConflictKind = iota // a 409 of no known shape, or no 409
	ConflictExists                       // the object, or the part, is there already
	ConflictInUse                        // other objects use it: a delete refused until they are gone
	ConflictPortUsed                     // another server on the node holds the port
)

var conflictPhrases = []struct {
	phrase string
	kind   ConflictKind
}{
	{"already exists", ConflictExists},
	{"already attached", ConflictExists},
	{"already deployed", ConflictExists},
	{"already has", ConflictExists},
	{"is already used by", ConflictPortUsed},
	{"still has", ConflictInUse},
	{"is used by", ConflictInUse},
	{"is attached to", ConflictInUse},
	{"is a load balancer worker of", ConflictInUse},
	{"is granted to", ConflictInUse},
}

// ConflictOf classifies a 409; ConflictOther for anything else.
func ConflictOf(err error) ConflictKind {
	var e *Error
	if !IsConflict(err) || !errors.As(err, &e) {
		return ConflictOther
	}
	for _, p := range conflictPhrases {
		if strings.Contains(e.Message, p.phrase) {
			return p.kind
		}
	}
	return ConflictOther
}

// IsConflict reports whether err is a 409 / CONFLICT (the object exists already).
func IsConflict(err error) bool { return hasStatusOrCode(err, http.StatusConflict, "CONFLICT") }

// IsUnauthorized reports whether err is a 401 / UNAUTHORIZED (API key missing or invalid).
func IsUnauthorized(err error) bool {
	return hasStatusOrCode(err, http.StatusUnauthorized, "UNAUTHORIZED")
}

// IsForbidden reports whether err is a 403 / FORBIDDEN (key valid, access denied).
func IsForbidden(err error) bool { return hasStatusOrCode(err, http.StatusForbidden, "FORBIDDEN") }

// IsBadRequest reports whether err is a 400 / BAD_REQUEST. A plain HTTP request to an
// HTTPS port is not (see IsPlainHTTPToHTTPS): the request was fine, the endpoint is wrong.
func IsBadRequest(err error) bool {
	return hasStatusOrCode(err, http.StatusBadRequest, "BAD_REQUEST")
}

// IsRateLimited reports whether err is a 429 / TOO_MANY_REQUESTS: the manager refused the
// request because of its rate, after the client's retries.
func IsRateLimited(err error) bool {
	return hasStatusOrCode(err, http.StatusTooManyRequests, "TOO_MANY_REQUESTS")
}

// IsPlainHTTPToHTTPS reports whether err is the answer of a TLS server to a plain HTTP
// request: the endpoint must start with https://.
func IsPlainHTTPToHTTPS(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodePlainHTTPToHTTPS
}

// IsActionFailed reports whether err is an actionResult "N" answer.
func IsActionFailed(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeActionFailed
}

// OutcomeUnknown reports whether a failed write may nevertheless have been carried out by
// the manager, so that the caller must read the object before reporting a failure: the
// request may have reached the manager but no answer came (connection lost after it was
// established, reading the answer failed, the attempt timed out, the caller's context
// ended while the request was in flight), or the manager answered with a 5xx other than
// 503. It is false when the request provably did not run: the connection or the TLS
// handshake failed, the request could not be built, a 4xx or 503 answer, an actionResult
// "N", or a context that ended between attempts. When any attempt of a retried request was
// ambiguous, the final error is too. It is meaningful for writes only: a read has no effect
// to look for.
func OutcomeUnknown(err error) bool {
	var e *Error
	if errors.As(err, &e) {
		return e.outcomeUnknown
	}
	var te *TransportError
	return errors.As(err, &te) && te.outcomeUnknown
}

// hasStatusOrCode matches the manager's own status or code. A refusal and a plain-HTTP
// answer carry a status too, but are categories of their own.
func hasStatusOrCode(err error, status int, code string) bool {
	var e *Error
	if !errors.As(err, &e) || e.Code == CodeActionFailed || e.Code == CodePlainHTTPToHTTPS {
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

// newHTTPError builds the *Error for a non-2xx response to a request about subject (see
// about). A body that is not the standard JSON error body still yields an *Error, with the
// body text (trimmed) as its message.
func (r redactor) newHTTPError(method, path, subject string, status int, body []byte) *Error {
	e := &Error{StatusCode: status, Method: method, Path: path, subject: r.String(subject)}
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err == nil {
		e.Code = strings.TrimSpace(string(eb.Code))
		e.Message = eb.message()
		managersNotFound := status == http.StatusNotFound && strings.EqualFold(e.Code, "NOT_FOUND")
		e.gone = managersNotFound && namesMissing(e.Message, subject)
		if kind, name, ok := missingObject(e.Message); managersNotFound && !e.gone && ok {
			e.missing = kind + " " + strconv.Quote(name)
		}
	} else if phrase, ok := plainHTTPPhrase(status, body); ok {
		e.Code, e.Message = CodePlainHTTPToHTTPS, phrase
	} else {
		e.Message = oneLine(body)
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	if e.Code == "" {
		e.Code = codeForStatus[status]
	}
	e.Message = r.message(e.Message)
	e.Code = r.message(e.Code)
	return e
}

// namesMissing reports whether msg, the manager's "<Kind> not found: <name>", names subject.
// Only the name is compared: the kind is free text, while the name is what the request
// asked for.
// missingObject reads the manager's "<Kind> not found: <name>".
func missingObject(msg string) (kind, name string, ok bool) {
	const marker = " not found:"
	i := strings.LastIndex(msg, marker)
	if i < 0 {
		return "", "", false
	}
	kind, name = strings.TrimSpace(msg[:i]), strings.TrimSpace(msg[i+len(marker):])
	return kind, name, kind != "" && name != "" && !strings.ContainsAny(kind, ":;")
}

// MissingReference reports the object, such as `Database "orders-db"`, that the manager
// said does not exist when it is not the one the request was about: an object the request
// refers to (the database of a datasource, the role of a grant).
func MissingReference(err error) (string, bool) {
	var e *Error
	if errors.As(err, &e) && e.missing != "" {
		return e.missing, true
	}
	return "", false
}

func namesMissing(msg, subject string) bool {
	const marker = "not found:"
	i := strings.LastIndex(msg, marker)
	return subject != "" && i >= 0 && strings.TrimSpace(msg[i+len(marker):]) == subject
}

// plainHTTPPhrases are what TLS servers answer to plain HTTP: Go's net/http, and nginx.
var plainHTTPPhrases = []string{
	"Client sent an HTTP request to an HTTPS server.",
	"The plain HTTP request was sent to HTTPS port",
}

// plainHTTPPhrase returns the phrase of plainHTTPPhrases that a 400 body contains. The
// phrase, not the body, becomes the message: nginx wraps it in an HTML page.
func plainHTTPPhrase(status int, body []byte) (string, bool) {
	if status != http.StatusBadRequest {
		return "", false
	}
	for _, p := range plainHTTPPhrases {
		if strings.Contains(string(body), p) {
			return p, true
		}
	}
	return "", false
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
		msg = oneLine(body) // reason fields of an unexpected shape: show them as sent
	} else if m := reason.message(); m != "" {
		msg = m
	}
	return &Error{
		StatusCode: status,
		Code:       CodeActionFailed,
		Message:    r.message(msg),
		Method:     method,
		Path:       path,
	}
}

// oneLine is the body as one trimmed line.
func oneLine(body []byte) string {
	return strings.Join(strings.Fields(string(body)), " ")
}
