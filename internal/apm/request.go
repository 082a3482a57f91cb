package apm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// maxResponseBytes bounds what is read from one response.
const maxResponseBytes = 16 << 20

// publicPrefix is the path family that needs no API key (spec 5.4).
const publicPrefix = "/rest/public"

// get reads path into out (a pointer to a wire struct or a *listOf).
func (c *Client) get(ctx context.Context, path string, query url.Values, out any) error {
	return c.do(ctx, http.MethodGet, path, query, nil, out)
}

// getList reads the list at path, whose items the manager wraps under key (see listOf),
// and converts each item with conv. The result is never nil, so that callers see an empty
// list rather than a missing one.
func getList[W, T any](ctx context.Context, c *Client, path string, query url.Values, key string, conv func(W) T) ([]T, error) {
	list := newList[W](key)
	if err := c.get(ctx, path, query, list); err != nil {
		return nil, err
	}
	return mapAll(list.Items, conv), nil
}

// getOne reads the object at pattern filled with segments (see buildPath) and converts it
// with conv.
func getOne[W, T any](ctx context.Context, c *Client, conv func(W) T, pattern string, segments ...string) (*T, error) {
	path, err := buildPath(pattern, segments...)
	if err != nil {
		return nil, err
	}
	return getAt(ctx, c, path, conv)
}

// getAt reads the object at an already built path and converts it with conv.
func getAt[W, T any](ctx context.Context, c *Client, path string, conv func(W) T) (*T, error) {
	var w W
	if err := c.get(ctx, path, nil, &w); err != nil {
		return nil, err
	}
	out := conv(w)
	return &out, nil
}

// send performs a write. body (nil for none) is marshalled to JSON; a 2xx answer with
// actionResult "N" is an *Error.
func (c *Client) send(ctx context.Context, method, path string, query url.Values, body any) error {
	return c.do(ctx, method, path, query, body, nil)
}

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
	retryAfter    time.Duration // server's Retry-After, when hasRetryAfter
	hasRetryAfter bool
}

// do runs one request with retries. path is already escaped and has no query.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("%s %s: encoding request body: %w", method, path, err)
		}
	}
	ctx = c.logContext(ctx)
	var last outcome
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return c.stopped(method, path, attempt-1, err, last.err)
		}
		last = c.attempt(ctx, method, path, query, payload, out, attempt)
		if last.err == nil {
			return nil
		}
		if !last.retry || attempt > c.maxRetries {
			return withAttempts(last.err, attempt)
		}
		wait := c.backoff(attempt, last.retryAfter, last.hasRetryAfter)
		tflog.Debug(ctx, "APM API request failed, retrying", map[string]any{
			"apm_method": method, "apm_path": path, "apm_attempt": attempt,
			"apm_wait_ms": wait.Milliseconds(), "apm_error": c.auth().redact.String(last.err.Error()),
		})
		if err := sleepCtx(ctx, wait); err != nil {
			return c.stopped(method, path, attempt, err, last.err)
		}
	}
}

// stopped is the error for a caller context that ended between attempts. It unwraps to
// the context error only (not to the last *Error), so callers classify it as cancelled;
// the last failure is kept in the text.
func (c *Client) stopped(method, path string, attempts int, ctxErr, lastErr error) error {
	what := "request canceled"
	if errors.Is(ctxErr, context.DeadlineExceeded) {
		what = "deadline exceeded"
	}
	if lastErr != nil {
		what += " while waiting to retry (last error: " + shortError(lastErr, method, path) + ")"
	}
	return &TransportError{Method: method, Path: path, Attempts: attempts, what: what, Err: ctxErr}
}

// shortError is err's text without the "METHOD /path: " prefix repeated.
func shortError(err error, method, path string) string {
	return strings.TrimPrefix(err.Error(), method+" "+path+": ")
}

func withAttempts(err error, attempts int) error {
	switch e := err.(type) {
	case *Error:
		e.Attempts = attempts
	case *TransportError:
		e.Attempts = attempts
	}
	return err
}

// attempt sends the request once, under its own timeout, and reads the whole response
// before that timeout's context is released.
func (c *Client) attempt(ctx context.Context, method, path string, query url.Values, payload []byte, out any, n int) outcome {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	req, err := c.newRequest(actx, method, path, query, payload)
	if err != nil {
		return outcome{err: &TransportError{Method: method, Path: path, what: "building request failed", Err: c.auth().redact.sanitize(err)}}
	}
	fields := map[string]any{"apm_method": method, "apm_path": path, "apm_attempt": n}
	tflog.Debug(ctx, "APM API request", fields)
	start := time.Now()
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return c.transportFailure(ctx, method, path, err, true, fields, start)
	}
	defer resp.Body.Close()
	data, err := readBody(resp.Body)
	fields["apm_status"] = resp.StatusCode
	fields["apm_duration_ms"] = time.Since(start).Milliseconds()
	if err != nil {
		return c.transportFailure(ctx, method, path, err, false, fields, start)
	}
	tflog.Debug(ctx, "APM API response", fields)
	tflog.Trace(ctx, "APM API response body", map[string]any{
		"apm_method": method, "apm_path": path, "apm_body_bytes": len(data),
		"apm_content_type": resp.Header.Get("Content-Type"),
	})
	return c.interpret(method, path, resp, data, out)
}

// interpret turns a complete response into an outcome.
func (c *Client) interpret(method, path string, resp *http.Response, data []byte, out any) outcome {
	r := c.auth().redact
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := r.newHTTPError(method, path, resp.StatusCode, data)
		if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
			apiErr.Message += " (redirect to " + r.String(loc) + " not followed: set the endpoint to the final address)"
		}
		o := outcome{err: apiErr}
		if retryableStatus(resp.StatusCode) && idempotent(method) {
			o.retry = true
			o.retryAfter, o.hasRetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		}
		return o
	}
	if apiErr := r.actionFailure(method, path, resp.StatusCode, data); apiErr != nil {
		return outcome{err: apiErr}
	}
	if out == nil {
		return outcome{}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return outcome{err: invalidResponse(method, path, resp.StatusCode, "empty body, expected JSON")}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return outcome{err: invalidResponse(method, path, resp.StatusCode, "cannot decode the body: "+r.String(err.Error()))}
	}
	return outcome{}
}

// invalidResponse is a 2xx answer the client cannot use. It is an *Error (the manager did
// answer), so callers do not mistake it for an unreachable manager.
func invalidResponse(method, path string, status int, msg string) *Error {
	return &Error{StatusCode: status, Code: CodeInvalidResponse, Message: msg, Method: method, Path: path}
}

// transportFailure classifies an error that left no usable response. sending is true when
// the error came from sending (no response yet), false when reading the body failed.
func (c *Client) transportFailure(ctx context.Context, method, path string, err error, sending bool, fields map[string]any, start time.Time) outcome {
	te := &TransportError{Method: method, Path: path, Err: c.auth().redact.sanitize(err)}
	o := outcome{err: te}
	switch {
	case ctx.Err() != nil:
		// The caller gave up: stop, and report the caller's reason.
		te.what = "request canceled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			te.what = "deadline exceeded"
		}
	case errors.Is(err, context.DeadlineExceeded):
		te.what = fmt.Sprintf("request timed out after %s", c.timeout)
		o.retry = idempotent(method)
	case !sending:
		te.what = "reading response failed"
		o.retry = idempotent(method) && !errors.Is(err, errBodyTooLarge)
	case tlsFailed(err):
		te.what = "TLS handshake failed"
	case dialFailed(err):
		te.what = "connection failed"
		o.retry = true // nothing was sent, so even a POST is safe to repeat
	default:
		te.what = "request failed"
		o.retry = idempotent(method)
	}
	fields["apm_duration_ms"] = time.Since(start).Milliseconds()
	fields["apm_error"] = te.Error()
	tflog.Debug(ctx, "APM API request failed", fields)
	return o
}

// newRequest builds the request of one attempt. The keyed URL exists only inside the
// returned request and is never logged or stored.
func (c *Client) newRequest(ctx context.Context, method, path string, query url.Values, payload []byte) (*http.Request, error) {
	q := url.Values{}
	for k, v := range query {
		q[k] = append([]string(nil), v...)
	}
	if !isPublic(path) && c.auth().key != "" {
		q.Set("key", c.auth().key)
	}
	target := c.baseURL + path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
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
