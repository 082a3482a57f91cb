package apm

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// maxResponseBytes bounds what is read from one response.
const maxResponseBytes = 16 << 20

// publicPrefix is the path family that needs no API key (spec 5.4).
const publicPrefix = "/rest/public"

// get reads path into out (a pointer to a wire struct or a *listOf).
func (c *Client) get(ctx context.Context, path string, query url.Values, out any, opts ...requestOption) error {
	return c.do(ctx, http.MethodGet, path, query, nil, out, opts...)
}

// getList reads the list at path, whose items the manager wraps under key (see listOf),
// and converts each item with conv. The result is never nil, so that callers see an empty
// list rather than a missing one.
func getList[W, T any](ctx context.Context, c *Client, path string, query url.Values, key string, conv func(W) T, opts ...requestOption) ([]T, error) {
	list := newList[W](key)
	if err := c.get(ctx, path, query, list, opts...); err != nil {
		return nil, err
	}
	return mapAll(list.Items, conv), nil
}

// getOne reads the object named name at pattern filled with name and then parents (see
// buildPath) and converts it with conv. The manager's paths name the object first and its
// parents after it (/meters/nodes/{node}/systems/{system}).
func getOne[W, T any](ctx context.Context, c *Client, conv func(W) T, pattern, name string, parents ...string) (*T, error) {
	path, err := buildPath(pattern, append([]string{name}, parents...)...)
	if err != nil {
		return nil, err
	}
	return getAt(ctx, c, path, conv, about(name))
}

// getAt reads the object at an already built path and converts it with conv.
func getAt[W, T any](ctx context.Context, c *Client, path string, conv func(W) T, opts ...requestOption) (*T, error) {
	var w W
	if err := c.get(ctx, path, nil, &w, opts...); err != nil {
		return nil, err
	}
	out := conv(w)
	return &out, nil
}

// send performs a write. body (nil for none) is marshalled to JSON; a 2xx answer with
// actionResult "N" is an *Error.
func (c *Client) send(ctx context.Context, method, path string, query url.Values, body any, opts ...requestOption) error {
	return c.do(ctx, method, path, query, body, nil, opts...)
}

// call is one request as its caller asked for it, the same for each attempt.
type call struct {
	method  string
	path    string // escaped, without query
	query   url.Values
	payload []byte // JSON body; nil for none
	out     any    // where a 2xx body is decoded; nil for writes
	subject string // the object asked about; "" for none (see about)
	// identify reads, from the decoded answer, the field that names the object it is and
	// its value; nil when the answer is no detail (see getDetail).
	identify func() (field, value string)
}

// requestOption adjusts one call.
type requestOption func(*call)

// about names the object a request asks about. A 404 only means that this object does not
// exist when the manager's message names it (see IsNotFound); a request without one (a
// list, a create) never gets IsNotFound. The name is passed rather than read from the path
// because many paths end with a parent (/rest/nodes/{node}/systems/{system}) or an
// operation (.../action).
func about(name string) requestOption { return func(cl *call) { cl.subject = name } }

// buildPath fills each {} of pattern with one escaped path segment. Empty, "." and ".."
// segments are refused: "/rest/systems/" + "" would address the collection instead of one
// system, and dot segments may be resolved by a proxy to another resource.
func buildPath(pattern string, segments ...string) (string, error) {
	parts := strings.Split(pattern, "{}")
	if len(parts) != len(segments)+1 {
		return "", fmt.Errorf("apm: path %s takes %d segments, got %d", pattern, len(parts)-1, len(segments))
	}
	var b strings.Builder
	b.WriteString(parts[0])
	for i, seg := range segments {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("%s: invalid path segment %q: a name must not be empty, %q or %q", pattern, seg, ".", "..")
		}
		b.WriteString(url.PathEscape(seg))
		b.WriteString(parts[i+1])
	}
	return b.String(), nil
}

// outcome is the result of one attempt, with what the retry loop needs to know.
type outcome struct {
	err           error
	retry         bool          // safe and useful to try again
	mayHaveRun    bool          // the manager may have carried out the request (see OutcomeUnknown)
	retryAfter    time.Duration // server's Retry-After, when hasRetryAfter
	hasRetryAfter bool
}

// do runs one request with retries. path is already escaped and has no query.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any, opts ...requestOption) error {
	cl := &call{method: method, path: path, query: query, out: out}
	for _, opt := range opts {
		opt(cl)
	}
	if body != nil {
		payload, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: encoding request body: %w", method, path, err)
		}
		cl.payload = payload
	}
	if !c.silent {
		ctx = c.logContext(ctx)
	}
	return c.fromManager(c.run(ctx, cl))
}

// fromManager records on a request's error which manager it came from (see ManagerOf).
func (c *Client) fromManager(err error) error {
	endpoint := c.auth().redact.String(c.baseURL)
	var apiErr *Error
	var te *TransportError
	switch {
	case errors.As(err, &apiErr):
		apiErr.endpoint = cmp.Or(apiErr.endpoint, endpoint)
	case errors.As(err, &te):
		te.endpoint = endpoint
	}
	return err
}

// run makes the attempts of cl (see the retry policy in retry.go). Whether any attempt may
// have been carried out is kept across attempts, so that a final 503 or a cancelled wait
// after a lost answer still reports OutcomeUnknown.
func (c *Client) run(ctx context.Context, cl *call) error {
	var (
		last       outcome
		mayHaveRun bool
	)
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return c.stopped(cl, attempt-1, err, last.err, mayHaveRun)
		}
		last = c.attempt(ctx, cl, attempt)
		mayHaveRun = mayHaveRun || last.mayHaveRun
		if last.err == nil {
			return nil
		}
		if !last.retry || attempt > c.maxRetries {
			return settle(last.err, attempt, mayHaveRun)
		}
		wait := c.backoff(attempt, last.retryAfter, last.hasRetryAfter)
		if waitEndsAfterDeadline(ctx, wait) {
			c.logRetry(ctx, "APM API request failed, not retrying: the wait would end after the deadline", cl, attempt, wait, last.err)
			return settle(last.err, attempt, mayHaveRun)
		}
		c.logRetry(ctx, "APM API request failed, retrying", cl, attempt, wait, last.err)
		if err := Sleep(ctx, wait); err != nil {
			return c.stopped(cl, attempt, err, last.err, mayHaveRun)
		}
	}
}

// stopped is the error for a caller context that ended between attempts. It unwraps to
// the context error only (not to the last *Error), so callers classify it as cancelled;
// the last failure is kept in the text.
func (c *Client) stopped(cl *call, attempts int, ctxErr, lastErr error, mayHaveRun bool) error {
	what := "request canceled"
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		what = "deadline exceeded"
	}
	if lastErr != nil {
		what += " while waiting to retry (last error: " + shortError(lastErr, cl.method, cl.path) + ")"
	}
	return &TransportError{Method: cl.method, Path: cl.path, Attempts: attempts, what: what, Err: ctxErr, outcomeUnknown: mayHaveRun}
}

// shortError is err's text without the "METHOD /path: " prefix repeated.
func shortError(err error, method, path string) string {
	return strings.TrimPrefix(err.Error(), method+" "+path+": ")
}

// settle records on the final error how many attempts were made and whether any of them
// may have been carried out.
func settle(err error, attempts int, mayHaveRun bool) error {
	switch e := err.(type) {
	case *Error:
		e.Attempts, e.outcomeUnknown = attempts, mayHaveRun
	case *TransportError:
		e.Attempts, e.outcomeUnknown = attempts, mayHaveRun
	}
	return err
}

// attempt sends the request once, under its own timeout, and reads the whole response
// before that timeout's context is released. A trace notes when a connection is ready:
// from then on the manager may receive the request, whatever fails after.
func (c *Client) attempt(ctx context.Context, cl *call, n int) outcome {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var connected atomic.Bool
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { connected.Store(true) },
	})

	req, err := c.newRequest(actx, cl)
	if err != nil {
		return outcome{err: &TransportError{Method: cl.method, Path: cl.path, what: "building request failed", Err: c.auth().redact.sanitize(err)}}
	}
	// fields stays nil when no logger listens, and then no log line is built.
	var fields map[string]any
	if !c.silent {
		fields = map[string]any{"apm_method": cl.method, "apm_path": cl.path, "apm_attempt": n}
		tflog.Debug(ctx, "APM API request", fields)
	}
	start := time.Now()
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return c.transportFailure(ctx, cl, err, true, connected.Load(), fields, start)
	}
	c.answered.Store(true)
	defer resp.Body.Close()
	data, err := readBody(resp.Body)
	if fields != nil {
		fields["apm_status"] = resp.StatusCode
		fields["apm_duration_ms"] = time.Since(start).Milliseconds()
	}
	if err != nil {
		return c.transportFailure(ctx, cl, err, false, true, fields, start)
	}
	if fields != nil {
		tflog.Debug(ctx, "APM API response", fields)
		tflog.Trace(ctx, "APM API response body", map[string]any{
			"apm_method": cl.method, "apm_path": cl.path, "apm_body_bytes": len(data),
			"apm_content_type": resp.Header.Get("Content-Type"),
		})
	}
	return c.interpret(cl, resp, data)
}

// interpret turns a complete response into an outcome.
func (c *Client) interpret(cl *call, resp *http.Response, data []byte) outcome {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return c.failure(cl, resp, data)
	}
	r := c.auth().redact
	if apiErr := r.actionFailure(cl.method, cl.path, resp.StatusCode, data); apiErr != nil {
		return outcome{err: apiErr}
	}
	if cl.out == nil {
		return outcome{}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return outcome{err: invalidResponse(cl.method, cl.path, resp.StatusCode, "empty body, expected JSON")}
	}
	if err := json.Unmarshal(data, cl.out); err != nil {
		return outcome{err: invalidResponse(cl.method, cl.path, resp.StatusCode, "cannot decode the body: "+r.String(err.Error()))}
	}
	if cl.identify != nil {
		if field, got := cl.identify(); got != cl.subject {
			return outcome{err: notTheObject(cl.method, cl.path, resp.StatusCode, field, cl.subject, r.message(got))}
		}
	}
	return outcome{}
}

// failure is the outcome of a non-2xx answer.
func (c *Client) failure(cl *call, resp *http.Response, data []byte) outcome {
	r := c.auth().redact
	apiErr := r.newHTTPError(cl.method, cl.path, cl.subject, resp.StatusCode, data)
	apiErr.endpoint = r.String(c.baseURL)
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		apiErr.Message += " (redirect to " + r.String(loc) + " not followed: set the endpoint to the final address)"
	}
	o := outcome{err: apiErr, mayHaveRun: statusMayHaveRun(resp.StatusCode)}
	if retryableStatus(cl.method, resp.StatusCode) {
		o.retry = true
		o.retryAfter, o.hasRetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	return o
}

// invalidResponse is a 2xx answer the client cannot use. It is an *Error (the manager did
// answer), so callers do not mistake it for an unreachable manager.
func invalidResponse(method, path string, status int, msg string) *Error {
	return &Error{StatusCode: status, Code: CodeInvalidResponse, Message: msg, Method: method, Path: path}
}

// transportFailure classifies an error that left no usable response. sending is true when
// the error came from sending (no response yet), false when reading the body failed;
// connected is true when a connection to the manager was ready, so that it may have
// received the request.
func (c *Client) transportFailure(ctx context.Context, cl *call, err error, sending, connected bool, fields map[string]any, start time.Time) outcome {
	te := &TransportError{Method: cl.method, Path: cl.path, Err: c.auth().redact.sanitize(err)}
	o := outcome{err: te, mayHaveRun: connected}
	switch {
	case ctx.Err() != nil:
		// The caller gave up: stop, and report the caller's reason.
		te.what = "request canceled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			te.what = "deadline exceeded"
		}
	case errors.Is(err, context.DeadlineExceeded):
		te.what = fmt.Sprintf("request timed out after %s", c.timeout)
		o.retry = idempotent(cl.method)
	case !sending:
		te.what = "reading response failed"
		o.retry = idempotent(cl.method) && !errors.Is(err, errBodyTooLarge)
	case tlsFailed(err):
		te.what = "TLS handshake failed"
	case dialFailed(err):
		te.what = "connection failed"
		if advice := unreachable(err); advice != "" && !c.answered.Load() {
			te.advice = advice + " (not retried: the manager has not answered yet)"
			break
		}
		o.retry = true // nothing was sent, so even a POST is safe to repeat
	default:
		te.what = "request failed"
		o.retry = idempotent(cl.method)
	}
	if fields != nil {
		fields["apm_duration_ms"] = time.Since(start).Milliseconds()
		fields["apm_error"] = te.Error()
		tflog.Debug(ctx, "APM API request failed", fields)
	}
	return o
}

// logRetry logs the decision after a failed attempt.
func (c *Client) logRetry(ctx context.Context, msg string, cl *call, attempt int, wait time.Duration, err error) {
	if c.silent {
		return
	}
	tflog.Debug(ctx, msg, map[string]any{
		"apm_method": cl.method, "apm_path": cl.path, "apm_attempt": attempt,
		"apm_wait_ms": wait.Milliseconds(), "apm_error": c.auth().redact.String(err.Error()),
	})
}

// newRequest builds the request of one attempt. The keyed URL exists only inside the
// returned request and is never logged or stored.
func (c *Client) newRequest(ctx context.Context, cl *call) (*http.Request, error) {
	q := url.Values{}
	for k, v := range cl.query {
		q[k] = append([]string(nil), v...)
	}
	if !isPublic(cl.path) && c.auth().key != "" {
		q.Set("key", c.auth().key)
	}
	target := c.baseURL + cl.path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	var body io.Reader
	if cl.payload != nil {
		body = bytes.NewReader(cl.payload)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, target, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if cl.payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

func isPublic(path string) bool {
	return path == publicPrefix || strings.HasPrefix(path, publicPrefix+"/")
}

var errBodyTooLarge = fmt.Errorf("response body larger than %d bytes", maxResponseBytes)

// readBody reads at most maxResponseBytes; a longer body is an error rather than a silently
// truncated (and then undecodable) document.
func readBody(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxResponseBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxResponseBytes {
		return nil, errBodyTooLarge
	}
	return data, nil
}

// logContext masks the key in every log line of this request: the literal key, and any
// `key=` value. The client never logs URLs or bodies, so this is a second line of defence.
func (c *Client) logContext(ctx context.Context) context.Context {
	if c.auth().key != "" {
		ctx = tflog.MaskLogStrings(ctx, c.auth().redact.secrets...)
	}
	return tflog.MaskLogRegexes(ctx, keyParamPattern)
}
