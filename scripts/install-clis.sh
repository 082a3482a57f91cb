#!/usr/bin/env bash
# Builds the Terraform CLIs the acceptance tests run on, offline, from the Go module proxy.
# Binaries are cached outside the repository under a versioned path (a fresh clone reuses them)
# and linked into ./.clis (git-ignored). A binary is rebuilt only when missing or wrong.
set -euo pipefail

TOFU_VERSION=1.12.6
TERRAFORM_VERSION=1.5.7
cache="${APM_CLI_CACHE:-$HOME/.cache/terraform-provider-apm/clis}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
links="$repo/.clis"
mkdir -p "$cache" "$links"

# The machine may point TF_CLI_CONFIG_FILE at a missing file; OpenTofu then prints a warning
# on stdout and version parsing fails. Version checks here must not depend on it.
unset TF_CLI_CONFIG_FILE
export CHECKPOINT_DISABLE=1

has_version() { # binary version
  local out
  [ -x "$1" ] || return 1
  # Capture first: `cli | grep -q` can fail under pipefail when grep exits early (SIGPIPE).
  out="$("$1" version -json 2>/dev/null)" || return 1
  [[ "$out" =~ \"terraform_version\":\ *\""$2"\" ]]
}

# One build at a time per cache (make test and make demo may start this concurrently);
# the second caller waits and then finds the binary in place.
if command -v flock >/dev/null; then
  exec 9>"$cache/.lock"
  flock 9
fi

build_tofu() {
  local out="$cache/tofu-$TOFU_VERSION/tofu"
  if ! has_version "$out" "$TOFU_VERSION"; then
    echo "building OpenTofu $TOFU_VERSION (about 3 minutes on a cold Go cache)" >&2
    go mod download "github.com/opentofu/opentofu@v$TOFU_VERSION"
    local src
    src="$(go env GOMODCACHE)/github.com/opentofu/opentofu@v$TOFU_VERSION"
    # go install refuses the module (replace directive); build inside the module cache copy.
    # version.dev=no drops the -dev suffix, as OpenTofu's own release build does.
    (cd "$src" && GOFLAGS=-mod=mod go build -trimpath \
      -ldflags "-X github.com/opentofu/opentofu/version.dev=no" -o "$out" ./cmd/tofu)
  fi
  ln -sfn "$out" "$links/tofu"
}

build_terraform() {
  local dir="$cache/terraform-$TERRAFORM_VERSION"
  if ! has_version "$dir/terraform" "$TERRAFORM_VERSION"; then
    echo "building Terraform $TERRAFORM_VERSION (about 2 minutes on a cold Go cache)" >&2
    GOBIN="$dir" go install "github.com/hashicorp/terraform@v$TERRAFORM_VERSION"
  fi
  ln -sfn "$dir/terraform" "$links/terraform-$TERRAFORM_VERSION"
}

case "${1:-all}" in
  tofu) build_tofu ;;
  terraform) build_terraform ;;
  all) build_tofu; build_terraform ;;
  *) echo "usage: $0 [tofu|terraform|all]" >&2; exit 2 ;;
esac
