package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// docType is one type the provider serves, as the docs list it.
type docType struct {
	kind, name, summary string
	page                string // docs/ page, relative to the repository; "" when there is none
}

// docKinds are the kinds of type in the order the docs list them, with the directory of
// their pages under docs/ (the directories tfplugindocs writes).
var docKinds = []struct{ kind, plural, dir string }{
	{"resource", "Resources", "resources"},
	{"data source", "Data sources", "data-sources"},
	{"list resource", "List resources", "list-resources"},
	{"ephemeral resource", "Ephemeral resources", "ephemeral-resources"},
	{"action", "Actions", "actions"},
	{"function", "Functions", "functions"},
}

// servedTypes is every type of every kind the provider serves over the protocol, which is
// what a CLI sees: actions or ephemeral resources registered later are listed without a
// change here.
func servedTypes(t *testing.T) []docType {
	t.Helper()
	resp := providerSchemas(t)
	var out []docType
	add := func(kind string, names map[string]string) {
		dir := ""
		for _, k := range docKinds {
			if k.kind == kind {
				dir = k.dir
			}
		}
		for name, description := range names {
			page := filepath.Join("docs", dir, strings.TrimPrefix(name, "apm_")+".md")
			if _, err := os.Stat(filepath.Join("..", "..", page)); err != nil {
				page = "" // no page of its own (list resources are on their resource's page)
			}
			out = append(out, docType{kind: kind, name: name, summary: firstSentence(description), page: filepath.ToSlash(page)})
		}
	}
	descriptions := func(schemas map[string]*tfprotov6.Schema) map[string]string {
		m := map[string]string{}
		for name, s := range schemas {
			m[name] = s.Block.Description
		}
		return m
	}
	add("resource", descriptions(resp.ResourceSchemas))
	add("data source", descriptions(resp.DataSourceSchemas))
	add("list resource", descriptions(resp.ListResourceSchemas))
	add("ephemeral resource", descriptions(resp.EphemeralResourceSchemas))
	actions := map[string]string{}
	for name, s := range resp.ActionSchemas {
		actions[name] = s.Schema.Block.Description
	}
	add("action", actions)
	functions := map[string]string{}
	for name, f := range resp.Functions {
		functions[name] = f.Summary
	}
	add("function", functions)
	rank := func(kind string) int {
		return slices.IndexFunc(docKinds, func(k struct{ kind, plural, dir string }) bool { return k.kind == kind })
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].kind != out[j].kind {
			return rank(out[i].kind) < rank(out[j].kind)
		}
		return out[i].name < out[j].name
	})
	return out
}

// firstSentence is a description's first sentence, on one line and safe in a table cell.
func firstSentence(description string) string {
	s := strings.Join(strings.Fields(description), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// The served types must be those of the provider's methods: the protocol server serves
// what they return, and a kind the provider gains (actions, ephemeral resources) through
// one of the framework's interfaces is counted here too.
func TestDocsServedTypesAreTheRegistry(t *testing.T) {
	ctx := context.Background()
	p := New("test")()
	want := map[string]int{"resource": len(p.Resources(ctx)), "data source": len(p.DataSources(ctx))}
	if pf, ok := p.(provider.ProviderWithFunctions); ok {
		want["function"] = len(pf.Functions(ctx))
	}
	if pl, ok := p.(provider.ProviderWithListResources); ok {
		want["list resource"] = len(pl.ListResources(ctx))
	}
	if pe, ok := p.(provider.ProviderWithEphemeralResources); ok {
		want["ephemeral resource"] = len(pe.EphemeralResources(ctx))
	}
	if pa, ok := p.(provider.ProviderWithActions); ok {
		want["action"] = len(pa.Actions(ctx))
	}
	got := map[string]int{}
	for _, typ := range servedTypes(t) {
		got[typ.kind]++
	}
	for kind, n := range want {
		if got[kind] != n {
			t.Errorf("the provider registers %d of kind %s, the protocol serves %d", n, kind, got[kind])
		}
	}
	if got["resource"] == 0 || got["data source"] == 0 || got["function"] == 0 {
		t.Errorf("no resources, data sources or functions served: %v", got)
	}
}

// stated is the default a description states: "Defaults to `X`." gives X, with ok false
// when the description states none or a default that is the manager's choice.
var statedDefault = regexp.MustCompile("Defaults to `([^`]*)`")

func stated(description string) (string, bool) {
	m := statedDefault.FindStringSubmatch(description)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// providerDefaults are the values the provider uses for settings left unset, taken from
// the code that applies them (clientConfig, adoptSetting, Configure), by attribute.
func providerDefaults(t *testing.T) map[string]string {
	t.Helper()
	t.Setenv(engine.EnvEndpoint, "https://apm.example:8443")
	t.Setenv(envAdopt, "")
	unset := providerModel{RequestTimeout: types.StringNull(), MaxRetries: types.Int64Null(), InsecureSkipVerify: types.BoolNull(),
		SkipConnectionCheck: types.BoolNull(), AdoptExisting: types.BoolNull(), TimeZone: types.StringNull()}
	cfg, diags := (&apmProvider{}).clientConfig(unset)
	if diags.HasError() {
		t.Fatalf("client configuration of unset settings: %v", diags)
	}
	adopt, err := adoptSetting(unset.AdoptExisting)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"request_timeout":       engine.FormatDuration(cfg.RequestTimeout),
		"max_retries":           strconv.Itoa(cfg.MaxRetries),
		"insecure_skip_verify":  strconv.FormatBool(cfg.InsecureSkipVerify),
		"adopt_existing":        strconv.FormatBool(adopt),
		"skip_connection_check": strconv.FormatBool(unset.SkipConnectionCheck.ValueBool()),
		"time_zone":             defaultTimeZone,
	}
}

// Every default the provider's schema states is the one the code applies, and every
// setting with a default states it.
func TestDocsProviderDefaultsAreTheCodes(t *testing.T) {
	code := providerDefaults(t)
	for _, a := range providerSchemas(t).Provider.Block.Attributes {
		value, ok := stated(a.Description)
		want, known := code[a.Name]
		switch {
		case ok && !known:
			t.Errorf("provider setting %s states the default %q, which no check here takes from the code: add it to providerDefaults", a.Name, value)
		case known && value != want:
			t.Errorf("provider setting %s: the description states the default %q (ok=%v), the code uses %q", a.Name, value, ok, want)
		}
		delete(code, a.Name)
	}
	for name := range code {
		t.Errorf("providerDefaults names %s, which is no provider setting", name)
	}
}

// The README's table of provider settings has a row for each setting of the schema, and
// states the environment variable and the default the schema's description states.
func TestDocsReadmeProviderSettings(t *testing.T) {
	readme := requireFile(t, filepath.Join("..", "..", "README.md"))
	start := strings.Index(readme, "### Provider configuration")
	if start < 0 {
		t.Fatal("README.md has no section \"Provider configuration\"")
	}
	// The section's table: its rows up to the first line that is no row.
	rows := map[string][]string{}
	inTable := false
	for _, line := range strings.Split(readme[start:], "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		if cells := strings.Split(line, " | "); len(cells) >= 4 && strings.HasPrefix(line, "| `") {
			rows[strings.Trim(cells[0], "| `")] = cells
		}
	}
	env := regexp.MustCompile("`(APM_[A-Z_]+)` environment variable")
	for _, a := range providerSchemas(t).Provider.Block.Attributes {
		cells, ok := rows[a.Name]
		if !ok {
			t.Errorf("README.md: the provider settings table has no row for %s", a.Name)
			continue
		}
		delete(rows, a.Name)
		wantEnv := "–"
		if m := env.FindStringSubmatch(a.Description); m != nil {
			wantEnv = "`" + m[1] + "`"
		}
		if cells[1] != wantEnv {
			t.Errorf("README.md: setting %s: environment variable %q, want %q as its description says", a.Name, cells[1], wantEnv)
		}
		if value, ok := stated(a.Description); ok && strings.Trim(cells[2], "`\"") != value {
			t.Errorf("README.md: setting %s: default %s, want %q as its description says", a.Name, cells[2], value)
		}
	}
	for name := range rows {
		t.Errorf("README.md: the provider settings table has a row for %s, which is no provider setting", name)
	}
}

// Every resource attribute with a default in the schema states it, and states the value
// the schema plans; the timeouts state the bounds the operations use.
func TestDocsResourceDefaultsAreTheCodes(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for _, newResource := range New("test")().Resources(ctx) {
		r := newResource()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "apm"}, &meta)
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		walkResourceAttributes(meta.TypeName, resp.Schema.Attributes, func(at string, a schema.Attribute) {
			def, has := schemaDefault(ctx, t, at, a)
			value, states := stated(description(a))
			if has {
				checked++
				if !states || value != def {
					t.Errorf("%s: the schema's default is %q, the description states %q (stated: %v)", at, def, value, states)
				}
			}
		})
		if _, ok := resp.Schema.Attributes["timeouts"]; !ok {
			continue
		}
		withDefaults, ok := r.(interface {
			DefaultTimeouts() engine.Timeouts
		})
		if !ok {
			t.Errorf("%s has timeouts but no DefaultTimeouts to check their stated defaults against", meta.TypeName)
			continue
		}
		nested, ok := resp.Schema.Attributes["timeouts"].(schema.SingleNestedAttribute)
		if !ok {
			t.Errorf("%s: timeouts is a %T", meta.TypeName, resp.Schema.Attributes["timeouts"])
			continue
		}
		defaults := withDefaults.DefaultTimeouts()
		for op, bound := range map[string]time.Duration{"create": defaults.Create, "update": defaults.Update, "delete": defaults.Delete} {
			a, ok := nested.Attributes[op]
			value, states := "", false
			if ok {
				value, states = stated(description(a))
			}
			checked++
			if !states || value != engine.FormatDuration(bound) {
				t.Errorf("%s: timeouts.%s states the default %q (stated: %v); the %s uses %s", meta.TypeName, op, value, states, op, engine.FormatDuration(bound))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no default checked: the walk found no attribute with a default and no timeouts")
	}
}

// description is an attribute's description as the docs show it.
func description(a schema.Attribute) string {
	if d := a.GetMarkdownDescription(); d != "" {
		return d
	}
	return a.GetDescription()
}

func walkResourceAttributes(prefix string, attributes map[string]schema.Attribute, visit func(string, schema.Attribute)) {
	for name, a := range attributes {
		at := prefix + "." + name
		visit(at, a)
		switch n := a.(type) {
		case schema.SingleNestedAttribute:
			walkResourceAttributes(at, n.Attributes, visit)
		case schema.ListNestedAttribute:
			walkResourceAttributes(at, n.NestedObject.Attributes, visit)
		case schema.SetNestedAttribute:
			walkResourceAttributes(at, n.NestedObject.Attributes, visit)
		case schema.MapNestedAttribute:
			walkResourceAttributes(at, n.NestedObject.Attributes, visit)
		}
	}
}

// schemaDefault is the value an attribute's schema default plans, as the docs write it.
// A kind of default this does not know fails the test, so that it is never skipped.
func schemaDefault(ctx context.Context, t *testing.T, at string, a schema.Attribute) (string, bool) {
	t.Helper()
	unquote := func(s string) string { return strings.Trim(s, `"`) }
	switch d := a.(type) {
	case schema.BoolAttribute:
		if d.Default == nil {
			return "", false
		}
		var resp defaults.BoolResponse
		d.Default.DefaultBool(ctx, defaults.BoolRequest{}, &resp)
		return resp.PlanValue.String(), true
	case schema.StringAttribute:
		if d.Default == nil {
			return "", false
		}
		var resp defaults.StringResponse
		d.Default.DefaultString(ctx, defaults.StringRequest{}, &resp)
		return unquote(resp.PlanValue.String()), true
	case schema.Int64Attribute:
		if d.Default == nil {
			return "", false
		}
		var resp defaults.Int64Response
		d.Default.DefaultInt64(ctx, defaults.Int64Request{}, &resp)
		return resp.PlanValue.String(), true
	}
	if hasDefault(a) {
		t.Errorf("%s: a default of a kind (%T) this test cannot read", at, a)
	}
	return "", false
}

// hasDefault tells whether an attribute of a kind schemaDefault does not read has a default.
func hasDefault(a schema.Attribute) bool {
	switch d := a.(type) {
	case schema.Float64Attribute:
		return d.Default != nil
	case schema.NumberAttribute:
		return d.Default != nil
	case schema.ListAttribute:
		return d.Default != nil
	case schema.SetAttribute:
		return d.Default != nil
	case schema.MapAttribute:
		return d.Default != nil
	case schema.ObjectAttribute:
		return d.Default != nil
	case schema.SingleNestedAttribute:
		return d.Default != nil
	case schema.ListNestedAttribute:
		return d.Default != nil
	case schema.SetNestedAttribute:
		return d.Default != nil
	case schema.MapNestedAttribute:
		return d.Default != nil
	}
	return false
}

// The release's changelog section names every type the provider serves.
func TestDocsChangelogNamesEveryType(t *testing.T) {
	changelog := requireFile(t, filepath.Join("..", "..", "CHANGELOG.md"))
	start := strings.Index(changelog, "\n## 0.1.0")
	if start < 0 {
		t.Fatal("CHANGELOG.md has no section ## 0.1.0")
	}
	section := changelog[start+1:]
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	for _, typ := range servedTypes(t) {
		if !strings.Contains(section, "`"+typ.name+"`") {
			t.Errorf("CHANGELOG.md, 0.1.0: %s %s is not named (as `%s`)", typ.kind, typ.name, typ.name)
		}
	}
}

// `make help` lists every target the README names and every target the GNUmakefile
// declares phony, each with its text.
func TestDocsMakeHelpListsTheTargets(t *testing.T) {
	root := filepath.Join("..", "..")
	cmd := exec.Command("make", "-s", "--no-print-directory", "help")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make help: %v", err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if target, text, ok := strings.Cut(line, ": "); ok && strings.TrimSpace(text) != "" {
			listed[target] = true
		}
	}
	want := map[string]string{}
	for _, m := range regexp.MustCompile("`make ([a-z][a-z-]*)").FindAllStringSubmatch(requireFile(t, filepath.Join(root, "README.md")), -1) {
		want[m[1]] = "README.md names it"
	}
	phony := regexp.MustCompile(`(?m)^\.PHONY:(.*)$`).FindStringSubmatch(requireFile(t, filepath.Join(root, "GNUmakefile")))
	if phony == nil {
		t.Fatal("GNUmakefile has no .PHONY line")
	}
	for _, target := range strings.Fields(phony[1]) {
		if target != "default" { // the goal of a bare `make`, which README.md gives as `make build`
			want[target] = "GNUmakefile declares it"
		}
	}
	if len(want) < 2 {
		t.Fatalf("found too few targets to check: %v", want)
	}
	for target, why := range want {
		if !listed[target] {
			t.Errorf("make help does not list %s (%s): add a \"## %s: ...\" comment above it", target, why, target)
		}
	}
}

// The example directories a user copies (every directory under examples/ but those whose
// files tfplugindocs puts on the pages, by kind) are configurations of their own: `init`
// finds the provider by its registry address (a terraform block with required_providers),
// and `validate` (scripts/validate-examples.sh) finds every variable declared.
func TestDocsExamplesAreCompleteConfigurations(t *testing.T) {
	root := filepath.Join("..", "..", "examples")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]bool{"provider": true}
	for _, k := range docKinds {
		pages[k.dir] = true
	}
	source := regexp.MustCompile(`(?s)terraform\s*\{.*required_providers\s*\{\s*apm\s*=\s*\{\s*source\s*=\s*"apmplatform/apm"`)
	checked := 0
	for _, e := range entries {
		if !e.IsDir() || pages[e.Name()] {
			continue
		}
		// A directory without a .tf file holds no configuration (examples/gitops is a CI
		// workflow).
		if tf, _ := filepath.Glob(filepath.Join(root, e.Name(), "*.tf")); len(tf) == 0 {
			continue
		}
		checked++
		if !source.MatchString(readAll(t, filepath.Join(root, e.Name(), "*.tf"), nil)) {
			t.Errorf("examples/%s has no terraform block requiring apm from source \"apmplatform/apm\"", e.Name())
		}
	}
	if checked == 0 {
		t.Fatal("no example configuration found under examples/")
	}
}

// The prose of README.md and of the templates states the defaults of the provider's
// settings that the code applies: "`max_retries` times (default 4" names the setting and,
// within its sentence, its default.
func TestDocsProseStatesTheProvidersDefaults(t *testing.T) {
	code := providerDefaults(t)
	root := filepath.Join("..", "..")
	found := 0
	for _, file := range proseDocs(t, "templates") {
		text := strings.Join(strings.Fields(requireFile(t, file)), " ")
		for name, want := range code {
			re := regexp.MustCompile("`" + name + "`[^.|]{0,120}?\\bdefault:? `?\"?([A-Za-z0-9_/]+)")
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				found++
				if m[1] != want {
					t.Errorf("%s: %q states the default %s of %s; the code uses %s", filepath.ToSlash(strings.TrimPrefix(file, root+"/")), m[0], m[1], name, want)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no default of a provider setting found in the prose: the pattern no longer matches the docs")
	}
}

// olderCLIs is the heading of the section of an action's or list resource's page that says
// what to use on a CLI without them.
const olderCLIs = "## On OpenTofu and Terraform before 1.14"

var typeNameInProse = regexp.MustCompile("`(apm_[a-z_]+)`")

// Each action's and list resource's page says what OpenTofu and older Terraform use
// instead, naming resources or data sources that the provider serves.
func TestDocsPagesSayWhatOlderCLIsUseInstead(t *testing.T) {
	types := servedTypes(t)
	served := map[string]bool{}
	for _, typ := range types {
		if typ.kind == "resource" || typ.kind == "data source" {
			served[typ.name] = true
		}
	}
	checked := 0
	for _, typ := range types {
		if typ.kind != "action" && typ.kind != "list resource" {
			continue
		}
		checked++
		t.Run(typ.name, func(t *testing.T) {
			if typ.page == "" {
				t.Fatalf("%s %s has no page under docs/: run scripts/docs.sh", typ.kind, typ.name)
			}
			text := readAll(t, filepath.Join("..", "..", typ.page), nil)
			_, section, found := strings.Cut(text, olderCLIs)
			if !found {
				t.Fatalf("%s has no %q section", typ.page, olderCLIs)
			}
			section, _, _ = strings.Cut(section, "\n## ")
			names := typeNameInProse.FindAllStringSubmatch(section, -1)
			if len(names) == 0 {
				t.Errorf("%s: the %q section names no resource or data source", typ.page, olderCLIs)
			}
			for _, m := range names {
				if !served[m[1]] {
					t.Errorf("%s: the %q section names %s, which the provider serves as no resource or data source", typ.page, olderCLIs, m[1])
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("the provider serves no action and no list resource")
	}
}

// Each list resource's example (its page's Example Usage) is a query that Terraform runs:
// `validate -query` and `query` against this test's apmsim with the demo seed, which has
// objects of every type, print no warning and no error: every list block finds something.
func TestAccDocs_listResourceExamples(t *testing.T) {
	cli, version := needs(t, clifeatures.ListResources)
	for _, typ := range servedTypes(t) {
		if typ.kind != "list resource" {
			continue
		}
		t.Run(typ.name, func(t *testing.T) {
			example := filepath.Join("..", "..", "examples", "list-resources", typ.name, "list-resource.tfquery.hcl")
			query, err := os.ReadFile(example)
			if err != nil {
				t.Fatalf("%s has no example: %v", typ.name, err)
			}
			env, ca := newTLSAccEnv(t, apmsimtest.WithSeed(apmsim.SeedDemo))
			dir := t.TempDir()
			provider := fmt.Sprintf("provider \"apm\" {\n  endpoint    = %q\n  api_key     = %q\n  ca_cert_pem = %q\n  max_retries = 0\n}\n",
				env.sim.URL, env.sim.AdminKey, ca)
			for file, text := range map[string]string{"main.tf": provider, "example.tfquery.hcl": string(query)} {
				if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for _, args := range [][]string{
				{"init", "-input=false", "-no-color", "-backend=false", "-plugin-dir=" + t.TempDir()},
				{"validate", "-no-color", "-query"},
				{"query", "-no-color"},
			} {
				out, ok := runCLI(t, cli, dir, args...)
				if diagnostic := warningOrError(out); !ok || diagnostic != "" {
					t.Fatalf("%s: %s %s (%q):\n%s", version, strings.Join(args[:1], " "), map[bool]string{true: "succeeded", false: "failed"}[ok], diagnostic, redact(out, env.sim.AdminKey))
				}
			}
		})
	}
}
