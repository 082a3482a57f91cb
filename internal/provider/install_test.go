package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
	"github.com/apmplatform/terraform-provider-apm/internal/clitest"
)

// What README.md's "Install" tells a team to do, on the acceptance tests' CLI: `make install`
// (scripts/install-provider.sh), then plain `init`, `plan` and `apply` in a root module that
// calls a local module twice, with two aliases of the provider for two managers (staging and
// prod). Offline and without any CLI configuration: `init` finds the provider in the
// implied local mirror ~/.terraform.d/plugins and writes a lock file whose h1: hash is that
// of the installed package, and a second `init` accepts that lock file.
func TestAccInstall_modulesAndAliasesOffline(t *testing.T) {
	cli, _ := accCLI(t)
	staging, prod := newAccEnv(t), newAccEnv(t)
	stagingSystem, prodSystem := staging.name("shop-staging"), prod.name("shop-prod")
	w := newUserWorkspace(t, cli, []string{staging.sim.AdminKey, prod.sim.AdminKey},
		"TF_VAR_staging_endpoint="+staging.sim.URL, "TF_VAR_staging_api_key="+staging.sim.AdminKey,
		"TF_VAR_prod_endpoint="+prod.sim.URL, "TF_VAR_prod_api_key="+prod.sim.AdminKey)
	w.write("main.tf", tf(t, "install/root.tf", "staging_system", stagingSystem, "prod_system", prodSystem))
	w.write("modules/shop/main.tf", tf(t, "install/module.tf"))

	w.must("initialized", "init", "-input=false", "-no-color")
	w.checkLockFile()
	w.must("initialized", "init", "-input=false", "-no-color")
	w.must("4 to add, 0 to change, 0 to destroy", "plan", "-input=false", "-no-color")
	w.must("4 added, 0 changed, 0 destroyed", "apply", "-auto-approve", "-input=false", "-no-color")
	for _, m := range []struct {
		env    *accEnv
		system string
	}{{staging, stagingSystem}, {prod, prodSystem}} {
		if _, err := m.env.admin.GetNode(m.env.ctx(), m.system, "web-01"); err != nil {
			t.Errorf("after apply, node web-01 of %s: %v", m.system, err)
		}
	}
	// Each alias writes to its own manager only (two apmsims; a real manager is both).
	if staging.sim.Sim != nil {
		if _, err := staging.admin.GetSystem(staging.ctx(), prodSystem); !apm.IsNotFound(err) {
			t.Errorf("the staging manager has the prod system %s (err %v): the aliases are mixed up", prodSystem, err)
		}
	}
	w.must("No changes", "plan", "-input=false", "-no-color")
	w.must("4 destroyed", "destroy", "-auto-approve", "-input=false", "-no-color")
}

// lockedProvider is a provider's entry in .terraform.lock.hcl: its address, version and
// first hash.
var lockedProvider = regexp.MustCompile(`provider "([^"]+)" \{\s*version\s*=\s*"([^"]+)"\s*hashes\s*=\s*\[\s*"([^"]+)"`)

// checkLockFile fails the test unless the workspace's lock file holds the provider under the
// address "apmplatform/apm" means on one of the registries (Terraform's or OpenTofu's), with
// the version `make install` installs and the h1: hash of the package it installed there for
// this platform.
func (w *userWorkspace) checkLockFile() {
	w.t.Helper()
	lock, err := os.ReadFile(filepath.Join(w.dir, ".terraform.lock.hcl"))
	if err != nil {
		w.t.Fatalf("init wrote no lock file: %v", err)
	}
	m := lockedProvider.FindStringSubmatch(string(lock))
	if m == nil {
		w.t.Fatalf("the lock file has no provider entry:\n%s", lock)
	}
	host, _, _ := strings.Cut(m[1], "/")
	if m[1] != host+"/apmplatform/apm" || (host != "registry.terraform.io" && host != "registry.opentofu.org") {
		w.t.Fatalf("lock file: provider %q, want apmplatform/apm on registry.terraform.io or registry.opentofu.org:\n%s", m[1], lock)
	}
	want := installedVersion(w.t)
	pkg := filepath.Join(w.plugins, host, "apmplatform", "apm", want, runtime.GOOS+"_"+runtime.GOARCH)
	hash, err := dirhash.HashDir(pkg, "", dirhash.Hash1) // Terraform's h1: hash of an unpacked package
	if err != nil {
		w.t.Fatalf("hashing the installed package: %v", err)
	}
	if m[2] != want || m[3] != hash {
		w.t.Fatalf("lock file: %s version %q hash %q, want version %q hash %q (the package make install wrote):\n%s",
			m[1], m[2], m[3], want, hash, lock)
	}
}

// installedVersion is the version make install gives the provider (scripts/provider-version.sh).
func installedVersion(t *testing.T) string {
	t.Helper()
	root, err := clitest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(root, "scripts", "provider-version.sh")).Output()
	if err != nil {
		t.Fatal(fmt.Errorf("scripts/provider-version.sh: %w", err))
	}
	return strings.TrimSpace(string(out))
}
