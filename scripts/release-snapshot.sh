#!/usr/bin/env bash
# A snapshot of the release for one target (make release-snapshot; CI): the files the Terraform
# registry takes, as .goreleaser.yml makes them for every target, built into dist/ and checked:
#   terraform-provider-apm_<version>_<os>_<arch>.zip  holding only terraform-provider-apm_v<version>
#   terraform-provider-apm_<version>_manifest.json    terraform-registry-manifest.json (protocol 6.0)
#   terraform-provider-apm_<version>_SHA256SUMS       over the zip and the manifest
# <version> is the newest version of CHANGELOG.md (scripts/provider-version.sh) with "-snapshot" appended.
#
# Why not `goreleaser release --snapshot`: GoReleaser is not in the Go module cache of a fresh
# machine, and `go install github.com/goreleaser/goreleaser/v2@v2.13.0` (the newest release that
# builds with Go 1.25) took 32 minutes on 2 shared cores, more than the rest of CI. This script
# builds with the flags and names of .goreleaser.yml and fails when that file no longer has them,
# so the two cannot drift apart. With GoReleaser installed (GORELEASER=path, or goreleaser on
# PATH) it also runs `goreleaser check` on .goreleaser.yml.
#
#   scripts/release-snapshot.sh            the host's target
#   RELEASE_TARGET=linux_arm64 scripts/release-snapshot.sh
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
die() { echo "release-snapshot: $*" >&2; exit 1; }
{ command -v zip && command -v unzip; } >/dev/null || die "zip and unzip are needed (apt-get install -y zip unzip)"

project=terraform-provider-apm
target="${RELEASE_TARGET:-$(go env GOOS)_$(go env GOARCH)}"
goos="${target%%_*}"
goarch="${target#*_}"
release="$(scripts/provider-version.sh)"
version="$release-snapshot"

# The names and flags below are those of .goreleaser.yml; a change there must be made here too.
for line in \
  'binary: "{{ .ProjectName }}_v{{ .Version }}"' \
  'name_template: "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}"' \
  'name_template: "{{ .ProjectName }}_{{ .Version }}_SHA256SUMS"' \
  'name_template: "{{ .ProjectName }}_{{ .Version }}_manifest.json"' \
  '- -s -w -X main.version={{ .Version }}' \
  '- -trimpath' \
  '- CGO_ENABLED=0' \
  '- formats: [zip]' \
  "project_name: $project"; do
  grep -qF -- "$line" .goreleaser.yml || die ".goreleaser.yml no longer has \"$line\": make this script build what it builds"
done

if gr="${GORELEASER:-$(command -v goreleaser || true)}" && [ -n "$gr" ]; then
  "$gr" check --config .goreleaser.yml
else
  echo "release-snapshot: GoReleaser is not installed; checking .goreleaser.yml by the names it must hold only"
fi

dist="$repo/dist"
rm -rf "$dist"
mkdir -p "$dist/build"
binary="${project}_v$version"
[ "$goos" = windows ] && binary="$binary.exe"
CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch" go build -trimpath -ldflags "-s -w -X main.version=$version" \
  -o "$dist/build/$binary" .
zipfile="${project}_${version}_${target}.zip"
(cd "$dist/build" && zip -q -X "$dist/$zipfile" "$binary")
cp terraform-registry-manifest.json "$dist/${project}_${version}_manifest.json"
sums="${project}_${version}_SHA256SUMS"
(cd "$dist" && sha256sum "$zipfile" "${project}_${version}_manifest.json" >"$sums")

# What the registry checks: the zip holds the binary alone, the sums match, the manifest
# declares protocol 6.0 (the provider serves protocol 6 only).
listing="$(unzip -Z1 "$dist/$zipfile")"
[ "$listing" = "$binary" ] || die "$zipfile holds \"$listing\", want only $binary"
(cd "$dist" && sha256sum --quiet -c "$sums") || die "$sums does not match"
grep -q '"protocol_versions": \["6.0"\]' "$dist/${project}_${version}_manifest.json" || die "the manifest does not declare protocol 6.0"
if [ "$target" = "$(go env GOOS)_$(go env GOARCH)" ]; then
  # A provider binary started outside a CLI says so and exits non-zero; one that cannot start
  # at all (a wrong target, a missing library) says something else.
  out="$("$dist/build/$binary" 2>&1 || true)"
  case "$out" in
    *"This binary is a plugin"*) ;;
    *) die "$binary does not start as a provider: $out" ;;
  esac
fi
rm -rf "$dist/build"
echo "release-snapshot: dist/ holds $zipfile, ${project}_${version}_manifest.json and $sums"
