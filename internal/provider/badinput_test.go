package provider

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The bad-input corpus (testdata/badinput/*.txt) is configuration that users get wrong.
// Where a real CLI rejects each piece is part of the provider's contract: the earlier the
// better, and what is rejected by validate or plan must not have written anything to the
// manager. See testdata/badinput/README.md for the format.

const (
	badInputDir = "testdata/badinput"
	// badInputMinCases keeps the corpus from shrinking unnoticed.
	badInputMinCases = 85
	// cliTimeout bounds one CLI command; the slowest case takes about a second.
	cliTimeout = 2 * time.Minute
)

// phase is where a case is rejected; phaseAccepted means apply succeeded, and phaseWarned
// that it succeeded with a warning that says what is wrong (a data source that finds
// nothing warns rather than fails, so that a destroy can get past it).
type phase string

const (
	phaseValidate phase = "validate"
	phasePlan     phase = "plan"
	phaseApply    phase = "apply"
	phaseWarned   phase = "warned"
	phaseAccepted phase = "accepted"
)

var allPhases = []phase{phaseValidate, phasePlan, phaseApply, phaseWarned, phaseAccepted}

// badCase is one entry of the corpus.
type badCase struct {
	name    string // <file stem>/<header>
	pos     string // file:line of the header, for messages
	expect  phase
	wants   []*regexp.Regexp // each must match the error output
	arrange [][]string       // out-of-band set-up, one command with its arguments each
	hcl     string
	gap     bool // bad input that nothing rejects yet (a "# Gap" comment)
	// onCLI overrides expect and wants on the CLI versions it names (CLIs differ in what
	// they check themselves), in order; the first that matches wins.
	onCLI []cliExpectation
}

// cliExpectation is an "# on-cli: <version regexp> => <phase>: <error text>" line.
type cliExpectation struct {
	version *regexp.Regexp // matched against the first line of `<cli> version`
	expect  phase
	want    *regexp.Regexp
}

var onCLILine = regexp.MustCompile(`^(.+?)\s+=>\s+([a-z]+):\s*(.+)$`)

// expectation is the phase and errors the case expects on the CLI of version.
func (c badCase) expectation(version string) (phase, []*regexp.Regexp) {
	for _, o := range c.onCLI {
		if o.version.MatchString(version) {
			return o.expect, []*regexp.Regexp{o.want}
		}
	}
	return c.expect, c.wants
}

// control reports whether the case is a positive control: valid input, at the edge of
// what is allowed, that must stay accepted. Everything else is bad input.
func (c badCase) control() bool { return c.expect == phaseAccepted && !c.gap }

// tls reports whether the case's manager serves HTTPS.
func (c badCase) tls() bool { return c.arranges("tls") }

// arranges reports whether the case arranges exactly this (a command and its arguments).
func (c badCase) arranges(command ...string) bool {
	return slices.ContainsFunc(c.arrange, func(a []string) bool { return slices.Equal(a, command) })
}

var (
	badHeader = regexp.MustCompile(`^-- (.*) --$`)
	// A directive is "# key: value"; an unknown key is an error rather than an HCL
	// comment, so that a misspelt one does not silently drop a check.
	badDirective = regexp.MustCompile(`^# ([a-z-]+):\s*(.*)$`)
	badVariable  = regexp.MustCompile(`\{\{([^}:]*)(?::([^}]*))?\}\}`)
	badProvider  = regexp.MustCompile(`(?m)^\s*provider\s+"apm"`)
)

// arrangeArgs is how many arguments each arrangement takes.
var arrangeArgs = map[string]int{
	"tls":    0, // serve HTTPS with a certificate from a fresh CA ({{ca_pem}})
	"system": 1, // system NAME
	"node":   4, // node SYSTEM NAME HOST_IP AGENT_PORT
	"server": 5, // server KIND SYSTEM NODE ID PORT: install a server of KIND (was, web, session) on the port
}

// badVariables are the placeholders a case may use; system_id takes the system's name.
var badVariables = []string{
	"endpoint", "host", "api_key", "viewer_key", "closed_endpoint",
	"ca_pem", "other_ca_pem", "private_key_pem", "certificate_pem", "certificate_key_pem", "system_id",
}

// loadBadInput reads and checks the whole corpus.
func loadBadInput() ([]badCase, error) {
	files, err := filepath.Glob(filepath.Join(badInputDir, "*.txt"))
	if err != nil {
		return nil, err
	}
	var all []badCase
	var errs []error
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		cases, err := parseBadInput(f, string(data))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, c := range cases {
			if prev, dup := seen[c.name]; dup {
				errs = append(errs, fmt.Errorf("%s: case %s is already defined at %s", c.pos, c.name, prev))
			}
			seen[c.name] = c.pos
		}
		all = append(all, cases...)
	}
	return all, errors.Join(errs...)
}

// parseBadInput splits one corpus file into its cases.
func parseBadInput(file, text string) ([]badCase, error) {
	stem := strings.TrimSuffix(filepath.Base(file), ".txt")
	var cases []badCase
	var errs []error
	var cur *badCase
	var body []string
	flush := func() {
		if cur == nil {
			return
		}
		cur.hcl = strings.TrimSpace(strings.Join(body, "\n")) + "\n"
		if err := cur.check(); err != nil {
			errs = append(errs, err)
		}
		cases = append(cases, *cur)
	}
	for i, line := range strings.Split(text, "\n") {
		if m := badHeader.FindStringSubmatch(line); m != nil {
			flush()
			cur, body = &badCase{name: stem + "/" + m[1], pos: fmt.Sprintf("%s:%d", file, i+1)}, nil
			continue
		}
		if cur == nil {
			continue // the file's own comment
		}
		if strings.HasPrefix(line, "# Gap") {
			cur.gap = true
		}
		if m := badDirective.FindStringSubmatch(line); m != nil {
			if err := cur.directive(m[1], strings.TrimSpace(m[2])); err != nil {
				errs = append(errs, fmt.Errorf("%s:%d: %w", file, i+1, err))
			}
			continue
		}
		body = append(body, line)
	}
	flush()
	return cases, errors.Join(errs...)
}

// directive records one "# key: value" line of a case.
func (c *badCase) directive(key, value string) error {
	switch key {
	case "expect":
		if c.expect != "" {
			return errors.New("a second expect line")
		}
		c.expect = phase(value)
	case "error":
		c.wants = append(c.wants, errorMatching(value))
	case "error-re":
		re, err := regexp.Compile(value)
		if err != nil {
			return fmt.Errorf("error-re: %w", err)
		}
		c.wants = append(c.wants, re)
	case "on-cli":
		m := onCLILine.FindStringSubmatch(value)
		if m == nil {
			return errors.New("on-cli wants <version regexp> => <phase>: <error text>")
		}
		re, err := regexp.Compile(m[1])
		if err != nil || !slices.Contains(allPhases[:3], phase(m[2])) {
			return fmt.Errorf("on-cli: a version regexp and a rejecting phase, got %q", value)
		}
		c.onCLI = append(c.onCLI, cliExpectation{version: re, expect: phase(m[2]), want: errorMatching(m[3])})
	case "arrange":
		if value == "" {
			return errors.New("an empty arrange line")
		}
		c.arrange = append(c.arrange, strings.Fields(value))
	default:
		return fmt.Errorf("unknown directive %q (expect, error, error-re, on-cli or arrange)", key)
	}
	return nil
}

// check rejects a case that could not fail, or could not run.
func (c *badCase) check() error {
	var errs []error
	if strings.ContainsAny(c.name, " \t") || strings.HasSuffix(c.name, "/") {
		errs = append(errs, errors.New("the name must be one word"))
	}
	switch {
	case !slices.Contains(allPhases, c.expect):
		errs = append(errs, fmt.Errorf("expect is %q, want one of %v", c.expect, allPhases))
	case c.expect == phaseAccepted && len(c.wants) > 0:
		errs = append(errs, errors.New("an accepted case has no error to match"))
	case c.expect != phaseAccepted && len(c.wants) == 0:
		errs = append(errs, errors.New("a rejected or warned case needs an error or error-re line"))
	}
	if strings.TrimSpace(c.hcl) == "" {
		errs = append(errs, errors.New("no configuration"))
	}
	for _, a := range c.arrange {
		if n, ok := arrangeArgs[a[0]]; !ok || len(a)-1 != n {
			errs = append(errs, fmt.Errorf("arrange %q: want one of tls, system NAME, node SYSTEM NAME HOST_IP AGENT_PORT, server KIND SYSTEM NODE ID PORT", strings.Join(a, " ")))
		}
	}
	for _, m := range badVariable.FindAllStringSubmatch(c.hcl, -1) {
		if !slices.Contains(badVariables, m[1]) || (m[1] == "system_id") != (m[2] != "") {
			errs = append(errs, fmt.Errorf("unknown placeholder %s (known: %v; system_id takes :NAME)", m[0], badVariables))
		}
		if m[1] == "ca_pem" && !c.tls() {
			errs = append(errs, errors.New("{{ca_pem}} needs # arrange: tls"))
		}
		if m[1] == "system_id" && !c.arranges("system", m[2]) {
			errs = append(errs, fmt.Errorf("%s needs # arrange: system %s", m[0], m[2]))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s: case %s: %w", c.pos, c.name, err)
	}
	return nil
}

// The corpus is checked without a CLI too, so that a broken entry fails the unit tests.
func TestBadInputCorpus_wellFormed(t *testing.T) {
	cases, err := loadBadInput()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < badInputMinCases {
		t.Errorf("the corpus has %d cases, want at least %d", len(cases), badInputMinCases)
	}
}

// The checks of the corpus format catch each kind of broken case, so that no case can
// pass without testing anything.
func TestParseBadInput_rejectsBrokenCases(t *testing.T) {
	const hcl = "resource \"apm_system\" \"s\" {\n  name = \"shop\"\n}\n"
	for name, tc := range map[string]struct{ text, want string }{
		"no expect":            {"-- x --\n# error: e\n" + hcl, "expect is"},
		"unknown phase":        {"-- x --\n# expect: later\n# error: e\n" + hcl, "expect is"},
		"two expects":          {"-- x --\n# expect: plan\n# expect: apply\n# error: e\n" + hcl, "second expect"},
		"accepted with error":  {"-- x --\n# expect: accepted\n# error: e\n" + hcl, "no error to match"},
		"rejected, no error":   {"-- x --\n# expect: plan\n" + hcl, "needs an error"},
		"bad regexp":           {"-- x --\n# expect: plan\n# error-re: (\n" + hcl, "error-re"},
		"no configuration":     {"-- x --\n# expect: accepted\n", "no configuration"},
		"unknown arrangement":  {"-- x --\n# arrange: user bob\n# expect: accepted\n" + hcl, "arrange"},
		"arrangement too long": {"-- x --\n# arrange: system a b\n# expect: accepted\n" + hcl, "arrange"},
		"unknown placeholder":  {"-- x --\n# expect: accepted\n# {{token}}\n" + hcl, "unknown placeholder"},
		"ca_pem without tls":   {"-- x --\n# expect: accepted\n# {{ca_pem}}\n" + hcl, "needs # arrange: tls"},
		"system not arranged":  {"-- x --\n# expect: accepted\n# {{system_id:shop}}\n" + hcl, "needs # arrange: system shop"},
		"misspelt placeholder": {"-- x --\n# expect: accepted\n# {{ endpoint }}\n" + hcl, "unknown placeholder"},
		"misspelt directive":   {"-- x --\n# expect: plan\n# error: e\n# erorr: f\n" + hcl, "unknown directive"},
		"empty arrangement":    {"-- x --\n# arrange:\n# expect: accepted\n" + hcl, "empty arrange"},
		"on-cli without arrow": {"-- x --\n# expect: accepted\n# on-cli: v1 validate: e\n" + hcl, "on-cli wants"},
		"on-cli accepting":     {"-- x --\n# expect: plan\n# error: e\n# on-cli: v1 => accepted: e\n" + hcl, "rejecting phase"},
		"name with spaces":     {"-- two words --\n# expect: accepted\n" + hcl, "one word"},
		"no name":              {"--  --\n# expect: accepted\n" + hcl, "one word"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseBadInput("f.txt", tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestParseBadInput_readsACase(t *testing.T) {
	text := "comment\n-- x --\n# arrange: system shop\n# expect: plan\n# error: a  b\n# error-re: ^c$\n# an HCL comment\nthing {}\n"
	cases, err := parseBadInput("dir/f.txt", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 {
		t.Fatalf("%d cases, want 1", len(cases))
	}
	c := cases[0]
	if c.name != "f/x" || c.pos != "dir/f.txt:2" || c.expect != phasePlan || !c.arranges("system", "shop") {
		t.Errorf("got name %q, pos %q, expect %q, arrange %v", c.name, c.pos, c.expect, c.arrange)
	}
	if c.hcl != "# an HCL comment\nthing {}\n" {
		t.Errorf("hcl %q", c.hcl)
	}
	if len(c.wants) != 2 || !c.wants[0].MatchString("a\n b") || !c.wants[1].MatchString("c") || c.wants[1].MatchString("xc") {
		t.Errorf("wants %v do not match as written", c.wants)
	}
}

// TestAccBadInputCorpus runs every case of the corpus on the CLI and checks where it is
// rejected, with what error, and that nothing rejected before apply wrote to the manager.
func TestAccBadInputCorpus(t *testing.T) {
	cli, version := accCLI(t)
	cases, err := loadBadInput()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < badInputMinCases {
		t.Errorf("the corpus has %d cases, want at least %d", len(cases), badInputMinCases)
	}
	// The provider runs in this process: the environment would stand in for settings the
	// cases leave out, differently on every machine. Clearing it makes the test serial (Go
	// keeps tests that set the environment out of the parallel ones); where none is set,
	// the corpus runs beside the other tests.
	if settings := []string{engine.EnvEndpoint, engine.EnvAPIKey, engine.EnvCACertPEM, "APM_ADOPT_EXISTING"}; anySet(settings...) {
		clearEnv(t, settings...)
	} else {
		t.Parallel()
	}

	start := time.Now()
	var mu sync.Mutex
	var outcomes []badOutcome
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				got := runBadCase(t, cli, version, c)
				mu.Lock()
				outcomes = append(outcomes, badOutcome{phase: got, control: c.control()})
				mu.Unlock()
			})
		}
	})
	summary := badSummary(outcomes)
	took := fmt.Sprintf("bad-input corpus: ran on %s in %s", cli, time.Since(start).Round(time.Second))
	t.Log(summary)
	t.Log(took)
	// Also on stdout, so that CI logs show the split without -v.
	fmt.Println(summary)
	fmt.Println(took)
}

// badInputCLI is the CLI to run, as an absolute path (each command runs in its own
// directory): TF_ACC_TERRAFORM_PATH, else terraform on PATH.
// accCLI is the acceptance tests' CLI and the first line of its `version`, for a test
// that runs the CLI itself; it skips without TF_ACC.
func accCLI(t *testing.T) (cli, version string) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	testAccPreCheck(t)
	cli = badInputCLI(t)
	version, err := clitest.Version(cli)
	if err != nil {
		t.Fatal(err)
	}
	return cli, version
}

func badInputCLI(t *testing.T) string {
	t.Helper()
	p := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if p == "" {
		var err error
		if p, err = exec.LookPath("terraform"); err != nil {
			t.Fatal(err)
		}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// anySet reports whether any of the environment variables is set.
func anySet(names ...string) bool {
	for _, name := range names {
		if _, ok := os.LookupEnv(name); ok {
			return true
		}
	}
	return false
}

// clearEnv unsets variables for the test: t.Setenv restores them afterwards, and an
// empty value is not the same as none for every reader.
func clearEnv(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		t.Setenv(name, "")
		if err := os.Unsetenv(name); err != nil {
			t.Fatal(err)
		}
	}
}

// badOutcome is where a case was rejected, and whether it is a positive control.
type badOutcome struct {
	phase   phase
	control bool
}

// badSummary is the split of observed phases of the bad input, and the controls.
func badSummary(outcomes []badOutcome) string {
	count := map[phase]int{}
	controls, bad := 0, 0
	for _, o := range outcomes {
		if o.control {
			controls++
			continue
		}
		bad++
		count[o.phase]++
	}
	return fmt.Sprintf("bad-input corpus: %d bad inputs: validate %d, plan %d, apply %d, warned %d, accepted silently %d; and %d positive controls",
		bad, count[phaseValidate], count[phasePlan], count[phaseApply], count[phaseWarned], count[phaseAccepted], controls)
}

// runBadCase runs one case and reports the phase at which it was rejected.
func runBadCase(t *testing.T, cli, version string, c badCase) phase {
	env, caPEM := badEnv(t, c)
	vars := badCaseVars(t, env, c, caPEM)
	hcl, err := renderBadCase(c, vars)
	if err != nil {
		t.Fatalf("%s: %v", c.pos, err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o600); err != nil {
		t.Fatal(err)
	}
	before := env.writes()
	got, failed, all := runPhases(t, cli, dir)
	failed = redact(failed, env.sim.AdminKey, env.sim.ViewerKey)
	all = redact(all, env.sim.AdminKey, env.sim.ViewerKey)
	writes := env.writes() - before

	expect, wants := c.expectation(version)
	if got == phaseAccepted && expect == phaseWarned && strings.Contains(all, "Warning: ") {
		// What a warning says is matched against the output of every command.
		got, failed = phaseWarned, all
	}
	if got != expect {
		t.Errorf("%s: %s, want %s on %s; output:\n%s", c.pos, describePhase(got), expect, version, all)
		return got
	}
	for _, re := range wants {
		if !re.MatchString(failed) {
			t.Errorf("%s: %s as expected, but the error does not match %q; output:\n%s", c.pos, describePhase(got), re, all)
		}
	}
	if (got == phaseValidate || got == phasePlan) && writes != 0 {
		t.Errorf("%s: rejected at %s, yet %d write requests reached the manager", c.pos, got, writes)
	}
	return got
}

// describePhase says what happened in words.
func describePhase(p phase) string {
	switch p {
	case phaseAccepted:
		return "accepted (apply succeeded)"
	case phaseWarned:
		return "accepted with a warning"
	}
	return "rejected at " + string(p)
}

// badEnv starts the case's manager and arranges it.
func badEnv(t *testing.T, c badCase) (*accEnv, string) {
	t.Helper()
	var env *accEnv
	caPEM := ""
	if c.tls() {
		sim, ca := apmsimtest.StartTLS(t)
		admin, err := apm.New(apm.Config{Endpoint: sim.URL, APIKey: sim.AdminKey, CACertPEM: ca, MaxRetries: 0})
		if err != nil {
			t.Fatalf("admin client: %v", err)
		}
		env, caPEM = &accEnv{t: t, sim: sim, admin: admin}, ca
	} else {
		env = newAccEnv(t)
	}
	ctx := env.ctx()
	for _, a := range c.arrange {
		switch a[0] {
		case "system":
			env.must(env.admin.CreateSystem(ctx, a[1]))
		case "node":
			var port int64
			if _, err := fmt.Sscan(a[4], &port); err != nil {
				t.Fatalf("%s: arrange node: agent port %q: %v", c.pos, a[4], err)
			}
			env.must(env.admin.CreateNode(ctx, apm.CreateNodeRequest{SystemName: a[1], NodeName: a[2], HostIP: a[3], AgentPort: port}))
		case "server":
			arrangeServer(t, env, c, a[1:])
		}
	}
	return env, caPEM
}

// arrangeServer installs a server: KIND SYSTEM NODE ID PORT, the port its first (http_port,
// or a session server's server_port).
func arrangeServer(t *testing.T, env *accEnv, c badCase, args []string) {
	t.Helper()
	var port int64
	if _, err := fmt.Sscan(args[4], &port); err != nil {
		t.Fatalf("%s: arrange server: port %q: %v", c.pos, args[4], err)
	}
	spec := apm.ServerSpec{SystemName: args[1], NodeName: args[2], ServerID: args[3], HTTPPort: port}
	if kind := apm.ServerKind(args[0]); kind == apm.KindSession {
		spec.HTTPPort, spec.ServerPort = 0, port
	}
	env.must(env.admin.InstallServer(env.ctx(), apm.ServerKind(args[0]), spec))
}

// badCaseVars are the values of the placeholders the case uses.
func badCaseVars(t *testing.T, env *accEnv, c badCase, caPEM string) map[string]string {
	t.Helper()
	u, err := url.Parse(env.sim.URL)
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"endpoint":   env.sim.URL,
		"host":       u.Host,
		"api_key":    env.sim.AdminKey,
		"viewer_key": env.sim.ViewerKey,
		"ca_pem":     caPEM,
	}
	// The costlier values only when used.
	uses := func(name string) bool { return strings.Contains(c.hcl, "{{"+name+"}}") }
	if uses("closed_endpoint") {
		vars["closed_endpoint"] = closedEndpoint(t)
	}
	if uses("other_ca_pem") {
		_, ca, err := apmsim.SelfSignedTLS(nil)
		if err != nil {
			t.Fatal(err)
		}
		vars["other_ca_pem"] = string(ca)
	}
	if uses("private_key_pem") {
		vars["private_key_pem"] = privateKeyPEM(t)
	}
	if uses("certificate_pem") {
		// With a key of its own, certificate_key_pem: {{private_key_pem}} is not its key.
		cert := newWebTestCert(t, "web-1.example", nil)
		vars["certificate_pem"], vars["certificate_key_pem"] = cert.certPEM, cert.keyPEM
	}
	if strings.Contains(c.hcl, "{{system_id:") {
		systems, err := env.admin.ListSystems(env.ctx())
		env.must(err)
		for _, s := range systems {
			vars["system_id:"+s.SystemName] = s.SystemID
		}
	}
	return vars
}

// privateKeyPEM is a fresh private key, as a user might paste by mistake for a CA.
func privateKeyPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// renderBadCase fills in the placeholders, and puts a working provider block in front of
// a case that has none of its own.
func renderBadCase(c badCase, vars map[string]string) (string, error) {
	hcl := c.hcl
	if !badProvider.MatchString(hcl) {
		hcl = `provider "apm" {
  endpoint        = "{{endpoint}}"
  api_key         = "{{api_key}}"
  max_retries     = 0
  request_timeout = "10s"
}

` + hcl
	}
	var missing []string
	out := badVariable.ReplaceAllStringFunc(hcl, func(m string) string {
		key := strings.Trim(m, "{}")
		v, ok := vars[key]
		if !ok {
			missing = append(missing, m)
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("no value for %s (is the system arranged?)", strings.Join(missing, ", "))
	}
	return out, nil
}

// runPhases runs init, validate, plan and apply until one fails, and returns where that
// was, the failing command's output, and the output of all commands run (a case accepted
// by mistake is explained by its plan). init counts as validate: both only read the
// configuration.
func runPhases(t *testing.T, cli, dir string) (got phase, failed, all string) {
	t.Helper()
	steps := []struct {
		phase phase
		args  []string
	}{
		// An empty plugin directory: init must never look for the provider in a registry
		// (it is reattached; no other provider is used).
		{phaseValidate, []string{"init", "-input=false", "-no-color", "-backend=false", "-plugin-dir=" + t.TempDir()}},
		{phaseValidate, []string{"validate", "-no-color"}},
		{phasePlan, []string{"plan", "-input=false", "-no-color", "-lock=false", "-out=tfplan"}},
		{phaseApply, []string{"apply", "-input=false", "-no-color", "-lock=false", "-auto-approve", "tfplan"}},
	}
	var log strings.Builder
	for _, s := range steps {
		out, ok := runCLI(t, cli, dir, s.args...)
		fmt.Fprintf(&log, "$ %s\n%s\n", s.args[0], strings.TrimSpace(out))
		if !ok {
			return s.phase, out, log.String()
		}
	}
	return phaseAccepted, "", log.String()
}
