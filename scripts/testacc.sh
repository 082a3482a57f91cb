#!/usr/bin/env bash
# Runs the acceptance tests (TestAcc*) once per real CLI, offline:
#   OpenTofu 1.12.6, Terraform 1.5.7 and Terraform 1.16.4 (built by scripts/install-clis.sh into .clis/), and the
#   `terraform` on PATH when there is one with another version (e.g. 1.11.4).
# Raw `go test -json` logs go to .build/testacc/<label>.json (+ .stderr).
# Fails when a test fails, a test package does not build, a CLI runs no test at all, or go test fails.
# The last line is the total: "acceptance: N passed, N failed, N skipped".
#
# Environment:
#   TESTACC_CLIS   space-separated absolute CLI paths to use instead of the default set
#   TESTACC_RUN    -run pattern (default ^TestAcc)
#   TESTACC_PKGS   packages (default ./...)
#   TESTACC_PARALLEL  tests run at once per CLI (default 4; each has its own apmsim)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
out="$repo/.build/testacc"
mkdir -p "$out"

# The CLI-config warning of OpenTofu lands on stdout and breaks version parsing (see the notes);
# checkpoint lookups would try the network.
unset TF_CLI_CONFIG_FILE
export CHECKPOINT_DISABLE=1

cli_version() { # path -> "OpenTofu 1.12.6" / "Terraform 1.5.7"
  local first
  first="$("$1" version 2>/dev/null | sed -n 1p)" || return 1
  case "$first" in
    "OpenTofu v"*) echo "OpenTofu ${first#OpenTofu v}" ;;
    "Terraform v"*) echo "Terraform ${first#Terraform v}" ;;
    *) return 1 ;;
  esac
}

newest_terraform="$(sed -n 's/^TERRAFORM_NEWEST_VERSION=//p' "$repo/scripts/install-clis.sh")"
clis=()
if [ -n "${TESTACC_CLIS:-}" ]; then
  read -r -a clis <<<"$TESTACC_CLIS"
else
  "$repo/scripts/install-clis.sh" all # a no-op (well under a second) when the cached binaries are there
  clis=("$repo/.clis/tofu" "$repo/.clis/terraform-1.5.7" "$repo/.clis/terraform-$newest_terraform")
  if path_tf="$(command -v terraform)"; then
    path_tf="$(readlink -f "$path_tf")"
    if v="$(cli_version "$path_tf")"; then
      dup=""
      for c in "${clis[@]}"; do
        if [ "$(readlink -f "$c")" = "$path_tf" ] || [ "$(cli_version "$c")" = "$v" ]; then dup=1; fi
      done
      if [ -z "$dup" ]; then
        clis+=("$path_tf")
      else
        echo "testacc: terraform on PATH ($v) is already covered; not run twice"
      fi
    else
      echo "testacc: terraform on PATH ($path_tf) does not report a version; ignored"
    fi
  fi
fi

# Build the summariser once (it is part of this module).
go build -o "$repo/.build/testsummary" ./scripts/testsummary

pattern="${TESTACC_RUN:-^TestAcc}"
read -r -a pkgs <<<"${TESTACC_PKGS:-./...}"
logs=()
status=0
for cli in "${clis[@]}"; do
  case "$cli" in
    /*) ;;
    *) echo "testacc: CLI path must be absolute: $cli" >&2; exit 2 ;;
  esac
  if [ ! -x "$cli" ]; then
    echo "testacc: CLI not found or not executable: $cli" >&2
    exit 2
  fi
  if ! v="$(cli_version "$cli")"; then
    echo "testacc: $cli does not report an OpenTofu/Terraform version" >&2
    exit 2
  fi
  label="$(echo "$v" | tr 'A-Z ' 'a-z-')"
  log="$out/$label.json"
  echo "== acceptance tests on $v ($cli)"
  start=$SECONDS
  rc=0
  env TF_ACC=1 \
    TF_ACC_TERRAFORM_PATH="$cli" \
    TF_ACC_PROVIDER_NAMESPACE=hashicorp \
    CHECKPOINT_DISABLE=1 \
    APM_ACC_REQUIRE_CLI=1 \
    go test -count=1 -json -parallel "${TESTACC_PARALLEL:-4}" -run "$pattern" -timeout 20m "${pkgs[@]}" >"$log" 2>"$out/$label.stderr" || rc=$?
  echo "   go test exit status $rc after $((SECONDS - start)) s; log: ${log#"$repo/"}"
  if [ "$rc" -ne 0 ]; then
    status=1
    if [ -s "$out/$label.stderr" ]; then
      echo "   go test stderr:"
      sed 's/^/     /' "$out/$label.stderr" | tail -n 40
    fi
  fi
  logs+=("$v=$log")
done

echo
echo "== acceptance test summary"
# On the newest Terraform every test runs: a skip there for want of a version fails the run.
"$repo/.build/testsummary" -prefix acceptance -complete "Terraform $newest_terraform" "${logs[@]}" || status=1
exit "$status"
