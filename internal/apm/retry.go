package apm

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Retry policy. The spec (part 7) advises a delayed retry on 5xx and a corrected request on
// 4xx. Only what cannot cause a second side effect is retried:
//   - GET, PUT and DELETE are idempotent: retried on transport errors, 429, 502, 503, 504.
//   - POST creates things: retried only when the connection could not be established (the
//     request provably never reached the manager). A 5xx or a broken connection after
//     sending may mean the object was created, and a blind retry would then fail with 409
//     or create a duplicate.
//   - 500 is not retried: the manager reports real failures with it, and retrying those
//     only delays the error.
//   - Certificate and TLS protocol errors are not retried: they do not heal by waiting.

func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

func retryableStatus(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// dialFailed reports whether err happened while opening the connection, before any byte of
// the request was written.
func dialFailed(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
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

// sleepCtx waits for d or until ctx is done, whichever comes first.
func sleepCtx(ctx context.Context, d time.Duration) error {
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
