#!/usr/bin/env bash
# Validates every example directory under examples/ against the provider built from this tree,
# offline: the CLI loads the provider through dev_overrides, so no `init` and no registry are needed.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
unset TF_CLI_CONFIG_FILE
export CHECKPOINT_DISABLE=1

cli="${1:-}"
if [ -z "$cli" ]; then
  [ -x .clis/tofu ] || scripts/install-clis.sh tofu
  cli="$repo/.clis/tofu"
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/bin/terraform-provider-apm" .
# examples/migrate requires the REST providers whose resources it takes over.
scripts/install-rest-providers.sh
rest="$repo/.clis/rest-providers"
# Examples without a terraform block resolve "apm" to hashicorp/apm; the quickstart uses apmplatform/apm.
cat >"$tmp/cli.tfrc" <<HCL
provider_installation {
  dev_overrides {
    "registry.terraform.io/hashicorp/apm"      = "$tmp/bin"
    "registry.opentofu.org/hashicorp/apm"      = "$tmp/bin"
    "registry.terraform.io/apmplatform/apm"    = "$tmp/bin"
    "registry.opentofu.org/apmplatform/apm"    = "$tmp/bin"
    "registry.terraform.io/mastercard/restapi" = "$rest"
    "registry.opentofu.org/mastercard/restapi" = "$rest"
    "registry.terraform.io/magodo/restful"     = "$rest"
    "registry.opentofu.org/magodo/restful"     = "$rest"
  }
  direct {}
}
HCL
export TF_CLI_CONFIG_FILE="$tmp/cli.tfrc"

# validate_with dir [import-file]: the directory's configuration without its import examples, and
# with the one given. A resource takes one import block, and its examples show two ways (by id and
# by identity) to import the same resource, so each is validated on its own.
validate_with() {
  rm -rf "$tmp/work"
  mkdir -p "$tmp/work"
  find "$1" -maxdepth 1 -name '*.tf' ! -name 'import-*.tf' -exec cp {} "$tmp/work/" \;
  # A module with tests (examples/testing): validate checks its test files as well.
  [ ! -d "$1/tests" ] || cp -r "$1/tests" "$tmp/work/"
  [ -z "${2:-}" ] || cp "$2" "$tmp/work/"
  if ! (cd "$tmp/work" && "$cli" validate -no-color >"$tmp/out" 2>&1); then
    echo "examples: ${2:-$1} is not valid:" >&2
    grep -v '^$' "$tmp/out" | sed 's/^/  /' >&2
    failed=1
  fi
}

# Action blocks need Terraform 1.14 or later (OpenTofu has none): with another CLI the action examples
# are left out, saying so; internal/repocheck's TestRegisteredTypesHaveExamplesDocsAndTests holds each to its action schema.
actions_ok=""
if [[ "$("$cli" version | sed -n 1p)" =~ ^Terraform\ v([0-9]+)\.([0-9]+) ]] &&
  { [ "${BASH_REMATCH[1]}" -gt 1 ] || [ "${BASH_REMATCH[2]}" -ge 14 ]; }; then
  actions_ok=1
fi

failed=0
count=0
skipped=0
while IFS= read -r dir; do
  if [ -z "$actions_ok" ] && [[ "$dir" == examples/actions/* ]]; then
    skipped=$((skipped + 1))
    continue
  fi
  count=$((count + 1))
  imports=("$dir"/import-*.tf)
  if [ -e "${imports[0]}" ]; then
    for f in "${imports[@]}"; do validate_with "$dir" "$f"; done
  else
    validate_with "$dir"
  fi
done < <(find examples -name '*.tf' -printf '%h\n' | sort -u)
[ "$count" -gt 0 ] || { echo "examples: no example found" >&2; exit 1; }
if [ "$failed" -eq 0 ]; then
  echo "examples: all $count example directories are valid ($("$cli" version | sed -n 1p))"
fi
[ "$skipped" -eq 0 ] ||
  echo "examples: $skipped action example directories not validated: $("$cli" version | sed -n 1p) has no action blocks (Terraform 1.14 and later)"
exit "$failed"
