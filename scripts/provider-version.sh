#!/usr/bin/env bash
# Prints the provider's version: the newest version heading of CHANGELOG.md ("## 0.1.0 (Unreleased)"
# gives 0.1.0). The one source of the version for `make install` (scripts/install-provider.sh) and
# the release snapshot (scripts/release-snapshot.sh); a release tag v<version> names the same.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
version="$(sed -n 's/^## \([0-9][0-9.]*\).*/\1/p' "$repo/CHANGELOG.md" | sed -n 1p)"
if [ -z "$version" ]; then
  echo "provider-version: CHANGELOG.md names no version (## X.Y.Z)" >&2
  exit 1
fi
echo "$version"
