#!/usr/bin/env bash
# Builds the provider and installs it where Terraform and OpenTofu look for providers without any
# CLI configuration (make install): a local mirror directory in the "unpacked" layout
#   <plugins>/<host>/apmplatform/apm/<version>/<os>_<arch>/terraform-provider-apm_v<version>
# once for each registry host, since the examples' source "apmplatform/apm" means
# registry.terraform.io/apmplatform/apm to Terraform and registry.opentofu.org/apmplatform/apm to
# OpenTofu. <plugins> defaults to ~/.terraform.d/plugins, an implied local mirror of both CLIs on
# Linux and macOS. `init` then takes the provider from there, offline and with modules, and
# writes a lock file with the h1: hash of this package; a rebuild from other sources changes
# that hash, and `init -upgrade` records the new one.
# The version is scripts/provider-version.sh's. The acceptance test TestAccInstall_* installs
# with this script into a temporary HOME, as a user's `make install` does.
#
#   scripts/install-provider.sh [PLUGINS_DIR]
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
plugins="${1:-$HOME/.terraform.d/plugins}"
version="$(scripts/provider-version.sh)"
platform="$(go env GOOS)_$(go env GOARCH)"
binary="terraform-provider-apm_v$version"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# -trimpath: the same sources give the same binary, and so the same hash in lock files.
go build -trimpath -ldflags "-X main.version=$version" -o "$tmp/$binary" .

for host in registry.terraform.io registry.opentofu.org; do
  dir="$plugins/$host/apmplatform/apm/$version/$platform"
  # The lock file's h1: hash covers the whole directory: it must hold the binary alone.
  rm -rf "$dir"
  mkdir -p "$dir"
  install -m 0755 "$tmp/$binary" "$dir/$binary"
  echo "install-provider: $dir/$binary"
done
