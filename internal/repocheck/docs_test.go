package repocheck

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"

	"github.com/apmplatform/terraform-provider-apm/internal/doclists"
	"github.com/apmplatform/terraform-provider-apm/internal/docsnippets"
	apmprovider "github.com/apmplatform/terraform-provider-apm/internal/provider"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// The served types must be those of the provider's methods: the protocol server serves
// what they return, and a kind the provider gains (actions, ephemeral resources) through
// one of the framework's interfaces is counted here too.
func TestDocsServedTypesAreTheRegistry(t *testing.T) {
	ctx := context.Background()
	p := apmprovider.New("test")()
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
		got[typ.Kind]++
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

// statedProviderDefaults are the defaults the provider's schema states, by setting.
// internal/provider's TestDocsProviderDefaultsAreTheCodes holds them to the values the code
// applies, so the prose checked against them here states the code's defaults.
func statedProviderDefaults(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, a := range providerSchemas(t).Provider.Block.Attributes {
		if value, ok := stated(a.Description); ok {
			out[a.Name] = value
		}
	}
	if len(out) == 0 {
		t.Fatal("the provider's schema states no default")
	}
	return out
}

// The README's table of provider settings has a row for each setting of the schema, and
// states the environment variable and the default the schema's description states.
func TestDocsReadmeProviderSettings(t *testing.T) {
	readme := requireFile(t, filepath.Join(root, "README.md"))
	// The section's heading, at whatever level the README puts it.
	loc := regexp.MustCompile(`(?m)^#+ Provider configuration$`).FindStringIndex(readme)
	if loc == nil {
		t.Fatal("README.md has no section \"Provider configuration\"")
	}
	// The section's table: its rows up to the first line that is no row.
	rows := map[string][]string{}
	inTable := false
	for _, line := range strings.Split(readme[loc[0]:], "\n") {
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
// the schema plans; the timeouts state the bounds the operations use. One subtest a
// resource type.
func TestDocsResourceDefaultsAreTheCodes(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for _, newResource := range apmprovider.New("test")().Resources(ctx) {
		r := newResource()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "apm"}, &meta)
		t.Run(meta.TypeName, func(t *testing.T) {
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
				return
			}
			withDefaults, ok := r.(interface {
				DefaultTimeouts() engine.Timeouts
			})
			if !ok {
				t.Fatalf("%s has timeouts but no DefaultTimeouts to check their stated defaults against", meta.TypeName)
			}
			nested, ok := resp.Schema.Attributes["timeouts"].(schema.SingleNestedAttribute)
			if !ok {
				t.Fatalf("%s: timeouts is a %T", meta.TypeName, resp.Schema.Attributes["timeouts"])
			}
			defaults := withDefaults.DefaultTimeouts()
			for op, bound := range map[string]time.Duration{"create": defaults.Create, "update": defaults.Update, "delete": defaults.Delete} {
				a, ok := nested.Attributes[op]
				if !ok && bound == 0 {
					continue // an operation resource's delete forgets it: nothing to bound
				}
				value, states := "", false
				if ok {
					value, states = stated(description(a))
				}
				checked++
				if !states || value != engine.FormatDuration(bound) {
					t.Errorf("%s: timeouts.%s states the default %q (stated: %v); the %s uses %s", meta.TypeName, op, value, states, op, engine.FormatDuration(bound))
				}
			}
		})
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
	changelog := requireFile(t, filepath.Join(root, "CHANGELOG.md"))
	start := strings.Index(changelog, "\n## 0.1.0")
	if start < 0 {
		t.Fatal("CHANGELOG.md has no section ## 0.1.0")
	}
	section := changelog[start+1:]
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	for _, typ := range servedTypes(t) {
		t.Run(typ.Kind+" "+typ.Name, func(t *testing.T) {
			if !strings.Contains(section, "`"+typ.Name+"`") {
				t.Errorf("CHANGELOG.md, 0.1.0: %s %s is not named (as `%s`)", typ.Kind, typ.Name, typ.Name)
			}
		})
	}
}

// `make help` lists every target the README names and every target the GNUmakefile
// declares phony, each with its text.
func TestDocsMakeHelpListsTheTargets(t *testing.T) {
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
	examples := filepath.Join(root, "examples")
	entries, err := os.ReadDir(examples)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]bool{"provider": true}
	for _, k := range doclists.Kinds {
		pages[k.Dir] = true
	}
	source := regexp.MustCompile(`(?s)terraform\s*\{.*required_providers\s*\{\s*apm\s*=\s*\{\s*source\s*=\s*"apmplatform/apm"`)
	checked := 0
	for _, e := range entries {
		if !e.IsDir() || pages[e.Name()] {
			continue
		}
		// A directory without a .tf file holds no configuration (examples/gitops is a CI
		// workflow).
		if tf, _ := filepath.Glob(filepath.Join(examples, e.Name(), "*.tf")); len(tf) == 0 {
			continue
		}
		checked++
		if !source.MatchString(readAll(t, filepath.Join(examples, e.Name(), "*.tf"), nil)) {
			t.Errorf("examples/%s has no terraform block requiring apm from source \"apmplatform/apm\"", e.Name())
		}
	}
	if checked == 0 {
		t.Fatal("no example configuration found under examples/")
	}
}

// The prose of README.md and of the templates states the defaults of the provider's
// settings that the schema states (and so the code applies): "`max_retries` times
// (default 4" names the setting and, within its sentence, its default.
func TestDocsProseStatesTheProvidersDefaults(t *testing.T) {
	code := statedProviderDefaults(t)
	files, err := docsnippets.ProseDocs(root, "templates")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, file := range files {
		text := strings.Join(strings.Fields(requireFile(t, file)), " ")
		for name, want := range code {
			re := regexp.MustCompile("`" + name + "`[^.|]{0,120}?\\bdefault:? `?\"?([A-Za-z0-9_/]+)")
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				found++
				if m[1] != want {
					t.Errorf("%s: %q states the default %s of %s; the code uses %s", rel(file), m[0], m[1], name, want)
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
		if typ.Kind == "resource" || typ.Kind == "data source" {
			served[typ.Name] = true
		}
	}
	checked := 0
	for _, typ := range types {
		if typ.Kind != "action" && typ.Kind != "list resource" {
			continue
		}
		checked++
		t.Run(typ.Name, func(t *testing.T) {
			if typ.Page == "" {
				t.Fatalf("%s %s has no page under docs/: run scripts/docs.sh", typ.Kind, typ.Name)
			}
			text := readAll(t, filepath.Join(root, typ.Page), nil)
			_, section, found := strings.Cut(text, olderCLIs)
			if !found {
				t.Fatalf("%s has no %q section", typ.Page, olderCLIs)
			}
			section, _, _ = strings.Cut(section, "\n## ")
			names := typeNameInProse.FindAllStringSubmatch(section, -1)
			if len(names) == 0 {
				t.Errorf("%s: the %q section names no resource or data source", typ.Page, olderCLIs)
			}
			for _, m := range names {
				if !served[m[1]] {
					t.Errorf("%s: the %q section names %s, which the provider serves as no resource or data source", typ.Page, olderCLIs, m[1])
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("the provider serves no action and no list resource")
	}
}
