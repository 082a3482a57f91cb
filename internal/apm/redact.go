package apm

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// redactedText replaces the API key wherever it would otherwise be shown.
const redactedText = "REDACTED"

// keyParamPattern matches a `key=<value>` query parameter. The manager takes the API key as
// the query parameter `key`, and Go's *url.Error (and many proxies' error pages) print the
// whole URL, so any such value is treated as the key even when it is not the configured one
// (for example a key typed into the endpoint by mistake).
var keyParamPattern = regexp.MustCompile(`(?i)\b(key=)[^&\s"'<>;,)]+`)

// scrubKeyParams replaces every `key=` query value with REDACTED. It needs no knowledge of
// the key, so it is also applied when error text is rendered, as a last line of defence.
func scrubKeyParams(s string) string {
	return keyParamPattern.ReplaceAllString(s, "${1}"+redactedText)
}

// redactor removes one API key from text: the literal key, its URL-encoded spellings, and
// any `key=` query value.
type redactor struct {
	secrets []string // longest first, so that an encoded form is replaced before a substring of it
}

func newRedactor(key string) redactor {
	if key == "" {
		return redactor{}
	}
	seen := map[string]bool{}
	var secrets []string
	for _, s := range []string{key, url.QueryEscape(key), url.PathEscape(key)} {
		if s != "" && !seen[s] {
			seen[s] = true
			secrets = append(secrets, s)
		}
	}
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
	return redactor{secrets: secrets}
}

// String returns s with the key and every `key=` value replaced by REDACTED.
func (r redactor) String(s string) string {
	for _, secret := range r.secrets {
		s = strings.ReplaceAll(s, secret, redactedText)
	}
	return scrubKeyParams(s)
}

// minKeyPrefix is the shortest prefix of the key that message masks at the end of a text:
// shorter ones are too likely to be ordinary text, and give a guesser little.
const minKeyPrefix = 3

// message is text from the manager made fit for an error: redacted first, so that a cut
// cannot leave part of a key that redaction would no longer recognise, then cut to
// maxMessageBytes on a rune boundary. A text that ends in a prefix of the key (a body the
// manager or the size limit cut inside it) has that prefix masked too.
func (r redactor) message(s string) string {
	s = r.String(s)
	cut := len(s) > maxMessageBytes
	if cut {
		end := maxMessageBytes
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		s = s[:end]
	}
	s = r.maskTrailingPrefix(s)
	if cut {
		s += "..."
	}
	return s
}

// maskTrailingPrefix replaces the longest prefix of a secret that s ends with.
func (r redactor) maskTrailingPrefix(s string) string {
	for _, secret := range r.secrets {
		for n := len(secret) - 1; n >= minKeyPrefix; n-- {
			if strings.HasSuffix(s, secret[:n]) {
				return s[:len(s)-n] + redactedText
			}
		}
	}
	return s
}

// redactedError carries the redacted text of a cause while still unwrapping to the cause,
// so that errors.Is(err, context.Canceled) and errors.As(err, *net.OpError) keep working.
// The cause handed in is never a *url.Error (those are unwrapped first, see sanitize): the
// remaining causes (net, TLS, context errors) do not contain the request URL.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return scrubKeyParams(e.msg) }
func (e *redactedError) Unwrap() error { return e.err }

// sanitize strips the URL wrapper that net/http puts around transport errors (its text is
// `Get "https://host/rest/x?key=SECRET": ...`) and redacts what is left.
func (r redactor) sanitize(err error) error {
	if err == nil {
		return nil
	}
	for {
		ue, ok := err.(*url.Error)
		if !ok || ue.Err == nil {
			break
		}
		err = ue.Err
	}
	return &redactedError{msg: r.String(err.Error()), err: err}
}
