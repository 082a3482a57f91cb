package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
	"github.com/apmplatform/terraform-provider-apm/internal/docsnippets"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The guide "Adopting an existing platform" (templates/guides/adopt-existing-platform.md.tmpl)
// is run as written: its snippets, marked `<!-- snippet: <name> -->`, are read from the
// template and run with the real CLI against apmsim's demo seed, in an empty directory.
// Its shell snippets are run line by line (a `terraform` command, an `export`); the edits
// it asks for by hand are made as it words them, and counted.

const adoptGuideTemplate = "templates/guides/adopt-existing-platform.md.tmpl"

// demoSeedObjects is what apmsim's demo seed holds, by resource type (internal/apmsim
// README, "Seeds"): what the guide's adoption must import, no more and no less.
var demoSeedObjects = map[string]int{
	"apm_system": 2, "apm_node": 2, "apm_was_server": 2, "apm_web_server": 2, "apm_session_server": 1,
	"apm_database": 2, "apm_datasource": 1, "apm_role": 3, "apm_user": 2, "apm_user_role": 2,
	"apm_was_application": 1, "apm_was_datasource": 1, "apm_was_session_cluster": 1,
	"apm_web_workers": 1, "apm_web_uri_patterns": 1, "apm_web_ssl": 0,
}

// demoSeedSecrets are the demo seed's types whose objects hold a password the manager
// never reports: the guide's edits.
var demoSeedSecrets = []string{"apm_database", "apm_user"}

// guideTemplate is the text of the guide's template.
func guideTemplate(t testing.TB) string {
	t.Helper()
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, adoptGuideTemplate))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// guideSnippets are the marked snippets of the guide, by name.
func guideSnippets(t testing.TB) map[string]docsnippets.Marked {
	t.Helper()
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	snippets, err := docsnippets.MarkedIn(root, adoptGuideTemplate)
	if err != nil {
		t.Fatal(err)
	}
	return snippets
}

// guideSnippetText is the guide's snippet of that name and language, or fails the test.
func guideSnippetText(t testing.TB, snippets map[string]docsnippets.Marked, name, lang string) string {
	t.Helper()
	s, ok := snippets[name]
	if !ok {
		t.Fatalf("%s has no snippet %q", adoptGuideTemplate, name)
	}
	if s.Lang != lang {
		t.Fatalf("%s: snippet %q is %q, want %q", adoptGuideTemplate, name, s.Lang, lang)
	}
	return s.Text
}

// The demo seed, which the adoption guide's tests adopt, holds every resource type (and
// internal/repocheck's TestAdoptionGuide_coversEveryType checks that the guide's discovery
// and query name every one). A type added later fails here until the seed has it.
func TestAdoptionGuide_demoSeedHasEveryType(t *testing.T) {
	types := slices.Sorted(maps.Keys(registeredTypes()))
	if got := slices.Sorted(maps.Keys(demoSeedObjects)); !slices.Equal(got, types) {
		t.Errorf("demoSeedObjects has %v, want every registered type %v", got, types)
	}
}

func parseHCLSnippet(t *testing.T, name, text string) *hclsyntax.Body {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(text), name, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("snippet %s: %s", name, diags.Error())
	}
	return f.Body.(*hclsyntax.Body) //nolint:forcetypeassert // hclsyntax always returns its own body
}

// adoptionGuide is one run of the guide: a CLI, the demo seed's apmsim, the directory the
// guide adopts into, and the environment its snippets export.
type adoptionGuide struct {
	t        *testing.T
	cli      string
	version  string
	env      *accEnv
	dir      string
	snippets map[string]docsnippets.Marked
	exported map[string]string
	// objects is what the manager holds, by resource type: the demo seed, and what the
	// test arranged beside it.
	objects map[string]int
	// edits counts the lines of generated configuration edited by hand.
	edits int
}

// newAdoptionGuide prepares a run of the guide on the acceptance tests' CLI, skipping
// where the CLI lacks one of the features the test runs.
func newAdoptionGuide(t *testing.T, features ...clifeatures.Feature) *adoptionGuide {
	t.Helper()
	cli, version := needs(t, features...)
	// The provider runs in this process and reads its connection settings from this
	// process's environment, which the guide's snippet exports (export): the test is
	// serial (Go keeps tests that set the environment out of the parallel ones), and
	// the settings it does not export are cleared.
	clearEnv(t, engine.EnvCACertPEM, envAdopt)
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	g := &adoptionGuide{t: t, cli: cli, version: version, env: env, dir: t.TempDir(), snippets: guideSnippets(t), exported: map[string]string{},
		objects: maps.Clone(demoSeedObjects)}
	if s := guideSnippetText(t, g.snippets, "start-apmsim", "shell"); !strings.Contains(s, "--seed "+apmsim.SeedDemo) {
		t.Fatalf("the guide's apmsim is not seeded %q, as the test's is:\n%s", apmsim.SeedDemo, s)
	}
	g.shell("environment")
	return g
}

// write writes a snippet of HCL as a file of the guide's directory. The provider's
// source is the acceptance tests' address, which the CLI reattaches to this test's
// provider: the guide's "apmplatform/apm" is in no registry the test can reach.
func (g *adoptionGuide) write(file, name string) {
	g.t.Helper()
	text := guideSnippetText(g.t, g.snippets, name, "terraform")
	text = strings.ReplaceAll(text, `source = "apmplatform/apm"`, fmt.Sprintf("source = %q", providerAddress("registry.terraform.io")))
	path := filepath.Join(g.dir, file)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		g.t.Fatal(err)
	}
	clitest.MustWrite(g.t, path, text)
}

// cliResult is what a command of a snippet did.
type cliResult struct {
	command string
	stdout  string
	output  string // stdout and stderr
	ok      bool
}

// shell runs the lines of a shell snippet, failing the test on one that fails, and
// returns what each command did.
func (g *adoptionGuide) shell(name string) []cliResult {
	g.t.Helper()
	results := g.shellAllowing(name, nil)
	for _, r := range results {
		if !r.ok {
			g.t.Fatalf("snippet %s: `%s` failed:\n%s", name, r.command, r.output)
		}
	}
	return results
}

// shellAllowing runs the lines of a shell snippet; the commands that allow(command)
// may fail, and the rest stop.
func (g *adoptionGuide) shellAllowing(name string, allow func(string) bool) []cliResult {
	g.t.Helper()
	var results []cliResult
	for _, line := range strings.Split(guideSnippetText(g.t, g.snippets, name, "shell"), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "export "):
			g.export(name, strings.TrimPrefix(line, "export "))
		case strings.HasPrefix(line, "terraform "):
			r := g.terraform(line)
			results = append(results, r)
			if !r.ok && (allow == nil || !allow(line)) {
				return results
			}
		case strings.HasPrefix(line, "go run ./cmd/apmsim "):
			// The test's own apmsim, seeded alike (newAdoptionGuide), stands in for it.
		default:
			g.t.Fatalf("snippet %s: the test does not know how to run %q", name, line)
		}
	}
	return results
}

// export sets a variable the way the guide's export line does, for the CLI; the
// connection settings are this test's apmsim's, whatever placeholder the guide shows, and
// go to this process, where the provider runs.
func (g *adoptionGuide) export(name, assignment string) {
	g.t.Helper()
	key, value, ok := strings.Cut(assignment, "=")
	if !ok {
		g.t.Fatalf("snippet %s: export without a value: %q", name, assignment)
	}
	switch {
	case key == engine.EnvEndpoint:
		value = g.env.sim.URL
		g.t.Setenv(key, value)
	case key == engine.EnvAPIKey:
		value = g.env.sim.AdminKey
		g.t.Setenv(key, value)
	case strings.HasPrefix(value, "'") && strings.HasSuffix(value, "'"):
		value = strings.Trim(value, "'")
	default:
		g.t.Fatalf("snippet %s: the test reads only single-quoted values: %q", name, assignment)
	}
	g.exported[key] = value
}

// terraform runs one command line of a snippet in the guide's directory: `terraform`
// is the CLI under test, `> file` writes its standard output there. The flags that make
// it run unattended and without colours are added after the subcommand.
func (g *adoptionGuide) terraform(line string) cliResult {
	g.t.Helper()
	command, redirect, _ := strings.Cut(line, " > ")
	args := strings.Fields(strings.TrimPrefix(command, "terraform "))
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-chdir=") {
		i++
	}
	if i == len(args) {
		g.t.Fatalf("no subcommand in %q", line)
	}
	extra := []string{"-no-color"}
	switch args[i] {
	case "init", "plan":
		extra = append(extra, "-input=false")
	case "apply":
		extra = append(extra, "-input=false")
		if !slices.Contains(args, "-auto-approve") {
			extra = append(extra, "-auto-approve")
		}
	}
	args = slices.Concat(args[:i+1], extra, args[i+1:])
	stdout, output, ok := g.run(args...)
	if redirect != "" && ok {
		clitest.MustWrite(g.t, filepath.Join(g.dir, strings.TrimSpace(redirect)), stdout)
	}
	return cliResult{command: line, stdout: stdout, output: redact(output, g.env.sim.AdminKey), ok: ok}
}

// run runs the CLI in the guide's directory with the exported variables, against a
// provider server of its own (as runCLI does), and returns its standard output, all of
// its output, and whether it succeeded.
func (g *adoptionGuide) run(args ...string) (stdout, output string, ok bool) {
	g.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliTimeout)
	defer cancel()
	reattach, stop := serveProvider(g.t)
	defer stop()
	cmd := exec.CommandContext(ctx, g.cli, args...)
	cmd.Dir = g.dir
	cmd.Env = cliEnv(reattach)
	for _, key := range slices.Sorted(maps.Keys(g.exported)) {
		cmd.Env = append(cmd.Env, key+"="+g.exported[key])
	}
	var out bytes.Buffer
	all := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = io.MultiWriter(&out, all), all
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		g.t.Fatalf("%s %s: %v after %s", g.cli, strings.Join(args, " "), ctx.Err(), cliTimeout)
	case err != nil && !errors.As(err, &exit):
		g.t.Fatalf("%s %s: %v", g.cli, strings.Join(args, " "), err)
	}
	return out.String(), all.String(), err == nil
}

// lockedBuffer is a buffer that the CLI's stdout and stderr write to at once (exec copies
// each in its own goroutine), keeping their order.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// read is a file of the guide's directory.
func (g *adoptionGuide) read(file string) string {
	g.t.Helper()
	data, err := os.ReadFile(filepath.Join(g.dir, file))
	if err != nil {
		g.t.Fatal(err)
	}
	return string(data)
}

// importTargets counts the import blocks of imports.tf by resource type, and fails the
// test on one whose target is not a plain resource address.
func (g *adoptionGuide) importTargets() map[string]int {
	g.t.Helper()
	body := parseHCLSnippet(g.t, "imports.tf", g.read("imports.tf"))
	counts := map[string]int{}
	for _, b := range body.Blocks {
		if b.Type != "import" {
			g.t.Fatalf("imports.tf holds a %s block", b.Type)
		}
		to, ok := b.Body.Attributes["to"]
		if !ok {
			g.t.Fatal("imports.tf holds an import block without `to`")
		}
		traversal, diags := hcl.AbsTraversalForExpr(to.Expr)
		if diags.HasErrors() || len(traversal) != 2 {
			g.t.Fatalf("import target %s is no plain resource address", hcl.ExprAsKeyword(to.Expr))
		}
		counts[traversal.RootName()]++
	}
	return counts
}

// blank collapses runs of white space, for comparing HCL that the CLI and the guide align
// differently.
func blank(s string) string { return strings.Join(strings.Fields(s), " ") }

// adopt runs the guide's main path: discover, generate, the edits, plan, apply, plan.
func (g *adoptionGuide) adopt(discover, importsSample string) {
	t := g.t
	g.write("main.tf", "adopt-main")
	g.write("discover/main.tf", "discover")
	g.shell(discover)

	counts := g.importTargets()
	want := maps.Clone(g.objects)
	maps.DeleteFunc(want, func(_ string, n int) bool { return n == 0 })
	if !maps.Equal(counts, want) {
		t.Errorf("imports.tf imports %v, want the demo seed's objects %v", counts, want)
	}
	for _, block := range regexp.MustCompile(`(?ms)^import \{$.*?^\}$`).FindAllString(guideSnippetText(t, g.snippets, importsSample, "terraform"), -1) {
		if !strings.Contains(blank(g.read("imports.tf")), blank(block)) {
			t.Errorf("the guide shows an import block that discovery does not write:\n%s\nimports.tf:\n%s", block, g.read("imports.tf"))
		}
	}

	secrets := 0
	for _, name := range demoSeedSecrets {
		secrets += g.objects[name]
	}
	generates := func(line string) bool { return strings.Contains(line, "-generate-config-out") }
	results := g.shellAllowing("generate", generates)
	for _, r := range results {
		if !r.ok && !generates(r.command) {
			t.Fatalf("snippet generate: `%s` failed:\n%s", r.command, r.output)
		}
	}
	g.checkMissingSecrets(results[len(results)-1].output, secrets)
	generated := g.read("generated.tf")
	t.Logf("generated.tf:\n%s", generated)

	generated = g.editPasswords(generated)
	generated = g.editCertificates(generated)
	if fixed, ok := quoteMapKeys(generated); ok {
		if quotesMapKeys(g.version) {
			t.Errorf("%s wrote map keys without quotes, which the guide says only OpenTofu and Terraform before 1.10 do", g.version)
		}
		g.edits += countChangedLines(generated, fixed)
		generated = fixed
	}
	clitest.MustWrite(t, filepath.Join(g.dir, "generated.tf"), generated)
	g.shell("passwords")
	if _, out, ok := g.run("validate", "-no-color"); !ok {
		t.Fatalf("the generated configuration, with the guide's edits, does not validate:\n%s", redact(out, g.env.sim.AdminKey))
	}

	results = g.shell("plan")
	if len(results) != 3 {
		t.Fatalf("the guide's plan snippet runs %d commands, want plan, apply and plan", len(results))
	}
	// Where the passwords are sensitive values, not write-only ones, the plan records each
	// in the state, in place.
	output := "plan-output"
	if !writeOnlyCLI(g.version) {
		output = "plan-output-sensitive"
		if n := strings.Count(results[0].output, "+ password  "); n != secrets {
			t.Errorf("the first plan records %d passwords, want %d:\n%s", n, secrets, results[0].output)
		}
	}
	wantLine := strings.TrimSpace(guideSnippetText(t, g.snippets, output, "text"))
	if g.objects["apm_web_ssl"] > 0 {
		// Beside the demo seed's objects, the SSL set-ups, each of which records its
		// certificate in place.
		changes := g.objects["apm_web_ssl"]
		if !writeOnlyCLI(g.version) {
			changes += secrets
		}
		wantLine = fmt.Sprintf("Plan: %d to import, 0 to add, %d to change, 0 to destroy.", sumValues(g.objects), changes)
	}
	if !strings.Contains(results[0].output, wantLine) {
		t.Errorf("the first plan does not say %q, as the guide does:\n%s", wantLine, results[0].output)
	}
	if !strings.Contains(results[2].output, "No changes.") {
		t.Errorf("the plan after the apply is not empty:\n%s", results[2].output)
	}
	if _, out, ok := g.run("plan", "-input=false", "-no-color", "-detailed-exitcode"); !ok {
		t.Errorf("plan -detailed-exitcode after the adoption did not exit 0:\n%s", redact(out, g.env.sim.AdminKey))
	}

	wantEdits := secrets + 2*g.objects["apm_web_ssl"]
	if !quotesMapKeys(g.version) {
		wantEdits += g.objects["apm_web_workers"]
	}
	if g.edits != wantEdits {
		t.Errorf("%d hand edits, want %d (one line per password, two per SSL set-up, and one per unquoted key of apm_web_workers on %s)", g.edits, wantEdits, g.version)
	}
	// Also on stdout, so that the acceptance logs show the count without -v.
	fmt.Printf("adoption guide on %s: %d objects imported, %d hand edits\n", g.version, sumValues(counts), g.edits)
}

// missingSecretError is an error of the plan that generates the configuration: its
// summary up to the object it names, the object, and the block (`with`).
const missingSecretError = `(?m)^\s*%s for (.+)\n\s*\n\s*with (\S+),$`

// checkMissingSecrets holds the plan that generates the configuration to the guide: it
// shows the guide's error word for word, and one such error for each of the secrets
// databases and users, each naming its own object and block. Every CLI places these
// errors at line 1 of generated.tf, and Terraform 1.14 and later keep one of the errors
// alike in summary, detail and place: an error that does not name its object is lost.
func (g *adoptionGuide) checkMissingSecrets(output string, secrets int) {
	t := g.t
	shown := guideSnippetText(t, g.snippets, "generate-error", "text")
	if !strings.Contains(blank(output), blank(shown)) {
		t.Errorf("plan -generate-config-out does not give the error that the guide shows:\n%s\noutput:\n%s", shown, output)
	}
	first, _, _ := strings.Cut(shown, "\n")
	summary, _, ok := strings.Cut(first, " for ")
	if !ok {
		t.Fatalf("the guide's error %q names no object", first)
	}
	objects, blocks := map[string]bool{}, map[string]bool{}
	found := regexp.MustCompile(fmt.Sprintf(missingSecretError, regexp.QuoteMeta(summary))).FindAllStringSubmatch(output, -1)
	for _, m := range found {
		objects[m[1]], blocks[m[2]] = true, true
	}
	if len(found) != secrets || len(objects) != secrets || len(blocks) != secrets {
		t.Errorf("plan -generate-config-out gave %d errors %q for %d objects in %d blocks, want one for each of the %d databases and users:\n%s",
			len(found), summary, len(objects), len(blocks), secrets, output)
	}
}

// editPasswords makes the guide's password edits in the generated configuration: in
// each block of a type with a password, the line that leaves it null takes the variable
// under the block's name (password_wo; password where the CLI has no write-only values).
// The edited database block must read as the guide shows it.
func (g *adoptionGuide) editPasswords(generated string) string {
	t := g.t
	attr := "password"
	if writeOnlyCLI(g.version) {
		attr = "password_wo"
	}
	block := regexp.MustCompile(`(?ms)^resource "(` + strings.Join(demoSeedSecrets, "|") + `)" "(\w+)" \{$.*?^\}$`)
	// OpenTofu adds "write-only" to the comment of a write-only attribute.
	line := regexp.MustCompile(`(?m)^(\s*)` + attr + `(\s*)= null # sensitive( write-only)?$`)
	found := 0
	edited := block.ReplaceAllStringFunc(generated, func(b string) string {
		found++
		name := block.FindStringSubmatch(b)[2]
		if !line.MatchString(b) {
			t.Errorf("the generated block of %s has no line `%s = null # sensitive` to edit:\n%s", name, attr, b)
			return b
		}
		g.edits++
		return line.ReplaceAllString(b, "${1}"+attr+"${2}= var.passwords["+strconv.Quote(name)+"]")
	})
	if want := len(demoSeedSecrets); found < want {
		t.Errorf("found %d blocks of %v in generated.tf", found, demoSeedSecrets)
	}
	if attr == "password_wo" {
		shown := guideSnippetText(t, g.snippets, "password-edit", "terraform")
		if !strings.Contains(blank(edited), blank(shown)) {
			t.Errorf("the edited database block differs from the guide's:\n%s\ngenerated.tf after the edits:\n%s", shown, edited)
		}
	}
	return edited
}

// editCertificates makes the guide's edits of each SSL set-up: its certificate and key
// come from files named after its block (private_key_pem_wo; private_key_pem where the CLI
// has no write-only values).
func (g *adoptionGuide) editCertificates(generated string) string {
	key := "private_key_pem"
	if writeOnlyCLI(g.version) {
		key = "private_key_pem_wo"
	}
	block := regexp.MustCompile(`(?ms)^resource "apm_web_ssl" "(\w+)" \{$.*?^\}$`)
	return block.ReplaceAllStringFunc(generated, func(b string) string {
		name := block.FindStringSubmatch(b)[1]
		for attr, file := range map[string]string{"certificate_pem": name + ".crt", key: name + ".key"} {
			line := regexp.MustCompile(`(?m)^(\s*)` + attr + `(\s*)= null( # sensitive( write-only)?)?$`)
			if !line.MatchString(b) {
				g.t.Errorf("the generated block of %s has no line `%s = null` to edit:\n%s", name, attr, b)
				continue
			}
			g.edits++
			b = line.ReplaceAllString(b, "${1}"+attr+"${2}= file("+strconv.Quote(file)+")")
		}
		return b
	})
}

// countChangedLines is the number of lines of a that b changes (both have as many lines).
func countChangedLines(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	n := 0
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			n++
		}
	}
	return n
}

func sumValues(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// The guide's main path on every CLI: import blocks by id from the discovery data
// sources, generated configuration, the passwords added, and a plan of imports only.
func TestAccAdoptionGuide_importBlocks(t *testing.T) {
	g := newAdoptionGuide(t)
	g.adopt("discover-commands", "imports-by-id")
}

// The main path with a web server that serves HTTPS, whose certificate and key the
// manager never reports: the guide's two edits of its SSL set-up.
func TestAccAdoptionGuide_https(t *testing.T) {
	g := newAdoptionGuide(t)
	cert := newWebTestCert(t, "web-01.example", nil)
	web := apm.ServerRef{Kind: apm.KindWeb, ServerID: "web-01", NodeName: "web-01", SystemName: "shop"}
	g.env.must(g.env.admin.ConfigureSSL(g.env.ctx(), web, apm.SSLConfig{HTTPSPort: 8443, CertificatePEM: cert.certPEM, PrivateKeyPEM: cert.keyPEM}))
	g.objects["apm_web_ssl"]++
	// The files the guide's edits read, named after the block of the SSL set-up.
	clitest.MustWrite(t, filepath.Join(g.dir, "shop_web_01_web_01.crt"), cert.certPEM)
	clitest.MustWrite(t, filepath.Join(g.dir, "shop_web_01_web_01.key"), cert.keyPEM)
	g.adopt("discover-commands", "imports-by-id")
}

// The same with import blocks by identity (Terraform and OpenTofu 1.12 and later).
func TestAccAdoptionGuide_importByIdentity(t *testing.T) {
	g := newAdoptionGuide(t, clifeatures.Identity)
	// The guide's discovery by identity runs after the init of its plain discovery.
	g.write("discover/main.tf", "discover")
	g.terraform("terraform -chdir=discover init")
	g.adopt("discover-by-identity", "imports-by-identity")
}

// The import block with for_each into a resource block written by hand (Terraform and
// OpenTofu 1.7 and later) imports the two WAS servers and changes nothing.
func TestAccAdoptionGuide_forEach(t *testing.T) {
	g := newAdoptionGuide(t, clifeatures.ForEachImport)
	g.write("main.tf", "for-each")
	const want = "Plan: 2 to import, 0 to add, 0 to change, 0 to destroy."
	if src := guideTemplate(t); !strings.Contains(src, "`"+want+"`") {
		t.Fatalf("the guide no longer says %q after the for_each snippet: change the test with it", want)
	}
	for _, line := range []string{"terraform init", "terraform plan"} {
		r := g.terraform(line)
		if !r.ok {
			t.Fatalf("%s failed:\n%s", line, r.output)
		}
		if line == "terraform plan" && !strings.Contains(r.output, want) {
			t.Errorf("the plan does not say %q:\n%s", want, r.output)
		}
	}
	if r := g.terraform("terraform apply"); !r.ok {
		t.Fatalf("apply failed:\n%s", r.output)
	}
	if _, out, ok := g.run("plan", "-input=false", "-no-color", "-detailed-exitcode"); !ok {
		t.Errorf("the plan after the import is not empty:\n%s", redact(out, g.env.sim.AdminKey))
	}
}

// The guide's query lists every object of the demo seed (Terraform 1.14 and later; other
// CLIs skip, naming the feature). The
// configuration that `terraform query -generate-config-out` writes comes from the
// provider's GenerateResourceConfig, which TestGenerateResourceConfigForEveryType checks
// for every type on every CLI.
func TestAccAdoptionGuide_query(t *testing.T) {
	needs(t, clifeatures.ListResources)
	env := newAccEnvWith(t, apmsimtest.WithSeed(apmsim.SeedDemo))
	query := guideSnippetText(t, guideSnippets(t), "query", "hcl")
	var checks []querycheck.QueryResultCheck
	for _, name := range slices.Sorted(maps.Keys(demoSeedObjects)) {
		// The address of a list block, with or without the key of a for_each instance.
		address := regexp.MustCompile(`(^|\.)` + regexp.QuoteMeta(name) + `\.all($|\[)`)
		checks = append(checks, querycheck.ExpectTotalLengthForMatching(address, demoSeedObjects[name]))
	}
	// A query step writes its Config as a .tfquery.hcl file beside the previous step's .tf
	// files, as the guide's adopt.tfquery.hcl sits beside its main.tf: the provider block
	// is main.tf's, and the query file declares none.
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.config("")},
			{Query: true, Config: query, QueryResultChecks: checks},
		},
	})
}
