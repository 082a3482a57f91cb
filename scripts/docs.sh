#!/usr/bin/env bash
# Generates docs/ with tfplugindocs v0.25.0 (tools/ module), offline and reproducibly:
#   1. builds the provider into a local plugin directory,
#   2. gets its schema with `terraform providers schema -json` from Terraform 1.16.4 (.clis/), the
#      newest CLI the tests run, which reports every kind the provider serves: resources, data
#      sources, functions, list resources (list_resource_schemas) and actions (action_schemas),
#   3. runs `tfplugindocs generate --providers-schema`, so tfplugindocs neither builds nor downloads anything.
#      Actions and list resources get their pages from templates/actions.md.tmpl and
#      templates/list-resources.md.tmpl, with the examples under examples/actions/<type>/action.tf and
#      examples/list-resources/<type>/list-resource.tfquery.hcl.
# Before that, cmd/doclists writes, between the "generated" markers, the list of types in
# templates/index.md.tmpl (docs/index.md) from the provider's registry and README.md's support matrix from the
# acceptance tests' feature table (internal/clifeatures); internal/repocheck's tests fail when those
# blocks are not what it writes.
# The schema is looked up under registry.terraform.io/hashicorp/apm, the address tfplugindocs expects; the
# provider binary itself does not care under which address the CLI launches it.
#
#   scripts/docs.sh           generate docs/
#   scripts/docs.sh --check   generate and `tfplugindocs validate`, then fail if docs/, README.md or
#                             templates/ differ from git (changed, deleted or new files);
#                             scripts/fmt.sh --check checks that examples/ is fmt-clean
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
check=""
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

unset TF_CLI_CONFIG_FILE
export CHECKPOINT_DISABLE=1

# The CLI only extracts the schema. Only Terraform 1.14 and later report list resources and actions,
# so there is no fallback to an older CLI: the docs would silently lose those pages. The installer
# is a no-op when it is already built.
cli="$repo/.clis/terraform-1.16.4"
if [ ! -x "$cli" ]; then
  scripts/install-clis.sh terraform-newest
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The list of types comes from the registry and the support matrix from the tests' feature table;
# they go into README.md and templates/ before tfplugindocs reads templates/.
if ! go run ./cmd/doclists >"$tmp/types.log" 2>&1; then
  cat "$tmp/types.log" >&2
  echo "docs: could not write the lists of types or the support matrix" >&2
  exit 1
fi
plugin_dir="$tmp/plugins/registry.terraform.io/hashicorp/apm/0.0.1/$(go env GOOS)_$(go env GOARCH)"
mkdir -p "$plugin_dir" "$tmp/config"
go build -o "$plugin_dir/terraform-provider-apm_v0.0.1" .

cat >"$tmp/config/main.tf" <<'HCL'
terraform {
  required_providers {
    apm = {
      source = "registry.terraform.io/hashicorp/apm"
    }
  }
}
HCL
(
  cd "$tmp/config"
  if ! "$cli" init -backend=false -input=false -no-color -plugin-dir="$tmp/plugins" >"$tmp/init.log" 2>&1; then
    cat "$tmp/init.log" >&2
    exit 1
  fi
  "$cli" providers schema -json >"$tmp/schema.json"
)

(cd tools && go tool tfplugindocs generate \
  --provider-dir .. \
  --provider-name apm \
  --rendered-provider-name APM \
  --providers-schema "$tmp/schema.json") >"$tmp/tfplugindocs.log" 2>&1 || {
  cat "$tmp/tfplugindocs.log" >&2
  exit 1
}
echo "docs: generated docs/ from the schema reported by $("$cli" version | sed -n 1p)"

if [ -n "$check" ]; then
  failed=0
  if ! (cd tools && go tool tfplugindocs validate --provider-dir .. --provider-name apm \
    --providers-schema "$tmp/schema.json") >"$tmp/validate.log" 2>&1; then
    grep -v '\[DEBUG\]' "$tmp/validate.log" >&2
    echo "docs: tfplugindocs validate failed" >&2
    failed=1
  fi
  if [ -n "$(git status --porcelain --untracked-files=all -- docs/ README.md templates/)" ]; then
    echo "docs: docs/, README.md or templates/ are out of date; run 'make generate' and commit the result:" >&2
    git status --porcelain --untracked-files=all -- docs/ README.md templates/ >&2
    git --no-pager diff -- docs/ README.md templates/ >&2
    failed=1
  fi
  exit "$failed"
fi
