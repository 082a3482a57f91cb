#!/usr/bin/env bash
# Builds the two generic REST providers whose resources a `moved` block can hand over to apm
# (docs/guides/migrate-from-rest-providers.md), for the acceptance test of that migration:
#   Mastercard/terraform-provider-restapi v1.20.0 (restapi_object) and
#   magodo/terraform-provider-restful v0.25.2 (restful_resource),
# offline, from the Go module proxy. They are built outside this module (they never enter
# go.mod), cached under a versioned path outside the repository, and linked into
# ./.clis/rest-providers (git-ignored), a directory that a CLI configuration's dev_overrides
# can name for both. A binary is rebuilt only when missing or built from another version.
#
# `go install <module>@<version>` is refused by this proxy (it looks up the module's
# deprecation in its version list, which the proxy does not serve), so each module is built
# from a copy of its module-cache directory. restful's go.mod pins
# github.com/magodo/terraform-plugin-framework-docs at a pseudo-version the proxy does not
# serve; restful uses it only to render its own documentation (the RenderOption methods,
# which Terraform never calls), so the build replaces it with a stub of the types those
# methods return, and the provider runs as released.
set -euo pipefail

RESTAPI_VERSION=v1.20.0
RESTFUL_VERSION=v0.25.2
cache="${APM_CLI_CACHE:-$HOME/.cache/terraform-provider-apm/clis}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
links="$repo/.clis/rest-providers"
mkdir -p "$cache" "$links"

# One build at a time per cache (the acceptance tests of several CLIs may call this).
if command -v flock >/dev/null; then
  exec 9>"$cache/.rest-providers.lock"
  flock 9
fi

# built says whether dir holds the binary built from module@version.
built() { # dir binary stamp
  [ -x "$1/$2" ] && [ "$(cat "$1/.built-from" 2>/dev/null)" = "$3" ]
}

# build builds module@version from a writable copy of its module-cache directory into
# dir/binary, after prepare (a function run in the copy) when given.
build() { # module version dir binary [prepare]
  local module="$1" version="$2" dir="$3" binary="$4" prepare="${5:-}"
  if built "$dir" "$binary" "$module@$version"; then
    return
  fi
  echo "building $module@$version (about a minute on a cold Go cache)" >&2
  local src
  src="$(GOFLAGS=-mod=mod go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$src" ] || { echo "install-rest-providers: no module directory for $module@$version" >&2; exit 1; }
  local work="$dir.src"
  rm -rf "$work"
  cp -r "$src" "$work"
  chmod -R u+w "$work"
  if [ -n "$prepare" ]; then
    (cd "$work" && "$prepare")
  fi
  mkdir -p "$dir"
  (cd "$work" && GOFLAGS=-mod=mod GOWORK=off go build -trimpath -o "$dir/$binary" .)
  rm -rf "$work"
  echo "$module@$version" >"$dir/.built-from"
}

# stub_framework_docs replaces restful's documentation renderer with the types its
# RenderOption methods name (run in restful's copy).
stub_framework_docs() {
  mkdir -p ../tffwdocs-stub
  cat >../tffwdocs-stub/go.mod <<'EOF'
module github.com/magodo/terraform-plugin-framework-docs

go 1.21
EOF
  cat >../tffwdocs-stub/stub.go <<'EOF'
// Package tffwdocs stands in for restful's documentation renderer: only its docs tool
// renders these values; the provider's runtime never reads them.
package tffwdocs

type Example struct{ Header, HCL string }
type ImportId struct{ Format, ExampleCmdArg, ExampleBlk string }
type ProviderRenderOption struct{ Examples []Example }
type ResourceRenderOption struct {
	Examples         []Example
	ImportId         *ImportId
	IdentityExamples []Example
}
type DataSourceRenderOption struct{ Examples []Example }
type EphemeralResourceRenderOption struct{ Examples []Example }
type ProviderWithRenderOption interface{ RenderOption() ProviderRenderOption }
type ResourceWithRenderOption interface{ RenderOption() ResourceRenderOption }
type DataSourceWithRenderOption interface{ RenderOption() DataSourceRenderOption }
type EphemeralResourceWithRenderOption interface{ RenderOption() EphemeralResourceRenderOption }
EOF
  go mod edit -replace github.com/magodo/terraform-plugin-framework-docs=../tffwdocs-stub
}

restapi_dir="$cache/restapi-$RESTAPI_VERSION"
restful_dir="$cache/restful-$RESTFUL_VERSION"
build github.com/Mastercard/terraform-provider-restapi "$RESTAPI_VERSION" "$restapi_dir" terraform-provider-restapi
build github.com/magodo/terraform-provider-restful "$RESTFUL_VERSION" "$restful_dir" terraform-provider-restful stub_framework_docs
rm -rf "$cache/tffwdocs-stub"
ln -sfn "$restapi_dir/terraform-provider-restapi" "$links/terraform-provider-restapi"
ln -sfn "$restful_dir/terraform-provider-restful" "$links/terraform-provider-restful"
