package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apmplatform/terraform-provider-apm/internal/clifeatures"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// An import block by identity inside a child module (Terraform 1.16) adopts every object
// of discovery/platform.tf: the module first creates them, the root then forgets them (a
// removed block), and the module with module_import/imports.tf beside the platform
// plans to import each and change nothing; after the apply the plan is empty. The CLI
// runs directly: plugin-testing's state checks and its destroy refuse a state with
// modules ("Modules are not supported").
func TestAccModuleImport_byIdentity(t *testing.T) {
	cli, _ := needs(t, clifeatures.ModuleImport, clifeatures.Identity)
	env := newAccEnv(t)
	cert := newWebTestCert(t, "web-1.example", nil)
	bare := moduleDir(t, "discovery/platform.tf", "module_import/module.tf")
	adopting := moduleDir(t, "discovery/platform.tf", "module_import/module.tf", "module_import/imports.tf")
	root := func(source string, systemID any) string {
		return env.config(tf(t, "module_import/root.tf", "module_source", source, "system_id", systemID,
			"system_name", env.name("shop"), "database_name", env.name("orders-db"), "orders_ds", env.name("orders-ds"),
			"billing_ds", env.name("billing-ds"), "alice", env.name("alice"), "bob", env.name("bob"),
			"viewers", env.name("viewers"), "operators", env.name("operators"),
			"certificate_pem", cert.certPEM, "private_key_pem", cert.keyPEM))
	}
	w := &moduleWorkdir{t: t, cli: cli, dir: t.TempDir(), secret: env.sim.AdminKey}
	t.Cleanup(func() {
		w.must("destroy", "-auto-approve", "-input=false", "-no-color")
		// A test that failed before its imports leaves the forgotten objects to its apmsim.
		if t.Failed() {
			return
		}
		if err := env.checkSystems()(nil); err != nil {
			t.Errorf("after destroy: %v", err)
		}
	})

	w.apply(root(bare, hclNull))
	shop, err := env.admin.GetSystem(env.ctx(), env.name("shop"))
	env.must(err)
	w.apply(env.config(tf(t, "module_import/forget.tf")))
	if out := w.must("state", "list"); strings.TrimSpace(out) != "" {
		t.Fatalf("the removed block left resources in state:\n%s", out)
	}

	w.write(root(adopting, shop.SystemID))
	w.must("init", "-input=false", "-no-color", "-plugin-dir="+t.TempDir())
	w.must("plan", "-input=false", "-no-color", "-out=tfplan")
	var plan tfjson.Plan
	if err := json.Unmarshal([]byte(w.must("show", "-json", "tfplan")), &plan); err != nil {
		t.Fatalf("show -json tfplan: %v", err)
	}
	if err := importsOnly(&plan, len(resourceBlock.FindAllString(readTestdata(t, "discovery/platform.tf"), -1))); err != nil {
		t.Fatal(err)
	}
	for _, typeName := range typesWithIdentity(t) {
		if !slices.ContainsFunc(plan.ResourceChanges, func(rc *tfjson.ResourceChange) bool { return rc.Type == typeName }) {
			t.Errorf("module_import/imports.tf imports no %s, a type with an identity", typeName)
		}
	}
	w.must("apply", "-input=false", "-no-color", "tfplan")
	if out, ok := runCLI(t, cli, w.dir, "plan", "-input=false", "-no-color", "-detailed-exitcode"); !ok {
		t.Errorf("the plan after the imports is not empty:\n%s", redact(out, env.sim.AdminKey))
	}
}

// typesWithIdentity are the registered resource types that have an identity schema.
func typesWithIdentity(t *testing.T) []string {
	t.Helper()
	ids, err := protocolServer(t).GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return slices.Sorted(maps.Keys(ids.IdentitySchemas))
}

// moduleWorkdir is a working directory of the CLI, whose main.tf a test rewrites.
type moduleWorkdir struct {
	t        *testing.T
	cli, dir string
	secret   string
}

func (w *moduleWorkdir) write(hcl string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(hcl), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// apply writes hcl as main.tf, then runs init (which installs its module) and apply.
func (w *moduleWorkdir) apply(hcl string) {
	w.t.Helper()
	w.write(hcl)
	w.must("init", "-input=false", "-no-color", "-plugin-dir="+w.t.TempDir())
	w.must("apply", "-auto-approve", "-input=false", "-no-color")
}

// must runs a CLI command, failing the test if it fails, and returns its output.
func (w *moduleWorkdir) must(args ...string) string {
	w.t.Helper()
	out, ok := runCLI(w.t, w.cli, w.dir, args...)
	if !ok {
		w.t.Fatalf("%s %s failed:\n%s", filepath.Base(w.cli), strings.Join(args, " "), redact(out, w.secret))
	}
	return out
}

// noDriftOnRefresh requires a refresh-only plan to find no drift. Its JSON counts, not
// `-detailed-exitcode`: Terraform 1.5 and 1.11 exit 2 from some refresh-only plans that
// hold no drift and no change (the other CLIs exit 0).
func (w *moduleWorkdir) noDriftOnRefresh() {
	w.t.Helper()
	w.must("plan", "-refresh-only", "-input=false", "-no-color", "-out=refresh.tfplan")
	var refresh tfjson.Plan
	if err := json.Unmarshal([]byte(w.must("show", "-json", "refresh.tfplan")), &refresh); err != nil {
		w.t.Fatalf("show -json of the refresh-only plan: %v", err)
	}
	for _, rc := range refresh.ResourceDrift {
		w.t.Errorf("the refresh-only plan finds drift in %s: %v", rc.Address, rc.Change.Actions)
	}
}

// moduleDir is a directory holding the testdata files given, for a module block's source.
func moduleDir(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, file := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(file)), []byte(readTestdata(t, file)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readTestdata(t *testing.T, file string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// importsOnly says what is wrong with a plan that should import want resources and change
// nothing of them but the inputs that the manager does not report (discoveryCases'
// unread), which an import cannot know and the update after it records, and optional
// inputs that the configuration leaves out (a server's state, which the import reads
// and the configuration then leaves unmanaged: planned null).
func importsOnly(plan *tfjson.Plan, want int) error {
	unread := map[string][]string{}
	for _, c := range discoveryCases {
		typeName, _, _ := strings.Cut(c.resource, ".")
		unread[typeName] = c.unread
	}
	var errs []error
	imports := 0
	for _, rc := range plan.ResourceChanges {
		if rc.Mode != tfjson.ManagedResourceMode {
			continue
		}
		changed := changedAttributes(rc.Change)
		switch {
		case rc.Change.Importing == nil:
			errs = append(errs, fmt.Errorf("%s: want an import, got %v", rc.Address, rc.Change.Actions))
		case !rc.Change.Actions.NoOp() && !rc.Change.Actions.Update():
			errs = append(errs, fmt.Errorf("%s: want an import and no other change, got %v", rc.Address, rc.Change.Actions))
		case !isSubset(changed, unread[rc.Type]):
			errs = append(errs, fmt.Errorf("%s: the import changes %v; only the unreported inputs %v and inputs the configuration leaves out may change", rc.Address, changed, unread[rc.Type]))
		default:
			imports++
		}
	}
	if imports != want {
		errs = append(errs, fmt.Errorf("the plan imports %d resources, want %d", imports, want))
	}
	return errors.Join(errs...)
}

// changedAttributes are the top-level attributes whose planned value differs from the
// prior one, but for those planned null (left out of the configuration).
func changedAttributes(c *tfjson.Change) []string {
	before, _ := c.Before.(map[string]any)
	after, _ := c.After.(map[string]any)
	unknown, _ := c.AfterUnknown.(map[string]any)
	var out []string
	for name, v := range after {
		if unknown[name] == true || (v != nil && !reflect.DeepEqual(before[name], v)) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func isSubset(names, of []string) bool {
	for _, n := range names {
		if !slices.Contains(of, n) {
			return false
		}
	}
	return true
}
