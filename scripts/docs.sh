#!/usr/bin/env bash
# Generates docs/ with tfplugindocs v0.25.0 (tools/ module), offline and reproducibly:
#   1. builds the provider into a local plugin directory,
#   2. gets its schema with `tofu providers schema -json` (OpenTofu 1.12.6 from .clis/; Terraform 1.5.7 as fallback),
#      and adds the action schemas, which neither CLI reports (internal/actionschemas takes them from the provider),
#   3. runs `tfplugindocs generate --providers-schema`, so tfplugindocs neither builds nor downloads anything.
# Before that it writes the lists of types in README.md and templates/index.md.tmpl from the provider's
# registry (TestDocsListEveryServedType with APM_DOCS_UPDATE=1, between the "generated types" markers).
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

# The CLI only extracts the schema. Prefer OpenTofu 1.12.6 so that every machine produces the same
# docs; the installer is a no-op when it is already built.
if [ ! -x .clis/tofu ] && [ ! -x .clis/terraform-1.5.7 ]; then
  scripts/install-clis.sh tofu
fi
if [ -x .clis/tofu ]; then
  cli="$repo/.clis/tofu"
else
  cli="$repo/.clis/terraform-1.5.7"
  echo "docs: .clis/tofu is missing; using Terraform 1.5.7 for the schema" >&2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The lists of types come from the registry; they go into templates/ before tfplugindocs reads it.
if ! APM_DOCS_UPDATE=1 go test ./internal/provider/ -run '^TestDocsListEveryServedType$' -count=1 >"$tmp/types.log" 2>&1; then
  cat "$tmp/types.log" >&2
  echo "docs: could not write the lists of types" >&2
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
  "$cli" providers schema -json >"$tmp/cli-schema.json"
)
go run ./internal/actionschemas <"$tmp/cli-schema.json" >"$tmp/schema.json"

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
