#!/usr/bin/env bash
# make bench: the Go benchmarks of the packages (go test -bench), then the provider at scale on a real
# CLI (internal/bench, build tag bench): apply, plan and plan -refresh-only of N apm_node resources
# next to N builtin terraform_data resources of the same shape, against an in-process apmsim over
# plain HTTP. It prints a table per N (median times, ratio, requests per object, provider peak RSS);
# it never fails on a figure, only when a run fails. See docs/performance.md.
#
# Environment:
#   BENCH_N          node counts, comma-separated (default 100,1000; 10000 takes a while)
#   BENCH_ROUNDS     rounds per N (default 5)
#   BENCH_TF         the CLI (default: terraform on PATH, else .clis/tofu, built here when missing)
#   BENCH_GO=0       skip the Go benchmarks
#   BENCH_WRITE_DOC=1  rewrite the results section of docs/performance.md with this run
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
# A relative BENCH_TF names a path from where the caller stands.
if [ -n "${BENCH_TF:-}" ] && [[ "$BENCH_TF" != /* ]]; then
  BENCH_TF="$PWD/$BENCH_TF"
  export BENCH_TF
fi
cd "$repo"

# The tests give the CLI an environment of their own; these settings would reach go test itself
# (OpenTofu warns on stdout about a TF_CLI_CONFIG_FILE that names a missing file).
unset TF_ACC TF_CLI_CONFIG_FILE TF_LOG
export CHECKPOINT_DISABLE=1

if [ "${BENCH_GO:-1}" != 0 ]; then
  echo "== Go benchmarks"
  go test -run '^$' -bench . -benchmem ./...
fi

if [ -z "${BENCH_TF:-}" ] && ! command -v terraform >/dev/null; then
  scripts/install-clis.sh tofu # a no-op when the cached binary is there
fi
echo "== provider at scale (BENCH_N=${BENCH_N:-100,1000}, BENCH_ROUNDS=${BENCH_ROUNDS:-5})"
# -v streams the figures as they come; no time limit, as 10,000 nodes take long (each CLI run has its own).
exec go test -tags bench -count=1 -v -timeout 0 -run '^TestScale$' ./internal/bench/
