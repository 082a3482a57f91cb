// Command apmsim serves the apmsim stand-in for the application platform
// manager API, for the demo and for manual testing:
//
//	go run ./cmd/apmsim --insecure-http --seed demo
//
// See internal/apmsim/README.md for flags and behaviour.
package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "apmsim:", err)
		os.Exit(1)
	}
}

type config struct {
	addr, caOut, tlsDir, adminKey, viewerKey, stateFile, seed string
	insecureHTTP, omitOptional                                bool
	transitionDelay                                           time.Duration
	faults                                                    []apmsim.FaultRule
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("apmsim", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8443", "listen address (port 0 picks a free port)")
	fs.StringVar(&c.caOut, "ca-out", "", "write the CA certificate (PEM) to this file")
	fs.StringVar(&c.tlsDir, "tls-dir", "", "keep the CA certificate and key in this directory (made if missing), so that clients trusting the CA still verify the server after a restart")
	fs.BoolVar(&c.insecureHTTP, "insecure-http", false, "serve plain HTTP instead of HTTPS")
	fs.StringVar(&c.adminKey, "admin-key", os.Getenv("APMSIM_ADMIN_KEY"), fmt.Sprintf("admin API key, at least %d characters (default $APMSIM_ADMIN_KEY, else generated and printed)", minKeyLength))
	fs.StringVar(&c.viewerKey, "viewer-key", os.Getenv("APMSIM_VIEWER_KEY"), fmt.Sprintf("read-only API key, at least %d characters (default $APMSIM_VIEWER_KEY, else none)", minKeyLength))
	fs.StringVar(&c.stateFile, "state-file", "", "load state from and save it to this file")
	fs.StringVar(&c.seed, "seed", apmsim.SeedEmpty, "initial data when there is no state file: empty or demo")
	fs.DurationVar(&c.transitionDelay, "transition-delay", apmsim.DefaultTransitionDelay, "how long a server stays starting or stopping before it is running or stopped")
	fs.BoolVar(&c.omitOptional, "omit-optional-fields", false, "answer like a terse manager: leave out optional and assumption fields (node detail nodeId, ...); node ids are the node names")
	fs.Func("fault", "fault injection rule 'METHOD PATHGLOB [status=N] [rate=R] [latency=D] [reset=true] [after=true] [retryAfter=D] [times=N] [seed=N]' (repeatable; after=true serves the request, then loses its answer)", func(v string) error {
		rule, err := apmsim.ParseFaultRule(v)
		c.faults = append(c.faults, rule)
		return err
	})
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.insecureHTTP && c.caOut != "" {
		return c, errors.New("--ca-out needs HTTPS; drop --insecure-http")
	}
	if c.insecureHTTP && c.tlsDir != "" {
		return c, errors.New("--tls-dir needs HTTPS; drop --insecure-http")
	}
	if err := checkKeyLength("admin", c.adminKey); err != nil {
		return c, err
	}
	return c, checkKeyLength("viewer", c.viewerKey)
}

// minKeyLength is the shortest key run accepts from a flag or the environment: a sim
// in shared CI is reachable by everyone on the machine (or the network), and a short key
// is guessed in a few requests. Generated keys are 48 characters.
const minKeyLength = 16

// checkKeyLength refuses a given key shorter than minKeyLength; "" means none given.
func checkKeyLength(role, key string) error {
	if key == "" || len(key) >= minKeyLength {
		return nil
	}
	return fmt.Errorf("the %[1]s key (--%[1]s-key or $APMSIM_%[2]s_KEY) is too short: %[3]d characters, at least %[4]d needed",
		role, strings.ToUpper(role), len(key), minKeyLength)
}

// run serves until ctx is done, then shuts down gracefully. It writes the
// serving line (and a generated admin key, if any) to stdout; scripts wait
// for the line "apmsim: serving <url> ...". Warnings go to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args)
	if err != nil {
		return err
	}
	generatedKey := c.adminKey == ""
	if generatedKey {
		if c.adminKey, err = randomKey(); err != nil {
			return err
		}
	}
	origin := describeOrigin(c)
	sim, err := apmsim.New(apmsim.Options{
		AdminKey: c.adminKey, ViewerKey: c.viewerKey, Seed: c.seed, StateFile: c.stateFile,
		TransitionDelay: c.transitionDelay, Faults: c.faults, OmitOptionalFields: c.omitOptional,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	host := servingHost(c.addr, ln.Addr())
	srv := newHTTPServer(sim.Handler())
	serve := func() error { return srv.Serve(ln) }
	scheme := "http"
	if !c.insecureHTTP {
		if srv.TLSConfig, err = setUpTLS(c, host); err != nil {
			ln.Close()
			return err
		}
		scheme = "https"
		serve = func() error { return srv.ServeTLS(ln, "", "") }
	}

	warnIfExposed(stderr, ln.Addr(), c.insecureHTTP)
	if generatedKey {
		fmt.Fprintf(stdout, "apmsim: generated admin key: %s\n", c.adminKey)
	}
	fmt.Fprintf(stdout, "apmsim: serving %s://%s (%s)\n", scheme, net.JoinHostPort(host, port(ln.Addr())), origin)
	flush(stdout)
	return serveUntilDone(ctx, srv, serve)
}

// httpTimeouts bound how long a client may hold a connection without a request in
// progress, so that whoever can reach a sim in shared CI cannot pile up connections
// that cost nothing to keep: the whole header within readHeader, the whole request
// (header and body, at most 1 MiB) within read, and an idle keep-alive connection at
// most idle. None of them limits the handler: an answer may take as long as it needs
// (a fault's latency is up to 5 minutes). Tests shorten them.
var httpTimeouts = struct{ readHeader, read, idle time.Duration }{
	readHeader: 10 * time.Second, read: time.Minute, idle: 20 * time.Second,
}

// newHTTPServer serves h with httpTimeouts. There is no WriteTimeout, which would cut
// slow answers.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: httpTimeouts.readHeader,
		ReadTimeout:       httpTimeouts.read,
		IdleTimeout:       httpTimeouts.idle,
	}
}

// servingHost is the host for the serving line: the host of --addr as given, or the
// address bound (such as "::") when --addr has none (":8443"). A wildcard stays a
// wildcard, so the line does not claim that the sim listens on loopback only.
func servingHost(addr string, bound net.Addr) string {
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		return host
	}
	if a, ok := bound.(*net.TCPAddr); ok {
		return a.IP.String()
	}
	return ""
}

// port is the port bound, chosen by the system when --addr asked for 0.
func port(bound net.Addr) string {
	_, p, _ := net.SplitHostPort(bound.String())
	return p
}

// warnIfExposed warns on stderr when the sim listens on more than loopback: others can
// then reach it, try keys and change or read its data. Over --insecure-http they can
// also read the keys, which travel in every request's URL.
func warnIfExposed(stderr io.Writer, bound net.Addr, insecureHTTP bool) {
	if a, ok := bound.(*net.TCPAddr); ok && a.IP.IsLoopback() {
		return
	}
	fmt.Fprintf(stderr, "apmsim: WARNING: listening on %s, which is not a loopback address: other machines can connect, "+
		"try keys and use the sim; use --addr 127.0.0.1:PORT unless they must\n", bound)
	if insecureHTTP {
		fmt.Fprintln(stderr, "apmsim: WARNING: --insecure-http OFF LOOPBACK: API KEYS CROSS THE NETWORK IN CLEAR TEXT "+
			"(in every request's URL), for anyone on the way to read and reuse; serve HTTPS (drop --insecure-http) or bind to loopback")
	}
}

func serveUntilDone(ctx context.Context, srv *http.Server, serve func() error) error {
	errc := make(chan error, 1)
	go func() { errc <- serve() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// setUpTLS makes the certificate for the serving host, with a CA kept in
// --tls-dir or else a throw-away one, and writes the CA if asked.
func setUpTLS(c config, host string) (*tls.Config, error) {
	hosts := tlsHosts(host)
	makeTLS := apmsim.SelfSignedTLS
	if c.tlsDir != "" {
		makeTLS = func(hosts []string) (*tls.Config, []byte, error) { return apmsim.PersistentTLS(c.tlsDir, hosts) }
	}
	cfg, caPEM, err := makeTLS(hosts)
	if err != nil {
		return nil, err
	}
	if c.caOut != "" {
		if err := os.WriteFile(c.caOut, caPEM, 0o644); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// tlsHosts names the server for its certificate: the serving host, so that the URL
// of the serving line verifies, and for a wildcard also this machine's name, which
// other machines use.
func tlsHosts(host string) []string {
	hosts := []string{host}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if name, err := os.Hostname(); err == nil {
			hosts = append(hosts, name)
		}
	}
	return hosts
}

// describeOrigin says where the data comes from, for the serving line.
func describeOrigin(c config) string {
	if c.stateFile != "" {
		if _, err := os.Stat(c.stateFile); err == nil {
			return "state file " + c.stateFile
		}
	}
	seed := c.seed
	if seed == "" {
		seed = apmsim.SeedEmpty
	}
	return "seed " + seed
}

// flush pushes buffered output out, so a script reading a pipe sees the
// serving line at once (os.Stdout itself is unbuffered).
func flush(w io.Writer) {
	if f, ok := w.(interface{ Flush() error }); ok {
		_ = f.Flush()
	}
}

func randomKey() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
