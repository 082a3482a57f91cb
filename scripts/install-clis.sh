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

# The remote-state backends (azurerm, consul, cos, gcs, kubernetes, oci, oss, pg, s3) are remote
# state stores that the tests never use: they keep state in the local backend. They are also most of
# what a cold build compiles (their cloud SDKs: a third of OpenTofu's source, half of Terraform 1.5's),
# and Terraform 1.16's go.mod requires them as nested modules that its module zip does not contain, so
# that `go install` refuses it. Every CLI is built the same way: the module is copied from the module
# cache, the backends are dropped from the backend registry (internal/backend/init) and, for
# Terraform 1.16, the nested modules from go.mod; the rest builds unchanged. `init` with one of those
# backends says it is unknown; the http, inmem, local, remote and cloud backends remain.
trimmed_backends='backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)[ .]'

# build_trimmed module version package version_package out [go.mod lines to drop, as an ERE]
build_trimmed() {
  local module="$1" v="$2" pkg="$3" version_pkg="$4" out="$5" nested="${6:-}"
  go mod download "$module@v$v"
  local work
  work="$(mktemp -d "$cache/build.XXXXXX")"
  cp -r "$(go env GOMODCACHE)/$module@v$v/." "$work"
  chmod -R u+w "$work"
  if [ -n "$nested" ]; then
    sed -i -E "\#$nested( |\$)#d" "$work/go.mod"
  fi
  sed -i -E "/$trimmed_backends/d" "$work/internal/backend/init/init.go"
  if grep -qE "$trimmed_backends" "$work/internal/backend/init/init.go" || { [ -n "$nested" ] && grep -qE "$nested" "$work/go.mod"; }; then
    echo "install-clis: $module $v still names a dropped backend after the edit; the recipe needs updating" >&2
    exit 1
  fi
  # version.dev=no drops the -dev suffix, as the release builds do.
  (cd "$work" && GOFLAGS=-mod=mod go build -trimpath -ldflags "-X $version_pkg.dev=no" -o "$out" "$pkg")
  rm -rf "$work"
}

build_tofu() {
  local out="$cache/tofu-$TOFU_VERSION/tofu"
  if ! has_version "$out" "$TOFU_VERSION"; then
    echo "building OpenTofu $TOFU_VERSION without the remote-state backends (about 3 minutes on a cold Go cache)" >&2
    build_trimmed github.com/opentofu/opentofu "$TOFU_VERSION" ./cmd/tofu github.com/opentofu/opentofu/version "$out"
    has_version "$out" "$TOFU_VERSION" || { echo "install-clis: the OpenTofu $TOFU_VERSION build does not report $TOFU_VERSION" >&2; exit 1; }
  fi
  ln -sfn "$out" "$links/tofu"
}

build_terraform() {
  local out="$cache/terraform-$TERRAFORM_VERSION/terraform"
  if ! has_version "$out" "$TERRAFORM_VERSION"; then
    echo "building Terraform $TERRAFORM_VERSION without the remote-state backends (about 2 minutes on a cold Go cache)" >&2
    build_trimmed github.com/hashicorp/terraform "$TERRAFORM_VERSION" . github.com/hashicorp/terraform/version "$out"
    has_version "$out" "$TERRAFORM_VERSION" || { echo "install-clis: the Terraform $TERRAFORM_VERSION build does not report $TERRAFORM_VERSION" >&2; exit 1; }
  fi
  ln -sfn "$out" "$links/terraform-$TERRAFORM_VERSION"
}

build_terraform_newest() {
  local v="$TERRAFORM_NEWEST_VERSION"
  local out="$cache/terraform-$v/terraform"
  if ! has_version "$out" "$v"; then
    echo "building Terraform $v without the nested remote-state backend modules (about 5 minutes on a cold Go cache)" >&2
    build_trimmed github.com/hashicorp/terraform "$v" . github.com/hashicorp/terraform/version "$out" \
      'github\.com/hashicorp/terraform/internal/(backend/remote-state/(azure|consul|cos|gcs|kubernetes|oci|oss|pg|s3)|legacy)'
    has_version "$out" "$v" || { echo "install-clis: the Terraform $v build does not report $v" >&2; exit 1; }
  fi
  ln -sfn "$out" "$links/terraform-$v"
}

case "${1:-all}" in
  tofu) build_tofu ;;
  terraform) build_terraform ;;
  terraform-newest) build_terraform_newest ;;
  all) build_tofu; build_terraform; build_terraform_newest ;;
  *) echo "usage: $0 [tofu|terraform|terraform-newest|all]" >&2; exit 2 ;;
esac
