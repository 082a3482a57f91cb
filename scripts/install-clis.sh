#!/usr/bin/env bash
# Builds the Terraform CLIs the acceptance tests run on, offline, from the Go module proxy.
# Binaries are cached outside the repository under a versioned path (a fresh clone reuses them)
# and linked into ./.clis (git-ignored). A binary is rebuilt only when missing or wrong.
set -euo pipefail

TOFU_VERSION=1.12.6
TERRAFORM_VERSION=1.5.7
# The newest Terraform: list resources, `terraform query`, provider-side configuration generation
# and actions (1.14 and later), action on_failure modes and import blocks in modules (1.16).
TERRAFORM_NEWEST_VERSION=1.16.4
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

# Terraform 1.16's go.mod requires and replaces the remote-state backends (azurerm, consul, cos,
# gcs, kubernetes, oci, oss, pg, s3) and internal/legacy as nested modules, which the module zip
# does not contain, so `go install` refuses it. Those backends are remote state stores: the tests
# keep state in the local backend and never use them. The build copies the module, drops the
# nested modules from go.mod and the backends from the backend registry (internal/backend/init),
# and builds the rest unchanged; `terraform init` with one of those backends would say it is
# unknown.
build_terraform_newest() {
  local v="$TERRAFORM_NEWEST_VERSION"
  local dir="$cache/terraform-$v"
  if ! has_version "$dir/terraform" "$v"; then
    echo "building Terraform $v without the nested remote-state backend modules (about 5 minutes on a cold Go cache)" >&2
    go mod download "github.com/hashicorp/terraform@v$v"
    local work="$cache/terraform-$v.src"
    rm -rf "$work"
    cp -r "$(go env GOMODCACHE)/github.com/hashicorp/terraform@v$v" "$work"
    chmod -R u+w "$work"
    local nested='github\.com/hashicorp/terraform/internal/(backend/remote-state/(azure|consul|cos|gcs|kubernetes|oci|oss|pg|s3)|legacy)'
    sed -i -E "\#$nested( |\$)#d" "$work/go.mod"
    sed -i -E '/backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)[ .]/d' "$work/internal/backend/init/init.go"
    if grep -qE "$nested" "$work/go.mod" "$work/internal/backend/init/init.go"; then
      echo "install-clis: Terraform $v still names a nested backend module after the edit; the recipe needs updating" >&2
      exit 1
    fi
    (cd "$work" && GOFLAGS=-mod=mod go build -trimpath \
      -ldflags "-X github.com/hashicorp/terraform/version.dev=no" -o "$dir/terraform" .)
    rm -rf "$work"
    has_version "$dir/terraform" "$v" || { echo "install-clis: the Terraform $v build does not report $v" >&2; exit 1; }
  fi
  ln -sfn "$dir/terraform" "$links/terraform-$v"
}

case "${1:-all}" in
  tofu) build_tofu ;;
  terraform) build_terraform ;;
  terraform-newest) build_terraform_newest ;;
  all) build_tofu; build_terraform; build_terraform_newest ;;
  *) echo "usage: $0 [tofu|terraform|terraform-newest|all]" >&2; exit 2 ;;
esac
