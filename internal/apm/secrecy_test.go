package apm

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// echoKey answers with error text that repeats the request URL and the key, as a careless
// manager or proxy might.
func echoKey(w http.ResponseWriter, r *http.Request, _ int) {
	reply(w, 503, `{"error":"upstream failed for `+r.URL.Path+"?"+r.URL.RawQuery+` (key `+r.URL.Query().Get("key")+`)"}`)
}

func TestKeyNotInErrorsEvenWhenEchoed(t *testing.T) {
	srv, rec := serve(t, echoKey)
	_, err := newTestClient(t, srv.URL).ListSystems(context.Background())
	if err == nil || rec.count() != 4 {
		t.Fatalf("err = %v after %d attempts", err, rec.count())
	}
	if rec.all()[0].Key != testKey {
		t.Fatal("the server did not receive the key, the test proves nothing")
	}
	want := "GET /rest/systems: 503 SERVICE_UNAVAILABLE: upstream failed for /rest/systems?key=REDACTED (key REDACTED) (after 4 attempts)"
	if err.Error() != want {
		t.Errorf("text = %q\nwant   %q", err, want)
	}
	var e *Error
	if errors.As(err, &e) {
		assertNoKey(t, "Error.Message", e.Message)
	}
}

func TestErrorsNeverWrapURLError(t *testing.T) {
	_, err := newTestClient(t, closedEndpoint(t), withMaxRetries(0)).ListSystems(context.Background())
	var ue *url.Error
	if errors.As(err, &ue) {
		t.Errorf("error chain contains a *url.Error, whose text has the keyed URL: %v", ue)
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		assertNoKey(t, "unwrapped error", e.Error())
	}
}

func TestRedactor(t *testing.T) {
	r := newRedactor(testKey)
	in := "a " + testKey + " b " + url.QueryEscape(testKey) + " c ?key=other&x=1 d KEY=x"
	want := "a REDACTED b REDACTED c ?key=REDACTED&x=1 d KEY=REDACTED"
	if got := r.String(in); got != want {
		t.Errorf("String = %q\nwant     %q", got, want)
	}
	if got := newRedactor("").String("monkey=banana apikey=1"); got != "monkey=banana apikey=1" {
		t.Errorf("words ending in key were changed: %q", got)
	}
}

func TestLogsAtTraceNeverShowKey(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)

	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Path {
		case "/rest/systems":
			reply(w, 200, `{"systems":[]}`)
		case "/rest/public/managerInfo":
			reply(w, 200, `{"version":"1"}`)
		case "/rest/nodes":
			echoKey(w, r, n)
		default:
			reply(w, 404, `{"error":"System not found: x","code":"NOT_FOUND"}`)
		}
	})
	c := newTestClient(t, srv.URL)
	if _, err := c.ListSystems(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ManagerInfo(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetSystem(ctx, "x"); !IsNotFound(err) {
		t.Fatalf("GetSystem: %v", err)
	}
	if _, err := c.ListNodes(ctx); err == nil {
		t.Fatal("ListNodes succeeded against a 503")
	}
	if _, err := newTestClient(t, closedEndpoint(t), withMaxRetries(1)).ListSystems(ctx); err == nil {
		t.Fatal("request to a closed port succeeded")
	}

	logs := buf.String()
	if logs == "" {
		t.Fatal("nothing was logged")
	}
	for _, want := range []string{
		`"@level":"debug"`, `"@level":"trace"`, `"apm_path":"/rest/systems"`, `"apm_method":"GET"`,
		`"apm_status":404`, `"apm_attempt":2`, "retrying", "connection failed",
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s:\n%s", want, logs)
		}
	}
	assertNoKey(t, "logs", logs)
}

// The client never puts the key into a log line; the masking set up by logContext is the
// second line of defence, checked here by logging the key on purpose.
func TestLogContextMasksKey(t *testing.T) {
	var buf bytes.Buffer
	ctx := newTestClient(t, "https://h:1").logContext(tflogtest.RootLogger(context.Background(), &buf))
	tflog.Debug(ctx, "leak "+testKey+" and ?key=other", map[string]any{"url": "/rest/x?key=" + url.QueryEscape(testKey), "raw": testKey})
	logs := buf.String()
	if !strings.Contains(logs, "leak") {
		t.Fatalf("nothing logged: %q", logs)
	}
	assertNoKey(t, "masked log", logs)
	if strings.Contains(logs, "key=other") {
		t.Errorf("key parameter not masked: %s", logs)
	}
}

// A silent client builds no log lines; the same calls log when it is not silent.
func TestSilentClientLogsNothing(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			reply(w, 503, `{"error":"busy","code":"SERVICE_UNAVAILABLE"}`)
			return
		}
		reply(w, 200, `{"systems":[]}`)
	})
	for _, silent := range []bool{true, false} {
		var buf bytes.Buffer
		ctx := tflogtest.RootLogger(context.Background(), &buf)
		c := newTestClient(t, srv.URL, withMaxRetries(1), func(cfg *Config) {
			cfg.Silent = silent
			cfg.RetryWaitMin, cfg.RetryWaitMax = time.Millisecond, time.Millisecond
		})
		if _, err := c.ListSystems(ctx); err != nil {
			t.Fatal(err)
		}
		if logged := buf.Len() > 0; logged == silent {
			t.Errorf("silent=%v: logged %d bytes", silent, buf.Len())
		}
	}
}

// A body cut at the message limit inside the key must not show the part of the key before
// the cut: redaction comes first, and a trailing prefix of the key is masked. Before, the
// body was cut and then redacted, and the cut key no longer matched (7 of 13 characters
// shown).
func TestKeyCutAtTheMessageLimitIsNotShown(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func(prefix string) string
	}{
		{"a proxy's page", func(prefix string) string { return prefix + "invalid token " + testKey + " for this route" }},
		{"the manager's message", func(prefix string) string {
			return `{"error":"` + prefix + "invalid token " + testKey + ` for this route","code":"UNAUTHORIZED"}`
		}},
		{"an action's refusal", func(prefix string) string {
			return `{"actionResult":"N","errorMessage":"` + prefix + "invalid token " + testKey + `"}`
		}},
	} {
		// Every position of the key around the limit.
		for shift := 0; shift <= len(testKey); shift++ {
			prefix := strings.Repeat("x", maxMessageBytes-len("invalid token ")-shift)
			status := 401
			if strings.HasPrefix(tc.name, "an action") {
				status = 200
			}
			srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, status, tc.body(prefix)) })
			err := newTestClient(t, srv.URL).CreateSystem(context.Background(), "prod")
			if err == nil {
				t.Fatalf("%s: no error", tc.name)
			}
			if leak := keyFragment(err.Error()); leak != "" {
				text := err.Error()
				t.Errorf("%s, key %d bytes before the limit: the error shows %q of the key: ...%s", tc.name, shift, leak, text[max(0, len(text)-60):])
			}
		}
	}
}

// keyFragment is the longest part of testKey, of 4 characters or more, that text holds
// (shorter parts, such as "est", are in ordinary words of the error).
func keyFragment(text string) string {
	for n := len(testKey); n >= 4; n-- {
		for i := 0; i+n <= len(testKey); i++ {
			if strings.Contains(text, testKey[i:i+n]) {
				return testKey[i : i+n]
			}
		}
	}
	return ""
}

// A manager's message is cut like a body: a 3 MB "error" once made a plan print 3 MB.
func TestLongManagerMessageIsCut(t *testing.T) {
	huge := strings.Repeat("no ", 1<<20)
	for _, body := range []string{
		`{"error":"` + huge + `","code":"BAD_REQUEST"}`,
		`{"actionResult":"N","errorMessage":"` + huge + `"}`,
	} {
		status := 400
		if strings.Contains(body, "actionResult") {
			status = 200
		}
		srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, status, body) })
		err := newTestClient(t, srv.URL).CreateSystem(context.Background(), "prod")
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("got %v", err)
		}
		if len(e.Message) > maxMessageBytes+3 || !strings.HasSuffix(e.Message, "...") {
			t.Errorf("%d-byte message kept %d bytes", len(huge), len(e.Message))
		}
		if len(err.Error()) > 2*maxMessageBytes {
			t.Errorf("error text of %d bytes", len(err.Error()))
		}
	}
}
