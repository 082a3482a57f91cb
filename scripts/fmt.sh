#!/usr/bin/env bash
# Formats Go code (gofmt -s) and the HCL under examples/ (tofu/terraform fmt).
#   scripts/fmt.sh           rewrite files
#   scripts/fmt.sh --check   change nothing; fail and list what is not formatted
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
unset TF_CLI_CONFIG_FILE
export CHECKPOINT_DISABLE=1

# Go files of both modules (the root module and tools/), without build output.
go_files() { git ls-files -co --exclude-standard -- '*.go' 2>/dev/null || find . -name '*.go' -not -path './.build/*'; }

# Any CLI formats HCL the same way for this code; prefer the pinned ones.
cli=""
for c in "$repo/.clis/tofu" "$repo/.clis/terraform-1.5.7" "$(command -v terraform || true)"; do
  if [ -n "$c" ] && [ -x "$c" ]; then cli="$c"; break; fi
done
if [ -z "$cli" ]; then
  scripts/install-clis.sh tofu
  cli="$repo/.clis/tofu"
fi

if [ "${1:-}" = "--check" ]; then
  failed=0
  unformatted="$(go_files | xargs -r gofmt -s -l)"
  if [ -n "$unformatted" ]; then
    echo "fmt: these Go files need gofmt -s (run 'make fmt'):" >&2
    echo "$unformatted" >&2
    failed=1
  fi
  if ! "$cli" fmt -check -recursive -diff examples/ >&2; then
    echo "fmt: examples/ is not formatted (run 'make fmt')" >&2
    failed=1
  fi
  exit "$failed"
fi

go_files | xargs -r gofmt -s -w
"$cli" fmt -recursive examples/ >/dev/null
