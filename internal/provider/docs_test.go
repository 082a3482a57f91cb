package provider

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/apmplatform/terraform-provider-apm/internal/apmsim"
	"github.com/apmplatform/terraform-provider-apm/internal/apmsim/apmsimtest"
	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// statedDefault finds the default a description states: "Defaults to `X`." gives X; stated has ok false
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
// setting with a default states it. internal/repocheck holds README.md and the templates to
// the schema's stated defaults; this test, which needs the package's own code, ties those to
// the code.
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

// Each list resource's example (its page's Example Usage) is a query that Terraform runs:
// `validate -query` and `query` against this test's apmsim with the demo seed, which has
// objects of every type, print no warning and no error: every list block finds something.
func TestAccDocs_listResourceExamples(t *testing.T) {
	cli, version := needs(t, clifeatures.ListResources)
	for _, name := range slices.Sorted(maps.Keys(providerSchemas(t).ListResourceSchemas)) {
		t.Run(name, func(t *testing.T) {
			example := filepath.Join("..", "..", "examples", "list-resources", name, "list-resource.tfquery.hcl")
			query, err := os.ReadFile(example)
			if err != nil {
				t.Fatalf("%s has no example: %v", name, err)
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
