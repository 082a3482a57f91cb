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
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
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
// for the line "apmsim: serving <url> ...".
func run(ctx context.Context, args []string, stdout io.Writer) error {
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
	srv := &http.Server{Handler: sim.Handler(), ReadHeaderTimeout: 10 * time.Second}
	serve := func() error { return srv.Serve(ln) }
	scheme := "http"
	if !c.insecureHTTP {
		if srv.TLSConfig, err = setUpTLS(c); err != nil {
			ln.Close()
			return err
		}
		scheme = "https"
		serve = func() error { return srv.ServeTLS(ln, "", "") }
	}

	if generatedKey {
		fmt.Fprintf(stdout, "apmsim: generated admin key: %s\n", c.adminKey)
	}
	fmt.Fprintf(stdout, "apmsim: serving %s://%s (%s)\n", scheme, displayAddr(ln.Addr()), origin)
	flush(stdout)
	return serveUntilDone(ctx, srv, serve)
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

// setUpTLS makes the certificate for the listen host, with a CA kept in
// --tls-dir or else a throw-away one, and writes the CA if asked.
func setUpTLS(c config) (*tls.Config, error) {
	hosts, err := tlsHosts(c.addr)
	if err != nil {
		return nil, err
	}
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

// tlsHosts names the server for its certificate: the listen host or, when
// listening on all interfaces, this machine's name.
func tlsHosts(addr string) ([]string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if name, err := os.Hostname(); err == nil {
			return []string{name}, nil
		}
		return nil, nil
	}
	return []string{host}, nil
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

// displayAddr turns the listener's address into one a client can dial:
// a wildcard address becomes 127.0.0.1.
func displayAddr(addr net.Addr) string {
	a, ok := addr.(*net.TCPAddr)
	if !ok {
		return addr.String()
	}
	host := a.IP.String()
	if a.IP == nil || a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, fmt.Sprint(a.Port))
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
