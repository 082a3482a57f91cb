package apm

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Retry policy. The spec (part 7) advises a delayed retry on 5xx and a corrected request
// on 4xx. Whether a failure is retried depends on what a second attempt could do:
//   - GET, HEAD, OPTIONS, PUT and DELETE have the same effect when repeated: they are
//     retried on every 5xx answer (500 included), on 429, and on transport errors (connection
//     refused or lost, attempt timed out, reading the answer failed).
//   - POST creates objects and starts actions: it is retried only when the manager provably
//     did not carry it out: on 429 and 503 (answers that refuse the request) and when the
//     connection could not be opened (nothing was sent). After any other failure the object
//     may exist; a blind retry would then fail with 409 or act twice, so the caller gets the
//     error, and OutcomeUnknown tells it to look before reporting.
//   - Never retried: certificate and TLS errors, an answer larger than the client reads and
//     a request that cannot be built (waiting does not heal them), and a request whose
//     caller's context has ended.
//   - Not retried either, until the manager has answered once: a host name that does not
//     resolve (no such host) and a refused connection (nothing listens on the port). Before
//     any answer they mean a wrong endpoint or a manager that is down, which a few seconds
//     of retries do not change: the user gets the advice at once instead of after every
//     retry. Once the manager has answered, the same failures mean a restart or a DNS
//     blip in the middle of a run, and are retried like any failed connection. DNS
//     time-outs and temporary DNS failures are always retried.
//   - The wait before a retry is the server's Retry-After when it sends one, else it doubles
//     from RetryWaitMin, with jitter; either is capped at RetryWaitMax. At most MaxRetries
//     retries follow the first attempt.
//   - The caller's context bounds the total time: when it has a deadline and the next wait
//     would end after it, the client stops at once and returns the last failure (not a bare
//     "deadline exceeded").

func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// retryableStatus reports whether an answer with status is worth another attempt of method
// (see the policy above).
func retryableStatus(method string, status int) bool {
	if status == http.StatusTooManyRequests {
		return true
	}
	if idempotent(method) {
		return is5xx(status)
	}
	return status == http.StatusServiceUnavailable
}

// statusMayHaveRun reports whether an answer with status leaves open whether the manager
// carried out the request: a 5xx may come after the work was done, except 503, which says
// that the service did not take the request.
func statusMayHaveRun(status int) bool {
	return is5xx(status) && status != http.StatusServiceUnavailable
}

func is5xx(status int) bool { return status >= 500 && status <= 599 }

// waitEndsAfterDeadline reports whether a wait of d would end after ctx's deadline: then
// the retry could not finish in time, and the last failure says more than a context error.
func waitEndsAfterDeadline(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return ok && time.Now().Add(d).After(deadline)
}

// dialFailed reports whether err happened while opening the connection, before any byte of
// the request was written.
func dialFailed(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// unreachable says what to check when err, a failure to open a connection, means that
// the endpoint names no host or no listening port: its host name does not resolve, or the
// host refused the connection. It is "" for other failures.
func unreachable(err error) string {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return fmt.Sprintf("the host name %q does not resolve: check the endpoint's host name and this machine's DNS", dns.Name)
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		where := "the endpoint"
		var op *net.OpError
		if errors.As(err, &op) && op.Addr != nil {
			where = op.Addr.String()
		}
		return fmt.Sprintf("nothing accepts connections at %s: check the endpoint's port and that the manager is running", where)
	}
	return ""
}

// tlsFailed reports certificate and TLS protocol errors.
func tlsFailed(err error) bool {
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
		verification     *tls.CertificateVerificationError
		recordHeader     tls.RecordHeaderError
		alert            tls.AlertError
	)
	return errors.As(err, &unknownAuthority) || errors.As(err, &hostname) || errors.As(err, &invalid) ||
		errors.As(err, &verification) || errors.As(err, &recordHeader) || errors.As(err, &alert)
}

// backoff returns the wait before retry number `retry` (1 for the first retry). A server's
// Retry-After wins, capped at waitMax; otherwise the wait doubles from waitMin up to waitMax,
// with "equal jitter" (half fixed, half random) so that parallel Terraform operations that
// failed together do not retry in lockstep.
func (c *Client) backoff(retry int, retryAfter time.Duration, hasRetryAfter bool) time.Duration {
	if hasRetryAfter {
		return min(retryAfter, c.waitMax)
	}
	d := c.waitMin
	for i := 1; i < retry && d < c.waitMax; i++ {
		d *= 2
	}
	d = min(d, c.waitMax)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(d-half)+1))
}

// parseRetryAfter reads a Retry-After header: delay seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(24*time.Hour/time.Second) {
			secs = int64(24 * time.Hour / time.Second) // avoid overflow; capped at waitMax anyway
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// Sleep waits for d or until ctx is done, whichever comes first: the one pause of the
// client's retries, the engine's re-sends and the provider's rolls.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
